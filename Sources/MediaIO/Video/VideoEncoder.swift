public import PoseKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Encodes ``PoseKit/RGBImage`` frames (`rgb24` or `rgb0`) into a video file through ffmpeg: H.264 in MP4 by
/// default, VP9 in WebM when the file name ends in `.webm`.
///
/// Each frame is converted to `yuv420p` here (``YUV420Frame``) and handed to ffmpeg in that form, which
/// costs less CPU than ffmpeg's own RGB conversion and moves half the bytes through the pipe.
///
/// Frames go to a hidden temporary file in the output's folder, which is renamed to the final name
/// only when ``finish()`` succeeds, so a failure half-way leaves nothing under the final name.
/// Frames are written at a constant rate (the input's average frame rate); odd frame sizes are padded
/// by one pixel, because H.264 and VP9 in 4:2:0 need even sizes.
///
/// ```swift
/// let encoder = try VideoEncoder(path: "out.mp4", configuration: .init(width: 1280, height: 720, framesPerSecond: 30))
/// for image in frames { try encoder.append(image) }
/// try encoder.finish()
/// ```
public final class VideoEncoder {
    /// The container and codec.
    public enum Format: String, Sendable, Hashable, CaseIterable {
        /// H.264 (libx264, yuv420p, `+faststart`) in MP4.
        case mp4
        /// VP9 (libvpx-vp9, realtime settings) in WebM.
        case webm

        /// The format a file name asks for: `.webm` → WebM, anything else → MP4.
        public init(path: String) {
            self = path.lowercased().hasSuffix(".webm") ? .webm : .mp4
        }
    }

    /// What to write.
    public struct Configuration: Sendable, Hashable {
        public var width: Int
        public var height: Int
        /// The frame rate written into the file (use the input's average frame rate).
        public var framesPerSecond: Double
        /// `nil`: chosen from the file name.
        public var format: Format?
        /// Replace an existing file (otherwise ``VideoEncoder/init(path:configuration:)`` refuses).
        public var overwrite: Bool
        /// The ffmpeg executable.
        public var ffmpegPath: String
        /// How much nicer than this thread the encoder runs (0 = the same; 10 by default): encoding takes the time that
        /// pose inference, which the whole pipeline waits on, leaves free. Frames wait in bounded queues
        /// meanwhile; nothing is dropped. (On the 24 s 720p benchmark clip: `analyze --annotate` 11.1 s wall
        /// at 0, 9.0 s at 10.)
        public var niceness: Int32

        public init(
            width: Int,
            height: Int,
            framesPerSecond: Double,
            format: Format? = nil,
            overwrite: Bool = false,
            ffmpegPath: String = "ffmpeg",
            niceness: Int32 = 10
        ) {
            self.width = width
            self.height = height
            self.framesPerSecond = framesPerSecond
            self.format = format
            self.overwrite = overwrite
            self.ffmpegPath = ffmpegPath
            self.niceness = niceness
        }
    }

    /// The final file name.
    public let path: String
    public let configuration: Configuration
    public let format: Format
    /// The number of frames handed to ffmpeg so far.
    public private(set) var framesWritten = 0

    private let temporaryPath: String
    private(set) var process: PipeProcess?
    private var planar: YUV420Frame
    private var finished = false

    /// Starts ffmpeg writing to a temporary file beside `path`.
    ///
    /// - Throws: ``MediaIOError`` `.fileNotFound` when the folder does not exist, `.io` when it is not
    ///   writable or `path` exists (without `overwrite`), `.toolMissing` without ffmpeg.
    public init(path: String, configuration: Configuration) throws(MediaIOError) {
        precondition(
            configuration.width > 0 && configuration.height > 0,
            "frame size \(configuration.width)x\(configuration.height) must be positive"
        )
        precondition(
            configuration.framesPerSecond > 0 && configuration.framesPerSecond.isFinite,
            "framesPerSecond (\(configuration.framesPerSecond)) must be positive"
        )
        self.path = path
        self.configuration = configuration
        format = configuration.format ?? Format(path: path)

        planar = YUV420Frame(width: configuration.width, height: configuration.height)
        try OutputFile.check(path, overwrite: configuration.overwrite)
        temporaryPath = OutputFile.temporaryPath(for: path)

        let evenWidth = configuration.width + configuration.width % 2
        let evenHeight = configuration.height + configuration.height % 2
        var arguments = [
            "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
            "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "\(configuration.width)x\(configuration.height)",
            "-framerate", Self.rational(configuration.framesPerSecond), "-i", "-", "-an",
        ]
        if evenWidth != configuration.width || evenHeight != configuration.height {
            arguments += ["-vf", "pad=\(evenWidth):\(evenHeight)"]
        }
        switch format {
        case .mp4:
            arguments += [
                "-c:v", "libx264", "-preset", "ultrafast", "-crf", "21", "-pix_fmt", "yuv420p",
                "-movflags", "+faststart", "-f", "mp4",
            ]
        case .webm:
            arguments += [
                "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-row-mt", "1",
                "-b:v", "0", "-crf", "33", "-pix_fmt", "yuv420p", "-f", "webm",
            ]
        }
        arguments.append(temporaryPath)
        process = try PipeProcess(configuration.ffmpegPath, arguments, standardInput: true)
        if configuration.niceness != 0, let process {
            // Best effort: an encoder at the normal priority is slower overall, not wrong.
            let which = __priority_which_t(PRIO_PROCESS.rawValue)
            _ = setpriority(which, id_t(process.processID), getpriority(which, 0) + configuration.niceness)
        }
    }

    deinit {
        if !finished { cancel() }
    }

    /// Hands one frame to ffmpeg.
    ///
    /// - Precondition: the image has the configured size.
    /// - Throws: ``MediaIOError`` `.encodeFailed` when ffmpeg stopped (its message included); the
    ///   temporary file is removed and the encoder cannot be used further.
    public func append(_ image: RGBImage) throws(MediaIOError) {
        precondition(
            image.width == configuration.width && image.height == configuration.height,
            "frame \(framesWritten) is \(image.width)x\(image.height), the encoder writes \(configuration.width)x\(configuration.height)"
        )
        guard let process, !finished else {
            throw MediaIOError(.encodeFailed, "the encoder was already finished or cancelled", file: path)
        }
        planar.convert(image)
        var failed = false
        planar.bytes.withUnsafeBytes { buffer in
            do { try process.write(buffer) } catch { failed = true }
        }
        if failed {
            let message = process.lastErrorLine
            cancel()
            throw MediaIOError(.encodeFailed, "ffmpeg stopped after \(framesWritten) frames: \(message)", file: path)
        }
        framesWritten += 1
    }

    /// Ends the stream, waits for ffmpeg and moves the file to its final name.
    ///
    /// - Throws: ``MediaIOError`` `.encodeFailed` when no frame was written or ffmpeg failed, `.io` when
    ///   the rename fails; the temporary file is removed either way.
    public func finish() throws(MediaIOError) {
        guard let process, !finished else {
            throw MediaIOError(.encodeFailed, "the encoder was already finished or cancelled", file: path)
        }
        guard framesWritten > 0 else {
            cancel()
            throw MediaIOError(.encodeFailed, "no frames were written; the input gave no video frames", file: path)
        }
        let termination = process.waitForExit()
        guard termination.succeeded else {
            let message = process.lastErrorLine
            cancel()
            throw MediaIOError(.encodeFailed, "ffmpeg failed (\(termination)): \(message)", file: path)
        }
        do {
            try OutputFile.commit(temporaryPath, to: path)
        } catch {
            cancel()
            throw error
        }
        finished = true
        self.process = nil
    }

    /// Stops ffmpeg and removes the temporary file; nothing is left under the final name.
    public func cancel() {
        process?.terminate()
        process = nil
        OutputFile.remove(temporaryPath)
        finished = true
    }

    // MARK: - Helpers

    /// `framesPerSecond` as ffmpeg's rational: NTSC rates exact (`30000/1001`), others to 1/1000.
    static func rational(_ framesPerSecond: Double) -> String {
        let ntsc = (framesPerSecond * 1.001).rounded()
        if ntsc > 0, abs(framesPerSecond - ntsc * 1000 / 1001) < 0.005, abs(framesPerSecond - ntsc) > 0.005 {
            return "\(Int(ntsc) * 1000)/1001"
        }
        var numerator = Int((framesPerSecond * 1000).rounded())
        var denominator = 1000
        func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
        let divisor = gcd(numerator, denominator)
        numerator /= divisor
        denominator /= divisor
        return denominator == 1 ? "\(numerator)" : "\(numerator)/\(denominator)"
    }
}

extension VideoEncoder.Configuration {
    /// Writes frames of the same size and rate as `info` describes (decoded frames are already
    /// upright, so no rotation is stored).
    ///
    /// ```swift
    /// let info = try VideoInfo(probing: "in.mp4")
    /// let encoder = try VideoEncoder(path: "out.mp4", configuration: .init(matching: info))
    /// ```
    public init(matching info: VideoInfo, format: VideoEncoder.Format? = nil, overwrite: Bool = false) {
        self.init(
            width: info.width,
            height: info.height,
            framesPerSecond: info.fps > 0 ? info.fps : 30,
            format: format,
            overwrite: overwrite
        )
    }
}

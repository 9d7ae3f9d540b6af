public import PoseKit

/// Decodes a video file frame by frame into ``RGBImage``s, with each frame's real timestamp, by
/// piping `ffmpeg`'s `rgb24` output (or `rgb0`, 4 bytes a pixel, for a consumer that draws with Cairo).
///
/// Reads any file this ffmpeg reads (mp4, mov, webm, avi, mkv, …). Frames come out the way they are
/// shown: the rotation phones record is applied, so ``info`` gives the rotated size. Frame times are
/// the file's own presentation times (variable frame rates are kept, no frame is duplicated or
/// dropped), counted from the first frame. Memory stays flat: one frame is in flight at a time.
///
/// A segment (`start`, `duration`) holds exactly the frames whose time `t` satisfies
/// `start <= t < start + duration`, so adjacent segments split a video with no gap and no overlap
/// (for decoding parts of a file in parallel).
///
/// ```swift
/// let decoder = try VideoDecoder(path: "squat.mp4")
/// var image = RGBImage(width: decoder.info.width, height: decoder.info.height)
/// while let seconds = try decoder.nextFrame(into: &image) { … }
/// ```
///
/// A file that breaks part-way delivers every frame before the damage; the next call then throws
/// ``MediaIOError`` `.decodeFailed`.
public final class VideoDecoder {
    /// What the file is (size after rotation, frame rate, duration).
    public let info: VideoInfo
    /// The first time of the segment decoded (0 for the whole file).
    public let start: Double
    /// The end of the segment (exclusive), or `nil` for the end of the file.
    public let end: Double?

    /// The number of frames delivered so far.
    public private(set) var framesDelivered = 0
    /// The time of the last frame delivered.
    public private(set) var lastSeconds: Double?

    private var process: PipeProcess?
    private let log = FFmpegLog()
    private var framesRead = 0
    private var finished = false
    private let frameBytes: Int
    /// 3 (`rgb24`) or 4 (`rgb0`).
    public let bytesPerPixel: Int

    /// Starts decoding `path`, or the segment of it from `start` lasting `duration` seconds.
    ///
    /// - Parameters:
    ///   - info: the file's probe, when already known (saves starting ffprobe again).
    ///   - allowsStillImage: whether a still image (decoded as one frame at time 0) is accepted.
    ///   - threads: ffmpeg decoding threads; 0 lets ffmpeg choose.
    ///   - bytesPerPixel: 3 for `rgb24` images, 4 for `rgb0` (see ``PoseKit/RGBImage``).
    /// - Throws: ``MediaIOError``: those of ``VideoInfo/init(probing:)``, and `.stillImage` for an
    ///   image when `allowsStillImage` is false.
    public convenience init(
        path: String,
        start: Double = 0,
        duration: Double? = nil,
        info: VideoInfo? = nil,
        allowsStillImage: Bool = false,
        threads: Int = 0,
        bytesPerPixel: Int = 3
    ) throws(MediaIOError) {
        precondition(duration.map { $0 > 0 } ?? true, "duration (\(duration ?? 0)) must be positive")
        try self.init(
            path: path,
            start: start,
            end: duration.map { start + $0 },
            info: info,
            allowsStillImage: allowsStillImage,
            threads: threads,
            bytesPerPixel: bytesPerPixel
        )
    }

    /// Starts decoding the frames of `path` from `start` up to (not including) `end`.
    ///
    /// Give adjacent segments the same boundary value (`end` of one = `start` of the next) and they
    /// split the video exactly.
    public init(
        path: String,
        start: Double,
        end: Double?,
        info: VideoInfo? = nil,
        allowsStillImage: Bool = false,
        threads: Int = 0,
        bytesPerPixel: Int = 3
    ) throws(MediaIOError) {
        precondition(bytesPerPixel == 3 || bytesPerPixel == 4, "bytesPerPixel (\(bytesPerPixel)) must be 3 or 4")
        precondition(start >= 0 && start.isFinite, "start (\(start)) must be a finite number of seconds >= 0")
        precondition(end.map { $0 > start } ?? true, "end (\(end ?? 0)) must be after start (\(start))")
        let info = if let info { info } else { try VideoInfo(probing: path) }
        if info.isStillImage, !allowsStillImage {
            throw MediaIOError(
                .stillImage,
                "is a still image (\(info.codec)), not a video; give a video file (mp4, mov, webm, avi)",
                file: path
            )
        }
        self.info = info
        self.start = start
        self.end = end
        self.bytesPerPixel = bytesPerPixel
        frameBytes = info.width * info.height * bytesPerPixel

        var arguments = ["-hide_banner", "-nostdin", "-nostats", "-loglevel", "info", "-threads", String(threads)]
        if !info.isStillImage {
            // Original timestamps (-copyts), and a seek a little before `start`: the exact cut is
            // made here on the frames' own times, so segments meet without gap or overlap even where
            // ffmpeg's seek would round differently.
            arguments += ["-copyts"]
            let seek = max(0, start - 0.5)
            if seek > 0 { arguments += ["-ss", String(seek)] }
            if let end { arguments += ["-t", String(end - seek + 0.5)] }
        }
        arguments += ["-i", path, "-map", "0:V:0", "-an", "-sn", "-dn"]
        if info.isStillImage {
            arguments += ["-frames:v", "1"]
        } else {
            arguments += ["-fps_mode", "passthrough"]
        }
        // showinfo only for the frames' times: without its checksums (a pass over every pixel, about a
        // tenth of the decoding's CPU time).
        arguments += [
            "-vf", "showinfo=checksum=0", "-f", "rawvideo", "-pix_fmt", bytesPerPixel == 4 ? "rgb0" : "rgb24", "-",
        ]
        let log = log
        process = try PipeProcess(
            "ffmpeg",
            arguments,
            tailLines: 12,
            onStandardErrorLine: { log.ingest($0) },
            onStandardErrorEnd: { log.end() }
        )
    }

    deinit { process?.terminate() }

    /// Decodes the next frame into `image` (reusing its storage when it has the right size).
    ///
    /// - Returns: the frame's time in seconds since the first frame of the file, or `nil` at the end.
    /// - Throws: ``MediaIOError`` `.decodeFailed`, `.unsupportedCodec` or `.unreadable` when ffmpeg
    ///   fails; every frame before the failure has been delivered.
    public func nextFrame(into image: inout RGBImage) throws(MediaIOError) -> Double? {
        while !finished {
            if image.width != info.width || image.height != info.height || image.bytesPerPixel != bytesPerPixel
                || image.bytesPerRow != info.width * bytesPerPixel || image.bytes.count != frameBytes
            {
                image = RGBImage(width: info.width, height: info.height, bytesPerPixel: bytesPerPixel)
            }
            guard let process else { return nil }
            var result: Result<Int, MediaIOError> = .success(0)
            image.bytes.withUnsafeMutableBytes { buffer in
                result = Result { () throws(MediaIOError) in try process.read(into: buffer) }
            }
            let count = try result.get()
            guard count == frameBytes else {
                try finish(partialFrame: count > 0)
                return nil
            }
            let index = framesRead
            framesRead += 1
            var seconds = (log.timestamp(ofFrame: index) ?? .nan) - info.startTime
            if !seconds.isFinite {
                // No usable timestamp (an image, or a frame ffmpeg logged without one).
                seconds = (lastSeconds.map { $0 + 1 / info.fps }) ?? (info.isStillImage ? 0 : start)
            }
            if start > 0, seconds < start { continue }
            if let end, seconds >= end {
                stop()
                return nil
            }
            framesDelivered += 1
            lastSeconds = seconds
            return seconds
        }
        return nil
    }

    /// Decodes the next frame into a new image.
    ///
    /// - Returns: the frame, or `nil` at the end.
    public func nextFrame() throws(MediaIOError) -> VideoFrame? {
        var image = RGBImage(width: info.width, height: info.height, bytesPerPixel: bytesPerPixel)
        guard let seconds = try nextFrame(into: &image) else { return nil }
        return VideoFrame(index: framesDelivered - 1, seconds: seconds, image: image)
    }

    /// Stops decoding now; later calls return `nil`.
    public func stop() {
        finished = true
        process?.terminate()
        process = nil
    }

    // MARK: - The end

    /// Reaps ffmpeg at the end of its output and throws if it ended because of an error.
    private func finish(partialFrame: Bool) throws(MediaIOError) {
        finished = true
        guard let process else { return }
        let termination = process.waitForExit()
        self.process = nil
        let errors = log.errorLines
        let reason =
            errors.first.map { VideoInfo.reason($0, path: info.path) }
            ?? VideoInfo.reason(lines: process.standardErrorLines, path: info.path)
        let path = info.path

        if errors.contains(where: { $0.contains("Decoder (codec") || $0.contains("decoder not found") }) {
            throw MediaIOError(
                .unsupportedCodec,
                "this ffmpeg has no decoder for the video codec \(info.codec); convert the file to H.264 "
                    + "(ffmpeg -i IN -c:v libx264 OUT.mp4)",
                file: path
            )
        }
        if !termination.succeeded, framesRead == 0 {
            throw MediaIOError(
                .unreadable,
                "ffmpeg could not decode any frame (\(reason)); check that the file plays",
                file: path
            )
        }
        let delivered = "the frames before it were delivered"
        if !termination.succeeded || partialFrame {
            throw MediaIOError(
                .decodeFailed,
                "decoding stopped after \(Self.time(lastSeconds ?? start)) (\(reason)); \(delivered); "
                    + "the file is damaged or incomplete: copy it again",
                file: path
            )
        }
        // ffmpeg exits with status 0 on a truncated file; the missing tail shows in the times.
        let expectedEnd = [end, info.duration].compactMap { $0 }.min()
        if let expectedEnd, !info.isStillImage {
            let last = lastSeconds ?? start
            let frameTime = 1 / info.fps
            if last + frameTime < expectedEnd - max(0.5, 3 * frameTime) {
                throw MediaIOError(
                    .decodeFailed,
                    // The whole video's length, not the part this decoder was given (a segment).
                    "the video breaks off at \(Self.time(last)) of its \(Self.time(info.duration ?? expectedEnd))"
                        + (errors.isEmpty ? "" : " (\(reason))")
                        + "; \(delivered); the file is truncated or damaged: copy it again",
                    file: path
                )
            }
        }
        if framesRead == 0 {
            throw MediaIOError(
                .unreadable,
                "the file holds no decodable video frame; check that it plays",
                file: path
            )
        }
    }

    private static func time(_ seconds: Double) -> String {
        let tenths = (seconds * 10).rounded()
        return "\(Int(tenths) / 10).\(abs(Int(tenths)) % 10) s"
    }
}

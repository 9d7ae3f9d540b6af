import Foundation
import PoseKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `ffprobe` says about a video or image file, with the size of the frames as they are shown
/// (after the rotation phones record in the file).
///
/// ```swift
/// let info = try VideoInfo(probing: "clip.mov")
/// print(info.width, info.height, info.rotation, info.fps)   // 1080 1920 90 29.97
/// ```
public struct VideoInfo: Sendable, Hashable {
    /// The file probed.
    public var path: String
    /// The container format as ffmpeg names it (`mov,mp4,m4a,3gp,3g2,mj2`, `matroska,webm`, `image2`, …).
    public var format: String
    /// The video codec (`h264`, `vp9`, `mjpeg`, `png`, …).
    public var codec: String
    /// Width of the decoded frames, after rotation.
    public var width: Int
    /// Height of the decoded frames, after rotation.
    public var height: Int
    /// The display rotation stored in the file, in degrees counter-clockwise as ffprobe reports it
    /// (0, 90, 180 or 270); decoding applies it. 90 and 270 swap width and height.
    public var rotation: Int
    /// Nominal frame rate (the average rate when the container gives one); frames carry their own time.
    public var fps: Double
    /// Duration in seconds, when the container says.
    public var duration: Double?
    /// The number of frames the container declares, or duration × fps; an estimate either way.
    public var estimatedFrameCount: Int?
    /// The first frame's timestamp in the file; decoded frame times are relative to it.
    public var startTime: Double
    /// Whether the file is a still image (JPEG, PNG, …) rather than a video.
    public var isStillImage: Bool

    public init(
        path: String,
        format: String,
        codec: String,
        width: Int,
        height: Int,
        rotation: Int = 0,
        fps: Double,
        duration: Double? = nil,
        estimatedFrameCount: Int? = nil,
        startTime: Double = 0,
        isStillImage: Bool = false
    ) {
        self.path = path
        self.format = format
        self.codec = codec
        self.width = width
        self.height = height
        self.rotation = rotation
        self.fps = fps
        self.duration = duration
        self.estimatedFrameCount = estimatedFrameCount
        self.startTime = startTime
        self.isStillImage = isStillImage
    }

    /// Probes `path` with `ffprobe`.
    ///
    /// - Throws: ``MediaIOError``: `.fileNotFound`, `.notAFile`, `.emptyFile`, `.unreadable` (not a
    ///   media file, or damaged), `.noVideoStream`, `.unsupportedCodec`, `.toolMissing`.
    public init(probing path: String) throws(MediaIOError) {
        try Self.checkFile(path)
        let process = try PipeProcess(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "V",
                "-show_entries",
                "stream=codec_type,codec_name,width,height,r_frame_rate,avg_frame_rate,nb_frames,duration,start_time"
                    + ":stream_side_data=rotation:stream_tags=rotate,DURATION:stream_disposition=attached_pic"
                    + ":format=format_name,duration,start_time",
                "-of", "json", path,
            ]
        )
        let output = try process.readAll()
        let termination = process.waitForExit()
        guard termination.succeeded else {
            throw MediaIOError(
                .unreadable,
                "not a video or image ffmpeg can read (\(Self.reason(lines: process.standardErrorLines, path: path))); "
                    + "give an mp4, mov, webm or avi file",
                file: path
            )
        }
        let json: FFprobeOutput
        do {
            json = try JSONDecoder().decode(FFprobeOutput.self, from: Data(output))
        } catch {
            throw MediaIOError(
                .processFailed,
                "ffprobe printed something that is not JSON (\(error))",
                file: path,
                cause: error
            )
        }
        try self.init(path: path, ffprobe: json)
    }

    /// Builds the info from ffprobe's JSON (`-of json` with streams and format).
    init(path: String, ffprobe json: FFprobeOutput) throws(MediaIOError) {
        let format = json.format?.formatName ?? "unknown"
        let streams = (json.streams ?? []).filter {
            $0.codecType == "video" && $0.disposition?.attachedPic != 1
        }
        guard let stream = streams.first else {
            throw MediaIOError(
                .noVideoStream,
                "the file (\(format)) holds no video stream; give a video or image file",
                file: path
            )
        }
        guard let codec = stream.codecName, codec != "none" else {
            throw MediaIOError(
                .unsupportedCodec,
                "the video codec is unknown to this ffmpeg; convert the file to H.264 "
                    + "(ffmpeg -i IN -c:v libx264 OUT.mp4)",
                file: path
            )
        }
        guard let codedWidth = stream.width, let codedHeight = stream.height,
            codedWidth > 0, codedHeight > 0
        else {
            throw MediaIOError(.unreadable, "the video stream has no frame size; the file may be damaged", file: path)
        }
        var rotation = 0
        for sideData in stream.sideDataList ?? [] {
            if let degrees = sideData.rotation { rotation = Int(degrees.rounded()) }
        }
        if rotation == 0, let tag = stream.tags?["rotate"], let degrees = Int(tag) {
            rotation = degrees
        }
        rotation = ((rotation % 360) + 360) % 360
        let swaps = rotation == 90 || rotation == 270

        let stillImage = format == "image2" || format.hasSuffix("_pipe")
        let fps = Self.rate(stream.avgFrameRate) ?? Self.rate(stream.rFrameRate) ?? 30
        let duration =
            stream.duration?.value ?? Self.clock(stream.tags?["DURATION"]) ?? json.format?.duration?.value
        let frames = stream.nbFrames?.value.map { Int($0) } ?? duration.map { Int(($0 * fps).rounded()) }
        self.init(
            path: path,
            format: format,
            codec: codec,
            width: swaps ? codedHeight : codedWidth,
            height: swaps ? codedWidth : codedHeight,
            rotation: rotation,
            fps: stillImage ? 1 : fps,
            duration: stillImage ? nil : duration,
            estimatedFrameCount: stillImage ? 1 : frames,
            startTime: stream.startTime?.value ?? json.format?.startTime?.value ?? 0,
            isStillImage: stillImage
        )
    }

    // MARK: - Helpers

    /// Checks that `path` is a non-empty regular file.
    static func checkFile(_ path: String) throws(MediaIOError) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT {
                throw MediaIOError(.fileNotFound, "no such file; check the path", file: path)
            }
            throw MediaIOError(.unreadable, "cannot open (\(String(cString: strerror(errno))))", file: path)
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw MediaIOError(.notAFile, "is a directory; give a video file inside it", file: path)
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw MediaIOError(.notAFile, "is not a regular file; give a video file", file: path)
        }
        guard info.st_size > 0 else {
            throw MediaIOError(.emptyFile, "the file is empty (0 bytes); record or copy it again", file: path)
        }
        guard access(path, R_OK) == 0 else {
            throw MediaIOError(.unreadable, "no permission to read the file; check its permissions", file: path)
        }
    }

    /// ffmpeg's message without the `path: ` prefix it often adds.
    /// The last of ffmpeg's standard-error lines that says what went wrong, cleaned by ``reason(_:path:)``; not its
    /// description of the input ("Input #0, mov,mp4,m4a…", indented stream details, progress), which is noise in an
    /// error line.
    static func reason(lines: [String], path: String) -> String {
        let noise = ["Input #", "Output #", "Stream mapping", "Press [q]", "frame=", "size=", "ffmpeg version"]
        let told = lines.last { line in
            !line.isEmpty && !line.hasPrefix(" ") && !noise.contains { line.hasPrefix($0) }
        }
        return told.map { reason($0, path: path) } ?? "ffmpeg gave no reason"
    }

    static func reason(_ line: String, path: String) -> String {
        var text = Substring(line)
        // "[mov,mp4,m4a,3gp,3g2,mj2 @ 0x55…] Packet corrupt (…)." → "Packet corrupt (…)"
        if text.hasPrefix("["), let close = text.firstRange(of: "] "), text[..<close.lowerBound].contains(" @ 0x") {
            text = text[close.upperBound...]
        }
        if text.hasPrefix(path + ": ") { text = text.dropFirst(path.count + 2) }
        while text.last == "." || text.last == " " { text = text.dropLast() }
        return String(text)
    }

    /// `"30000/1001"` as a number; `nil` for `0/0`.
    private static func rate(_ value: String?) -> Double? {
        guard let text = value else { return nil }
        let parts = text.split(separator: "/")
        guard parts.count == 2, let n = Double(parts[0]), let d = Double(parts[1]), n > 0, d > 0 else { return nil }
        return n / d
    }

    /// Matroska's `"00:01:02.500000000"` duration tag in seconds.
    private static func clock(_ value: String?) -> Double? {
        guard let text = value else { return nil }
        let parts = text.split(separator: ":").compactMap { Double($0) }
        guard parts.count == 3 else { return nil }
        return parts[0] * 3600 + parts[1] * 60 + parts[2]
    }
}

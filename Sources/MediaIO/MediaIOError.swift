/// A recoverable error in MediaIO: a file that cannot be read, decoded or written, or a missing tool.
///
/// `message` is one line that says what was wrong, with which file, and what to do.
///
/// ```swift
/// do { _ = try VideoDecoder.probe(path: "clip.mp4") }
/// catch let error as MediaIOError { print(error) }   // "clip.mp4: no such file; check the path"
/// ```
public struct MediaIOError: Error, Sendable, CustomStringConvertible, Equatable {
    public enum Code: String, Sendable, Equatable {
        /// The file does not exist.
        case fileNotFound
        /// The path is a directory or not a regular file.
        case notAFile
        /// The file has zero bytes.
        case emptyFile
        /// ffmpeg cannot read the file at all (not a media file, or damaged beyond its header).
        case unreadable
        /// The file holds no video stream (audio only, subtitles, …).
        case noVideoStream
        /// A still image was given where a video is needed.
        case stillImage
        /// The file's codec cannot be decoded by this ffmpeg.
        case unsupportedCodec
        /// Decoding stopped part-way (truncated or corrupt file); frames before it were delivered.
        case decodeFailed
        /// Encoding or writing an output file failed.
        case encodeFailed
        /// A needed program (ffmpeg, ffprobe) is not installed.
        case toolMissing
        /// A child process could not be started or failed in another way.
        case processFailed
        /// Reading or writing a pipe or file failed.
        case io
    }

    public var code: Code
    public var message: String
    /// The file the error is about, when there is one.
    public var file: String?
    /// The underlying error, described, where one caused this (the JSON parser's, the JPEG decoder's); `message`
    /// already says what it means for the user.
    public var cause: String?

    public init(_ code: Code, _ message: String, file: String? = nil, cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.file = file
        self.cause = cause.map { "\($0)" }
    }

    public var description: String {
        if let file { "\(file): \(message)" } else { message }
    }
}

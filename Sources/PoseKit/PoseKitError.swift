/// A recoverable error in PoseKit: malformed pose-track files, bad layouts.
///
/// `message` is one line that says what was wrong, which value, and what to do.
public struct PoseKitError: Error, Sendable, CustomStringConvertible, Equatable {
    public enum Code: String, Sendable, Equatable {
        case malformedHeader, malformedFrame, framesOutOfOrder, unknownKeypoints, emptyFile, io
    }

    public var code: Code
    public var message: String
    /// The file the error is about, when there is one.
    public var file: String?
    /// The 1-based line number in `file`, when there is one.
    public var line: Int?

    /// The underlying error, described, where one caused this (the JSON parser's, the file system's); `message`
    /// already says what it means for the user.
    public var cause: String?

    public init(_ code: Code, _ message: String, file: String? = nil, line: Int? = nil, cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.file = file
        self.line = line
        self.cause = cause.map { "\($0)" }
    }

    public var description: String {
        switch (file, line) {
        case (let file?, let line?): "\(file):\(line): \(message)"
        case (let file?, nil): "\(file): \(message)"
        case (nil, let line?): "line \(line): \(message)"
        case (nil, nil): message
        }
    }
}

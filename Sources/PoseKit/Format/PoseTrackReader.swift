/// Reads a pose-track file frame by frame, without holding the file in memory.
///
/// A malformed line stops the reading with a ``PoseKitError`` that names the file, the line and the
/// reason; frames out of time order, a wrong number of values, non-finite numbers and confidences
/// outside [0, 1] are errors. Keypoint names outside ``Joint`` are ignored (listed in
/// ``ignoredKeypoints``). `neck` and `root` are derived when absent.
///
/// ```swift
/// var reader = try PoseTrackReader(path: "squat.jsonl")
/// while let frame = try reader.next() { … }
/// ```
public struct PoseTrackReader {
    public let header: PoseTrackHeader
    /// The file path, for messages.
    public let path: String
    /// Names in the header that are not ``Joint`` names and were skipped.
    public let ignoredKeypoints: [String]

    private let lines: LineReader
    private var lineNumber = 1
    private var decoder: PoseTrackFrameDecoder

    /// Opens `path` and reads its header.
    ///
    /// - Throws: ``PoseKitError`` when the file cannot be read or its header is not a body pose-track's header
    ///   (a hand pose-track is read by ``HandTrackReader``).
    public init(path: String) throws(PoseKitError) {
        try self.init(path: path, kind: .body)
    }

    /// Opens `path` and reads its header, which must be of `kind`.
    init(path: String, kind: PoseTrackHeader.Kind) throws(PoseKitError) {
        self.path = path
        let lines: LineReader
        do {
            lines = try LineReader(path: path)
        } catch {
            throw PoseKitError(.io, error.message, file: path, cause: error)
        }
        self.lines = lines
        guard let first = lines.nextLine() else {
            throw PoseKitError(.emptyFile, "the file is empty; expected a pose-track header line", file: path)
        }
        let json: JSONValue
        do {
            json = try first.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in
                try JSONValue.parse(bytes: buffer)
            }
        } catch {
            throw PoseKitError(
                .malformedHeader,
                "the header is not valid JSON (\(error))",
                file: path,
                line: 1,
                cause: error
            )
        }
        do {
            header = try PoseTrackHeader(json: json, kind: kind)
        } catch {
            var error = error
            error.file = path
            throw error
        }
        decoder = PoseTrackFrameDecoder(header: header)
        ignoredKeypoints =
            kind == .body
            ? zip(header.keypoints, header.joints).compactMap { $1 == nil ? $0 : nil }
            : zip(header.keypoints, header.handJoints).compactMap { $1 == nil ? $0 : nil }
    }

    /// Reads all frames of a file.
    public static func readAll(path: String) throws(PoseKitError) -> (header: PoseTrackHeader, frames: [PoseFrame]) {
        var reader = try PoseTrackReader(path: path)
        var frames: [PoseFrame] = []
        while let frame = try reader.next() { frames.append(frame) }
        return (reader.header, frames)
    }

    /// The next frame, or `nil` at the end of the file. Blank lines are skipped.
    public mutating func next() throws(PoseKitError) -> PoseFrame? {
        guard let json = try nextJSON() else { return nil }
        do throws(PoseKitError) {
            return try decoder.decode(json)
        } catch {
            throw located(error)
        }
    }

    /// The next frame of a hand pose-track (opened with kind `.hands`), or `nil` at the end of the file.
    mutating func nextHands() throws(PoseKitError) -> HandFrame? {
        guard let json = try nextJSON() else { return nil }
        do throws(PoseKitError) {
            return try decoder.decodeHands(json)
        } catch {
            throw located(error)
        }
    }

    /// The next non-blank line, parsed; `nil` at the end of the file.
    private mutating func nextJSON() throws(PoseKitError) -> JSONValue? {
        while let line = lines.nextLine() {
            lineNumber += 1
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
            do {
                return try line.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in
                    try JSONValue.parse(bytes: buffer)
                }
            } catch {
                throw located(PoseKitError(.malformedFrame, "not valid JSON (\(error))", cause: error))
            }
        }
        if let error = lines.error { throw PoseKitError(.io, error, file: path, line: lineNumber) }
        return nil
    }

    /// `error` with this file and the current line.
    private func located(_ error: PoseKitError) -> PoseKitError {
        var error = error
        error.file = path
        error.line = lineNumber
        return error
    }
}

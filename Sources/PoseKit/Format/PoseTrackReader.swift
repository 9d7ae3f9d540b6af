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
    private var lastSeconds = -Double.infinity
    private let joints: [Joint?]

    /// Opens `path` and reads its header.
    ///
    /// - Throws: ``PoseKitError`` when the file cannot be read or its header is not a pose-track header.
    public init(path: String) throws(PoseKitError) {
        self.path = path
        let lines: LineReader
        do {
            lines = try LineReader(path: path)
        } catch {
            throw PoseKitError(.io, error.message, file: path)
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
            throw PoseKitError(.malformedHeader, "the header is not valid JSON (\(error))", file: path, line: 1)
        }
        do {
            header = try PoseTrackHeader(json: json)
        } catch {
            var error = error
            error.file = path
            throw error
        }
        joints = header.joints
        ignoredKeypoints = zip(header.keypoints, joints).compactMap { $1 == nil ? $0 : nil }
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
        while let line = lines.nextLine() {
            lineNumber += 1
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
            return try parseFrame(line)
        }
        if let error = lines.error { throw PoseKitError(.io, error, file: path, line: lineNumber) }
        return nil
    }

    private func fail(_ message: String) -> PoseKitError { fail(.malformedFrame, message) }

    private func fail(_ code: PoseKitError.Code, _ message: String) -> PoseKitError {
        PoseKitError(code, message, file: path, line: lineNumber)
    }

    private mutating func parseFrame(_ line: [UInt8]) throws(PoseKitError) -> PoseFrame {
        let json: JSONValue
        do {
            json = try line.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in
                try JSONValue.parse(bytes: buffer)
            }
        } catch {
            throw fail("not valid JSON (\(error))")
        }
        guard let object = json.objectValue else {
            throw fail("a frame must be a JSON object {\"t\":…, \"poses\":[…]}")
        }
        guard let seconds = object["t"]?.doubleValue, seconds.isFinite else {
            throw fail("\"t\" must be a finite number of seconds")
        }
        guard seconds >= lastSeconds else {
            throw fail(
                .framesOutOfOrder,
                "frame time t=\(seconds) is before the previous frame's t=\(lastSeconds); sort the frames by t"
            )
        }
        lastSeconds = seconds
        guard let posesJSON = object["poses"]?.arrayValue else {
            throw fail("\"poses\" must be an array (use [] when nobody was seen)")
        }
        let valuesPerKeypoint = header.valuesPerKeypoint
        let expected = header.keypoints.count * valuesPerKeypoint
        var poses: [Pose] = []
        poses.reserveCapacity(posesJSON.count)
        for (personIndex, personJSON) in posesJSON.enumerated() {
            guard let values = personJSON.arrayValue else {
                throw fail("pose \(personIndex) must be an array of numbers")
            }
            guard values.count == expected else {
                throw fail(
                    "pose \(personIndex) has \(values.count) values; the header's \(header.keypoints.count) keypoints "
                        + "× \(valuesPerKeypoint) values (x, y\(valuesPerKeypoint == 4 ? ", z" : ""), c) make \(expected)"
                )
            }
            var pose = Pose()
            for (k, joint) in joints.enumerated() {
                guard let joint else { continue }
                let base = k * valuesPerKeypoint
                var numbers: (Double, Double, Double, Double) = (0, 0, 0, 0)
                for j in 0..<valuesPerKeypoint {
                    let value = values[base + j]
                    // JSON has no NaN; a null coordinate is read as one (fine for an unseen keypoint).
                    guard let number = value.doubleValue ?? (value == .null && j < valuesPerKeypoint - 1 ? .nan : nil)
                    else {
                        throw fail("keypoint \(joint.name) of pose \(personIndex) has a non-number \(value.jsonText)")
                    }
                    switch j {
                    case 0: numbers.0 = number
                    case 1: numbers.1 = number
                    case 2: numbers.2 = number
                    default: numbers.3 = number
                    }
                }
                let confidence = valuesPerKeypoint == 4 ? numbers.3 : numbers.2
                guard confidence.isFinite, confidence >= 0, confidence <= 1 else {
                    throw fail(
                        "keypoint \(joint.name) of pose \(personIndex) has confidence \(confidence); it must be in [0, 1]"
                    )
                }
                if confidence == 0 { continue }
                let z: Double? = valuesPerKeypoint == 4 ? numbers.2 : nil
                guard numbers.0.isFinite, numbers.1.isFinite, z?.isFinite ?? true else {
                    throw fail(
                        "keypoint \(joint.name) of pose \(personIndex) has a non-finite coordinate (NaN or Infinity); "
                            + "write c = 0 for a keypoint that was not seen"
                    )
                }
                pose[joint] = Keypoint(x: numbers.0, y: numbers.1, z: z, confidence: confidence)
            }
            pose.deriveMidpoints()
            poses.append(pose)
        }
        return PoseFrame(seconds: seconds, poses: poses)
    }
}

/// Decodes pose-track frame objects (`{"t":…, "poses":[…]}`) one at a time, for a header: the frames of a file
/// (``PoseTrackReader``, ``HandTrackReader``) or those a live client sends one by one. Frames must not go back in
/// time. ``decode(_:)`` reads bodies, ``decodeHands(_:)`` hands.
///
/// ```swift
/// var decoder = PoseTrackFrameDecoder(header: header)
/// let frame = try decoder.decode(line: line)
/// ```
public struct PoseTrackFrameDecoder: Sendable {
    public let header: PoseTrackHeader
    /// The time of the last frame decoded.
    public private(set) var lastSeconds = -Double.infinity
    private let joints: [Joint?]
    private let handJoints: [HandJoint?]
    /// Frames in a row with the same `t` (a file whose times were never filled in has them all 0).
    private var sameTime = 0
    /// The steps between the first frames, to tell seconds from milliseconds or nanoseconds.
    private var firstSteps: [Double] = []

    public init(header: PoseTrackHeader) {
        self.header = header
        joints = header.joints
        handJoints = header.handJoints
    }

    private var width: Double { Double(header.width) }
    private var height: Double { Double(header.height) }

    /// A coordinate in a message: whole pixels (a huge one as Swift writes it, with its exponent).
    private static func short(_ value: Double) -> String {
        abs(value) < 1e15 ? String(Int(value.rounded())) : "\(value)"
    }

    private func fail(_ message: String) -> PoseKitError { fail(.malformedFrame, message) }

    private func fail(_ code: PoseKitError.Code, _ message: String) -> PoseKitError {
        PoseKitError(code, message)
    }

    /// `t` is the capture time in seconds: times that never move, or move by minutes or years a frame, are a file
    /// written wrong, and are said so rather than coached.
    private mutating func checkTimeUnit(_ seconds: Double) throws(PoseKitError) {
        guard lastSeconds.isFinite else { return }
        let step = seconds - lastSeconds
        sameTime = step == 0 ? sameTime + 1 : 0
        if sameTime == 60 {
            throw fail(
                "61 frames in a row have t=\(seconds): t must be each frame's capture time in seconds, increasing"
            )
        }
        if step > 600 {
            throw fail(
                "t jumps by \(step) s between two frames: t is in seconds (are these milliseconds, microseconds or nanoseconds?)"
            )
        }
        guard firstSteps.count < 30, step > 0 else { return }
        firstSteps.append(step)
        if firstSteps.count == 30 {
            let median = firstSteps.sorted()[15]
            let expected = header.fps > 0 ? 1 / header.fps : 1.0 / 30
            if median > max(1, 20 * expected) {
                throw fail(
                    "frames are \(median) s apart for a \(header.fps)-fps recording: t is in seconds (are these milliseconds?)"
                )
            }
        }
    }

    /// The frame a parsed frame object holds.
    ///
    /// - Throws: ``PoseKitError`` (without file or line) naming what is wrong: a missing or non-finite `t`, a
    ///   time before the previous frame's, a pose of the wrong length, a bad number or confidence.
    mutating func decode(_ json: JSONValue) throws(PoseKitError) -> PoseFrame {
        let (seconds, posesJSON, _) = try begin(json)
        var poses: [Pose] = []
        poses.reserveCapacity(posesJSON.count)
        for (personIndex, personJSON) in posesJSON.enumerated() {
            let values = try values(of: personJSON, index: personIndex)
            var pose = Pose()
            var seen: [Keypoint] = []
            var far = FarOutside()
            for (k, joint) in joints.enumerated() {
                guard let joint else { continue }
                if let keypoint = try keypoint(k, named: joint.name, in: values, pose: personIndex) {
                    seen.append(keypoint)
                    if far.keeps(keypoint, named: joint.name, frame: (width, height)) { pose[joint] = keypoint }
                }
            }
            try checkNotNormalised(seen, pose: personIndex)
            try check(far, of: seen.count, pose: personIndex)
            pose.deriveMidpoints()
            poses.append(pose)
        }
        return PoseFrame(seconds: seconds, poses: poses)
    }

    /// The frame one JSON text holds (a line of a pose-track file, or a frame a live client sent).
    ///
    /// - Throws: ``PoseKitError`` `.malformedFrame` for text that is not JSON, else as ``decode(_:)``.
    public mutating func decode(line: some StringProtocol) throws(PoseKitError) -> PoseFrame {
        let json: JSONValue
        do {
            json = try JSONValue.parse(line)
        } catch {
            throw fail("the frame is not valid JSON (\(error))")
        }
        return try decode(json)
    }

    /// The hands a parsed frame object of a hand pose-track holds: one ``HandPose`` per entry of `"poses"`, its
    /// side from the optional `"chirality"` array (`"left"`, `"right"` or `"unknown"`, one per pose).
    ///
    /// - Throws: ``PoseKitError`` as ``decode(_:)`` does, and for a `"chirality"` that is not an array of as many
    ///   of those words as there are poses.
    mutating func decodeHands(_ json: JSONValue) throws(PoseKitError) -> HandFrame {
        let (seconds, posesJSON, object) = try begin(json)
        var sides = Array(repeating: Chirality.unknown, count: posesJSON.count)
        if let chirality = object["chirality"], chirality != .null {
            guard let words = chirality.arrayValue, words.count == posesJSON.count else {
                throw fail(
                    "\"chirality\" must be an array with one \"left\", \"right\" or \"unknown\" per pose "
                        + "(\(posesJSON.count) here)"
                )
            }
            for (index, word) in words.enumerated() {
                guard let side = word.stringValue.flatMap(Chirality.init(rawValue:)) else {
                    throw fail("chirality \(word.jsonText) of hand \(index) must be \"left\", \"right\" or \"unknown\"")
                }
                sides[index] = side
            }
        }
        var hands: [HandPose] = []
        hands.reserveCapacity(posesJSON.count)
        for (handIndex, handJSON) in posesJSON.enumerated() {
            let values = try values(of: handJSON, index: handIndex)
            var hand = HandPose(chirality: sides[handIndex])
            var seen: [Keypoint] = []
            var far = FarOutside()
            for (k, joint) in handJoints.enumerated() {
                guard let joint else { continue }
                if let keypoint = try keypoint(k, named: joint.name, in: values, pose: handIndex) {
                    seen.append(keypoint)
                    if far.keeps(keypoint, named: joint.name, frame: (width, height)) { hand[joint] = keypoint }
                }
            }
            try checkNotNormalised(seen, pose: handIndex)
            try check(far, of: seen.count, pose: handIndex)
            hands.append(hand)
        }
        return HandFrame(seconds: seconds, hands: hands)
    }

    // MARK: - Parts

    /// The frame's time (checked against the previous frame's), its `"poses"` array and the whole object.
    private mutating func begin(
        _ json: JSONValue
    ) throws(PoseKitError) -> (seconds: Double, poses: [JSONValue], object: [String: JSONValue]) {
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
        try checkTimeUnit(seconds)
        lastSeconds = seconds
        guard let posesJSON = object["poses"]?.arrayValue else {
            throw fail("\"poses\" must be an array (use [] when nobody was seen)")
        }
        return (seconds, posesJSON, object)
    }

    /// The numbers of one pose, checked for their count.
    private func values(of personJSON: JSONValue, index personIndex: Int) throws(PoseKitError) -> [JSONValue] {
        let valuesPerKeypoint = header.valuesPerKeypoint
        let expected = header.keypoints.count * valuesPerKeypoint
        guard let values = personJSON.arrayValue else {
            throw fail("pose \(personIndex) must be an array of numbers")
        }
        guard values.count == expected else {
            throw fail(
                "pose \(personIndex) has \(values.count) values; the header's \(header.keypoints.count) keypoints "
                    + "× \(valuesPerKeypoint) values (x, y\(valuesPerKeypoint == 4 ? ", z" : ""), c) make \(expected)"
            )
        }
        return values
    }

    /// The `k`-th keypoint of a pose's values, or `nil` when it was not seen (`c = 0`).
    private func keypoint(
        _ k: Int,
        named name: String,
        in values: [JSONValue],
        pose personIndex: Int
    ) throws(PoseKitError) -> Keypoint? {
        let valuesPerKeypoint = header.valuesPerKeypoint
        let base = k * valuesPerKeypoint
        var numbers: (Double, Double, Double, Double) = (0, 0, 0, 0)
        for j in 0..<valuesPerKeypoint {
            let value = values[base + j]
            // JSON has no NaN; a null coordinate is read as one (fine for an unseen keypoint).
            guard let number = value.doubleValue ?? (value == .null && j < valuesPerKeypoint - 1 ? .nan : nil)
            else {
                throw fail("keypoint \(name) of pose \(personIndex) has a non-number \(value.jsonText)")
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
                "keypoint \(name) of pose \(personIndex) has confidence \(confidence); it must be in [0, 1]"
            )
        }
        if confidence == 0 { return nil }
        let z: Double? = valuesPerKeypoint == 4 ? numbers.2 : nil
        guard numbers.0.isFinite, numbers.1.isFinite, z?.isFinite ?? true else {
            throw fail(
                "keypoint \(name) of pose \(personIndex) has a non-finite coordinate (NaN or Infinity); "
                    + "write c = 0 for a keypoint that was not seen"
            )
        }
        return Keypoint(x: numbers.0, y: numbers.1, z: z, confidence: confidence)
    }

    /// The keypoints of a pose more than a whole frame beyond the header's frame. One such keypoint is a pose
    /// estimator's guess of a body part out of the picture (MediaPipe put a heel of a pull-up filmed from the waist
    /// up 3 frame heights down) and is taken as not seen; most of them are a file written in other units (it read as
    /// "nobody seen … film the whole body", naming joints the layout does not have).
    private struct FarOutside {
        var count = 0
        var first: (name: String, x: Double, y: Double)?

        mutating func keeps(_ keypoint: Keypoint, named name: String, frame: (width: Double, height: Double)) -> Bool {
            let inside =
                keypoint.x >= -2 * frame.width && keypoint.x <= 3 * frame.width && keypoint.y >= -2 * frame.height
                && keypoint.y <= 3 * frame.height
            if !inside {
                count += 1
                if first == nil { first = (name, keypoint.x, keypoint.y) }
            }
            return inside
        }
    }

    /// Refuses a pose most of whose keypoints (of `seen`) lie far outside the frame.
    private func check(_ far: FarOutside, of seen: Int, pose personIndex: Int) throws(PoseKitError) {
        guard let first = far.first, far.count * 2 > seen else { return }
        throw fail(
            "keypoint \(first.name) of pose \(personIndex) lies at (\(Self.short(first.x)), \(Self.short(first.y))), "
                + "far outside the \(header.width)×\(header.height) frame the header gives, and \(far.count - 1) of its "
                + "other \(seen - 1) keypoints too; the coordinates must be pixels of that frame"
        )
    }

    /// Coordinates of 0–1 in a frame of hundreds of pixels are normalised ones, not pixels.
    private func checkNotNormalised(_ seen: [Keypoint], pose personIndex: Int) throws(PoseKitError) {
        let largest = seen.reduce(0.0) { Swift.max($0, abs($1.x), abs($1.y)) }
        if seen.count >= 5, largest <= 1.5, Swift.min(width, height) >= 100 {
            throw fail(
                "the keypoints of pose \(personIndex) all lie within 0–1.5 of the \(header.width)×\(header.height) "
                    + "frame: they look normalised (0–1); write pixels (x × \(header.width), y × \(header.height))"
            )
        }
    }
}

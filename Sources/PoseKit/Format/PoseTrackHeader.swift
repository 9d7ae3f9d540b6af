/// The first line of a pose-track file (`pose-track.md`): what the keypoints are and the frame they live in.
///
/// A pose-track holds bodies (``Joint`` names) or hands (the 21 ``HandJoint`` names); ``kind`` says which.
public struct PoseTrackHeader: Sendable, Hashable {
    /// What the poses of a pose-track are.
    public enum Kind: String, Sendable, Hashable {
        /// People: ``Joint`` names, read as ``PoseFrame``s.
        case body
        /// Hands: ``HandJoint`` names, read as ``HandFrame``s, each pose one hand.
        case hands
    }

    /// Keypoint names in the order each pose lists them.
    public var keypoints: [String]
    /// Nominal frame rate; frames carry their own time.
    public var fps: Double
    public var width: Int
    public var height: Int
    public var source: String?
    /// 2 (`x, y, c`) or 3 (`x, y, z, c`).
    public var dimensions: Int
    /// Free-form ground truth (`exercise`, `reps`, `form`, …), as the file has it: read with ``label(_:)``.
    var labels: [String: JSONValue]

    public init(
        keypoints: [String],
        fps: Double,
        width: Int,
        height: Int,
        source: String? = nil,
        dimensions: Int = 2,
        labels: [String: String] = [:]
    ) {
        self.keypoints = keypoints
        self.fps = fps
        self.width = width
        self.height = height
        self.source = source
        self.dimensions = dimensions
        self.labels = labels.mapValues(JSONValue.string)
    }

    /// A header for poses written in `layout`'s order (`Joint` names).
    public init(
        layout: SkeletonLayout,
        fps: Double,
        width: Int,
        height: Int,
        dimensions: Int = 2,
        source: String? = nil
    ) {
        self.init(
            keypoints: layout.joints.map { $0?.name ?? "unused" },
            fps: fps,
            width: width,
            height: height,
            source: source,
            dimensions: dimensions
        )
    }

    /// A header for hands: the 21 ``HandJoint`` names in their order.
    public init(handsWithFPS fps: Double, width: Int, height: Int, dimensions: Int = 2, source: String? = nil) {
        self.init(
            keypoints: HandJoint.allCases.map(\.name),
            fps: fps,
            width: width,
            height: height,
            source: source,
            dimensions: dimensions
        )
    }

    /// Hands when no keypoint name is a body ``Joint`` and at least one is a ``HandJoint``; else a body.
    public var kind: Kind {
        joints.allSatisfy({ $0 == nil }) && handJoints.contains(where: { $0 != nil }) ? .hands : .body
    }

    /// The number of values each keypoint takes in a frame (3 or 4).
    public var valuesPerKeypoint: Int { dimensions + 1 }

    /// The joint of each listed keypoint, `nil` for names outside ``Joint``.
    public var joints: [Joint?] { keypoints.map(Joint.init(name:)) }

    /// The hand joint of each listed keypoint, `nil` for names outside ``HandJoint``.
    public var handJoints: [HandJoint?] { keypoints.map(HandJoint.init(name:)) }

    /// The names of the file's labels.
    public var labelNames: [String] { labels.keys.sorted() }

    /// A label as a string (`labels["exercise"]`).
    public func label(_ key: String) -> String? {
        switch labels[key] {
        case .string(let s)?: s
        case .number(let n)?: JSONValue.format(n)
        case .bool(let b)?: b ? "true" : "false"
        default: nil
        }
    }

    /// The header as one JSON line (no newline).
    public var jsonLine: String {
        var object: [String: JSONValue] = [
            "format": .string("pose-track"),
            "version": .number(1),
            "keypoints": .array(keypoints.map(JSONValue.string)),
            "fps": .number(fps),
            "width": .number(Double(width)),
            "height": .number(Double(height)),
        ]
        if let source { object["source"] = .string(source) }
        if dimensions != 2 { object["dimensions"] = .number(Double(dimensions)) }
        if !labels.isEmpty { object["labels"] = .object(labels) }
        return JSONValue.object(object).jsonText
    }

    /// Reads a header from its JSON line (the first line of a pose-track file, or one a client made of its fields).
    ///
    /// - Throws: ``PoseKitError`` `.malformedHeader` for text that is not JSON, else as ``init(json:kind:)``.
    public init(line: some StringProtocol, kind: Kind = .body) throws(PoseKitError) {
        let json: JSONValue
        do {
            json = try JSONValue.parse(line)
        } catch {
            throw PoseKitError(.malformedHeader, "not a pose-track header: the line is not JSON (\(error))", line: 1)
        }
        try self.init(json: json, kind: kind)
    }

    /// Reads a header from its parsed JSON line.
    ///
    /// - Parameter kind: what the reader wants: bodies (the default) or hands. A header of the other kind is an
    ///   `.unknownKeypoints` error that says so.
    /// - Throws: ``PoseKitError`` with code `.malformedHeader` or `.unknownKeypoints`, naming the field.
    init(json: JSONValue, kind: Kind = .body) throws(PoseKitError) {
        func fail(_ message: String) -> PoseKitError {
            PoseKitError(.malformedHeader, "not a pose-track header: \(message)", line: 1)
        }
        guard let object = json.objectValue else { throw fail("the first line must be a JSON object") }
        guard object["format"]?.stringValue == "pose-track" else {
            throw fail("\"format\" must be \"pose-track\" (is this a pose-track .jsonl file?)")
        }
        if let version = object["version"], version.intValue != 1 {
            throw fail("unsupported \"version\" \(version.jsonText); this reader knows version 1")
        }
        guard let names = object["keypoints"]?.arrayValue, !names.isEmpty else {
            throw fail("\"keypoints\" must be a non-empty array of names")
        }
        var keypoints: [String] = []
        for name in names {
            guard let s = name.stringValue else {
                throw fail("\"keypoints\" must hold strings, found \(name.jsonText)")
            }
            keypoints.append(s)
        }
        guard let fps = object["fps"]?.doubleValue, fps.isFinite, fps > 0 else {
            throw fail("\"fps\" must be a positive number")
        }
        guard let width = object["width"]?.intValue, width > 0, let height = object["height"]?.intValue, height > 0
        else { throw fail("\"width\" and \"height\" must be positive integers") }
        let dimensions = object["dimensions"]?.intValue ?? 2
        guard dimensions == 2 || dimensions == 3 else { throw fail("\"dimensions\" must be 2 or 3, got \(dimensions)") }
        self.init(
            keypoints: keypoints,
            fps: fps,
            width: width,
            height: height,
            source: object["source"]?.stringValue,
            dimensions: dimensions
        )
        labels = object["labels"]?.objectValue ?? [:]
        let found = self.kind
        if kind == .body, found == .hands {
            throw PoseKitError(
                .unknownKeypoints,
                "the keypoints (\(keypoints.prefix(3).joined(separator: ", "))…) are a hand's: this is a hand "
                    + "pose-track, and a body one is needed here (ptcoach poses VIDEO without --hands); for a hand "
                    + "exercise give it, e.g. --exercise finger-flexion (ptcoach exercises lists them)",
                line: 1
            )
        }
        if kind == .hands, found != .hands {
            throw PoseKitError(
                .unknownKeypoints,
                "none of the keypoint names (\(keypoints.prefix(4).joined(separator: ", "))…) is a hand keypoint; "
                    + "a hand pose-track names Apple Vision's hand joints: wrist, thumbCMC, …, littleTip "
                    + "(see pose-track.md; ptcoach poses VIDEO --hands writes one)",
                line: 1
            )
        }
        if joints.allSatisfy({ $0 == nil }), kind == .body {
            throw PoseKitError(
                .unknownKeypoints,
                "none of the keypoint names (\(keypoints.prefix(4).joined(separator: ", "))…) is known; "
                    + "use Apple Vision joint names such as leftShoulder, leftKnee (see pose-track.md)",
                line: 1
            )
        }
    }
}

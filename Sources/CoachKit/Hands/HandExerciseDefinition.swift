import Foundation
public import PoseKit

/// One hand exercise of the library, as declared in its JSON file (`Resources/Exercises/hands/SCHEMA.md`): the
/// hand's counterpart of ``ExerciseDefinition``, measured on the 21 keypoints of a hand (``HandMeasure``).
///
/// ```swift
/// let fist = try HandExerciseLibrary.bundled().exercise(id: "finger-flexion")
/// fist.primary                 // .fingerFlexion
/// fist.repetition.peak         // 220
/// ```
public struct HandExerciseDefinition: Sendable, Hashable {
    /// Which way the hand should face the camera for the exercise's angles to be trusted (``HandView``).
    public enum CameraView: String, Sendable, Hashable, Codable, CaseIterable {
        /// Palm or back toward the camera.
        case facing
        /// Thumb or little-finger side toward the camera.
        case side
        case any
    }

    /// Which hand the exercise is for.
    public enum HandSide: String, Sendable, Hashable, Codable, CaseIterable {
        case left, right
        /// Whichever hand is in view (the nearer one when both are).
        case either
    }

    /// What each finger's measurement is held against.
    public enum FingerMeasure: String, Sendable, Hashable, Codable, CaseIterable {
        /// The finger's MCP + PIP + DIP flexion (``HandMeasure/flexion(of:)``), the largest reached.
        case flexion
        /// The thumb tip's distance to the fingertip (hand lengths), the smallest reached.
        case opposition
    }

    /// When each finger is held against its target.
    public enum FingerScope: String, Sendable, Hashable, Codable, CaseIterable {
        /// In every repetition (a fist: every finger bends every time).
        case repetition
        /// Over the whole set (opposition: each repetition reaches one finger, the set should reach all).
        case set
    }

    /// Per-finger range of motion against a target, with its cue.
    public struct FingerTargets: Sendable, Hashable {
        public var measure: FingerMeasure
        public var scope: FingerScope
        /// The fingers held to the target (the four fingers by default; the thumb only for flexion).
        public var fingers: [Finger]
        public var min: Double?
        public var max: Double?
        /// The cue for a finger short of its target; `{finger}` is replaced by its name ("little").
        public var cue: String

        /// Whether `value` meets the target.
        public func accepts(_ value: Double) -> Bool { value >= (min ?? -.infinity) && value <= (max ?? .infinity) }

        /// How far `value` is from the target, in its units (0 when it meets it).
        public func shortfall(_ value: Double) -> Double {
            if let min, value < min { return min - value }
            if let max, value > max { return value - max }
            return 0
        }

        /// The cue for `finger`.
        public func cue(for finger: Finger) -> String {
            cue.replacingOccurrences(of: "{finger}", with: finger.rawValue)
        }
    }

    /// Repetitions counted as touches of the thumb on a finger (``TouchCounter``) instead of swings of the
    /// primary measurement.
    public struct TouchSpec: Sendable, Hashable {
        /// The thumb tip within this many hand lengths of a finger touches it.
        public var distance: Double
        /// Beyond this many hand lengths, the touch is let go.
        public var release: Double
        /// A touch on another finger counts without letting go in between (fingertip to fingertip in turn).
        public var newFinger: Bool
        /// Only the fingertips are targets (else every keypoint of the finger, MCP to tip).
        public var fingertipsOnly: Bool
    }

    public var id: String
    public var name: String
    public var summary: String
    public var view: CameraView
    public var side: HandSide
    /// The measurements reported, primary first.
    public var measures: [HandMeasure]
    /// The measurement repetitions are counted on.
    public var primary: HandMeasure
    public var repetition: ExerciseDefinition.RepetitionSpec
    /// The band the primary measurement should reach at each repetition's peak.
    public var target: ExerciseDefinition.TargetRange?
    /// What the coach says when a repetition falls short of ``target``.
    public var rangeCue: String
    public var fingerTargets: FingerTargets?
    /// Counted by touches, when set.
    public var touch: TouchSpec?
    public var praise: String
    /// The set-up line: how to place the hand and the camera.
    public var setUp: String

    /// The band of the primary measurement at the peak, as a range.
    public var targetBand: ClosedRange<Double>? { target.map { $0.min...$0.max } }
}

extension HandExerciseDefinition {
    /// Reads and validates a definition from its JSON text.
    ///
    /// - Parameter file: the file name used in error messages.
    /// - Throws: ``CoachKitError`` `.invalidDefinition` naming the file, the exercise and the field.
    public init(jsonText: String, file: String) throws(CoachKitError) {
        let json = try FieldReader.parse(jsonText, file: file)
        var reader = FieldReader(file: file)
        guard let object = json.objectValue else {
            throw reader.fail("", "the file must hold one JSON object with a hand exercise definition (see SCHEMA.md)")
        }
        let id = try reader.string(object, "id")
        reader.context = "hand exercise '\(id)': "
        guard !id.isEmpty, id.allSatisfy({ ($0.isLetter && $0.isLowercase) || $0.isNumber || $0 == "-" }) else {
            throw reader.fail("id", "must be lower-case letters, digits and '-' (got '\(id)')")
        }
        let known: Set<String> = [
            "id", "name", "summary", "view", "side", "kind", "measures", "primary", "repetition", "target", "rangeCue",
            "fingers", "touch", "praise", "setUp",
        ]
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw reader.fail(
                unknown,
                "is not a field of the hand schema (known: \(known.sorted().joined(separator: ", ")))"
            )
        }
        let kind = try reader.string(object, "kind")
        guard kind == "reps" else {
            throw reader.fail(
                "kind",
                "must be \"reps\" (hand exercises are repetitions; hold each with repetition.holdSeconds)"
            )
        }
        let measuresJSON = try reader.optionalArray(object, "measures")
        var measures: [HandMeasure] = []
        for (index, value) in measuresJSON.enumerated() {
            measures.append(try Self.measure(value, "measures[\(index)]", reader))
        }
        let primary = try Self.measure(object["primary"], "primary", reader)
        guard measures.first == primary else {
            throw reader.fail("primary", "'\(primary.rawValue)' must be listed first in \"measures\"")
        }

        guard let rep = object["repetition"]?.objectValue else {
            throw reader.fail("repetition", "is required: {\"start\": …, \"peak\": …}")
        }
        let start = try reader.number(rep, "repetition.start", key: "start")
        let peak = try reader.number(rep, "repetition.peak", key: "peak")
        guard start != peak else { throw reader.fail("repetition.peak", "must differ from repetition.start") }
        let towardPeak: ExerciseDefinition.Contraction = try reader.enumeration(
            rep,
            "towardPeak",
            default: .concentric,
            path: "repetition.towardPeak"
        )
        let minimumRange =
            try reader.optionalNumber(rep, "minimumRange", path: "repetition.minimumRange") ?? 0.3 * abs(peak - start)
        let minimumSeconds = try reader.optionalNumber(rep, "minimumSeconds", path: "repetition.minimumSeconds") ?? 0.4
        let maximumSeconds = try reader.optionalNumber(rep, "maximumSeconds", path: "repetition.maximumSeconds") ?? 20
        guard minimumRange > 0 else { throw reader.fail("repetition.minimumRange", "must be above 0") }
        guard minimumSeconds >= 0, maximumSeconds > minimumSeconds else {
            throw reader.fail("repetition.maximumSeconds", "must be above repetition.minimumSeconds")
        }
        var spec = ExerciseDefinition.RepetitionSpec(
            start: start,
            peak: peak,
            towardPeak: towardPeak,
            minimumRange: minimumRange,
            minimumSeconds: minimumSeconds,
            maximumSeconds: maximumSeconds
        )
        if let hold = try reader.optionalNumber(rep, "holdSeconds", path: "repetition.holdSeconds") {
            guard spec.acceptsHold(hold) else {
                throw reader.fail("repetition.holdSeconds", "must be above 0 and below repetition.maximumSeconds")
            }
            spec.holdSeconds = hold
        }

        var target: ExerciseDefinition.TargetRange?
        if let t = object["target"] {
            guard let t = t.objectValue else { throw reader.fail("target", "must be {\"min\": …, \"max\": …}") }
            let low = try reader.number(t, "target.min", key: "min")
            let high = try reader.number(t, "target.max", key: "max")
            guard low <= high else { throw reader.fail("target", "min must not be above max") }
            target = .init(min: low, max: high)
        }

        var fingerTargets: FingerTargets?
        if let f = object["fingers"] {
            guard let f = f.objectValue else {
                throw reader.fail("fingers", "must be {\"measure\": …, \"min\"/\"max\": …, \"cue\": …}")
            }
            let measure: FingerMeasure = try reader.enumeration(f, "measure", path: "fingers.measure")
            let scope: FingerScope = try reader.enumeration(f, "scope", default: .repetition, path: "fingers.scope")
            let low = try reader.optionalNumber(f, "min", path: "fingers.min")
            let high = try reader.optionalNumber(f, "max", path: "fingers.max")
            guard low != nil || high != nil else { throw reader.fail("fingers", "needs \"min\" or \"max\"") }
            let cue = try reader.string(f, "cue", path: "fingers.cue")
            var fingers: [Finger] = HandMeasure.fingers
            if let list = f["list"] {
                guard let array = list.arrayValue, !array.isEmpty else {
                    throw reader.fail("fingers.list", "must be a non-empty array of finger names")
                }
                fingers = []
                for value in array {
                    guard let name = value.stringValue, let finger = Finger(rawValue: name),
                        measure == .flexion || finger != .thumb
                    else {
                        throw reader.fail(
                            "fingers.list",
                            "must name fingers (thumb, index, middle, ring, little), got \(value.jsonText)"
                        )
                    }
                    fingers.append(finger)
                }
            }
            fingerTargets = FingerTargets(
                measure: measure,
                scope: scope,
                fingers: fingers,
                min: low,
                max: high,
                cue: cue
            )
        }

        var touch: TouchSpec?
        if let t = object["touch"] {
            guard let t = t.objectValue else {
                throw reader.fail("touch", "must be {\"distance\": …, \"release\": …, \"newFinger\": …}")
            }
            let distance = try reader.number(t, "touch.distance", key: "distance")
            let release = try reader.number(t, "touch.release", key: "release")
            guard distance > 0, release > distance else {
                throw reader.fail("touch.release", "must be above touch.distance, itself above 0")
            }
            guard case .bool(let newFinger)? = t["newFinger"] else {
                throw reader.fail("touch.newFinger", "must be true or false")
            }
            let points = try reader.optionalString(t, "points") ?? "fingers"
            guard points == "fingers" || points == "fingertips" else {
                throw reader.fail("touch.points", "must be \"fingers\" or \"fingertips\" (got \"\(points)\")")
            }
            guard primary == .thumbGap || primary == .thumbOpposition else {
                throw reader.fail(
                    "touch",
                    "counts the thumb's touches: the primary measure must be thumbGap or thumbOpposition"
                )
            }
            touch = TouchSpec(
                distance: distance,
                release: release,
                newFinger: newFinger,
                fingertipsOnly: points == "fingertips"
            )
        }

        self.init(
            id: id,
            name: try reader.string(object, "name"),
            summary: try reader.optionalString(object, "summary") ?? "",
            view: try reader.enumeration(object, "view", default: .any),
            side: try reader.enumeration(object, "side", default: .either),
            measures: measures,
            primary: primary,
            repetition: spec,
            target: target,
            rangeCue: try reader.optionalString(object, "rangeCue") ?? "Go a little further",
            fingerTargets: fingerTargets,
            touch: touch,
            praise: try reader.optionalString(object, "praise") ?? "Good rep!",
            setUp: try reader.optionalString(object, "setUp")
                ?? "Hold your hand up to the camera, all of it in the picture"
        )
    }

    private static func measure(
        _ value: JSONValue?,
        _ path: String,
        _ reader: FieldReader
    ) throws(CoachKitError)
        -> HandMeasure
    {
        guard let value else { throw reader.fail(path, "is missing") }
        guard let name = value.stringValue, let measure = HandMeasure(rawValue: name) else {
            throw reader.fail(
                path,
                "must be a hand measure (\(HandMeasure.allCases.map(\.rawValue).joined(separator: ", "))), got \(value.jsonText)"
            )
        }
        return measure
    }
}

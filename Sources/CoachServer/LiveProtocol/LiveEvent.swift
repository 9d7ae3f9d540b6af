import CoachKit
import Foundation

/// The coach's state after a frame, as a `frame` message carries it (what the overlay draws). A hand set's adds
/// `hand: true`.
struct LiveState: Codable, Hashable, Sendable {
    var hand: Bool?
    @Nullable var exercise: String?
    @Nullable var exerciseName: String?
    @Nullable var confidence: Double?
    var recognition: String
    /// No exercise given: the sentence said instead of the name while the exercise recognised is below the fitted
    /// confidence (``RecognitionConfidence``).
    @Nullable var unsure: String?
    var reps: Int
    /// A repetition the recognised exercise's counter found and the movement has not confirmed (0 or 1).
    var provisionalReps: Int
    @Nullable var prescribedReps: Int?
    @Nullable var angle: Double?
    @Nullable var angleKind: String?
    @Nullable var angleName: String?
    @Nullable var angleUnit: String?
    @Nullable var angleJoint: String?
    @Nullable var side: String?
    /// The target band; a bound that is not finite is `null`, as every number of the state.
    @Nullable var target: [Double?]?
    /// `null` where the view cannot measure the range (no gauge drawn; the repetitions say "not measurable").
    @Nullable var rangeOfMotion: Double?
    @Nullable var cue: String?
    @Nullable var cueKind: Cue.Kind?
    @Nullable var warning: String?
    /// The set-up guidance in force (the person is not measurable as they stand).
    @Nullable var setup: String?
    @Nullable var hold: Hold?
    @Nullable var peakHold: Hold?

    struct Hold: Codable, Hashable, Sendable {
        @Nullable var heldSeconds: Double?
        @Nullable var targetSeconds: Double?
        var holding: Bool
    }
}

/// What happened at a frame (or at a set's end), as the `events` of `frame` and `summary` messages carry it.
enum LiveEvent: Codable, Hashable, Sendable {
    /// A repetition completed: the object of `ptcoach analyze --json`.
    case rep(Repetition)
    case repsRevised([Repetition])
    case repProvisional(Repetition)
    case repProvisionalEnded(confirmed: Bool)
    case cue(kind: Cue.Kind, text: String, seconds: Double)
    case warning(text: String, angle: String, value: Double, limit: Double)
    case hold(heldSeconds: Double, targetSeconds: Double, holding: Bool)
    /// `state`: `noPerson`, `lowConfidence`, or `exercise` with its id and confidence.
    case recognized(state: String, exercise: String?, confidence: Double?)
    case setup(text: String)
    /// A hand repetition completed: the object `analyze --json` gives for one.
    case handRep(HandSessionSummary.Repetition)
    case gesture(command: HandGestureControl.Command)

    private enum Key: String, CodingKey {
        case type, repetition, repetitions, confirmed, kind, text, seconds, angle, value, limit
        case heldSeconds, targetSeconds, holding, state, exercise, confidence, command
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        let type = try c.decode(String.self, forKey: .type)
        switch type {
        case "rep": self = .rep(try c.decode(Repetition.self, forKey: .repetition))
        case "repsRevised": self = .repsRevised(try c.decode([Repetition].self, forKey: .repetitions))
        case "repProvisional": self = .repProvisional(try c.decode(Repetition.self, forKey: .repetition))
        case "repProvisionalEnded": self = .repProvisionalEnded(confirmed: try c.decode(Bool.self, forKey: .confirmed))
        case "cue":
            self = .cue(
                kind: try c.decode(Cue.Kind.self, forKey: .kind),
                text: try c.decode(String.self, forKey: .text),
                seconds: try c.decode(Double.self, forKey: .seconds)
            )
        case "warning":
            self = .warning(
                text: try c.decode(String.self, forKey: .text),
                angle: try c.decode(String.self, forKey: .angle),
                value: try c.decode(Double.self, forKey: .value),
                limit: try c.decode(Double.self, forKey: .limit)
            )
        case "hold":
            self = .hold(
                heldSeconds: try c.decode(Double.self, forKey: .heldSeconds),
                targetSeconds: try c.decode(Double.self, forKey: .targetSeconds),
                holding: try c.decode(Bool.self, forKey: .holding)
            )
        case "recognized":
            self = .recognized(
                state: try c.decode(String.self, forKey: .state),
                exercise: try c.decodeIfPresent(String.self, forKey: .exercise),
                confidence: try c.decodeIfPresent(Double.self, forKey: .confidence)
            )
        case "setup": self = .setup(text: try c.decode(String.self, forKey: .text))
        case "handRep": self = .handRep(try c.decode(HandSessionSummary.Repetition.self, forKey: .repetition))
        case "gesture": self = .gesture(command: try c.decode(HandGestureControl.Command.self, forKey: .command))
        default:
            throw DecodingError.dataCorruptedError(forKey: .type, in: c, debugDescription: "unknown event \"\(type)\"")
        }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        switch self {
        case .rep(let repetition):
            try c.encode("rep", forKey: .type)
            try c.encode(repetition, forKey: .repetition)
        case .repsRevised(let repetitions):
            try c.encode("repsRevised", forKey: .type)
            try c.encode(repetitions, forKey: .repetitions)
        case .repProvisional(let repetition):
            try c.encode("repProvisional", forKey: .type)
            try c.encode(repetition, forKey: .repetition)
        case .repProvisionalEnded(let confirmed):
            try c.encode("repProvisionalEnded", forKey: .type)
            try c.encode(confirmed, forKey: .confirmed)
        case .cue(let kind, let text, let seconds):
            try c.encode("cue", forKey: .type)
            try c.encode(kind, forKey: .kind)
            try c.encode(text, forKey: .text)
            try c.encode(seconds, forKey: .seconds)
        case .warning(let text, let angle, let value, let limit):
            try c.encode("warning", forKey: .type)
            try c.encode(text, forKey: .text)
            try c.encode(angle, forKey: .angle)
            try c.encode(value, forKey: .value)
            try c.encode(limit, forKey: .limit)
        case .hold(let heldSeconds, let targetSeconds, let holding):
            try c.encode("hold", forKey: .type)
            try c.encode(heldSeconds, forKey: .heldSeconds)
            try c.encode(targetSeconds, forKey: .targetSeconds)
            try c.encode(holding, forKey: .holding)
        case .recognized(let state, let exercise, let confidence):
            try c.encode("recognized", forKey: .type)
            try c.encode(state, forKey: .state)
            try c.encodeIfPresent(exercise, forKey: .exercise)
            try c.encodeIfPresent(confidence, forKey: .confidence)
        case .setup(let text):
            try c.encode("setup", forKey: .type)
            try c.encode(text, forKey: .text)
        case .handRep(let repetition):
            try c.encode("handRep", forKey: .type)
            try c.encode(repetition, forKey: .repetition)
        case .gesture(let command):
            try c.encode("gesture", forKey: .type)
            try c.encode(command, forKey: .command)
        }
    }
}

/// A JSON document carried as it is: the `analyze --json` summary inside a `summary` message, whose shape is
/// CoachKit's (``CoachKit/SessionSummary``, ``CoachKit/HandSessionSummary``), not the protocol's.
enum EmbeddedJSON: Codable, Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([EmbeddedJSON])
    case object([String: EmbeddedJSON])

    /// The document `text` holds.
    ///
    /// - Throws: `DecodingError` when `text` is not JSON.
    init(text: String) throws {
        self = try JSONDecoder.coach().decode(EmbeddedJSON.self, from: Data(text.utf8))
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let bool = try? c.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? c.decode(Double.self) {
            self = .number(number)
        } else if let string = try? c.decode(String.self) {
            self = .string(string)
        } else if let array = try? c.decode([EmbeddedJSON].self) {
            self = .array(array)
        } else {
            self = .object(try c.decode([String: EmbeddedJSON].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let bool): try c.encode(bool)
        case .number(let number): try c.encode(number)
        case .string(let string): try c.encode(string)
        case .array(let array): try c.encode(array)
        case .object(let object): try c.encode(object)
        }
    }
}

import CoachKit
import CoachStore
import Foundation

/// A message the server sends on the live socket (docs/live-protocol.md): `ready` after a `start`, one `frame` per
/// frame coached, `summary` at a set's end, `error` for a message refused. The one place their JSON shapes are
/// written: a field documented as `null` when absent is ``Nullable``; one that only some messages carry is an
/// optional left out when `nil`.
///
/// ```swift
/// let text = ServerMessage.error(.init(.notStarted, "send a start first")).jsonText
/// // {"code":"not-started","message":"send a start first","type":"error"}
/// ```
enum ServerMessage: Codable, Hashable, Sendable {
    case ready(Ready)
    case frame(Frame)
    case summary(Summary)
    case error(ErrorMessage)
    /// A patient's set: the therapists watching it now (docs/live-watch.md).
    case watchers(Watchers)
    /// A patient's set: what their therapist sent (a message, pause, resume, end).
    case therapist(TherapistMessage)

    private enum TypeKey: String, CodingKey { case type }

    init(from decoder: any Decoder) throws {
        let type = try decoder.container(keyedBy: TypeKey.self).decode(String.self, forKey: .type)
        switch type {
        case "ready": self = .ready(try Ready(from: decoder))
        case "frame": self = .frame(try Frame(from: decoder))
        case "summary": self = .summary(try Summary(from: decoder))
        case "error": self = .error(try ErrorMessage(from: decoder))
        case "watchers": self = .watchers(try Watchers(from: decoder))
        case "therapist": self = .therapist(try TherapistMessage(from: decoder))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .type,
                in: try decoder.container(keyedBy: TypeKey.self),
                debugDescription: "unknown server message type \"\(type)\""
            )
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: TypeKey.self)
        switch self {
        case .ready(let ready):
            try container.encode("ready", forKey: .type)
            try ready.encode(to: encoder)
        case .frame(let frame):
            try container.encode("frame", forKey: .type)
            try frame.encode(to: encoder)
        case .summary(let summary):
            try container.encode("summary", forKey: .type)
            try summary.encode(to: encoder)
        case .error(let error):
            try container.encode("error", forKey: .type)
            try error.encode(to: encoder)
        case .watchers(let watchers):
            try container.encode("watchers", forKey: .type)
            try watchers.encode(to: encoder)
        case .therapist(let message):
            try container.encode("therapist", forKey: .type)
            try message.encode(to: encoder)
        }
    }

    /// The message as sent: the coach's JSON (sorted keys, non-finite numbers as "nan"/"inf", as
    /// `ptcoach analyze --json` writes the repetitions it carries).
    var jsonText: String {
        // The coach's encoder writes non-finite numbers as strings, so these types always encode.
        (try? JSONEncoder.coach().encode(self)).map { String(decoding: $0, as: UTF8.self) }
            ?? #"{"code":"internal","message":"the server could not write its answer","type":"error"}"#
    }

    // MARK: - ready

    /// The answer to `start`: the set is open.
    struct Ready: Codable, Hashable, Sendable {
        var session: String
        var input: LiveInput
        var maxFrameBytes: Int
        @Nullable var exercise: Exercise?
        @Nullable var reps: Int?
        @Nullable var practice: SetRecord.Practice?
        /// Only for a set of the patient's programme.
        var programme: Programme?

        struct Exercise: Codable, Hashable, Sendable {
            var id: String
            var name: String
            var view: String
            /// A hand exercise's additions (`hand: true`, the set-up line, how to use the gestures); absent for a
            /// body exercise.
            var hand: Bool?
            var setUp: String?
            var gestures: String?
        }

        struct Programme: Codable, Hashable, Sendable {
            var item: Int
            /// `null` for practice.
            @Nullable var set: Int?
            var sets: Int
            var restSeconds: Double
            @Nullable var holdSeconds: Double?
            var note: String
            @Nullable var target: [Double]?
        }
    }

    // MARK: - frame

    /// The answer to one frame coached: the pose (or the hands), the coach's state after it, what happened at it.
    struct Frame: Codable, Hashable, Sendable {
        var id: Int
        var t: Double
        var dropped: Int
        var serverMs: Double
        /// Keypoints by joint name, `[x, y, c]`; `null` when nobody is seen (and for a hand set).
        @Nullable var pose: [String: [Double]]?
        /// A hand set's hands and gesture state; absent for a body set.
        var hands: [Hand]?
        var gesture: Gesture?
        var state: LiveState
        var events: [LiveEvent]

        struct Hand: Codable, Hashable, Sendable {
            var side: String
            var coached: Bool
            var gesture: Bool
            var keypoints: [String: [Double]]
        }

        struct Gesture: Codable, Hashable, Sendable {
            var state: String
            var pinch: String
            @Nullable var hand: Int?
            var set: HandGestureControl.SetState
            @Nullable var command: HandGestureControl.Command?
            var hint: String
        }
    }

    // MARK: - summary

    /// The end of a set: the events of its end, the `analyze --json` summary, the report's links.
    struct Summary: Codable, Hashable, Sendable {
        var session: String
        var dropped: Int
        var events: [LiveEvent]
        /// What kept the coach from coaching, or the summary from being saved.
        @Nullable var message: String? = nil
        /// The advice when the set crossed a safety limit of a patient's programme.
        @Nullable var stop: String? = nil
        @Nullable var practice: SetRecord.Practice? = nil
        var hand: Bool
        /// ``RecognitionConfidence/unsureSentence`` when the exercise the summary names was recognised below the
        /// fitted confidence: the page says the count without naming it.
        @Nullable var unsure: String? = nil
        @Nullable var report: ReportLinks? = nil
        /// `ptcoach analyze --json`'s object (its shape is CoachKit's); `null` when no frame was coached.
        @Nullable var summary: EmbeddedJSON? = nil
    }

    struct ReportLinks: Codable, Hashable, Sendable {
        var html: String
        var pdf: String

        init(session: String) {
            html = "/api/sessions/\(session)/report.html"
            pdf = "/api/sessions/\(session)/report.pdf"
        }
    }

    // MARK: - error

    /// A message refused: the session goes on (except after `busy`, which the socket's close follows).
    struct ErrorMessage: Codable, Hashable, Sendable {
        var code: LiveProtocolError.Code
        var message: String
        /// Only with `busy`: when to try again.
        var retryAfterSeconds: Int?

        init(_ code: LiveProtocolError.Code, _ message: String, retryAfterSeconds: Int? = nil) {
            self.code = code
            self.message = message
            self.retryAfterSeconds = retryAfterSeconds
        }

        init(_ error: LiveProtocolError) {
            self.init(error.code, error.message, retryAfterSeconds: error.retryAfterSeconds)
        }
    }
}

/// What a set's frames are: camera JPEGs (binary messages) or pose-track frame objects (text).
enum LiveInput: String, Codable, Hashable, Sendable { case camera, keypoints }

/// A value encoded as JSON `null` when `nil`, rather than left out: the protocol's fields that are always there.
@propertyWrapper
struct Nullable<Value: Codable & Hashable & Sendable>: Codable, Hashable, Sendable {
    var wrappedValue: Value?

    init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

extension KeyedDecodingContainer {
    /// A ``Nullable`` field may also be missing (a client that leaves it out): it reads as `nil`.
    func decode<Value>(_ type: Nullable<Value>.Type, forKey key: Key) throws -> Nullable<Value> {
        try decodeIfPresent(type, forKey: key) ?? Nullable(wrappedValue: nil)
    }
}

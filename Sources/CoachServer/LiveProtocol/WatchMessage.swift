import CoachKit
import Foundation

// The watch socket's messages (docs/live-protocol.md, section 6; docs/live-watch.md): a therapist follows a patient's
// set live, as skeleton and numbers. The frames and the summary are the patient's own `frame` and `summary` messages,
// passed on as they were sent (at most 15 frames a second, and every frame that carries an event).

extension ServerMessage {
    /// `{"type":"watchers","watchers":["Dr Ann Smith"]}`: the therapists watching the patient's set now.
    struct Watchers: Codable, Hashable, Sendable {
        var watchers: [String]
    }

    /// `{"type":"therapist","command":"message","text":"…","from":"Dr Ann Smith"}`: what the therapist sent; the
    /// coaching page shows and says a message, pauses or resumes sending frames, and `end` ends the set (the server
    /// has ended it already: its summary follows).
    struct TherapistMessage: Codable, Hashable, Sendable {
        var command: WatchCommand.Kind
        @Nullable var text: String?
        var from: String
    }
}

/// What the therapist's watch socket sends: a short message the patient's page shows and says, or pause, resume, end.
struct WatchCommand: Codable, Hashable, Sendable {
    enum Kind: String, Codable, Hashable, Sendable { case message, pause, resume, end }

    var type: Kind
    var text: String?

    /// The longest message, in characters.
    static let maxText = 200

    /// The command a text holds.
    ///
    /// - Throws: ``LiveProtocolError`` `bad-json` or `bad-message` (unknown type, a message without text, too long,
    ///   or with a control character).
    static func decode(_ text: String) throws(LiveProtocolError) -> WatchCommand {
        guard text.utf8.count <= 4096 else {
            throw LiveProtocolError(.badJSON, "a command of \(text.utf8.count) bytes is over the limit of 4096")
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) else {
            throw LiveProtocolError(.badJSON, "the command is not valid JSON; send one JSON object")
        }
        guard var command = try? JSONDecoder().decode(WatchCommand.self, from: Data(text.utf8)) else {
            let type = (object as? [String: Any])?["type"].map { "\($0)" } ?? "none"
            throw LiveProtocolError(
                .badMessage,
                "unknown command (type \(type)); the types are message (with a text), pause, resume and end"
            )
        }
        if command.type == .message {
            let words = (command.text ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            if let problem = TypedText.lineProblem(words, field: "the message", characters: 1...maxText) {
                throw LiveProtocolError(.badMessage, problem)
            }
            command.text = words
        } else {
            command.text = nil
        }
        return command
    }
}

/// A message of the watch socket, server to therapist.
enum WatchMessage: Codable, Hashable, Sendable {
    /// The first answer: whose sets this socket shows.
    case watching(Watching)
    /// The patient's set as it stands (sent when a set starts, when a watcher joins, at a pause): `session` `null`
    /// when the patient's page is open and no set runs.
    case set(WatchedSet)
    case frame(ServerMessage.Frame)
    case summary(ServerMessage.Summary)
    /// A therapist's command reached the patient's page.
    case delivered(Delivered)
    /// The patient's page closed its socket.
    case offline(Offline)
    case error(ServerMessage.ErrorMessage)

    struct Watching: Codable, Hashable, Sendable {
        var patient: String
        var name: String
    }

    struct WatchedSet: Codable, Hashable, Sendable {
        var patient: String
        @Nullable var session: String?
        @Nullable var exercise: ServerMessage.Ready.Exercise?
        @Nullable var reps: Int?
        var programme: ServerMessage.Ready.Programme?
        /// The patient's picture, in pixels: the keypoints' frame (`null` until the first frame is coached).
        @Nullable var width: Int?
        @Nullable var height: Int?
        /// The repetitions counted so far (as the `rep` and `repsRevised` events tell them).
        var repetitions: [Repetition]
        var paused: Bool
        var watchers: [String]
    }

    struct Delivered: Codable, Hashable, Sendable {
        var command: WatchCommand.Kind
        @Nullable var text: String?
        var from: String
    }

    struct Offline: Codable, Hashable, Sendable {
        var patient: String
    }

    private enum TypeKey: String, CodingKey { case type }

    init(from decoder: any Decoder) throws {
        let type = try decoder.container(keyedBy: TypeKey.self).decode(String.self, forKey: .type)
        switch type {
        case "watching": self = .watching(try Watching(from: decoder))
        case "set": self = .set(try WatchedSet(from: decoder))
        case "frame": self = .frame(try ServerMessage.Frame(from: decoder))
        case "summary": self = .summary(try ServerMessage.Summary(from: decoder))
        case "delivered": self = .delivered(try Delivered(from: decoder))
        case "offline": self = .offline(try Offline(from: decoder))
        case "error": self = .error(try ServerMessage.ErrorMessage(from: decoder))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .type,
                in: try decoder.container(keyedBy: TypeKey.self),
                debugDescription: "unknown watch message type \"\(type)\""
            )
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: TypeKey.self)
        let body: any Encodable
        switch self {
        case .watching(let value): (body, _) = (value, try container.encode("watching", forKey: .type))
        case .set(let value): (body, _) = (value, try container.encode("set", forKey: .type))
        case .frame(let value): (body, _) = (value, try container.encode("frame", forKey: .type))
        case .summary(let value): (body, _) = (value, try container.encode("summary", forKey: .type))
        case .delivered(let value): (body, _) = (value, try container.encode("delivered", forKey: .type))
        case .offline(let value): (body, _) = (value, try container.encode("offline", forKey: .type))
        case .error(let value): (body, _) = (value, try container.encode("error", forKey: .type))
        }
        try body.encode(to: encoder)
    }

    /// The message as sent (the coach's JSON, as ``ServerMessage/jsonText``).
    var jsonText: String {
        (try? JSONEncoder.coach().encode(self)).map { String(decoding: $0, as: UTF8.self) }
            ?? #"{"code":"internal","message":"the server could not write its answer","type":"error"}"#
    }

    /// The types of this socket's own messages (`frame`, `summary` and `error` are the live socket's).
    static let ownTypes: Set<String> = ["watching", "set", "delivered", "offline"]
}

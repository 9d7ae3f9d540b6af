import Foundation

/// A message refused on the live socket: its code and one line saying what was wrong and what to send instead. The
/// socket answers it with one `error` message and goes on (docs/live-protocol.md, "Errors").
struct LiveProtocolError: Error, Hashable, Sendable {
    enum Code: String, Codable, Hashable, Sendable {
        case badJSON = "bad-json"
        case badMessage = "bad-message"
        case unknownExercise = "unknown-exercise"
        case badFrame = "bad-frame"
        case notStarted = "not-started"
        case stopped
        case storage
        case busy
        case poseModel = "pose-model"
        case handModel = "hand-model"
        /// The watch socket: nobody logged in.
        case unauthorized
        /// The watch socket: not the patient's own therapist.
        case forbidden
        case internalError = "internal"
    }

    var code: Code
    var message: String
    /// Only with `busy`: when to try again.
    var retryAfterSeconds: Int?

    init(_ code: Code, _ message: String, retryAfterSeconds: Int? = nil) {
        self.code = code
        self.message = message
        self.retryAfterSeconds = retryAfterSeconds
    }
}

/// A text message the client sends: `start`, a keypoint `frame`, or `end`.
enum ClientMessage: Sendable {
    case start(StartMessage)
    /// A pose-track frame object with an `id`; its poses are read by the set's pose-track decoder (PoseKit's
    /// format, `pose-track.md`).
    case frame(id: Int, text: String)
    case end

    private struct Envelope: Decodable { var type: String }
    private struct FrameID: Decodable { var id: Int }

    /// The message a text holds.
    ///
    /// - Throws: ``LiveProtocolError``: `bad-json` for text that is not JSON (or is over `maxBytes`),
    ///   `bad-message` for an object without a known `type` or a `start` with a field of the wrong type,
    ///   `bad-frame` for a frame without an `id`.
    static func decode(_ text: String, maxBytes: Int) throws(LiveProtocolError) -> ClientMessage {
        guard text.utf8.count <= maxBytes else {
            throw LiveProtocolError(
                .badJSON,
                "a text message of \(text.utf8.count) bytes is over the limit of \(maxBytes)"
            )
        }
        let data = Data(text.utf8)
        let decoder = JSONDecoder()
        let type: String
        do {
            type = try decoder.decode(Envelope.self, from: data).type
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            throw LiveProtocolError(.badJSON, "the message is not valid JSON; send one JSON object")
        } catch {
            throw LiveProtocolError(
                .badMessage,
                "a message must be a JSON object with a \"type\" (start, frame, end)"
            )
        }
        switch type {
        case "start":
            do {
                return .start(try decoder.decode(StartMessage.self, from: data))
            } catch {
                throw LiveProtocolError(.badMessage, StartMessage.problem(error))
            }
        case "frame":
            guard let frame = try? decoder.decode(FrameID.self, from: data), frame.id >= 0 else {
                throw LiveProtocolError(.badFrame, "a frame needs an \"id\", a whole number ≥ 0")
            }
            return .frame(id: frame.id, text: text)
        case "end":
            return .end
        default:
            throw LiveProtocolError(
                .badMessage,
                "unknown message type \"\(type)\"; the types are start, frame and end"
            )
        }
    }
}

/// `{"type": "start", …}`: what the client asks to be coached. The fields as docs/live-protocol.md lists them;
/// ``validate()`` checks what can be checked without the library or the store.
///
/// ```swift
/// let start = try JSONDecoder().decode(StartMessage.self, from: Data(#"{"type":"start","exercise":"squat"}"#.utf8))
/// try start.validate()
/// ```
struct StartMessage: Codable, Hashable, Sendable {
    var type = "start"
    var input: LiveInput?
    /// A library id (body or hand); `nil` to recognise the exercise.
    var exercise: String?
    var reps: Int?
    var holdSeconds: Double?
    /// A logged-in patient's programme item (0-based).
    var programmeItem: Int?
    /// The frames come from a sample video, not the person.
    var sample: Bool?
    /// A hand set waits for a held pinch before it counts.
    var startOnPinch: Bool?
    // `input: "keypoints"` only: the pose-track header's fields.
    var keypoints: [String]?
    var width: Int?
    var height: Int?
    var dimensions: Int?
    var fps: Double?

    /// The input the frames will come as (camera unless said).
    var frames: LiveInput { input ?? .camera }

    /// What each field must be, for the message about a field of the wrong type.
    private static let expected: [String: String] = [
        "input": "\"camera\" or \"keypoints\"",
        "exercise": "an exercise id (GET /api/exercises lists them), or null to recognise it",
        "reps": "a whole number from 1 to 1000 (the repetitions prescribed)",
        "holdSeconds": "a number of seconds above 0",
        "programmeItem": "the index of an exercise of your current programme",
        "sample": "true or false", "startOnPinch": "true or false",
        "keypoints": "an array of keypoint names (pose-track.md)",
        "width": "a whole number of pixels", "height": "a whole number of pixels",
        "dimensions": "2 or 3", "fps": "a number of frames a second",
    ]

    /// One line for a start message JSON could not decode: the field and what it must be.
    static func problem(_ error: any Error) -> String {
        let path: [any CodingKey]
        switch error as? DecodingError {
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?, .dataCorrupted(let context)?:
            path = context.codingPath
        case .keyNotFound(let key, let context)?: path = context.codingPath + [key]
        default: path = []
        }
        guard let field = path.first?.stringValue else { return "the start message could not be read (\(error))" }
        return "\"\(field)\" must be \(expected[field] ?? "as docs/live-protocol.md says")"
    }

    /// Checks the fields that need neither the library nor the store.
    ///
    /// - Throws: ``LiveProtocolError`` `bad-message` naming the field.
    func validate() throws(LiveProtocolError) {
        if let reps, programmeItem == nil, !(1...1000).contains(reps) {
            throw LiveProtocolError(.badMessage, "\"reps\" must be " + Self.expected["reps"]!)
        }
        if let holdSeconds, programmeItem == nil, !(holdSeconds.isFinite && holdSeconds > 0) {
            throw LiveProtocolError(.badMessage, "\"holdSeconds\" must be " + Self.expected["holdSeconds"]!)
        }
        if let programmeItem, programmeItem < 0 {
            throw LiveProtocolError(.badMessage, "\"programmeItem\" must be " + Self.expected["programmeItem"]!)
        }
    }
}

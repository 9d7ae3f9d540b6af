import CoachKit
import CoachStore
import Foundation
import Hummingbird
import NIOCore

// The JSON API's answers as the server's own wire types (never the domain's), encoded by the context's encoder.

/// Dates on the wire: ISO 8601, UTC, whole seconds.
enum WireDate {
    static func string(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }
}

/// `{"ok": true}`.
struct OKResponse: ResponseEncodable {
    var ok = true
}

/// `GET /health`.
struct HealthResponse: ResponseEncodable {
    var status = "ok"
    var sessions: Int
}

/// A user as the clinic's pages show them.
struct UserResponse: ResponseEncodable {
    var id: String
    var name: String
    var role: Role
    var joined: Bool

    init(_ user: User) {
        (id, name, role, joined) = (user.id, user.name, user.role, user.login != nil)
    }
}

/// `GET /api/me`, and the answer to a login or a join: who is logged in and their CSRF token; `{"user": null}`
/// when nobody is.
struct MeResponse: ResponseEncodable {
    struct Me: Codable, Hashable, Sendable {
        var id: String
        var name: String
        var role: Role
        var joined: Bool
        @Nullable var login: String?
    }

    @Nullable var user: Me?
    var csrfToken: String?

    init(_ viewer: Viewer?) {
        user = viewer.map {
            Me(
                id: $0.user.id,
                name: $0.user.name,
                role: $0.user.role,
                joined: $0.user.login != nil,
                login: $0.user.login
            )
        }
        csrfToken = viewer?.session.csrfToken
    }
}

/// A new invitation code (shown once: the store keeps its hash).
struct InvitationResponse: ResponseEncodable {
    var code: String
    var expiresAt: String
    var link: String
}

/// `POST /api/patients`: the patient added and their invitation.
struct NewPatientResponse: ResponseEncodable {
    var id: String
    var name: String
    var role: Role
    var joined: Bool
    var invitation: InvitationResponse
}

/// One line of a patient's audit log.
struct AuditEntryResponse: ResponseEncodable {
    var at: String
    var who: String
    var whoID: String
    var action: String

    init(_ entry: AuditEntry) {
        (at, who, whoID, action) = (WireDate.string(entry.at), entry.actorName, entry.actorID, entry.action)
    }
}

/// `POST /api/sessions/ID/rating`: the stop advice after pain 7 or more, else `null`.
struct RatingResponse: ResponseEncodable {
    var ok = true
    @Nullable var stop: String?
}

/// An exercise of `GET /api/exercises`; a hand exercise adds `"hand": true`. `handsOverhead`: the exercise's own
/// movement puts the hands above the head, so the page does not offer its hands-up end gesture.
struct ExerciseResponse: ResponseEncodable {
    var id: String
    var name: String
    var view: String
    var kind: String
    var summary: String
    var primary: String
    var handsOverhead: Bool?
    var hand: Bool?
    /// An exercise of the clinic's own library (learned from a demonstration).
    var clinic: Bool?
}

/// A sample video of `GET /api/samples`.
struct SampleResponse: ResponseEncodable {
    var name: String
    var url: String
    var exercise: String
    @Nullable var reps: Int?
}

/// A saved set, as listed and as `GET /api/sessions/ID` gives it (with its summary, or the repetitions saved so
/// far while it has none).
struct SetResponse: ResponseEncodable {
    var id: String
    var startedAt: String
    @Nullable var endedAt: String?
    var input: String
    @Nullable var exercise: String?
    @Nullable var exerciseName: String?
    @Nullable var prescribedReps: Int?
    @Nullable var prescribedHoldSeconds: Double?
    var reps: Int
    var status: SetRecord.Status
    @Nullable var programmeItem: Int?
    @Nullable var setNumber: Int?
    @Nullable var pain: Int?
    @Nullable var difficulty: Int?
    @Nullable var peakAngle: Double?
    var safetyWarnings: Int
    @Nullable var practice: SetRecord.Practice?
    @Nullable var programmeVersion: Int?
    @Nullable var prescription: Prescription?
    @Nullable var stop: String?
    @Nullable var reviewedAt: String?
    @Nullable var report: ServerMessage.ReportLinks?
    /// Only in `GET /api/sessions/ID`: the `analyze --json` summary, or the repetitions saved while it has none.
    var summary: EmbeddedJSON?
    var repetitions: [Repetition]?

    init(_ set: SetRecord) {
        let hasSummary = set.summaryJSON != nil && set.summaryJSON != "null"
        id = set.id
        startedAt = WireDate.string(set.startedAt)
        _endedAt = Nullable(wrappedValue: set.endedAt.map(WireDate.string))
        input = set.input
        _exercise = Nullable(wrappedValue: set.exercise)
        _exerciseName = Nullable(wrappedValue: set.exerciseName)
        _prescribedReps = Nullable(wrappedValue: set.prescribedReps)
        _prescribedHoldSeconds = Nullable(wrappedValue: set.prescribedHoldSeconds)
        reps = set.reps
        status = set.status
        _programmeItem = Nullable(wrappedValue: set.programmeItem)
        _setNumber = Nullable(wrappedValue: set.setNumber)
        _pain = Nullable(wrappedValue: set.pain)
        _difficulty = Nullable(wrappedValue: set.difficulty)
        _peakAngle = Nullable(wrappedValue: set.peakAngle)
        safetyWarnings = set.safetyWarnings
        _practice = Nullable(wrappedValue: set.practice)
        _programmeVersion = Nullable(wrappedValue: set.programmeVersion)
        _prescription = Nullable(wrappedValue: set.prescription)
        _stop = Nullable(wrappedValue: set.stopReason)
        _reviewedAt = Nullable(wrappedValue: set.reviewedAt.map(WireDate.string))
        _report = Nullable(wrappedValue: hasSummary ? ServerMessage.ReportLinks(session: set.id) : nil)
    }
}

/// A JSON value or `null` (a route whose answer may be nothing, as `GET /api/me/programme` without a programme:
/// Hummingbird answers a `nil` with 204, the pages expect `null`).
struct OptionalResponse<Value: Encodable & Sendable>: ResponseEncodable {
    var value: Value?

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

/// Bytes of a report or an export, with their type.
struct FileResponse: ResponseGenerator {
    var bytes: [UInt8]
    var contentType: String
    var disposition: String?

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers: HTTPFields = [.contentType: contentType]
        if let disposition { headers[.contentDisposition] = disposition }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}

/// The formats of a report: `report.html` and `report.pdf` in a route's path.
enum ReportFormat: String, Sendable, CaseIterable {
    case html
    case pdf

    /// The format a path's last component names (`report.html`), or `nil`.
    init?(fileName: String) {
        guard fileName.hasPrefix("report.") else { return nil }
        self.init(rawValue: String(fileName.dropFirst("report.".count)))
    }

    var contentType: String {
        switch self {
        case .html: "text/html; charset=utf-8"
        case .pdf: "application/pdf"
        }
    }
}

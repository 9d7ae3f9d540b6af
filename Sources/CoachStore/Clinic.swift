public import CoachKit
public import Foundation

/// Who uses the clinic: a therapist follows patients; a patient does their programme.
public enum Role: String, Sendable, Hashable, Codable {
    case therapist
    case patient
}

/// An account. A patient created by a therapist has no login until they redeem their invitation.
public struct User: Sendable, Hashable, Codable {
    public var id: String
    public var role: Role
    public var name: String
    /// What the person logs in with (an e-mail address or a name), unique; `nil` before the invitation is used.
    public var login: String?
    /// bcrypt hash; `nil` before the invitation is used.
    public var passwordHash: String?
    /// A patient's therapist.
    public var therapistID: String?
    public var createdAt: Date

    public init(
        id: String = UUID().uuidString,
        role: Role,
        name: String,
        login: String?,
        passwordHash: String?,
        therapistID: String?,
        createdAt: Date = .now
    ) {
        self.id = id
        self.role = role
        self.name = name
        self.login = login
        self.passwordHash = passwordHash
        self.therapistID = therapistID
        self.createdAt = createdAt
    }
}

/// A logged-in browser: the cookie holds the token, the store only its SHA-256.
public struct LoginSession: Sendable, Hashable {
    public var tokenHash: String
    public var userID: String
    /// Sent back in `X-CSRF-Token` with every state-changing request.
    public var csrfToken: String
    public var createdAt: Date
    public var expiresAt: Date

    public init(tokenHash: String, userID: String, csrfToken: String, createdAt: Date, expiresAt: Date) {
        self.tokenHash = tokenHash
        self.userID = userID
        self.csrfToken = csrfToken
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// A one-time code a therapist gives a new patient to choose their login and password.
public struct Invitation: Sendable, Hashable {
    public var codeHash: String
    public var patientID: String
    public var expiresAt: Date
    public var usedAt: Date?

    public init(codeHash: String, patientID: String, expiresAt: Date, usedAt: Date? = nil) {
        self.codeHash = codeHash
        self.patientID = patientID
        self.expiresAt = expiresAt
        self.usedAt = usedAt
    }
}

/// A patient's programme: the exercises in order, how often. Each change is a new version; sets keep the version
/// they followed.
public struct Programme: Sendable, Hashable, Codable {
    public var patientID: String
    public var version: Int
    public var items: [Prescription]
    public var daysPerWeek: Int
    public var createdAt: Date
    /// The therapist who wrote this version.
    public var createdBy: String

    public init(
        patientID: String,
        version: Int = 0,
        items: [Prescription],
        daysPerWeek: Int,
        createdAt: Date = .now,
        createdBy: String
    ) {
        self.patientID = patientID
        self.version = version
        self.items = items
        self.daysPerWeek = daysPerWeek
        self.createdAt = createdAt
        self.createdBy = createdBy
    }
}

/// Who opened or exported which patient's data, and when.
public struct AuditEntry: Sendable, Hashable, Codable {
    public var at: Date
    public var actorID: String
    public var actorName: String
    public var patientID: String
    /// What was done: `viewed sessions`, `exported FHIR`, …
    public var action: String

    public init(at: Date = .now, actorID: String, actorName: String, patientID: String, action: String) {
        self.at = at
        self.actorID = actorID
        self.actorName = actorName
        self.patientID = patientID
        self.action = action
    }
}

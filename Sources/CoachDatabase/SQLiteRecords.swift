import CoachKit
import CoachStore
import Foundation
import GRDB

// The SQLite store's rows as GRDB records (GRDB's demo `Player`: `Codable, FetchableRecord, PersistableRecord`),
// one per table, with the mapping to and from the port's records. Column names are the properties' names, as the
// migrations in ``SQLiteClinicStore`` create them.

/// A row of `user`. The login is kept lower-cased (logins are case-blind).
struct UserRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "user"

    var id: String
    var role: String
    var name: String
    var login: String?
    var passwordHash: String?
    var therapistID: String?
    var createdAt: Date

    init(_ user: User) {
        id = user.id
        role = user.role.rawValue
        name = user.name
        login = user.login?.lowercased()
        passwordHash = user.passwordHash
        therapistID = user.therapistID
        createdAt = user.createdAt
    }

    /// - Throws: ``CoachStore/StoreError`` for a role this version does not know.
    func user() throws(StoreError) -> User {
        User(
            id: id,
            role: try StoreCoding.role(role, userID: id),
            name: name,
            login: login,
            passwordHash: passwordHash,
            therapistID: therapistID,
            createdAt: createdAt
        )
    }
}

/// A row of `loginSession`.
struct LoginSessionRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "loginSession"

    var tokenHash: String
    var userID: String
    var csrfToken: String
    var createdAt: Date
    var expiresAt: Date

    init(_ session: LoginSession) {
        (tokenHash, userID, csrfToken) = (session.tokenHash, session.userID, session.csrfToken)
        (createdAt, expiresAt) = (session.createdAt, session.expiresAt)
    }

    var session: LoginSession {
        LoginSession(
            tokenHash: tokenHash,
            userID: userID,
            csrfToken: csrfToken,
            createdAt: createdAt,
            expiresAt: expiresAt
        )
    }
}

/// A row of `programme`: the items as JSON (``StoreCoding``).
struct ProgrammeRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "programme"

    var patientID: String
    var version: Int
    var itemsJSON: String
    var daysPerWeek: Int
    var createdAt: Date
    var createdBy: String

    init(_ programme: Programme) throws(StoreError) {
        patientID = programme.patientID
        version = programme.version
        itemsJSON = try StoreCoding.json(programme.items)
        daysPerWeek = programme.daysPerWeek
        createdAt = programme.createdAt
        createdBy = programme.createdBy
    }

    /// - Throws: ``CoachStore/StoreError`` for items that are not prescriptions.
    func programme() throws(StoreError) -> Programme {
        let found = Programme(
            patientID: patientID,
            version: version,
            items: [],
            daysPerWeek: daysPerWeek,
            createdAt: createdAt,
            createdBy: createdBy
        )
        return try StoreCoding.programme(found, itemsJSON: itemsJSON)
    }
}

/// A row of `audit` (its `id` is the table's own, for the order of entries written in the same instant).
struct AuditRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "audit"

    var id: Int64?
    var at: Date
    var actorID: String
    var actorName: String
    var patientID: String
    var action: String

    init(_ entry: AuditEntry) {
        id = nil
        (at, actorID, actorName, patientID, action) = (
            entry.at, entry.actorID, entry.actorName, entry.patientID, entry.action
        )
    }

    var entry: AuditEntry {
        AuditEntry(at: at, actorID: actorID, actorName: actorName, patientID: patientID, action: action)
    }
}

/// The SQLite store's `liveSet` rows: ``SetRow``'s properties are the columns.
extension SetRow: FetchableRecord, PersistableRecord {
    static let databaseTableName = "liveSet"
}

/// A row of `repetition`: the repetition as JSON, with the columns the queries read (its angles non-finite as
/// NULL).
struct RepetitionRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "repetition"

    var setID: String
    var repIndex: Int
    var startSeconds: Double
    var endSeconds: Double
    var verdict: String
    var rangeOfMotion: Double?
    var peakAngle: Double?
    var json: String

    init(_ repetition: Repetition, setID: String) throws(StoreError) {
        self.setID = setID
        repIndex = repetition.index
        startSeconds = repetition.startSeconds
        endSeconds = repetition.endSeconds
        verdict = repetition.verdict.rawValue
        rangeOfMotion = repetition.rangeOfMotion.flatMap { $0.isFinite ? $0 : nil }
        peakAngle = repetition.peakAngle.flatMap { $0.isFinite ? $0 : nil }
        json = try StoreCoding.json(repetition)
    }
}

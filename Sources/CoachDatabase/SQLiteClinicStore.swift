public import CoachKit
public import CoachStore
public import Foundation
import GRDB

/// The sets in an SQLite file (GRDB, WAL mode): the embedded default of `ptcoach serve`.
///
/// ```swift
/// let store = try SQLiteClinicStore(path: "data/ptcoach.sqlite")
/// try await store.open(SetRecord(id: "…", startedAt: .now, input: "camera", …))
/// ```
public final class SQLiteClinicStore: ClinicStore {
    private let pool: DatabasePool
    public let path: String
    /// This instance (this store, one server run): the owner of the sets it opens. One instance alone uses a SQLite
    /// database, so any other owner's open set was left by an earlier run.
    public let instanceID = UUID().uuidString.lowercased()

    /// Opens (creating if needed) the database at `path` and brings its schema up to date.
    public init(path: String) throws(StoreError) {
        self.path = path
        do {
            try Self.restrictPermissions(path)
            var configuration = Configuration()
            configuration.busyMode = .timeout(5)
            pool = try DatabasePool(path: path, configuration: configuration)
            try Self.migrator.migrate(pool)
        } catch {
            throw StoreError(
                "cannot open the database \(path); check that its folder exists and is writable",
                cause: error
            )
        }
    }

    /// The database holds health data: it is readable by its owner only (0600). SQLite gives its `-wal` and `-shm`
    /// files the database file's permissions; files left by an earlier version are narrowed too.
    private static func restrictPermissions(_ path: String) throws {
        guard !path.isEmpty, path != ":memory:", !path.hasPrefix("file:") else { return }
        let files = FileManager.default
        if !files.fileExists(atPath: path) {
            guard files.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                throw StoreError("cannot create the database \(path); check that its folder exists and is writable")
            }
        }
        for file in [path, path + "-wal", path + "-shm"] where files.fileExists(atPath: file) {
            try files.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
        }
    }

    /// Migrations are never edited once shipped: a change is a new migration.
    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: sets and repetitions") { db in
            try db.create(table: "liveSet") { t in
                t.primaryKey("id", .text)
                t.column("startedAt", .datetime).notNull()
                t.column("endedAt", .datetime)
                t.column("input", .text).notNull()
                t.column("exercise", .text)
                t.column("exerciseName", .text)
                t.column("prescribedReps", .integer)
                t.column("prescribedHoldSeconds", .double)
                t.column("reps", .integer).notNull().defaults(to: 0)
                t.column("status", .text).notNull()
                t.column("summaryJSON", .text)
                t.column("angleSeriesJSON", .text)
            }
            try db.create(index: "liveSet_startedAt", on: "liveSet", columns: ["startedAt"])
            try db.create(table: "repetition") { t in
                t.column("setID", .text).notNull().references("liveSet", onDelete: .cascade)
                t.column("repIndex", .integer).notNull()
                t.column("startSeconds", .double).notNull()
                t.column("endSeconds", .double).notNull()
                t.column("verdict", .text).notNull()
                t.column("rangeOfMotion", .double)
                t.column("peakAngle", .double)
                t.column("json", .text).notNull()
                t.primaryKey(["setID", "repIndex"])
            }
        }
        migrator.registerMigration("v2: clinic") { db in
            try db.create(table: "user") { t in
                t.primaryKey("id", .text)
                t.column("role", .text).notNull()
                t.column("name", .text).notNull()
                t.column("login", .text).unique()
                t.column("passwordHash", .text)
                t.column("therapistID", .text).references("user")
                t.column("createdAt", .datetime).notNull()
            }
            try db.create(index: "user_therapist", on: "user", columns: ["therapistID"])
            try db.create(table: "loginSession") { t in
                t.primaryKey("tokenHash", .text)
                t.column("userID", .text).notNull().references("user", onDelete: .cascade)
                t.column("csrfToken", .text).notNull()
                t.column("createdAt", .datetime).notNull()
                t.column("expiresAt", .datetime).notNull()
            }
            try db.create(table: "invitation") { t in
                t.primaryKey("codeHash", .text)
                t.column("patientID", .text).notNull().references("user", onDelete: .cascade)
                t.column("expiresAt", .datetime).notNull()
                t.column("usedAt", .datetime)
            }
            try db.create(table: "programme") { t in
                t.column("patientID", .text).notNull().references("user", onDelete: .cascade)
                t.column("version", .integer).notNull()
                t.column("itemsJSON", .text).notNull()
                t.column("daysPerWeek", .integer).notNull()
                t.column("createdAt", .datetime).notNull()
                t.column("createdBy", .text).notNull()
                t.primaryKey(["patientID", "version"])
            }
            try db.create(table: "audit") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("at", .datetime).notNull()
                t.column("actorID", .text).notNull()
                t.column("actorName", .text).notNull()
                t.column("patientID", .text).notNull()
                t.column("action", .text).notNull()
            }
            try db.create(index: "audit_patient", on: "audit", columns: ["patientID", "at"])
            try db.alter(table: "liveSet") { t in
                t.add(column: "patientID", .text).references("user")
                t.add(column: "programmeVersion", .integer)
                t.add(column: "programmeItem", .integer)
                t.add(column: "setNumber", .integer)
                t.add(column: "pain", .integer)
                t.add(column: "difficulty", .integer)
                t.add(column: "safetyWarnings", .integer).notNull().defaults(to: 0)
            }
            try db.create(index: "liveSet_patient", on: "liveSet", columns: ["patientID", "startedAt"])
        }
        migrator.registerMigration("v3: practice sets, the prescription followed, the therapist's review") { db in
            try db.alter(table: "liveSet") { t in
                t.add(column: "practice", .text)
                t.add(column: "prescriptionJSON", .text)
                t.add(column: "reviewedAt", .datetime)
                t.add(column: "reviewedBy", .text)
            }
        }
        migrator.registerMigration("v4: the clinic's own exercises") { db in
            try db.create(table: "clinicExercise") { t in
                t.primaryKey("id", .text)
                t.column("name", .text).notNull()
                t.column("definitionJSON", .text).notNull()
                t.column("previewJSON", .text).notNull()
                t.column("createdBy", .text).notNull()
                t.column("createdAt", .datetime).notNull()
            }
        }
        migrator.registerMigration("v5: the instance that coaches each set") { db in
            try db.alter(table: "liveSet") { t in t.add(column: "instanceID", .text) }
        }
        return migrator
    }

    /// A set's row with the largest primary angle of its repetitions.
    public func open(_ set: SetRecord) async throws(StoreError) {
        let row = try SetRow(opening: set)
        let owner = instanceID
        try await write("save the new set") { db in
            try row.insert(db)
            try SetRow.filter(key: row.id).updateAll(db, Column("instanceID").set(to: owner))
        }
    }

    public func save(_ repetition: Repetition, setID: String) async throws(StoreError) {
        let row = try RepetitionRow(repetition, setID: setID)
        try await write("save repetition \(repetition.index)") { db in
            try row.insert(db, onConflict: .replace)
            let count = try RepetitionRow.filter(Column("setID") == setID).fetchCount(db)
            _ = try SetRow.filter(key: setID).updateAll(db, Column("reps").set(to: count))
        }
    }

    public func close(
        setID: String,
        summary: SessionSummary?,
        summaryJSON: String?,
        angleSeriesJSON: String?,
        at date: Date
    ) async throws(StoreError) {
        guard let summary else {
            try await write("end the set") { db in
                _ = try SetRow.filter(key: setID).updateAll(
                    db,
                    Column("endedAt").set(to: date),
                    Column("status").set(to: SetRecord.Status.completed.rawValue)
                )
            }
            return
        }
        var encoded: [RepetitionRow] = []
        for repetition in summary.repetitions { encoded.append(try RepetitionRow(repetition, setID: setID)) }
        let repetitions = encoded
        try await write("save the set's summary") { db in
            _ = try RepetitionRow.filter(Column("setID") == setID).deleteAll(db)
            for row in repetitions { try row.insert(db, onConflict: .replace) }
            _ = try SetRow.filter(key: setID).updateAll(
                db,
                Column("endedAt").set(to: date),
                Column("status").set(to: SetRecord.Status.completed.rawValue),
                Column("reps").set(to: summary.reps),
                Column("exercise").set(to: summary.exercise),
                Column("exerciseName").set(to: summary.exerciseName),
                Column("summaryJSON").set(to: summaryJSON),
                Column("angleSeriesJSON").set(to: angleSeriesJSON),
                Column("safetyWarnings").set(to: summary.safetyWarnings.count)
            )
        }
    }

    public func sets(limit: Int) async throws(StoreError) -> [SetRecord] {
        try await read("read the sets") { db in
            try Self.records(SetRow.order(Column("startedAt").desc).limit(limit), db)
        }
    }

    public func set(id: String) async throws(StoreError) -> SetRecord? {
        try await read("read set \(id)") { db in
            try Self.records(SetRow.filter(key: id), db).first
        }
    }

    public func repetitions(setID: String) async throws(StoreError) -> [Repetition] {
        let texts: [String] = try await read("read the repetitions of set \(setID)") { db in
            try RepetitionRow.filter(Column("setID") == setID).order(Column("repIndex")).fetchAll(db).map(\.json)
        }
        return try StoreCoding.repetitions(texts, setID: setID)
    }

    public func markInterrupted() async throws(StoreError) -> Int {
        let me = instanceID
        return try await write("mark unfinished sets") { db in
            try SetRow.filter(Column("status") == SetRecord.Status.open.rawValue)
                .filter(Column("instanceID") == nil || Column("instanceID") != me)
                .updateAll(db, Column("status").set(to: SetRecord.Status.interrupted.rawValue))
        }
    }

    public func patientsCoachedNow() async throws(StoreError) -> Set<String> {
        let me = instanceID
        return try await read("read the sets coached now") { db in
            let ids = try String.fetchAll(
                db,
                SetRow.filter(Column("status") == SetRecord.Status.open.rawValue && Column("instanceID") == me)
                    .filter(Column("patientID") != nil).select(Column("patientID"))
            )
            return Set(ids)
        }
    }

    // MARK: - Clinic

    public func sets(patientID: String, since: Date?, limit: Int) async throws(StoreError) -> [SetRecord] {
        try await read("read the patient's sets") { db in
            let mine = SetRow.filter(Column("patientID") == patientID)
                .filter(Column("startedAt") >= since ?? Date.distantPast)
            return try Self.records(mine.order(Column("startedAt").desc).limit(limit), db)
        }
    }

    public func rate(setID: String, pain: Int?, difficulty: Int?) async throws(StoreError) {
        try await write("save the ratings") { db in
            _ = try SetRow.filter(key: setID).updateAll(
                db,
                Column("pain").set(to: pain),
                Column("difficulty").set(to: difficulty)
            )
        }
    }

    public func setPractice(setID: String, _ practice: SetRecord.Practice?) async throws(StoreError) {
        try await write("mark the set") { db in
            _ = try SetRow.filter(key: setID).updateAll(db, Column("practice").set(to: practice?.rawValue))
        }
    }

    public func review(setID: String, by therapistID: String, at date: Date) async throws(StoreError) {
        try await write("save the review") { db in
            _ = try SetRow.filter(key: setID).updateAll(
                db,
                Column("reviewedAt").set(to: date),
                Column("reviewedBy").set(to: therapistID)
            )
        }
    }

    public func add(_ user: User) async throws(StoreError) {
        if let login = user.login, try await self.user(login: login) != nil {
            throw StoreError("the login \(login) is taken; choose another")
        }
        try await write("save the account") { db in try UserRow(user).insert(db) }
    }

    public func user(id: String) async throws(StoreError) -> User? {
        try await read("read the account") { db in
            try UserRow.fetchOne(db, key: id)
        }.map { row throws(StoreError) in try row.user() }
    }

    public func user(login: String) async throws(StoreError) -> User? {
        try await read("read the account") { db in
            try UserRow.filter(Column("login") == login.lowercased()).fetchOne(db)
        }.map { row throws(StoreError) in try row.user() }
    }

    public func patients(therapistID: String) async throws(StoreError) -> [User] {
        try await read("read the patients") { db in
            try UserRow.filter(Column("therapistID") == therapistID && Column("role") == Role.patient.rawValue)
                .order(Column("name").collating(.nocase)).fetchAll(db)
        }.map { row throws(StoreError) in try row.user() }
    }

    public func therapists() async throws(StoreError) -> [User] {
        try await read("read the therapists") { db in
            try UserRow.filter(Column("role") == Role.therapist.rawValue).order(Column("name").collating(.nocase))
                .fetchAll(db)
        }.map { row throws(StoreError) in try row.user() }
    }

    public func add(_ session: LoginSession) async throws(StoreError) {
        try await write("save the login") { db in
            try db.execute(
                sql: "DELETE FROM loginSession WHERE expiresAt < ?",
                arguments: [session.createdAt]
            )
            try LoginSessionRow(session).insert(db)
        }
    }

    public func loginSession(tokenHash: String, at date: Date) async throws(StoreError) -> LoginSession? {
        try await read("read the login") { db in
            try LoginSessionRow.filter(Column("tokenHash") == tokenHash && Column("expiresAt") > date).fetchOne(db)?
                .session
        }
    }

    public func removeLoginSession(tokenHash: String) async throws(StoreError) {
        try await write("end the login") { db in
            try db.execute(sql: "DELETE FROM loginSession WHERE tokenHash = ?", arguments: [tokenHash])
        }
    }

    public func add(_ invitation: Invitation) async throws(StoreError) {
        try await write("save the invitation") { db in
            try db.execute(
                sql: "INSERT INTO invitation (codeHash, patientID, expiresAt, usedAt) VALUES (?, ?, ?, NULL)",
                arguments: [invitation.codeHash, invitation.patientID, invitation.expiresAt]
            )
        }
    }

    public func invitationIsOpen(codeHash: String, at date: Date) async throws(StoreError) -> Bool {
        try await read("read the invitation") { db in
            try Bool.fetchOne(
                db,
                sql: "SELECT EXISTS (SELECT 1 FROM invitation WHERE codeHash = ? AND usedAt IS NULL AND expiresAt > ?)",
                arguments: [codeHash, date]
            ) ?? false
        }
    }

    public func redeem(
        codeHash: String,
        login: String,
        passwordHash: String,
        at date: Date
    ) async throws(StoreError) -> User? {
        if try await user(login: login) != nil { throw StoreError("the login \(login) is taken; choose another") }
        let row: UserRow? = try await write("use the invitation") { db in
            guard
                let patientID = try String.fetchOne(
                    db,
                    sql: "SELECT patientID FROM invitation WHERE codeHash = ? AND usedAt IS NULL AND expiresAt > ?",
                    arguments: [codeHash, date]
                )
            else { return nil }
            try db.execute(sql: "UPDATE invitation SET usedAt = ? WHERE codeHash = ?", arguments: [date, codeHash])
            try db.execute(
                sql: "UPDATE user SET login = ?, passwordHash = ? WHERE id = ?",
                arguments: [login.lowercased(), passwordHash, patientID]
            )
            return try UserRow.fetchOne(db, key: patientID)
        }
        return try row?.user()
    }

    public func save(_ programme: Programme) async throws(StoreError) -> Programme {
        let row = try ProgrammeRow(programme)
        return try await write("save the programme") { db in
            var row = row
            row.version =
                (try Int.fetchOne(
                    db,
                    sql: "SELECT MAX(version) FROM programme WHERE patientID = ?",
                    arguments: [programme.patientID]
                ) ?? 0) + 1
            try row.insert(db)
            var saved = programme
            saved.version = row.version
            return saved
        }
    }

    public func programme(patientID: String, version: Int?) async throws(StoreError) -> Programme? {
        let row: ProgrammeRow? = try await read("read the programme") { db in
            let mine = ProgrammeRow.filter(Column("patientID") == patientID)
            return
                if let version
            {
                try mine.filter(Column("version") == version).fetchOne(db)
            } else {
                try mine.order(Column("version").desc).fetchOne(db)
            }
        }
        return try row?.programme()
    }

    public func record(_ entry: AuditEntry) async throws(StoreError) {
        try await write("write the audit log") { db in
            try AuditRow(entry).insert(db)
        }
    }

    public func audit(patientID: String, limit: Int) async throws(StoreError) -> [AuditEntry] {
        try await read("read the audit log") { db in
            try AuditRow.filter(Column("patientID") == patientID)
                .order(Column("at").desc, Column("id").desc).limit(limit).fetchAll(db).map(\.entry)
        }
    }

    // MARK: - Helpers

    /// The sets `request` selects, each with its peak angle: the highest of its repetitions'.
    private static func records(_ request: QueryInterfaceRequest<SetRow>, _ db: Database) throws -> [SetRecord] {
        let rows = try request.fetchAll(db)
        let peaks = try RepetitionRow.select(Column("setID"), max(Column("peakAngle")))
            .filter(rows.map(\.id).contains(Column("setID")))
            .group(Column("setID"))
            .asRequest(of: Row.self)
            .fetchAll(db)
        var peak: [String: Double] = [:]
        for row in peaks { peak[row[0]] = row[1] }
        return try rows.map { row throws(StoreError) in try row.record(peak: peak[row.id]) }
    }

    func write<T: Sendable>(
        _ what: String,
        _ body: @Sendable @escaping (Database) throws -> T
    ) async throws(StoreError) -> T {
        do {
            return try await pool.write(body)
        } catch {
            throw StoreError("could not \(what) in \(path)", cause: error)
        }
    }

    func read<T: Sendable>(
        _ what: String,
        _ body: @Sendable @escaping (Database) throws -> T
    ) async throws(StoreError) -> T {
        do {
            return try await pool.read(body)
        } catch {
            throw StoreError("could not \(what) from \(path)", cause: error)
        }
    }
}

public import CoachKit
public import Foundation
import GRDB

/// The sets in an SQLite file (GRDB, WAL mode): the embedded default of `ptcoach serve`.
///
/// ```swift
/// let store = try SQLiteSessionStore(path: "data/ptcoach.sqlite")
/// try await store.open(SetRecord(id: "…", startedAt: .now, input: "camera", …))
/// ```
public final class SQLiteSessionStore: SessionStore {
    private let pool: DatabasePool
    public let path: String

    /// Opens (creating if needed) the database at `path` and brings its schema up to date.
    public init(path: String) throws(StoreError) {
        self.path = path
        do {
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
        return migrator
    }

    public func open(_ set: SetRecord) async throws(StoreError) {
        try await write("save the new set") { db in
            try db.execute(
                sql: """
                    INSERT INTO liveSet (id, startedAt, input, exercise, exerciseName, prescribedReps,
                        prescribedHoldSeconds, reps, status) VALUES (?, ?, ?, ?, ?, ?, ?, 0, 'open')
                    """,
                arguments: [
                    set.id, set.startedAt, set.input, set.exercise, set.exerciseName, set.prescribedReps,
                    set.prescribedHoldSeconds,
                ]
            )
        }
    }

    public func save(_ repetition: Repetition, setID: String) async throws(StoreError) {
        let json = try Self.json(repetition)
        try await write("save repetition \(repetition.index)") { db in
            try Self.insert(repetition, json: json, setID: setID, db: db)
            try db.execute(
                sql: "UPDATE liveSet SET reps = (SELECT COUNT(*) FROM repetition WHERE setID = ?) WHERE id = ?",
                arguments: [setID, setID]
            )
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
                try db.execute(
                    sql: "UPDATE liveSet SET endedAt = ?, status = 'completed' WHERE id = ?",
                    arguments: [date, setID]
                )
            }
            return
        }
        var encoded: [(Repetition, String)] = []
        for repetition in summary.repetitions { encoded.append((repetition, try Self.json(repetition))) }
        let repetitions = encoded
        try await write("save the set's summary") { db in
            try db.execute(sql: "DELETE FROM repetition WHERE setID = ?", arguments: [setID])
            for (repetition, json) in repetitions {
                try Self.insert(repetition, json: json, setID: setID, db: db)
            }
            try db.execute(
                sql: """
                    UPDATE liveSet SET endedAt = ?, status = 'completed', reps = ?, exercise = ?, exerciseName = ?,
                        summaryJSON = ?, angleSeriesJSON = ? WHERE id = ?
                    """,
                arguments: [
                    date, summary.reps, summary.exercise, summary.exerciseName, summaryJSON, angleSeriesJSON, setID,
                ]
            )
        }
    }

    public func sets(limit: Int) async throws(StoreError) -> [SetRecord] {
        try await read("read the sets") { db in
            try Row.fetchAll(db, sql: "SELECT * FROM liveSet ORDER BY startedAt DESC LIMIT ?", arguments: [limit])
                .map(Self.record)
        }
    }

    public func set(id: String) async throws(StoreError) -> SetRecord? {
        try await read("read set \(id)") { db in
            try Row.fetchOne(db, sql: "SELECT * FROM liveSet WHERE id = ?", arguments: [id]).map(Self.record)
        }
    }

    public func repetitions(setID: String) async throws(StoreError) -> [Repetition] {
        let texts: [String] = try await read("read the repetitions of set \(setID)") { db in
            try String.fetchAll(
                db,
                sql: "SELECT json FROM repetition WHERE setID = ? ORDER BY repIndex",
                arguments: [setID]
            )
        }
        do {
            let decoder = JSONDecoder.coach()
            return try texts.map { try decoder.decode(Repetition.self, from: Data($0.utf8)) }
        } catch {
            throw StoreError("a saved repetition of set \(setID) cannot be read", cause: error)
        }
    }

    public func markInterrupted() async throws(StoreError) -> Int {
        try await write("mark unfinished sets") { db in
            try db.execute(sql: "UPDATE liveSet SET status = 'interrupted' WHERE status = 'open'")
            return db.changesCount
        }
    }

    // MARK: - Helpers

    private static func insert(_ repetition: Repetition, json: String, setID: String, db: Database) throws {
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO repetition (setID, repIndex, startSeconds, endSeconds, verdict, rangeOfMotion,
                    peakAngle, json) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                setID, repetition.index, repetition.startSeconds, repetition.endSeconds, repetition.verdict.rawValue,
                repetition.rangeOfMotion.flatMap { $0.isFinite ? $0 : nil },
                repetition.peakAngle.flatMap { $0.isFinite ? $0 : nil }, json,
            ]
        )
    }

    private static func record(_ row: Row) -> SetRecord {
        var record = SetRecord(
            id: row["id"],
            startedAt: row["startedAt"],
            input: row["input"],
            exercise: row["exercise"],
            exerciseName: row["exerciseName"],
            prescribedReps: row["prescribedReps"],
            prescribedHoldSeconds: row["prescribedHoldSeconds"]
        )
        record.endedAt = row["endedAt"]
        record.reps = row["reps"]
        record.status = SetRecord.Status(rawValue: row["status"]) ?? .interrupted
        record.summaryJSON = row["summaryJSON"]
        record.angleSeriesJSON = row["angleSeriesJSON"]
        return record
    }

    private static func json(_ repetition: Repetition) throws(StoreError) -> String {
        do {
            return String(decoding: try JSONEncoder.coach().encode(repetition), as: UTF8.self)
        } catch {
            throw StoreError("repetition \(repetition.index) cannot be encoded", cause: error)
        }
    }

    private func write<T: Sendable>(
        _ what: String,
        _ body: @Sendable @escaping (Database) throws -> T
    ) async throws(StoreError) -> T {
        do {
            return try await pool.write(body)
        } catch {
            throw StoreError("could not \(what) in \(path)", cause: error)
        }
    }

    private func read<T: Sendable>(
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

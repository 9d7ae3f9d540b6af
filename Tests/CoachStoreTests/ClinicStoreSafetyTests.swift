import CoachDatabase
import CoachKit
import CoachStore
import CoachTestSupport
import Foundation
import GRDB
import Logging
import PostgresNIO
import Testing

/// Practice sets, the prescription a set followed and the therapist's review of a set that stopped its exercise:
/// kept by both stores, and added to a database made before they existed.
struct ClinicStoreSafetyTests {
    static func set(_ id: String, patient: String, practice: SetRecord.Practice? = nil) -> SetRecord {
        var record = SQLiteSessionStoreTests.record(id)
        record.patientID = patient
        record.practice = practice
        return record
    }

    @Test("A set keeps its practice mark and prescription; keeping it makes it the patient's")
    func practiceAndPrescription() async throws {
        for store in try await ClinicStoreTests.stores() {
            let (_, patient) = try await ClinicStoreTests.people(store)
            var followed = Self.set("followed", patient: patient.id)
            followed.prescription = Prescription(
                exercise: "squat",
                sets: 3,
                reps: 8,
                targetMin: 60,
                targetMax: 80,
                safetyMax: 85
            )
            try await store.open(followed)
            try await store.open(Self.set("free", patient: patient.id, practice: .unprescribed))
            try await store.open(Self.set("sample", patient: patient.id, practice: .sampleVideo))
            let saved = try #require(try await store.set(id: "followed"))
            #expect(saved.prescription == followed.prescription && saved.practice == nil)
            #expect(try await store.set(id: "free")?.practice == .unprescribed)
            #expect(try await store.set(id: "sample")?.practice == .sampleVideo)
            try await store.setPractice(setID: "free", nil)
            #expect(try await store.set(id: "free")?.practice == nil)
            #expect(try await store.set(id: "free")?.prescription == nil)
        }
    }

    @Test("Pain 7 or more, or a safety stop, waits for the therapist; their review is kept; a sample video never")
    func stopsWaitForTheTherapist() async throws {
        for store in try await ClinicStoreTests.stores() {
            let (therapist, patient) = try await ClinicStoreTests.people(store)
            for (id, practice) in [("hurt", nil), ("mild", nil), ("sample", SetRecord.Practice.sampleVideo)] {
                try await store.open(Self.set(id, patient: patient.id, practice: practice))
                try await store.close(setID: id, summary: nil, summaryJSON: nil, angleSeriesJSON: nil, at: .now)
            }
            try await store.rate(setID: "hurt", pain: 8, difficulty: 5)
            try await store.rate(setID: "mild", pain: 6, difficulty: 5)
            try await store.rate(setID: "sample", pain: 9, difficulty: 5)
            let hurt = try #require(try await store.set(id: "hurt"))
            #expect(hurt.stopReason == "pain 8/10" && hurt.awaitsReview)
            #expect(try await store.set(id: "mild")?.stopReason == nil)
            #expect(try await store.set(id: "sample")?.stopReason == nil)
            let seenAt = Date(timeIntervalSince1970: 1_790_000_000)
            try await store.review(setID: "hurt", by: therapist.id, at: seenAt)
            let seen = try #require(try await store.set(id: "hurt"))
            #expect(seen.reviewedBy == therapist.id && seen.reviewedAt == seenAt && !seen.awaitsReview)
            #expect(seen.stopReason == "pain 8/10")
        }
    }

    @Test("An SQLite database made before practice sets gains the columns; its sets read back unchanged")
    func sqliteMigration() async throws {
        let path = try SQLiteSessionStoreTests.folder() + "/ptcoach.sqlite"
        let store = try SQLiteClinicStore(path: path)
        let (_, patient) = try await ClinicStoreTests.people(store)
        try await store.open(Self.set("old", patient: patient.id))
        try await store.rate(setID: "old", pain: 3, difficulty: 2)
        // Given the database as the version before: the new columns and their migration gone.
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            for column in ["practice", "prescriptionJSON", "reviewedAt", "reviewedBy"] {
                try db.execute(sql: "ALTER TABLE liveSet DROP COLUMN \(column)")
            }
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier LIKE 'v3:%'")
        }
        try queue.close()
        // When it is opened again, then the migration adds them and the old set is as it was.
        let reopened = try SQLiteClinicStore(path: path)
        let old = try #require(try await reopened.set(id: "old"))
        #expect(old.pain == 3 && old.practice == nil && old.prescription == nil && old.reviewedAt == nil)
        try await reopened.setPractice(setID: "old", .unprescribed)
        #expect(try await reopened.set(id: "old")?.practice == .unprescribed)
    }

    @Test("A PostgreSQL database made before practice sets gains the columns; its sets read back unchanged")
    func postgresMigration() async throws {
        guard let url = try await TestPostgres.freshDatabase() else { return }
        let store = try await PostgresClinicStore(url: url)
        let (_, patient) = try await ClinicStoreTests.people(store)
        try await store.open(Self.set("old", patient: patient.id))
        try await store.rate(setID: "old", pain: 3, difficulty: 2)
        let parts = try #require(URLComponents(string: url))
        let logger = Logger(label: "ptcoach.test-postgres")
        let connection = try await PostgresConnection.connect(
            configuration: .init(
                host: parts.host ?? "127.0.0.1",
                port: parts.port ?? 5432,
                username: parts.user ?? "",
                password: parts.password,
                database: String(parts.path.dropFirst()),
                tls: .disable
            ),
            id: 2,
            logger: logger
        )
        try await connection.query(
            """
            ALTER TABLE live_set DROP COLUMN practice, DROP COLUMN prescription_json, DROP COLUMN reviewed_at,
                DROP COLUMN reviewed_by
            """,
            logger: logger
        )
        try await connection.query("DELETE FROM ptcoach_migration WHERE name LIKE 'v2:%'", logger: logger)
        try await connection.close()
        let reopened = try await PostgresClinicStore(url: url)
        let old = try #require(try await reopened.set(id: "old"))
        #expect(old.pain == 3 && old.practice == nil && old.prescription == nil && old.reviewedAt == nil)
        try await reopened.setPractice(setID: "old", .unprescribed)
        #expect(try await reopened.set(id: "old")?.practice == .unprescribed)
    }
}

import CoachDatabase
import CoachKit
import CoachStore
import CoachTestSupport
import Foundation
import Testing

/// Which open sets an instance marks interrupted: with several instances on one PostgreSQL database, only those of an
/// instance that stopped beating; on SQLite (one instance), those of an earlier run, never its own.
struct ClinicStoreInstanceTests {
    static func openSet(_ id: String, of patient: User, on store: any ClinicStore) async throws {
        var set = SQLiteSessionStoreTests.record(id)
        set.patientID = patient.id
        try await store.open(set)
        try await store.save(try SQLiteSessionStoreTests.repetition(1), setID: id)
    }

    @Test("PostgreSQL: an instance starting leaves another's open set alone; a stopped instance's set is interrupted")
    func sharedDatabase() async throws {
        guard let url = try await TestPostgres.freshDatabase() else {
            print("note: PTCOACH_TEST_POSTGRES_URL is not set: several instances on PostgreSQL were not tested")
            return
        }
        let first = try await PostgresClinicStore(url: url)
        let (_, patient) = try await ClinicStoreTests.people(first)
        #expect(try await first.markInterrupted() == 0)
        try await Self.openSet("a", of: patient, on: first)

        // A second instance starts while the first coaches set a: it does not touch the set.
        let second = try await PostgresClinicStore(url: url)
        #expect(try await second.markInterrupted() == 0)
        #expect(try await second.set(id: "a")?.status == .open)
        #expect(try await second.patientsCoachedNow() == [patient.id])
        // The first instance's own heartbeat leaves its set open too.
        #expect(try await first.markInterrupted() == 0)
        #expect(try await first.set(id: "a")?.status == .open)

        // The first instance stops beating (a crash). An instance that takes one silent for 0.3 s as stopped
        // no longer lists the patient as coached, and marks the set interrupted, keeping its repetition.
        let third = try await PostgresClinicStore(url: url, staleAfter: 0.3)
        try await Task.sleep(for: .seconds(0.6))
        #expect(try await third.patientsCoachedNow().isEmpty)
        #expect(try await third.markInterrupted() == 1)
        #expect(try await third.set(id: "a")?.status == .interrupted)
        #expect(try await third.repetitions(setID: "a").count == 1)
        #expect(try await third.markInterrupted() == 0)
    }

    @Test("SQLite: a restart interrupts the earlier run's open set; an instance's own heartbeat never its own")
    func singleInstance() async throws {
        let path = try SQLiteSessionStoreTests.folder() + "/ptcoach.sqlite"
        let first = try SQLiteClinicStore(path: path)
        let (_, patient) = try await ClinicStoreTests.people(first)
        try await Self.openSet("a", of: patient, on: first)
        #expect(try await first.markInterrupted() == 0)
        #expect(try await first.set(id: "a")?.status == .open)
        #expect(try await first.patientsCoachedNow() == [patient.id])

        let restarted = try SQLiteClinicStore(path: path)
        #expect(try await restarted.patientsCoachedNow().isEmpty)
        #expect(try await restarted.markInterrupted() == 1)
        #expect(try await restarted.set(id: "a")?.status == .interrupted)
    }
}

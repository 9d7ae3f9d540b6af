import CoachDatabase
import CoachStore
import Foundation
import GRDB
import Testing

/// A role or a status the code does not know, read from the database (one written by a newer version, or edited by
/// hand), is an error that says which row and which value, never a default.
struct ClinicStoreUnknownValuesTests {
    @Test("An unknown role in the database is an error naming the user and the role")
    func unknownRole() async throws {
        let path = try SQLiteSessionStoreTests.folder() + "/ptcoach.sqlite"
        let store = try SQLiteClinicStore(path: path)
        let user = User(role: .therapist, name: "Dr T", login: "t@example.org", passwordHash: "h", therapistID: nil)
        try await store.add(user)
        #expect(try await store.user(id: user.id)?.role == .therapist)
        try await DatabaseQueue(path: path).write { db in
            try db.execute(sql: "UPDATE user SET role = 'administrator' WHERE id = ?", arguments: [user.id])
        }
        do {
            let read = try await store.user(id: user.id)
            Issue.record("read as \(String(describing: read?.role))")
        } catch {
            #expect("\(error)".contains("unknown role 'administrator'") && "\(error)".contains(user.id), "\(error)")
        }
    }

    @Test("An unknown set status in the database is an error naming the set and the status")
    func unknownStatus() async throws {
        let path = try SQLiteSessionStoreTests.folder() + "/ptcoach.sqlite"
        let store = try SQLiteClinicStore(path: path)
        try await store.open(
            SetRecord(
                id: "set-1",
                startedAt: Date(),
                input: "camera",
                exercise: "squat",
                exerciseName: "Squat",
                prescribedReps: nil,
                prescribedHoldSeconds: nil
            )
        )
        #expect(try await store.set(id: "set-1")?.status == .open)
        try await DatabaseQueue(path: path).write { db in
            try db.execute(sql: "UPDATE liveSet SET status = 'paused' WHERE id = 'set-1'")
        }
        do {
            let read = try await store.set(id: "set-1")
            Issue.record("read as \(String(describing: read?.status))")
        } catch {
            #expect("\(error)".contains("unknown status 'paused'") && "\(error)".contains("set-1"), "\(error)")
        }
    }
}

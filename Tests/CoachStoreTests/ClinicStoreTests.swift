import CoachDatabase
import CoachKit
import CoachStore
import CoachTestSupport
import Foundation
import Testing

/// The clinic's storage contract, run against every store (SQLite today; a PostgreSQL store joins `stores`).
struct ClinicStoreTests {
    /// A new SQLite store, and a new PostgreSQL one when the test command started a server.
    static func stores() async throws -> [any ClinicStore] {
        var stores: [any ClinicStore] = [
            try SQLiteClinicStore(path: try SQLiteSessionStoreTests.folder() + "/ptcoach.sqlite")
        ]
        if let url = try await TestPostgres.freshDatabase() {
            stores.append(try await PostgresClinicStore(url: url))
        }
        return stores
    }

    @Test("The store suite runs on PostgreSQL too when the test command gives a server")
    func postgresIsTested() async throws {
        let stores = try await Self.stores()
        if TestPostgres.url == nil {
            print("note: PTCOACH_TEST_POSTGRES_URL is not set: the clinic store tests ran on SQLite only")
        } else {
            #expect(stores.count == 2)
        }
    }

    static func people(_ store: any ClinicStore) async throws -> (therapist: User, patient: User) {
        let therapist = User(
            role: .therapist,
            name: "Dr T",
            login: "T@Example.org",
            passwordHash: "h",
            therapistID: nil
        )
        try await store.add(therapist)
        let patient = User(role: .patient, name: "Pat", login: nil, passwordHash: nil, therapistID: therapist.id)
        try await store.add(patient)
        return (therapist, patient)
    }

    @Test("Logins are unique and case-blind; a therapist lists only their own patients")
    func accounts() async throws {
        for store in try await Self.stores() {
            let (therapist, patient) = try await Self.people(store)
            #expect(try await store.user(login: "t@example.ORG")?.id == therapist.id)
            await #expect(throws: StoreError.self) {
                try await store.add(
                    User(role: .therapist, name: "X", login: "t@example.org", passwordHash: "h", therapistID: nil)
                )
            }
            let other = User(
                role: .therapist,
                name: "Dr O",
                login: "o@example.org",
                passwordHash: "h",
                therapistID: nil
            )
            try await store.add(other)
            #expect(try await store.patients(therapistID: therapist.id).map(\.id) == [patient.id])
            #expect(try await store.patients(therapistID: other.id).isEmpty)
            #expect(try await store.therapists().map(\.name) == ["Dr O", "Dr T"])
        }
    }

    @Test("An invitation is used once, not after it expires, and sets the patient's login and password")
    func invitations() async throws {
        for store in try await Self.stores() {
            let (_, patient) = try await Self.people(store)
            try await store.add(
                Invitation(codeHash: "c1", patientID: patient.id, expiresAt: .now.addingTimeInterval(60))
            )
            try await store.add(
                Invitation(codeHash: "old", patientID: patient.id, expiresAt: .now.addingTimeInterval(-1))
            )
            // Whether a code can be used is known before a password is hashed for it.
            #expect(try await store.invitationIsOpen(codeHash: "c1", at: .now))
            #expect(try await !store.invitationIsOpen(codeHash: "old", at: .now))
            #expect(try await !store.invitationIsOpen(codeHash: "nope", at: .now))
            #expect(try await store.redeem(codeHash: "old", login: "pat", passwordHash: "p", at: .now) == nil)
            #expect(try await store.redeem(codeHash: "nope", login: "pat", passwordHash: "p", at: .now) == nil)
            let joined = try #require(try await store.redeem(codeHash: "c1", login: "Pat", passwordHash: "p", at: .now))
            #expect(joined.id == patient.id && joined.login == "pat" && joined.passwordHash == "p")
            #expect(try await store.redeem(codeHash: "c1", login: "pat2", passwordHash: "p", at: .now) == nil)
            #expect(try await !store.invitationIsOpen(codeHash: "c1", at: .now))
        }
    }

    @Test("Login sessions expire and can be ended")
    func loginSessions() async throws {
        for store in try await Self.stores() {
            let (therapist, _) = try await Self.people(store)
            let now = Date.now
            try await store.add(
                LoginSession(tokenHash: "a", userID: therapist.id, csrfToken: "x", createdAt: now, expiresAt: now + 60)
            )
            #expect(try await store.loginSession(tokenHash: "a", at: now)?.csrfToken == "x")
            #expect(try await store.loginSession(tokenHash: "a", at: now + 61) == nil)
            try await store.removeLoginSession(tokenHash: "a")
            #expect(try await store.loginSession(tokenHash: "a", at: now) == nil)
        }
    }

    @Test("Each programme change is a new version; sets keep theirs, with ratings and the peak angle")
    func programmesAndSets() async throws {
        for store in try await Self.stores() {
            let (therapist, patient) = try await Self.people(store)
            let first = try await store.save(
                Programme(
                    patientID: patient.id,
                    items: [Prescription(exercise: "squat", sets: 3, reps: 10, targetMin: 70, targetMax: 110)],
                    daysPerWeek: 3,
                    createdBy: therapist.id
                )
            )
            let second = try await store.save(
                Programme(
                    patientID: patient.id,
                    items: [Prescription(exercise: "lunge")],
                    daysPerWeek: 2,
                    createdBy: therapist.id
                )
            )
            #expect((first.version, second.version) == (1, 2))
            #expect(try await store.programme(patientID: patient.id, version: nil)?.items.map(\.exercise) == ["lunge"])
            #expect(try await store.programme(patientID: patient.id, version: 1)?.items.first?.targetMax == 110)

            var record = SQLiteSessionStoreTests.record("set-1")
            record.patientID = patient.id
            record.programmeVersion = 1
            record.programmeItem = 0
            record.setNumber = 2
            try await store.open(record)
            try await store.save(try SQLiteSessionStoreTests.repetition(1), setID: "set-1")
            try await store.rate(setID: "set-1", pain: 4, difficulty: 6)
            try await store.open(SQLiteSessionStoreTests.record("anonymous"))
            let sets = try await store.sets(patientID: patient.id, since: nil, limit: 10)
            #expect(sets.map(\.id) == ["set-1"])
            let set = try #require(sets.first)
            #expect(set.setNumber == 2 && set.programmeVersion == 1 && set.pain == 4 && set.difficulty == 6)
            #expect(set.peakAngle == 95.5 && set.reps == 1)
            #expect(try await store.sets(patientID: patient.id, since: .now + 60, limit: 10).isEmpty)
        }
    }

    @Test("The audit log lists who did what to a patient's data, newest first")
    func auditLog() async throws {
        for store in try await Self.stores() {
            let (therapist, patient) = try await Self.people(store)
            for action in ["viewed", "exported FHIR"] {
                try await store.record(
                    AuditEntry(actorID: therapist.id, actorName: therapist.name, patientID: patient.id, action: action)
                )
            }
            #expect(
                try await store.audit(patientID: patient.id, limit: 10).map(\.action) == ["exported FHIR", "viewed"]
            )
            #expect(try await store.audit(patientID: "someone else", limit: 10).isEmpty)
        }
    }

    @Test("Repetitions are saved as they come and a re-judged one replaces the first; sets list newest first")
    func setsAndRepetitions() async throws {
        for store in try await Self.stores() {
            let newer = SQLiteSessionStoreTests.record("a")
            try await store.open(newer)
            try await store.save(try SQLiteSessionStoreTests.repetition(1), setID: "a")
            try await store.save(try SQLiteSessionStoreTests.repetition(2), setID: "a")
            try await store.save(try SQLiteSessionStoreTests.repetition(2, verdict: .needsWork), setID: "a")
            #expect(try await store.set(id: "a")?.reps == 2)
            #expect(try await store.repetitions(setID: "a").map(\.verdict) == [.good, .needsWork])
            var older = SQLiteSessionStoreTests.record("older")
            // A minute before the other, whatever the time now (a loaded machine took over a minute to get here).
            older.startedAt = newer.startedAt.addingTimeInterval(-60)
            try await store.open(older)
            try await store.close(setID: "older", summary: nil, summaryJSON: nil, angleSeriesJSON: nil, at: .now)
            let sets = try await store.sets(limit: 10)
            #expect(sets.map(\.id) == ["a", "older"])
            #expect(sets.map(\.status) == [.open, .completed])
            #expect(try await store.set(id: "missing") == nil)
        }
    }

    @Test("A PostgreSQL server that cannot be reached is one clear error")
    func unreachablePostgres() async {
        await #expect {
            _ = try await PostgresClinicStore(url: "postgres://nobody@127.0.0.1:1/none?sslmode=disable")
        } throws: { error in
            "\(error)".contains("check that it runs")
        }
        await #expect {
            _ = try await PostgresClinicStore(url: "mysql://x@y/z")
        } throws: { error in
            "\(error)".contains("is not a PostgreSQL URL")
        }
    }
}

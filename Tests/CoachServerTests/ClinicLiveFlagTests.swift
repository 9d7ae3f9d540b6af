import CoachDatabase
import CoachKit
import CoachStore
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import CoachServer
@testable import PoseKit

/// The patient list's `live`: a set an instance is coaching now, not one left open by an instance that stopped.
struct ClinicLiveFlagTests {
    @Test("A set left open by an earlier run is not live; one this instance coaches is")
    func liveMeansCoachedNow() async throws {
        let (earlier, folder) = try LiveTestServer.store()
        // The earlier run's app is only used to make the accounts; its store then opens a set and "crashes".
        let setUp = try LiveTestServer.application(store: earlier)
        let patientID = try await setUp.test(.router) { client in
            try await ClinicAccessTests.clinic(earlier, client).patientA.id
        }
        try await earlier.open(OpenSetRecord.set("left-open", patient: patientID))

        let store = try SQLiteClinicStore(path: folder + "/ptcoach.sqlite")
        let app = try LiveTestServer.application(store: store)
        try await app.test(.router) { client in
            let therapist = try #require(try await ClinicAccessTests.login(client, "ta@example.org").1)
            func live() async throws -> JSONValue? {
                let list = try await ClinicSafetyFlowTests.call(client, therapist, .get, "/api/patients").json
                return list.arrayValue?.first { $0["id"]?.stringValue == patientID }?["live"]
            }
            // The server's start-up marks the earlier run's set interrupted (it runs beside the test client).
            let deadline = ContinuousClock.now + .seconds(20)
            while try await store.set(id: "left-open")?.status == .open, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(try await store.set(id: "left-open")?.status == .interrupted, "start-up marked it within 20 s")
            // A set another instance left open (its owner is not this instance, nor beating): open, yet not live.
            try await earlier.open(OpenSetRecord.set("other-owner", patient: patientID))
            #expect(try await store.set(id: "other-owner")?.status == .open)
            #expect(try await live() == .bool(false))
            try await store.open(OpenSetRecord.set("coached-now", patient: patientID))
            #expect(try await live() == .bool(true))
        }
    }
}

/// A set of `patient` as the coaching socket opens it.
enum OpenSetRecord {
    static func set(_ id: String, patient: String) -> SetRecord {
        var set = SetRecord(
            id: id,
            startedAt: Date(timeIntervalSince1970: 1_795_000_000),
            input: "camera",
            exercise: "squat",
            exerciseName: "Squat",
            prescribedReps: 10,
            prescribedHoldSeconds: nil
        )
        set.patientID = patient
        return set
    }
}

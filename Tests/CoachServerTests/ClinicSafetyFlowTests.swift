import CoachKit
import CoachStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HummingbirdWSClient
import HummingbirdWSTesting
import NIOCore
import Testing

@testable import CoachServer
@testable import PoseKit

/// After pain 7 or more (or a safety stop) the patient is told to stop that exercise and contact the therapist, it
/// is not offered again until the therapist has seen the set, and the therapist's list shows that patient first;
/// practice sets never count and only the patient's own camera's can be kept.
@Suite("Clinic safety flow")
struct ClinicSafetyFlowTests {
    typealias Access = ClinicAccessTests

    static func call(
        _ client: some TestClientProtocol,
        _ login: Access.Login,
        _ method: HTTPRequest.Method,
        _ uri: String,
        _ body: String? = nil
    ) async throws -> (status: Int, json: JSONValue) {
        try await client.execute(
            uri: uri,
            method: method,
            headers: [.cookie: login.cookie, ClinicAuth.csrfHeader: login.csrf],
            body: body.map { ByteBuffer(string: $0) }
        ) { response in
            (response.status.code, (try? JSONValue.parse(String(buffer: response.body))) ?? .null)
        }
    }

    static func closedSet(
        _ id: String,
        of patient: User,
        practice: SetRecord.Practice? = nil,
        store: any ClinicStore
    ) async throws {
        var record = SetRecord(
            id: id,
            startedAt: .now,
            input: "camera",
            exercise: "squat",
            exerciseName: "Squat",
            prescribedReps: 10,
            prescribedHoldSeconds: nil
        )
        record.patientID = patient.id
        record.practice = practice
        try await store.open(record)
        try await store.close(setID: id, summary: nil, summaryJSON: nil, angleSeriesJSON: nil, at: .now)
    }

    /// The therapist sets `patient`'s programme: 3 sets of 10 squats, 3 days a week.
    static func prescribeSquats(
        _ client: some TestClientProtocol,
        _ therapist: Access.Login,
        to patient: String
    )
        async throws
    {
        let programme =
            #"{"daysPerWeek":3,"items":[{"exercise":"squat","sets":3,"reps":10,"restSeconds":60,"note":""}]}"#
        #expect(try await call(client, therapist, .put, "/api/patients/\(patient)/programme", programme).status == 200)
    }

    @Test("Pain 8: stop advice, the exercise withheld, the patient first in the therapist's list until seen")
    func painStopsTheExerciseUntilSeen() async throws {
        let (store, _) = try LiveTestServer.store()
        let app = try LiveTestServer.application(store: store)
        try await app.test(.router) { client in
            let clinic = try await Access.clinic(store, client)
            let (patient, therapist) = (clinic.logins[.patientA]!, clinic.logins[.therapistA]!)
            try await Self.prescribeSquats(client, therapist, to: clinic.patientA.id)
            // Patient C (after A by name) is flagged first, by the store: the list puts C before A.
            try await Self.closedSet("c-hurt", of: clinic.invitedC, store: store)
            try await store.rate(setID: "c-hurt", pain: 9, difficulty: 5)
            let listed = try await Self.call(client, therapist, .get, "/api/patients").json.arrayValue ?? []
            #expect(listed.compactMap { $0["name"]?.stringValue } == ["Patient C", "Patient A"])
            #expect(listed.first?["needsReview"] == .bool(true) && listed.last?["needsReview"] == .bool(false))

            try await Self.closedSet("a-set", of: clinic.patientA, store: store)
            let rated = try await Self.call(
                client,
                patient,
                .post,
                "/api/sessions/a-set/rating",
                #"{"pain":8,"difficulty":4}"#
            )
            let advice = try #require(rated.json["stop"]?.stringValue)
            #expect(advice.contains("Stop doing Squat") && advice.contains("contact your therapist"), "\(advice)")
            let offered = try await Self.call(client, patient, .get, "/api/me/programme").json
            #expect(offered["stopped"]?.arrayValue?.first?.stringValue?.contains("Stop doing Squat") == true)
            let flags = try await Self.call(client, therapist, .get, "/api/patients/\(clinic.patientA.id)").json[
                "flags"
            ]
            #expect(flags?.arrayValue?.first?["kind"]?.stringValue == "stop")
            #expect(flags?.arrayValue?.first?["set"]?.stringValue == "a-set")

            // Another therapist cannot mark it seen; the patient's own therapist can, and the squat is offered again.
            #expect(
                try await Self.call(client, clinic.logins[.therapistB]!, .post, "/api/sessions/a-set/review", "{}")
                    .status == 404
            )
            #expect(try await Self.call(client, patient, .post, "/api/sessions/a-set/review", "{}").status == 403)
            #expect(try await Self.call(client, therapist, .post, "/api/sessions/a-set/review", "{}").status == 200)
            let again = try await Self.call(client, patient, .get, "/api/me/programme").json
            #expect(again["stopped"]?.arrayValue?.first == .null)
            #expect(try await store.set(id: "a-set")?.awaitsReview == false)
        }
    }

    @Test("Practice sets do not count, are not listed, and only the patient's own camera's can be kept")
    func practiceSets() async throws {
        let (store, _) = try LiveTestServer.store()
        let app = try LiveTestServer.application(store: store)
        try await app.test(.router) { client in
            let clinic = try await Access.clinic(store, client)
            let (patient, therapist) = (clinic.logins[.patientA]!, clinic.logins[.therapistA]!)
            try await Self.closedSet("sample", of: clinic.patientA, practice: .sampleVideo, store: store)
            try await Self.closedSet("free", of: clinic.patientA, practice: .unprescribed, store: store)
            try await store.save(try Self.repetition(), setID: "free")
            let sets = { () async throws -> [String] in
                let overview = try await Self.call(client, therapist, .get, "/api/patients/\(clinic.patientA.id)").json
                return overview["sets"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
            }
            #expect(try await sets().contains("free") == false)
            #expect(try await Self.call(client, patient, .post, "/api/sessions/sample/keep", "{}").status == 409)
            #expect(
                try await Self.call(client, clinic.logins[.patientB]!, .post, "/api/sessions/free/keep", "{}").status
                    == 404
            )
            #expect(try await Self.call(client, patient, .post, "/api/sessions/free/keep", "{}").status == 200)
            #expect(try await sets().contains("free"))
            #expect(try await sets().contains("sample") == false)
            let csv = try await client.execute(
                uri: "/api/patients/\(clinic.patientA.id)/export/sets.csv",
                method: .get,
                headers: [.cookie: therapist.cookie]
            ) { String(buffer: $0.body) }
            #expect(csv.contains(",free\n") && !csv.contains(",sample\n"), "\(csv)")
        }
    }

    static func repetition() throws -> Repetition {
        let json = """
            {"index":1,"exercise":"squat","startSeconds":1,"endSeconds":2.5,"angles":[],"peakAngle":95.5,
             "rangeOfMotion":0.9,"tempo":{"toPeakSeconds":0.7,"fromPeakSeconds":0.8},"verdict":"good","issues":[],
             "safetyBreaches":[],"measurementReliable":true,"gapSeconds":0}
            """
        return try JSONDecoder().decode(Repetition.self, from: Data(json.utf8))
    }

    @Test("On the live socket: a sample video's set is practice with no set number; a stopped exercise is refused")
    func liveSocketStopsAndPractice() async throws {
        let (store, _) = try LiveTestServer.store()
        let app = try LiveTestServer.application(store: store)
        try await app.test(.live) { client in
            let clinic = try await Access.clinic(store, client)
            let (patient, therapist) = (clinic.logins[.patientA]!, clinic.logins[.therapistA]!)
            try await Self.prescribeSquats(client, therapist, to: clinic.patientA.id)
            var configuration = WebSocketClientConfiguration()
            configuration.additionalHeaders = [.cookie: patient.cookie]
            // A sample video from the programme's item: coached with its prescription, practice, no set number.
            let sample = LiveMailbox()
            try await LiveTestServer.session(client, mailbox: sample, configuration: configuration) { outbound in
                try await outbound.write(.text(#"{"type":"start","input":"camera","programmeItem":0,"sample":true}"#))
                let ready = try await sample.wait(for: "ready")
                #expect(ready["practice"]?.stringValue == "sample-video")
                #expect(ready["programme"]?["set"] == .null && ready["reps"]?.intValue == 10)
            }
            // Pain 8 on a counted squat: the next start of the squat is refused with the advice.
            try await Self.closedSet("hurt", of: clinic.patientA, store: store)
            try await store.rate(setID: "hurt", pain: 8, difficulty: 5)
            let refused = LiveMailbox()
            try await LiveTestServer.session(client, mailbox: refused, configuration: configuration) { outbound in
                try await outbound.write(.text(#"{"type":"start","input":"camera","programmeItem":0}"#))
                let error = try await refused.wait(for: "error")
                #expect(error["code"]?.stringValue == "stopped")
                #expect(error["message"]?.stringValue?.contains("contact your therapist") == true)
                #expect(await refused.all("ready").isEmpty)
            }
            #expect(try await Self.call(client, therapist, .post, "/api/sessions/hurt/review", "{}").status == 200)
            let offered = LiveMailbox()
            try await LiveTestServer.session(client, mailbox: offered, configuration: configuration) { outbound in
                try await outbound.write(.text(#"{"type":"start","input":"camera","programmeItem":0}"#))
                let ready = try await offered.wait(for: "ready")
                #expect(ready["practice"] == .null && ready["programme"]?["set"]?.intValue == 1)
            }
        }
    }
}

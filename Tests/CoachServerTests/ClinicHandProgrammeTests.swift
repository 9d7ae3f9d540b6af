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

/// A hand exercise in a patient's programme: the therapist prescribes it, the patient does it live with the hand
/// coach, and the set counts for adherence and progress and goes into the FHIR export.
struct ClinicHandProgrammeTests {
    @Test("A therapist prescribes a hand exercise; the patient's set of it is coached, counted and exported")
    func handExerciseInAProgramme() async throws {
        let (store, _) = try LiveTestServer.store()
        let app = try LiveHandSetTests.application(
            store: store,
            hands: { () throws(LiveFrameError) in
                ScriptedHandEstimator.camera {
                    LiveHandSetTests.hands(fist: LiveHandSetTests.fist($0), other: .none, seconds: $0)
                }
            }
        )
        let mailbox = LiveMailbox()
        try await app.test(.live) { client in
            let clinic = try await ClinicAccessTests.clinic(store, client)
            let therapist = try #require(clinic.logins[.therapistA])
            let patient = try #require(clinic.logins[.patientA])
            let uri = "/api/patients/\(clinic.patientA.id)/programme"
            func put(_ items: String) async throws -> (HTTPResponse.Status, String) {
                try await client.execute(
                    uri: uri,
                    method: .put,
                    headers: [.cookie: therapist.cookie, HTTPField.Name("X-CSRF-Token")!: therapist.csrf],
                    body: ByteBuffer(string: #"{"daysPerWeek":3,"items":\#(items)}"#)
                ) { ($0.status, String(buffer: $0.body)) }
            }
            // Bad numbers are one clear line each.
            let refusals = [
                (
                    #"[{"exercise":"finger-flexion","sets":2,"reps":0,"restSeconds":30,"note":""}]"#,
                    "repetitions per set"
                ),
                (
                    #"[{"exercise":"finger-flexion","sets":2,"reps":5,"restSeconds":30,"note":"","safetyMax":200}]"#,
                    "safety limit is for body exercises"
                ),
                (
                    #"[{"exercise":"kapandji","sets":2,"reps":5,"restSeconds":30,"note":"","targetMin":5}]"#,
                    "from 0 to 3 hand lengths"
                ),
            ]
            for (items, words) in refusals {
                let (status, text) = try await put(items)
                #expect(status == .badRequest)
                #expect(text.contains("item 1: ") && text.contains(words), "\(text)")
                #expect(!text.contains("\n"), "one line: \(text)")
            }
            let (status, text) = try await put(
                #"[{"exercise":"finger-flexion","sets":2,"reps":5,"holdSeconds":1,"restSeconds":30,"note":"","#
                    + #""targetMin":150,"targetMax":270}]"#
            )
            #expect(status == .ok, "\(text)")
            #expect(text.contains("Finger flexion and extension"), "the programme names the hand exercise: \(text)")

            // The patient starts the item: the hand coach, with the therapist's numbers.
            var configuration = WebSocketClientConfiguration()
            configuration.additionalHeaders = [.cookie: patient.cookie]
            try await LiveTestServer.session(client, mailbox: mailbox, configuration: configuration) { outbound in
                try await LiveTestServer.sendCameraSet(
                    start: #"{"type":"start","input":"camera","programmeItem":0}"#,
                    seconds: 6,
                    on: outbound,
                    mailbox: mailbox
                )
            }
            let ready = try #require(await mailbox.all("ready").first)
            #expect(ready["exercise"]?["hand"] == .bool(true))
            #expect(ready["reps"]?.intValue == 5)
            #expect(ready["programme"]?["target"] == .array([.number(150), .number(270)]))
            #expect(await mailbox.all("frame").last?["state"]?["prescribedReps"]?.intValue == 5)
            let summary = try #require(await mailbox.all("summary").first)
            #expect(summary["summary"]?["reps"]?.intValue == 1)
            let setID = try #require(summary["session"]?.stringValue)
            let saved = try #require(try await store.set(id: setID))
            #expect(saved.programmeItem == 0 && saved.setNumber == 1 && saved.prescribedReps == 5)
            #expect(saved.prescribedHoldSeconds == 1)

            // The therapist sees it counted: adherence, progress, and the FHIR export.
            let headers: HTTPFields = [.cookie: therapist.cookie]
            try await client.execute(uri: "/api/patients/\(clinic.patientA.id)", method: .get, headers: headers) {
                let overview = try JSONValue.parse(String(buffer: $0.body))
                #expect(overview["adherence"]?["setsDone"]?.intValue == 1)
                #expect(overview["adherence"]?["setsPrescribed"]?.intValue == 6)
                let points = try #require(overview["progress"]?["finger-flexion"]?.arrayValue)
                #expect(points.count == 1)
                #expect(try #require(points[0]["peakAngle"]?.doubleValue) > 150)
            }
            try await client.execute(
                uri: "/api/patients/\(clinic.patientA.id)/export/fhir.json",
                method: .get,
                headers: headers
            ) {
                let bundle = String(buffer: $0.body)
                #expect($0.status == .ok)
                #expect(bundle.contains("Finger flexion and extension: repetitions"), "\(bundle.prefix(2000))")
                #expect(bundle.contains("Finger flexion and extension: peak angle"))
                #expect(bundle.contains("Finger flexion and extension: 2 set(s), 5 repetitions"), "the CarePlan item")

            }
        }
    }
}

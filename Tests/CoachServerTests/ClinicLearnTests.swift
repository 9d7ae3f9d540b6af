import CoachKit
import CoachStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HummingbirdWebSocket
import NIOCore
import Testing

@testable import CoachServer
@testable import PoseKit

/// The clinic learns an exercise from a demonstration (`POST /api/library/learn`, docs/learn.md): therapists only;
/// the learned exercise is kept, listed, prescribed and coached like a library one.
struct ClinicLearnTests {
    @Test("A therapist's demonstration becomes the clinic's exercise: previewed, listed, prescribable, coachable")
    func learnPrescribeCoach() async throws {
        let path = LiveTestServer.shared + "/pose-tracks/ui-prmd/m07_s01_front.jsonl"
        try #require(FileManager.default.fileExists(atPath: path), "missing \(path)")
        let track = try String(contentsOfFile: path, encoding: .utf8)
        let (store, _) = try LiveTestServer.store()
        let app = try LiveTestServer.application(store: store)
        try await app.test(.live) { client in
            let clinic = try await ClinicAccessTests.clinic(store, client)
            let therapist = try #require(clinic.logins[.therapistA])
            func learn(
                _ name: String,
                _ body: String,
                as login: ClinicAccessTests.Login?
            ) async throws -> (
                HTTPResponse.Status, JSONValue
            ) {
                var headers: HTTPFields = [:]
                if let login {
                    headers[.cookie] = login.cookie
                    headers[ClinicAuth.csrfHeader] = login.csrf
                }
                let query = name.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? name
                return try await client.execute(
                    uri: "/api/library/learn?name=\(query)&file=m07.jsonl",
                    method: .post,
                    headers: headers,
                    body: ByteBuffer(string: body)
                ) { ($0.status, (try? JSONValue.parse(String(buffer: $0.body))) ?? .null) }
            }
            // Refused: nobody, a patient, a library exercise's name, no demonstration, nobody in it.
            #expect(try await learn("Arm raise", track, as: nil).0 == .unauthorized)
            #expect(try await learn("Arm raise", track, as: clinic.logins[.patientA]).0 == .forbidden)
            #expect(try await learn("Squat", track, as: therapist).0 == .conflict)
            #expect(try await learn("Arm raise", "", as: therapist).0 == .badRequest)
            #expect(try await learn("", track, as: therapist).0 == .badRequest)
            let (status, learned) = try await learn("Arm raise", track, as: therapist)
            #expect(status == .created, "\(learned)")
            #expect(learned["id"]?.stringValue == "arm-raise")
            let primary = learned["definition"]?["primary"]?.stringValue ?? ""
            #expect(primary.hasPrefix("shoulder"), "learned \(primary) from a shoulder abduction")
            // The preview: the demonstration's skeleton at the peak, with the learned angle and band.
            let preview = try #require(learned["preview"])
            #expect((preview["pose"]?.objectValue?.count ?? 0) > 10)
            let peak = try #require(learned["definition"]?["repetition"]?["peak"]?.doubleValue)
            let shown = try #require(preview["state"]?["angle"]?.doubleValue)
            #expect(abs(shown - peak) < 15, "the frame shown has \(shown)°, the learned peak \(peak)°")
            #expect(preview["state"]?["target"]?.arrayValue?.count == 2)
            #expect((preview["repetitions"]?.intValue ?? 0) >= 8, "\(preview["repetitions"] ?? .null) of 10")
            // Kept, listed and offered with the library.
            #expect(try await store.clinicExercises().map(\.id) == ["arm-raise"])
            let exercises = try await client.execute(uri: "/api/exercises", method: .get) {
                try JSONValue.parse(String(buffer: $0.body)).arrayValue ?? []
            }
            #expect(exercises.contains { $0["id"] == .string("arm-raise") && $0["clinic"] == .bool(true) })
            let listed = try await client.execute(
                uri: "/api/library",
                method: .get,
                headers: [.cookie: therapist.cookie]
            ) { try JSONValue.parse(String(buffer: $0.body)).arrayValue ?? [] }
            #expect(listed.map { $0["name"] } == [.string("Arm raise")])
            // Prescribed in a programme, and coached live by its id.
            let programme =
                #"{"daysPerWeek":3,"items":[{"exercise":"arm-raise","sets":2,"reps":10,"restSeconds":30,"note":""}]}"#
            let saved = try await client.execute(
                uri: "/api/patients/\(clinic.patientA.id)/programme",
                method: .put,
                headers: [.cookie: therapist.cookie, ClinicAuth.csrfHeader: therapist.csrf],
                body: ByteBuffer(string: programme)
            ) { $0.status }
            #expect(saved == .ok)
            // The patient's programme names it.
            let mine = try await client.execute(
                uri: "/api/me/programme",
                method: .get,
                headers: [.cookie: try #require(clinic.logins[.patientA]).cookie]
            ) { try JSONValue.parse(String(buffer: $0.body)) }
            #expect(mine["names"] == .array([.string("Arm raise")]), "\(mine)")
            let set = try LiveSocketTests.keypointMessages(path, exercise: "arm-raise")
            let mailbox = LiveMailbox()
            try await LiveTestServer.session(client, mailbox: mailbox) { outbound in
                try await LiveTestServer.sendSet(start: set.start, frames: set.frames, on: outbound, mailbox: mailbox)
                _ = try await mailbox.wait(for: "frame", count: set.frames.count, timeout: 120)
                try await outbound.write(.text(#"{"type":"end"}"#))
                _ = try await mailbox.wait(for: "summary", timeout: 60)
            }
            let ready = try #require(await mailbox.all("ready").first)
            #expect(ready["exercise"]?["name"]?.stringValue == "Arm raise")
            let reps = await mailbox.all("summary").first?["summary"]?["reps"]?.intValue ?? 0
            #expect(
                reps == preview["repetitions"]?.intValue,
                "live \(reps), preview \(preview["repetitions"] ?? .null)"
            )
        }
    }
}

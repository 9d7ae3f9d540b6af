import CoachKit
import CoachStore
import Foundation
import HTTPTypes
import HummingbirdTesting
import HummingbirdWSClient
import HummingbirdWebSocket
import Testing

@testable import CoachServer
@testable import PoseKit

extension LiveWatchTests {
    @Test("A watched hand set: the therapist gets its hands, the picture's size and the hand repetition")
    func watchedHandSet() async throws {
        let (store, _) = try LiveTestServer.store()
        let app = try LiveHandSetTests.application(
            store: store,
            hands: { () throws(LiveFrameError) in
                ScriptedHandEstimator.camera {
                    // The coached hand alone (no open palm to end the set): one fist, 3–4.5 s.
                    LiveHandSetTests.hands(fist: LiveHandSetTests.fist($0), other: .none, seconds: $0)
                }
            }
        )
        let (watcher, patient) = (LiveMailbox(), LiveMailbox())
        let fps = 15.0
        try await app.test(.live) { client in
            let clinic = try await ClinicAccessTests.clinic(store, client)
            var configuration = WebSocketClientConfiguration()
            configuration.additionalHeaders = [.cookie: try #require(clinic.logins[.patientA]?.cookie)]
            async let watching = ClinicAccessTests.watch(
                client,
                patient: clinic.patientA.id,
                cookie: clinic.logins[.therapistA]?.cookie,
                mailbox: watcher
            ) { _ in _ = try await watcher.wait(for: "summary", timeout: 120) }
            _ = try await watcher.wait(for: "watching", timeout: 60)
            try await LiveTestServer.session(client, mailbox: patient, configuration: configuration) { outbound in
                _ = try await patient.wait(for: "watchers", timeout: 60)
                try await outbound.write(.text(#"{"type":"start","input":"camera","exercise":"finger-flexion"}"#))
                _ = try await patient.wait(for: "ready")
                // 5 s, one frame answered before the next.
                for k in 0..<Int(5 * fps) {
                    try await outbound.write(
                        LiveTestServer.cameraFrame(
                            id: UInt32(k),
                            seconds: Double(k) / fps,
                            bytes: LiveTestServer.jpegBytes
                        )
                    )
                    _ = try await patient.wait(for: "frame", count: k + 1, timeout: 30)
                }
                try await outbound.write(.text(#"{"type":"end"}"#))
                _ = try await patient.wait(for: "summary", timeout: 60)
            }
            _ = try await watching
        }
        let frames = await watcher.all("frame")
        #expect(frames.count > 10 && frames.count <= Int(5 * fps), "\(frames.count) frames watched")
        #expect(frames.allSatisfy { ($0["hands"]?.arrayValue?.count ?? 0) > 0 }, "every frame has its hands")
        let sized = await watcher.all("set").filter { $0["width"] == .number(640) && $0["height"] == .number(480) }
        #expect(!sized.isEmpty, "the watchers were told the picture's size")
        let handReps = frames.flatMap { $0["events"]?.arrayValue ?? [] }.filter { $0["type"] == .string("handRep") }
        let counted = await patient.all("summary").first?["summary"]?["reps"]?.intValue
        #expect(
            handReps.count == counted && counted == 1,
            "\(handReps.count) handRep events, the set counted \(counted ?? -1)"
        )
    }
}

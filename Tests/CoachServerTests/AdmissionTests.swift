import Foundation
import Hummingbird
import HummingbirdTesting
import HummingbirdWSClient
import HummingbirdWSTesting
import NIOWebSocket
import Testing

@testable import CoachServer
@testable import PoseKit

/// Admission by capacity on a running server: the workers measure the frames they coach, and a camera session that
/// would leave a running one under 8 frames a second is refused.
struct AdmissionTests {
    @Test("When the measured model cannot keep every session at 8 fps, the next is refused: busy, retry, 1013")
    func busyPastTheMeasuredRate() async throws {
        let (store, _) = try LiveTestServer.store()
        var admission = InferenceCapacity.Configuration()
        admission.minimumSamples = 3
        // The test model sleeps 0.3 s a frame: whatever the machine, 2 workers manage at most 6.7 frames a second,
        // under the 16 that two sessions would need.
        let app = try LiveTestServer.application(store: store, estimatorDelay: 0.3, admission: admission)
        let first = LiveMailbox()
        let second = LiveMailbox()
        try await app.test(.live) { client in
            let holder = Task {
                try await LiveTestServer.session(client, mailbox: first) { outbound in
                    try await outbound.write(.text(#"{"type":"start","input":"camera"}"#))
                    _ = try await first.wait(for: "ready")
                    // Frame k is answered before its cost is recorded, and frame k + 1 coached after: 4 answers, 3 costs.
                    for k in 0..<4 {
                        try await outbound.write(
                            LiveTestServer.cameraFrame(
                                id: UInt32(k),
                                seconds: Double(k) / 15,
                                bytes: LiveTestServer.jpegBytes
                            )
                        )
                        _ = try await first.wait(for: "frame", count: k + 1, timeout: 30)
                    }
                    _ = try await second.wait(for: "error")
                }
            }
            _ = try await first.wait(for: "frame", count: 4, timeout: 30)
            let close = try await LiveTestServer.session(client, mailbox: second) { outbound in
                try await outbound.write(.text(#"{"type":"start","input":"camera"}"#))
                _ = try await second.wait(for: "error")
            }
            #expect(close?.closeCode == WebSocketErrorCode(codeNumber: 1013))
            _ = try await holder.value
        }
        let error = try #require(await second.all("error").first)
        #expect(error["code"]?.stringValue == "busy")
        #expect(error["retryAfterSeconds"]?.intValue == 30)
        #expect(error["message"]?.stringValue?.contains("at 8 frames a second each") == true)
    }
}

import CoachKit
import CoachStore
import Foundation
import HummingbirdTesting
import NIOWebSocket
import Testing
import WSCore

@testable import CoachServer
@testable import PoseKit

/// A therapist's watch sockets are capped (docs/live-watch.md, "Who may watch").
extension ClinicAccessTests {
    @Test("A therapist's fifth watch socket gets one busy error and is closed; the four stay open")
    func watchSocketsAreCapped() async throws {
        let (store, _) = try LiveTestServer.store()
        let app = try LiveTestServer.application(store: store)
        try await app.test(.live) { client in
            let clinic = try await Self.clinic(store, client)
            let cookie = clinic.logins[.therapistA]?.cookie
            let cap = WatchRouter.maxPerTherapist
            let release = LockedBox(false)
            let opened = LockedBox(0)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<cap {
                    group.addTask {
                        let mailbox = LiveMailbox()
                        try await Self.watch(client, patient: clinic.patientA.id, cookie: cookie, mailbox: mailbox) {
                            _ in
                            _ = try await mailbox.wait(for: "watching", timeout: 120)
                            opened.value += 1
                            // Held until the fifth was answered (a deadline in polls, long enough for a loaded
                            // machine running every suite).
                            for _ in 0..<LiveMailbox.polls(300, every: 0.01) where !release.value {
                                try await Task.sleep(for: .milliseconds(10))
                            }
                        }
                    }
                }
                for _ in 0..<LiveMailbox.polls(120, every: 0.01) where opened.value < cap {
                    try await Task.sleep(for: .milliseconds(10))
                }
                #expect(opened.value == cap, "the first \(cap) sockets were let in")
                let (messages, close) = try await Self.firstAnswer(client, patient: clinic.patientA.id, cookie: cookie)
                {
                    _,
                    fifth in try await fifth.waitUntilClosed(timeout: 120)
                }
                let error = try #require(messages.first)
                #expect(error["code"]?.stringValue == "busy", "\(error)")
                #expect(error["message"]?.stringValue?.contains("\(cap) pages") == true, "\(error)")
                #expect(messages.count == 1)
                #expect(close?.closeCode == .policyViolation, "\(String(describing: close))")
                release.value = true
                try await group.waitForAll()
            }
        }
    }
}

import CoachKit
import CoachStore
import Foundation
import HummingbirdTesting
import Testing

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
                            _ = try await mailbox.wait(for: "watching", timeout: 30)
                            opened.value += 1
                            for _ in 0..<LiveMailbox.polls(60, every: 0.01) where !release.value {
                                try await Task.sleep(for: .milliseconds(10))
                            }
                        }
                    }
                }
                for _ in 0..<LiveMailbox.polls(30, every: 0.01) where opened.value < cap {
                    try await Task.sleep(for: .milliseconds(10))
                }
                #expect(opened.value == cap, "the first \(cap) sockets were let in")
                let fifth = LiveMailbox()
                try await Self.watch(client, patient: clinic.patientA.id, cookie: cookie, mailbox: fifth) { _ in
                    _ = try await fifth.wait(for: "error", timeout: 30)
                    try await fifth.waitUntilClosed(timeout: 30)
                }
                let error = try #require(await fifth.messages.first)
                #expect(error["code"]?.stringValue == "busy", "\(error)")
                #expect(error["message"]?.stringValue?.contains("\(cap) pages") == true, "\(error)")
                #expect(await fifth.messages.count == 1)
                release.value = true
                try await group.waitForAll()
            }
        }
    }
}

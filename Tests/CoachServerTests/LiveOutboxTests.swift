import Foundation
import Testing

@testable import CoachServer

@Suite("Live outbox")
struct LiveOutboxTests {
    @Test("A slow writer gets every message in order, and the reader waits while too many are queued")
    func backpressure() async throws {
        let outbox = LiveOutbox(limit: 8)
        let count = 200
        let written = LockedCounter()
        let writer = Task {
            var texts: [String] = []
            for await item in outbox.messages {
                if case .text(let text) = item { texts.append(text) }
                try? await Task.sleep(for: .microseconds(200))
                written.increment()
                outbox.written()
            }
            return texts
        }
        var mostQueued = 0
        for index in 0..<count {
            outbox.send(.text("\(index)"))
            await outbox.waitForRoom()
            mostQueued = max(mostQueued, index + 1 - written.value)
        }
        outbox.finish()
        let texts = await writer.value
        #expect(texts == (0..<count).map { "\($0)" })
        #expect(mostQueued <= 8)
    }

    @Test("A writer that has stopped does not leave the reader waiting")
    func finishReleasesTheReader() async {
        let outbox = LiveOutbox(limit: 2)
        for index in 0..<5 { outbox.send(.text("\(index)")) }
        let reader = Task { await outbox.waitForRoom() }
        outbox.finish()
        await reader.value
        outbox.send(.text("after the end"))  // dropped, no crash
    }
}

private final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}

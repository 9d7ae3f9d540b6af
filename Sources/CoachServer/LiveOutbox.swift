import Foundation

/// A live socket's outgoing messages, in order, none dropped: a repetition shown live is one the patient counts on.
///
/// The socket's reader waits (``waitForRoom()``) while more than `limit` messages are queued, so a client that
/// reads its answers slowly slows its own frames down instead of growing the server's memory or losing answers.
final class LiveOutbox: @unchecked Sendable {
    let messages: AsyncStream<LiveConnection.Outgoing>
    private let continuation: AsyncStream<LiveConnection.Outgoing>.Continuation
    private let limit: Int
    private let lock = NSLock()
    private var queued = 0
    private var finished = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    init(limit: Int = 256) {
        (messages, continuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
        self.limit = limit
    }

    /// Queues a message for the socket's writer.
    func send(_ message: LiveConnection.Outgoing) {
        let accepted = lock.withLock {
            guard !finished else { return false }
            queued += 1
            return true
        }
        if accepted { continuation.yield(message) }
    }

    /// The writer has written one message.
    func written() {
        let ready = lock.withLock {
            queued -= 1
            return queued <= limit / 2 ? takeWaiters() : []
        }
        for waiter in ready { waiter.resume() }
    }

    /// Returns when at most `limit` messages are queued (or the socket is ending).
    func waitForRoom() async {
        await withCheckedContinuation { waiter in
            let wait = lock.withLock {
                guard !finished, queued > limit else { return false }
                waiters.append(waiter)
                return true
            }
            if !wait { waiter.resume() }
        }
    }

    /// No more messages: the writer ends once it has written those queued, and no reader waits any longer.
    func finish() {
        let ready = lock.withLock {
            finished = true
            return takeWaiters()
        }
        continuation.finish()
        for waiter in ready { waiter.resume() }
    }

    private func takeWaiters() -> [CheckedContinuation<Void, Never>] {
        defer { waiters = [] }
        return waiters
    }
}

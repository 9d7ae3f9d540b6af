import Foundation
import Synchronization

/// A live socket's outgoing messages, in order, none dropped: a repetition shown live is one the patient counts on.
///
/// The socket's reader waits (``waitForRoom()``) while more than `limit` messages are queued, so a client that
/// reads its answers slowly slows its own frames down instead of growing the server's memory or losing answers.
final class LiveOutbox: Sendable {
    let messages: AsyncStream<LiveConnection.Outgoing>
    private let continuation: AsyncStream<LiveConnection.Outgoing>.Continuation
    private let limit: Int
    private struct State {
        var queued = 0
        var finished = false
        var waiters: [CheckedContinuation<Void, Never>] = []

        /// The readers waiting for room, taken to be resumed.
        mutating func takeWaiters() -> [CheckedContinuation<Void, Never>] {
            defer { waiters = [] }
            return waiters
        }
    }

    private let state = Mutex(State())

    init(limit: Int = 256) {
        (messages, continuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
        self.limit = limit
    }

    /// Queues a message for the socket's writer.
    func send(_ message: LiveConnection.Outgoing) {
        let accepted = state.withLock { state in
            guard !state.finished else { return false }
            state.queued += 1
            return true
        }
        if accepted { continuation.yield(message) }
    }

    /// Queues a message that may be missed (a watcher's frame without events): dropped while more than `behind`
    /// messages wait, so that a slow reader gets the latest picture rather than an ever later one.
    func sendDroppable(_ message: LiveConnection.Outgoing, behind: Int = 8) {
        let accepted = state.withLock { state in
            guard !state.finished, state.queued <= behind else { return false }
            state.queued += 1
            return true
        }
        if accepted { continuation.yield(message) }
    }

    /// The writer has written one message.
    func written() {
        let ready = state.withLock { state in
            state.queued -= 1
            return state.queued <= limit / 2 ? state.takeWaiters() : []
        }
        for waiter in ready { waiter.resume() }
    }

    /// Returns when at most `limit` messages are queued (or the socket is ending).
    func waitForRoom() async {
        await withCheckedContinuation { waiter in
            let wait = state.withLock { state in
                guard !state.finished, state.queued > limit else { return false }
                state.waiters.append(waiter)
                return true
            }
            if !wait { waiter.resume() }
        }
    }

    /// No more messages: the writer ends once it has written those queued, and no reader waits any longer.
    func finish() {
        let ready = state.withLock { state in
            state.finished = true
            return state.takeWaiters()
        }
        continuation.finish()
        for waiter in ready { waiter.resume() }
    }
}

/// Carries the live-watch messages (docs/live-watch.md) between the `ptcoach serve` instances of one clinic: a
/// therapist connected to one instance watches a patient coached by another. Every message published reaches every
/// instance, the publisher's own included, and those of one publisher arrive in the order it published them.
///
/// One instance alone uses ``LocalLiveRelay``; instances that share a PostgreSQL database use its LISTEN/NOTIFY
/// (`PostgresLiveRelay`, CoachDatabase).
///
/// ```swift
/// let relay = LocalLiveRelay()
/// relay.publish("W patient-1 k\n{\"type\":\"offline\"}")
/// for await message in relay.messages { … }   // one reader, for the whole server
/// ```
public protocol LiveRelay: Sendable {
    /// Queues `message` for every instance; returns at once (a message that cannot be carried is logged and lost:
    /// a watcher misses a frame, the patient's set goes on).
    func publish(_ message: String)
    /// The messages every instance publishes. Read by one task.
    var messages: AsyncStream<String> { get }
}

/// The relay of a single instance: what it publishes it reads back, in order, in process.
public final class LocalLiveRelay: LiveRelay {
    public let messages: AsyncStream<String>
    private let continuation: AsyncStream<String>.Continuation

    public init() {
        (messages, continuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    public func publish(_ message: String) { continuation.yield(message) }

    deinit { continuation.finish() }
}

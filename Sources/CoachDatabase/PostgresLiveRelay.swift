public import CoachStore
import Foundation
public import Logging
import NIOSSL
import PostgresNIO
import Synchronization

/// The live-watch relay of instances sharing one PostgreSQL database: `NOTIFY ptcoach_live` on one connection of its
/// own (so that what one instance publishes goes out in order), `LISTEN ptcoach_live` on another. PostgreSQL delivers
/// a notification to every listening session, the publisher's own included, in the order each session sent them.
///
/// A notification's payload must stay under 8000 bytes: a longer message (a set's summary, a revision of many
/// repetitions) goes as numbered parts (``PostgresRelayChunks``) that the readers put back together.
///
/// ```swift
/// let relay = try await PostgresLiveRelay(url: "postgres://ptcoach:secret@db:5432/ptcoach")
/// ```
public final class PostgresLiveRelay: LiveRelay {
    public static let channel = "ptcoach_live"

    public let messages: AsyncStream<String>
    private let incoming: AsyncStream<String>.Continuation
    private let outgoing: AsyncStream<String>.Continuation
    private let tasks: Mutex<[Task<Void, Never>]>

    /// Connects both connections (`postgres://user:password@host:port/database`, `?sslmode=`, as the store) and
    /// returns once the listener is listening.
    public init(url: String, logger: Logger = PostgresClinicStore.quietLogger) async throws(StoreError) {
        let configuration = try PostgresURL(url).connection()
        let (messages, incoming) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .unbounded)
        let (outbox, outgoing) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .unbounded)
        (self.messages, self.incoming, self.outgoing) = (messages, incoming, outgoing)
        tasks = Mutex([])
        let listening = AsyncStream.makeStream(of: Result<Void, StoreError>.self)
        let listener = Task {
            var chunks = PostgresRelayChunks.Assembler()
            var first = true
            while !Task.isCancelled {
                do {
                    let connection = try await PostgresConnection.connect(
                        configuration: configuration,
                        id: 1,
                        logger: logger
                    )
                    defer { Task { try? await connection.close() } }
                    try await connection.listen(on: Self.channel) { notifications in
                        if first { listening.continuation.yield(.success(())) }
                        first = false
                        for try await notification in notifications {
                            if let message = chunks.take(notification.payload) { incoming.yield(message) }
                        }
                    }
                } catch {
                    if first {
                        listening.continuation.yield(.failure(StoreError("cannot LISTEN on \(url)", cause: error)))
                        return
                    }
                    logger.warning("live relay: the listening connection ended (\(error)); reconnecting")
                    try? await Task.sleep(for: .seconds(1))
                }
            }
        }
        let publisher = Task {
            var connection: PostgresConnection?
            for await message in outbox {
                for payload in PostgresRelayChunks.payloads(message) {
                    // One retry on a fresh connection: a dropped connection costs one message at most.
                    for attempt in 0..<2 {
                        do {
                            if connection == nil {
                                connection = try await PostgresConnection.connect(
                                    configuration: configuration,
                                    id: 2,
                                    logger: logger
                                )
                            }
                            try await connection!.query(
                                "SELECT pg_notify(\(Self.channel), \(payload))",
                                logger: logger
                            )
                            break
                        } catch {
                            try? await connection?.close()
                            connection = nil
                            if attempt == 1 { logger.warning("live relay: a message was lost (\(error))") }
                        }
                    }
                }
            }
            try? await connection?.close()
        }
        tasks.withLock { $0 = [listener, publisher] }
        for await result in listening.stream {
            if case .failure(let error) = result {
                publisher.cancel()
                throw error
            }
            break
        }
    }

    deinit {
        outgoing.finish()
        incoming.finish()
        for task in tasks.withLock({ $0 }) { task.cancel() }
    }

    public func publish(_ message: String) { outgoing.yield(message) }
}

/// A relay message as NOTIFY payloads under PostgreSQL's 8000-byte limit, and back.
///
/// A message of at most ``maxPayloadBytes`` goes as it is; a longer one as parts `~ID K N\n…` (part K of N, cut
/// between characters), which ``Assembler`` joins when all N have come. Relay messages never begin with `~`.
enum PostgresRelayChunks {
    static let maxPayloadBytes = 7900

    /// The payloads that carry `message`.
    static func payloads(_ message: String, limit: Int = maxPayloadBytes) -> [String] {
        guard message.utf8.count > limit else { return [message] }
        var parts: [String] = []
        var part = ""
        var bytes = 0
        let room = limit - 64
        for scalar in message.unicodeScalars {
            let size = String(scalar).utf8.count
            if bytes + size > room {
                parts.append(part)
                (part, bytes) = ("", 0)
            }
            part.unicodeScalars.append(scalar)
            bytes += size
        }
        if !part.isEmpty { parts.append(part) }
        let id = UUID().uuidString.prefix(8)
        return parts.enumerated().map { "~\(id) \($0.offset + 1) \(parts.count)\n\($0.element)" }
    }

    /// Joins the parts of long messages; at most 64 unfinished at once (a publisher that stopped half-way).
    struct Assembler {
        private var partial: [String: [Int: String]] = [:]
        private var order: [String] = []

        /// The message `payload` completes, or `nil` while parts are missing (or for a malformed part).
        mutating func take(_ payload: String) -> String? {
            guard payload.hasPrefix("~") else { return payload }
            guard let newline = payload.firstIndex(of: "\n") else { return nil }
            let head = payload[payload.index(after: payload.startIndex)..<newline].split(separator: " ")
            guard head.count == 3, let k = Int(head[1]), let n = Int(head[2]), (1...n).contains(k) else { return nil }
            let id = String(head[0])
            if partial[id] == nil {
                order.append(id)
                if order.count > 64 { partial[order.removeFirst()] = nil }
            }
            partial[id, default: [:]][k] = String(payload[payload.index(after: newline)...])
            guard let parts = partial[id], parts.count == n else { return nil }
            partial[id] = nil
            order.removeAll { $0 == id }
            return (1...n).map { parts[$0] ?? "" }.joined()
        }
    }
}

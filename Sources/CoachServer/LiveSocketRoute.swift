import CoachStore
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOWebSocket
import ServiceLifecycle

extension CoachServer {
    /// The live socket (`/live`, docs/live-protocol.md): a browser's origin must be the server's own; the patient
    /// logged in on the browser, if any, owns its sets. Each socket's messages go to its ``LiveConnection`` in order;
    /// its answers go out through a ``LiveOutbox`` that stops reading a client too slow to read them.
    static func addLiveSocket(
        to router: Router<CoachRequestContext>,
        hub: LiveHub,
        auth: ClinicAuth,
        maxMessage: Int
    ) {
        router.ws(
            "/live",
            shouldUpgrade: { request, _ in
                try checkOrigin(request)
                return .upgrade([:])
            },
            onUpgrade: { inbound, outbound, context in
                let outbox = LiveOutbox()
                // A patient logged in on this browser: their sets are saved as theirs and can follow the programme.
                let patient = try? await auth.viewer(context.request).map(\.user).flatMap {
                    $0.role == .patient ? $0 : nil
                }
                let address = context.requestContext.remoteAddress?.ipAddress ?? "unknown"
                let connection = LiveConnection(hub: hub, patient: patient, address: address, logger: context.logger) {
                    outbox.send($0)
                }
                hub.register(connection)
                defer { hub.unregister(connection) }
                await connection.openWatchFeed()
                await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        // A writer that has stopped (socket gone) must not leave the reader waiting for room.
                        defer { outbox.finish() }
                        for await item in outbox.messages {
                            defer { outbox.written() }
                            switch item {
                            case .text(let text):
                                try await outbound.write(.text(text))
                            case .close(let code, let reason):
                                try await outbound.close(code, reason: reason)
                                return
                            }
                        }
                    }
                    await withGracefulShutdownHandler {
                        do {
                            for try await message in inbound.messages(maxSize: maxMessage) {
                                guard await connection.handle(message) else { break }
                                await outbox.waitForRoom()
                            }
                        } catch {
                            context.logger.info("live: socket ended: \(error)")
                        }
                    } onGracefulShutdown: {
                        Task { await connection.shutDown() }
                    }
                    await connection.finish()
                    outbox.finish()
                    _ = try? await group.next()
                    group.cancelAll()
                }
            }
        )
    }
}

extension CoachServerConfiguration {
    /// The largest WebSocket message read: a camera frame at the limit and room for its header.
    var maxMessageBytes: Int { maxFrameBytes + (64 << 10) }
}

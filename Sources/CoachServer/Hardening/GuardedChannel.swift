import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1

/// The server's HTTP/1 + WebSocket child channel with the guards Hummingbird leaves to the application: a deadline for
/// a connection's first request head and an answer to a malformed request (``HTTPRequestGuard``), and an error message
/// before the close for a WebSocket message over the limit (``WebSocketFrameGuard``). Hummingbird's own idle timeout
/// (`HTTP1Channel.Configuration.idleTimeout`) covers the connection from its first request on.
///
/// ```swift
/// let server = HTTPServerBuilder { responder in
///     GuardedChannel(base: HTTP1WebSocketUpgradeChannel(…), requestHeadTimeout: .seconds(10), maxMessageBytes: 1 << 20)
/// }
/// ```
struct GuardedChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value

    let base: Base
    let requestHeadTimeout: Duration
    let maxMessageBytes: Int

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            // The base has laid out [TLS?] response encoder, request decoder, upgrade handler; the guards go around
            // the HTTP codec: the frame guard sees the bytes, the request guard the decoder's parts and errors.
            let operations = channel.pipeline.syncOperations
            let encoder = try operations.handler(type: HTTPResponseEncoder.self)
            let decoder = try operations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try operations.addHandler(WebSocketFrameGuard(limit: maxMessageBytes), position: .before(encoder))
            try operations.addHandler(
                HTTPRequestGuard(timeout: TimeAmount(requestHeadTimeout)),
                position: .after(decoder)
            )
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

/// Guards a connection's HTTP requests. A client that sends nothing, or only part of its first request's head, within
/// `timeout` is disconnected (slowloris; from the first head on, Hummingbird's idle timeout applies). A request the
/// HTTP parser refuses (junk, an unknown method or version, conflicting lengths, headers over the decoder's limits)
/// gets 400 — 431 for headers too large — with a one-line reason, and the connection is closed. A WebSocket upgrade
/// request removes the guard: the upgrade handler takes the connection over, and then ``WebSocketFrameGuard``.
final class HTTPRequestGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let timeout: TimeAmount
    private var deadline: Scheduled<Void>?
    private var refused = false
    /// Requests read and not yet answered in full: a refusal is written only between requests.
    private var unanswered = 0
    private var pendingRefusal: HTTPParserError?

    init(timeout: TimeAmount) { self.timeout = timeout }

    func handlerAdded(context: ChannelHandlerContext) {
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) {
            // What the decoder makes of the half head it holds when the input ends is no longer answered.
            self.refused = true
            endConnection(context.channel)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        guard case .head(let head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        deadline?.cancel()
        deadline = nil
        unanswered += 1
        context.fireChannelRead(data)
        if head.headers.contains(name: "upgrade") {
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        unanswered -= 1
        context.write(data, promise: promise)
        if unanswered == 0, let pending = pendingRefusal {
            pendingRefusal = nil
            refuse(context: context, error: pending)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // Once refused, the decoder reports each later read as an error: the input being drained.
        guard !refused else { return }
        guard let error = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        refused = true
        deadline?.cancel()
        // A malformed request right behind one being answered is refused once that answer is out.
        if unanswered > 0 {
            pendingRefusal = error
        } else {
            refuse(context: context, error: error)
        }
    }

    private func refuse(context: ChannelHandlerContext, error: HTTPParserError) {
        let tooLarge = error == .headerOverflow
        let reason =
            tooLarge
            ? "the request's headers are too large (at most 1000 fields, 80 kB in all)\n"
            : "malformed HTTP request (\(error)); send HTTP/1.1\n"
        var body = context.channel.allocator.buffer(capacity: reason.utf8.count)
        body.writeString(reason)
        let head = HTTPResponseHead(
            version: .http1_1,
            status: tooLarge ? .requestHeaderFieldsTooLarge : .badRequest,
            headers: [
                "Connection": "close", "Content-Type": "text/plain; charset=utf-8",
                "Content-Length": String(body.readableBytes), "X-Content-Type-Options": "nosniff",
            ]
        )
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        lingeringClose(context.channel, after: context.writeAndFlush(wrapOutboundOut(.end(nil))))
    }
}

/// Ends a connection the server refused, once `written` (the refusal) is out: the output is shut at once, so the
/// client sees the end, and the connection is closed a second later. Meanwhile what the client still sends is read
/// and dropped: closing a socket with unread input would reset the connection, and the client could lose the answer.
func lingeringClose(_ channel: any Channel, after written: EventLoopFuture<Void>) {
    written.whenComplete { _ in
        channel.close(mode: .output, promise: nil)
        channel.eventLoop.scheduleTask(in: .seconds(1)) { endConnection(channel) }
    }
}

/// Closes a connection as if its client had ended it: the WebSocket upgrade handler, still waiting for a first
/// request, takes the end of input as the client's doing (Hummingbird logs that at trace level, a plain close at
/// error level: a log line an attacker could make at will).
func endConnection(_ channel: any Channel) {
    channel.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
    channel.close(promise: nil)
}

import NIOCore

/// Refuses a WebSocket message over the limit with an error message before the close. NIO's frame decoder would
/// close such a socket with a bare 1009; this handler, in front of the HTTP codec, stays inert until the server has
/// answered `101 Switching Protocols`, then reads the frame headers of the bytes coming in
/// (``WebSocketFrameScanner``). At the first message over `limit` it sends `{"type":"error","code":"bad-frame",…}`
/// and a 1009 close with a reason, drops the rest of the input and closes the connection (``lingeringClose(_:after:)``).
final class WebSocketFrameGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    private let limit: Int
    /// `nil` until the connection is a WebSocket.
    private var scanner: WebSocketFrameScanner?
    private var refused = false

    init(limit: Int) { self.limit = limit }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if scanner == nil, case .byteBuffer(let buffer) = unwrapOutboundIn(data),
            buffer.readableBytesView.starts(with: "HTTP/1.1 101 ".utf8)
        {
            scanner = WebSocketFrameScanner(limit: limit)
        }
        context.write(data, promise: promise)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        guard scanner != nil else {
            context.fireChannelRead(data)
            return
        }
        let buffer = unwrapInboundIn(data)
        guard case .tooLarge(let bytes) = scanner!.scan(buffer.readableBytesView) else {
            context.fireChannelRead(data)
            return
        }
        refused = true
        let text = ServerMessage.error(
            .init(
                .badFrame,
                "a message of \(bytes) bytes is over the server's limit of \(limit) bytes; the socket is closed "
                    + "(send camera frames of at most the ready message's maxFrameBytes of JPEG)"
            )
        ).jsonText
        var frames = context.channel.allocator.buffer(capacity: text.utf8.count + 64)
        Self.writeFrame(opcode: 0x1, payload: Array(text.utf8), to: &frames)
        // 1009: message too big; the reason fits a control frame's 125 bytes.
        Self.writeFrame(opcode: 0x8, payload: [0x03, 0xF1] + Array("message too large".utf8), to: &frames)
        lingeringClose(context.channel, after: context.writeAndFlush(wrapOutboundOut(.byteBuffer(frames))))
    }

    /// A final, unmasked server frame.
    static func writeFrame(opcode: UInt8, payload: [UInt8], to buffer: inout ByteBuffer) {
        buffer.writeInteger(0x80 | opcode)
        switch payload.count {
        case ..<126: buffer.writeInteger(UInt8(payload.count))
        case ..<65536:
            buffer.writeInteger(UInt8(126))
            buffer.writeInteger(UInt16(payload.count))
        default:
            buffer.writeInteger(UInt8(127))
            buffer.writeInteger(UInt64(payload.count))
        }
        buffer.writeBytes(payload)
    }
}

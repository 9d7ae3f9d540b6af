public import Hummingbird
public import HummingbirdWebSocket
public import NIOCore

/// The server's request context: Hummingbird's WebSocket context plus the client's address (to limit logins).
public struct CoachRequestContext: RequestContext, WebSocketRequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let webSocket: WebSocketHandlerReference<Self>
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        remoteAddress = source.channel.remoteAddress
    }
}

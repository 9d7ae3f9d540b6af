import CoachKit
public import Foundation
public import Hummingbird
public import HummingbirdWebSocket
public import NIOCore

/// The server's request context: Hummingbird's WebSocket context, the client's address (to limit logins) and who is
/// logged in (``ViewerMiddleware`` reads the login cookie once per API request).
public struct CoachRequestContext: RequestContext, WebSocketRequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let webSocket: WebSocketHandlerReference<Self>
    public let remoteAddress: SocketAddress?
    /// The login of the request's cookie, set by ``ViewerMiddleware``; `nil` when nobody is logged in.
    var viewer: Viewer?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        remoteAddress = source.channel.remoteAddress
    }

    /// A request body is at most 256 kB (a programme, a login): a larger one is answered 413.
    public var maxUploadSize: Int { 256 << 10 }

    /// Request bodies as the routes' ``APIRequestBody`` types: what to send when one cannot be read.
    public var requestDecoder: APIRequestDecoder { APIRequestDecoder() }

    /// The coach's JSON: sorted keys, slashes unescaped, non-finite numbers as "nan"/"inf" (as `analyze --json`).
    public var responseEncoder: JSONEncoder { JSONEncoder.coach() }

    /// The viewer, or 401 (routes behind ``RequireViewer`` always have one).
    func requireViewer() throws -> Viewer {
        guard let viewer else { throw HTTPError(.unauthorized, message: "log in first (POST /api/login)") }
        return viewer
    }

    /// The path's parameter `name` (`:id`), or an empty string.
    func parameter(_ name: String) -> String { parameters.get(name) ?? "" }

    /// The client's address, for the limits per address.
    var address: String { remoteAddress?.ipAddress ?? "unknown" }
}

import HTTPTypes
import Hummingbird
import Logging

/// The headers every answer carries, errors included (docs/server.md): `X-Content-Type-Options: nosniff`, a
/// Content-Security-Policy that forbids framing (the pages load only their own scripts, styles and media; a report
/// has its inline styles and images and nothing else), and `Cache-Control: no-store` on everything under `/api/`
/// — the sets, the reports, the exports and the clinic hold health data that no browser or proxy may keep.
struct ResponseHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    static var xFrameOptions: HTTPField.Name { HTTPField.Name("X-Frame-Options")! }
    static var referrerPolicy: HTTPField.Name { HTTPField.Name("Referrer-Policy")! }
    static var pagePolicy: String {
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; media-src 'self' blob:; "
            + "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    }
    static var reportPolicy: String {
        "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; "
            + "frame-ancestors 'none'"
    }

    @concurrent func handle(
        _ request: Request,
        context: Context,
        next: @concurrent (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        } catch {
            context.logger.error("\(request.method) \(request.uri.path): \(error)")
            response = try HTTPError(.internalServerError, message: "the server failed; try again")
                .response(from: request, context: context)
        }
        Self.apply(to: &response.headers, path: request.uri.path)
        return response
    }

    static func apply(to headers: inout HTTPFields, path: String) {
        let isAPI = path.hasPrefix("/api/") || path == "/health"
        headers[.xContentTypeOptions] = "nosniff"
        headers[xFrameOptions] = "DENY"
        headers[referrerPolicy] = "same-origin"
        let type = headers[.contentType] ?? ""
        if type.hasPrefix("text/html") {
            headers[.contentSecurityPolicy] = isAPI ? reportPolicy : pagePolicy
        } else if type.hasPrefix("application/pdf") {
            // A stricter policy would stop the browser's own PDF viewer.
            headers[.contentSecurityPolicy] = "frame-ancestors 'none'"
        } else {
            headers[.contentSecurityPolicy] = "default-src 'none'; frame-ancestors 'none'"
        }
        if isAPI { headers[.cacheControl] = "no-store" }
    }
}

import CoachStore
import Hummingbird

/// Puts who is logged in (the request's login cookie) in the request context, for every API route; a request
/// without a valid cookie goes on with no viewer.
struct ViewerMiddleware: RouterMiddleware {
    typealias Context = CoachRequestContext
    let auth: ClinicAuth

    @concurrent func handle(
        _ request: Request,
        context: CoachRequestContext,
        next: @concurrent (Request, CoachRequestContext) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.viewer = try await auth.viewer(request)
        return try await next(request, context)
    }
}

/// The routes for someone logged in (with `role`, when given): 401 without a login, 403 for the wrong role, and for
/// a state-changing request 403 without the login's CSRF token. Runs after ``ViewerMiddleware``.
struct RequireViewer: RouterMiddleware {
    typealias Context = CoachRequestContext
    var role: Role?

    init(_ role: Role? = nil) { self.role = role }

    @concurrent func handle(
        _ request: Request,
        context: CoachRequestContext,
        next: @concurrent (Request, CoachRequestContext) async throws -> Response
    ) async throws -> Response {
        let viewer = try context.requireViewer()
        if let role, viewer.user.role != role {
            throw HTTPError(.forbidden, message: "this is for \(role.rawValue)s")
        }
        if request.method != .get && request.method != .head {
            let sent = request.headers[ClinicAuth.csrfHeader] ?? ""
            guard ClinicAuth.constantTimeEqual(sent, viewer.session.csrfToken) else {
                throw HTTPError(
                    .forbidden,
                    message: "missing or wrong X-CSRF-Token header: reload the page (GET /api/me gives the token)"
                )
            }
        }
        return try await next(request, context)
    }
}

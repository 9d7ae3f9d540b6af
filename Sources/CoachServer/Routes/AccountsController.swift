import CoachKit
import CoachStore
import Foundation
import Hummingbird

/// Logging in and out, joining with an invitation code, and what the logged-in person sees of themselves:
/// `/api/login`, `/api/logout`, `/api/join`, `/api/me`, `/api/me/programme`.
struct AccountsController: Sendable {
    let auth: ClinicAuth
    let store: any ClinicStore
    /// The exercises' names by id (``LiveHub/exerciseNames``: the clinic's own exercises change while it runs).
    let exerciseNames: @Sendable () -> [String: String]

    private var names: [String: String] { exerciseNames() }

    var endpoints: RouteCollection<CoachRequestContext> {
        let routes = RouteCollection(context: CoachRequestContext.self)
        routes.post("login", use: login)
        routes.post("join", use: join)
        // Not logged in is an answer, not an error: pages ask before they know.
        routes.get("me") { _, context in MeResponse(context.viewer) }
        let loggedIn = RouteCollection(context: CoachRequestContext.self).add(middleware: RequireViewer())
        loggedIn.post("logout", use: logout)
        let patient = RouteCollection(context: CoachRequestContext.self).add(middleware: RequireViewer(.patient))
        patient.get("me/programme", use: programme)
        return routes.addRoutes(loggedIn).addRoutes(patient)
    }

    /// Starts a login session: the cookie and the viewer with their CSRF token. A session the browser had before
    /// is ended: the new one gets a new token (no fixation).
    @Sendable func login(_ request: Request, context: CoachRequestContext) async throws -> EditedResponse<MeResponse> {
        try CoachServer.checkOrigin(request, webSocket: false)
        let body = try await request.decode(as: LoginRequest.self, context: context)
        try await auth.logout(request)
        let (viewer, token) = try await auth.login(body.login, password: body.password, address: context.address)
        var response = EditedResponse(response: MeResponse(viewer))
        response.setCookie(auth.cookie(token: token))
        return response
    }

    @Sendable func logout(_ request: Request, context: CoachRequestContext) async throws -> EditedResponse<OKResponse> {
        try await auth.logout(request)
        var response = EditedResponse(response: OKResponse())
        response.setCookie(auth.cookie(token: nil))
        return response
    }

    /// A patient joins with their invitation code. The code is checked before the password's bcrypt: a made-up
    /// code costs a lookup, and counts against the address.
    @Sendable func join(_ request: Request, context: CoachRequestContext) async throws -> EditedResponse<MeResponse> {
        try CoachServer.checkOrigin(request, webSocket: false)
        let address = "join:" + context.address
        try auth.refuseIfBlocked([address], "invitation codes that did not work")
        let body = try await request.decode(as: JoinRequest.self, context: context)
        let login = body.login.trimmed
        if let problem = TypedText.lineProblem(login, field: "the login", characters: 3...120) {
            throw HTTPError(.badRequest, message: problem)
        }
        guard !login.contains(where: \.isWhitespace) else {
            throw HTTPError(.badRequest, message: "the login must be 3 to 120 characters, without spaces")
        }
        if let problem = ClinicAuth.passwordProblem(body.password) { throw HTTPError(.badRequest, message: problem) }
        let codeHash = ClinicAuth.sha256(body.code.uppercased().filter { $0.isLetter || $0.isNumber })
        let unknown = HTTPError(
            .notFound,
            message: "this invitation code is unknown, used or expired; ask your therapist for a new one"
        )
        guard try await store.invitationIsOpen(codeHash: codeHash, at: .now) else {
            auth.limiter.fail([address], now: .now)
            throw unknown
        }
        let patient: User?
        do {
            patient = try await store.redeem(
                codeHash: codeHash,
                login: login,
                passwordHash: auth.hashPassword(body.password),
                at: .now
            )
        } catch {
            throw HTTPError(.conflict, message: error.message)
        }
        guard let patient else { throw unknown }
        try await auth.logout(request)
        let (viewer, token) = try await auth.startSession(for: patient)
        var response = EditedResponse(response: MeResponse(viewer))
        response.setCookie(auth.cookie(token: token))
        return response
    }

    /// The patient's programme with today's counted sets of each item (as the live set numbers them) and the items
    /// stopped until the therapist has seen a set (pain 7 or more, a safety stop); `null` without a programme.
    @Sendable func programme(
        _ request: Request,
        context: CoachRequestContext
    ) async throws -> OptionalResponse<ProgrammeResponse> {
        let viewer = try context.requireViewer()
        guard let programme = try await store.programme(patientID: viewer.user.id, version: nil) else {
            return OptionalResponse(value: nil)
        }
        let sets = try await store.sets(patientID: viewer.user.id, since: nil, limit: 1000)
        var response = ProgrammeResponse(programme, names: names)
        response.doneToday = programme.items.indices.map {
            StopAdvice.setsDoneToday(sets, item: $0, version: programme.version)
        }
        response.stopped = programme.items.map { item in
            StopAdvice.blocking(sets, exercise: item.exercise).map {
                StopAdvice.text(for: $0, name: names[item.exercise])
            }
        }
        return OptionalResponse(value: response)
    }
}

import CoachStore
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdBcrypt
import Synchronization

/// Someone logged in, as the request's cookie says.
struct Viewer: Sendable {
    var user: User
    var session: LoginSession
}

/// Accounts and login sessions: bcrypt passwords, a random token in an HttpOnly SameSite=Strict cookie (the store
/// keeps only its SHA-256), a CSRF token per login checked on every state-changing request, failed logins limited
/// per login name and per address.
struct ClinicAuth: Sendable {
    static let cookieName = "ptcoach_session"
    static let csrfHeader = HTTPField.Name("X-CSRF-Token")!
    static let sessionSeconds: Double = 14 * 24 * 3600

    let store: any ClinicStore
    /// bcrypt's cost (12 in the product: about 0.25 s a hash; tests use less).
    let bcryptCost: UInt8
    /// `Secure` on the cookie when served over HTTPS.
    let secureCookies: Bool
    let limiter = LoginLimiter()
    /// Checked against for logins that do not exist, so that the answer takes as long either way.
    private let dummyHash: String

    init(store: any ClinicStore, bcryptCost: UInt8, secureCookies: Bool) {
        self.store = store
        self.bcryptCost = bcryptCost
        self.secureCookies = secureCookies
        dummyHash = Bcrypt.hash(ClinicAuth.token(), cost: bcryptCost)
    }

    // MARK: Tokens and passwords

    /// 32 random bytes, base64url.
    static func token() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// A one-time invitation code a person can type: 10 characters without look-alikes.
    static func invitationCode() -> String {
        let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<10).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }

    static func sha256(_ text: String) -> String {
        SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    func hashPassword(_ password: String) -> String { Bcrypt.hash(password, cost: bcryptCost) }

    /// Why a new password is refused, or `nil`.
    static func passwordProblem(_ password: String) -> String? {
        if password.count < 10 { return "the password must have at least 10 characters" }
        if password.utf8.count > 72 { return "the password must have at most 72 bytes (bcrypt's limit)" }
        // bcrypt would read the password only up to a NUL.
        if password.unicodeScalars.contains("\0") { return "the password must not contain a NUL character" }
        return nil
    }

    // MARK: Requests

    /// The login session of the request's cookie, or `nil`.
    func viewer(_ request: Request) async throws -> Viewer? {
        guard let token = request.cookies[Self.cookieName]?.value, !token.isEmpty else { return nil }
        guard let session = try await store.loginSession(tokenHash: Self.sha256(token), at: .now),
            let user = try await store.user(id: session.userID)
        else { return nil }
        return Viewer(user: user, session: session)
    }

    /// Checks a password and starts a new login session (a new token every time: a session id planted before login
    /// is never promoted). Throws 401 for a wrong login or password, 429 past the limit of failed attempts.
    func login(_ login: String, password: String, address: String) async throws -> (Viewer, token: String) {
        let keys = ["login:" + login.lowercased(), "address:" + address]
        try refuseIfBlocked(keys, "failed logins")
        let user = try await store.user(login: login)
        let hash = user?.passwordHash ?? dummyHash
        // bcrypt reads a password up to its first NUL: "secret\0anything" must not pass for "secret".
        guard Bcrypt.verify(password, hash: hash), !password.unicodeScalars.contains("\0"), let user else {
            limiter.fail(keys, now: .now)
            throw HTTPError(.unauthorized, message: "wrong login or password")
        }
        limiter.succeed("login:" + login.lowercased())
        return try await startSession(for: user)
    }

    /// 429 with Retry-After while one of `keys` is over its limit of failures (`what`: "failed logins").
    func refuseIfBlocked(_ keys: [String], _ what: String) throws {
        if let wait = limiter.blockedSeconds(keys, now: .now) {
            throw HTTPError(
                .tooManyRequests,
                headers: [.retryAfter: String(Int(wait.rounded(.up)))],
                message: "too many \(what); try again in \(Int((wait / 60).rounded(.up))) minute(s)"
            )
        }
    }

    func startSession(for user: User) async throws -> (Viewer, token: String) {
        let token = Self.token()
        let now = Date.now
        let session = LoginSession(
            tokenHash: Self.sha256(token),
            userID: user.id,
            csrfToken: Self.token(),
            createdAt: now,
            expiresAt: now.addingTimeInterval(Self.sessionSeconds)
        )
        try await store.add(session)
        return (Viewer(user: user, session: session), token)
    }

    /// Ends the request's login session, if any.
    func logout(_ request: Request) async throws {
        if let token = request.cookies[Self.cookieName]?.value, !token.isEmpty {
            try await store.removeLoginSession(tokenHash: Self.sha256(token))
        }
    }

    /// The login cookie: the session's token (HttpOnly, SameSite=Strict, for the session's lifetime; Secure over
    /// HTTPS), or with `nil` an empty one that ends it in the browser.
    func cookie(token: String?) -> Cookie {
        Cookie(
            name: Self.cookieName,
            value: token ?? "",
            maxAge: token == nil ? 0 : Int(Self.sessionSeconds),
            path: "/",
            secure: secureCookies,
            httpOnly: true,
            sameSite: .strict
        )
    }

    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let (x, y) = (Array(a.utf8), Array(b.utf8))
        guard x.count == y.count, !x.isEmpty else { return false }
        var difference: UInt8 = 0
        for i in x.indices { difference |= x[i] ^ y[i] }
        return difference == 0
    }
}

/// Failed logins in the last 15 minutes, per login name (5 allowed) and per address (30 allowed), and failed joins
/// (an invitation code unknown, used or expired) per address (10 allowed: a person mistypes a code a few times, a
/// guesser needs millions). Kept in memory: each server instance limits on its own.
final class LoginLimiter: Sendable {
    static let window: Double = 15 * 60
    private let failures = Mutex<[String: [Date]]>([:])

    private func limit(_ key: String) -> Int {
        if key.hasPrefix("login:") { return 5 }
        return key.hasPrefix("join:") ? 10 : 30
    }

    /// Seconds until a blocked key may try again, or `nil`.
    func blockedSeconds(_ keys: [String], now: Date) -> Double? {
        failures.withLock { failures in
            var wait: Double?
            for key in keys {
                let recent = (failures[key] ?? []).filter { now.timeIntervalSince($0) < Self.window }
                failures[key] = recent
                if recent.count >= limit(key), let oldest = recent.first {
                    wait = max(wait ?? 0, Self.window - now.timeIntervalSince(oldest))
                }
            }
            return wait
        }
    }

    func fail(_ keys: [String], now: Date) {
        failures.withLock { failures in
            for key in keys { failures[key, default: []].append(now) }
        }
    }

    func succeed(_ key: String) {
        failures.withLock { $0[key] = nil }
    }
}

import CoachKit
import CoachStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import CoachServer
@testable import PoseKit

/// Who may read and write what: every clinic endpoint × {anonymous, patient A, patient B, therapist of A, other
/// therapist}; only the allowed cells succeed. Also CSRF, session fixation, the login limit and cross-site logins.
@Suite("Clinic access")
struct ClinicAccessTests {
    enum Actor: String, CaseIterable, Sendable {
        case anonymous, patientA, patientB, therapistA, therapistB
    }

    /// A logged-in actor: the cookie and the CSRF token.
    struct Login: Sendable {
        var cookie: String
        var csrf: String
    }

    struct Clinic: Sendable {
        var patientA: User
        var patientB: User
        var invitedC: User  // a patient of therapist A who has not joined
        var setA: String
        var logins: [Actor: Login]
    }

    static let password = "a long enough password"

    static func cookie(_ response: TestResponse) -> String? {
        response.headers[.setCookie].flatMap { $0.split(separator: ";").first.map(String.init) }
    }

    static func login(
        _ client: some TestClientProtocol,
        _ name: String,
        password: String = password
    ) async throws
        -> (HTTPResponse.Status, Login?)
    {
        try await client.execute(
            uri: "/api/login",
            method: .post,
            body: ByteBuffer(string: #"{"login":"\#(name)","password":"\#(password)"}"#)
        ) { response in
            guard response.status == .ok, let cookie = cookie(response),
                let csrf = try JSONValue.parse(String(buffer: response.body))["csrfToken"]?.stringValue
            else { return (response.status, nil) }
            return (response.status, Login(cookie: cookie, csrf: csrf))
        }
    }

    /// Two therapists, a joined patient each, an invited one, and a saved set of patient A.
    static func clinic(_ store: any ClinicStore, _ client: some TestClientProtocol) async throws -> Clinic {
        let therapistA = try await ClinicAccounts.addTherapist(
            name: "Dr A",
            login: "ta@example.org",
            password: password,
            store: store,
            bcryptCost: 4
        )
        let therapistB = try await ClinicAccounts.addTherapist(
            name: "Dr B",
            login: "tb@example.org",
            password: password,
            store: store,
            bcryptCost: 4
        )
        var patients: [User] = []
        for (name, therapist) in [("A", therapistA), ("B", therapistB), ("C", therapistA)] {
            let patient = User(
                role: .patient,
                name: "Patient \(name)",
                login: nil,
                passwordHash: nil,
                therapistID: therapist.id
            )
            try await store.add(patient)
            patients.append(patient)
        }
        for (patient, login) in zip(patients.prefix(2), ["pa", "pb"]) {
            try await store.add(Invitation(codeHash: "code-" + login, patientID: patient.id, expiresAt: .now + 60))
            _ = try await store.redeem(
                codeHash: "code-" + login,
                login: login,
                passwordHash: ClinicAuth(store: store, bcryptCost: 4, secureCookies: false).hashPassword(password),
                at: .now
            )
        }
        var record = SetRecord(
            id: "set-of-A",
            startedAt: .now,
            input: "keypoints",
            exercise: "squat",
            exerciseName: "Squat",
            prescribedReps: 10,
            prescribedHoldSeconds: nil
        )
        record.patientID = patients[0].id
        try await store.open(record)
        var logins: [Actor: Login] = [:]
        for (actor, name) in [
            (Actor.patientA, "pa"), (.patientB, "pb"), (.therapistA, "ta@example.org"), (.therapistB, "tb@example.org"),
        ] {
            let loggedIn: Login = try #require(try await login(client, name).1)
            logins[actor] = loggedIn
        }
        return Clinic(
            patientA: patients[0],
            patientB: patients[1],
            invitedC: patients[2],
            setA: record.id,
            logins: logins
        )
    }

    struct Cell: Sendable {
        var name: String
        var method: HTTPRequest.Method
        var uri: String
        var body: String?
        var allowed: Set<Actor>
    }

    static func cells(_ c: Clinic) -> [Cell] {
        let a = c.patientA.id
        let programme =
            #"{"daysPerWeek":3,"items":[{"exercise":"squat","sets":3,"reps":10,"restSeconds":60,"note":""}]}"#
        return [
            Cell(name: "read patient A", method: .get, uri: "/api/patients/\(a)", allowed: [.patientA, .therapistA]),
            Cell(
                name: "export A CSV",
                method: .get,
                uri: "/api/patients/\(a)/export/sets.csv",
                allowed: [.patientA, .therapistA]
            ),
            Cell(
                name: "export A FHIR",
                method: .get,
                uri: "/api/patients/\(a)/export/fhir.json",
                allowed: [.patientA, .therapistA]
            ),
            Cell(name: "read A's audit log", method: .get, uri: "/api/patients/\(a)/audit", allowed: [.therapistA]),
            Cell(
                name: "read A's set",
                method: .get,
                uri: "/api/sessions/\(c.setA)",
                allowed: [.patientA, .therapistA]
            ),
            Cell(name: "list patients", method: .get, uri: "/api/patients", allowed: [.therapistA, .therapistB]),
            Cell(
                name: "the clinic's exercises",
                method: .get,
                uri: "/api/library",
                allowed: [.therapistA, .therapistB]
            ),
            Cell(name: "own programme", method: .get, uri: "/api/me/programme", allowed: [.patientA, .patientB]),
            Cell(
                name: "list own sets",
                method: .get,
                uri: "/api/sessions",
                allowed: [.patientA, .patientB, .therapistA, .therapistB]
            ),
            Cell(
                name: "write A's programme",
                method: .put,
                uri: "/api/patients/\(a)/programme",
                body: programme,
                allowed: [.therapistA]
            ),
            Cell(
                name: "invite C again",
                method: .post,
                uri: "/api/patients/\(c.invitedC.id)/invitation",
                body: "{}",
                allowed: [.therapistA]
            ),
            Cell(
                name: "rate A's set",
                method: .post,
                uri: "/api/sessions/\(c.setA)/rating",
                body: #"{"pain":2,"difficulty":3}"#,
                allowed: [.patientA]
            ),
            Cell(
                name: "add a patient",
                method: .post,
                uri: "/api/patients",
                body: #"{"name":"New"}"#,
                allowed: [.therapistA, .therapistB]
            ),
        ]
    }

    @Test("Every endpoint × every actor: only the allowed cells succeed, the others change nothing")
    func matrix() async throws {
        let (store, _) = try LiveTestServer.store()
        let app = try LiveTestServer.application(store: store)
        try await app.test(.router) { client in
            let clinic = try await Self.clinic(store, client)
            var wrong: [String] = []
            for cell in Self.cells(clinic) {
                for actor in Actor.allCases {
                    var headers: HTTPFields = [:]
                    if let login = clinic.logins[actor] {
                        headers[.cookie] = login.cookie
                        headers[ClinicAuth.csrfHeader] = login.csrf
                    }
                    let status = try await client.execute(
                        uri: cell.uri,
                        method: cell.method,
                        headers: headers,
                        body: cell.body.map { ByteBuffer(string: $0) }
                    ) { $0.status }
                    let succeeded = (200..<300).contains(status.code)
                    if succeeded != cell.allowed.contains(actor) {
                        wrong.append("\(cell.name) as \(actor.rawValue): \(status.code)")
                    }
                    if !succeeded {
                        #expect(
                            [401, 403, 404].contains(status.code),
                            "\(cell.name) as \(actor.rawValue): \(status.code)"
                        )
                    }
                }
            }
            #expect(wrong.isEmpty, "\(wrong)")
            // What was refused changed nothing: one programme version, A's rating by A only, one patient added each.
            #expect(try await store.programme(patientID: clinic.patientA.id, version: nil)?.version == 1)
            #expect(try await store.set(id: clinic.setA)?.pain == 2)
            #expect(try await store.programme(patientID: clinic.patientB.id, version: nil) == nil)
            // A therapist's list holds only their own patients.
            let listed = try await client.execute(
                uri: "/api/patients",
                method: .get,
                headers: [.cookie: clinic.logins[.therapistB]!.cookie]
            ) { try JSONValue.parse(String(buffer: $0.body)).arrayValue?.compactMap { $0["name"]?.stringValue } ?? [] }
            #expect(listed.sorted() == ["New", "Patient B"])
        }
    }

    @Test("A state-changing request without the login's CSRF token is refused and changes nothing")
    func csrf() async throws {
        let (store, _) = try LiveTestServer.store()
        let app = try LiveTestServer.application(store: store)
        try await app.test(.router) { client in
            let clinic = try await Self.clinic(store, client)
            let therapist = clinic.logins[.therapistA]!
            let other = clinic.logins[.therapistB]!
            let body = #"{"daysPerWeek":2,"items":[{"exercise":"squat","sets":1,"reps":5,"restSeconds":30,"note":""}]}"#
            for token in [nil, "wrong", other.csrf] {
                var headers: HTTPFields = [.cookie: therapist.cookie]
                if let token { headers[ClinicAuth.csrfHeader] = token }
                let status = try await client.execute(
                    uri: "/api/patients/\(clinic.patientA.id)/programme",
                    method: .put,
                    headers: headers,
                    body: ByteBuffer(string: body)
                ) { $0.status }
                #expect(status == .forbidden, "token \(token ?? "none")")
            }
            #expect(try await store.programme(patientID: clinic.patientA.id, version: nil) == nil)
        }
    }

    @Test("Logging in always gives a new session: a planted or earlier cookie is never promoted")
    func sessionFixation() async throws {
        let (store, _) = try LiveTestServer.store()
        let app = try LiveTestServer.application(store: store)
        try await app.test(.router) { client in
            let clinic = try await Self.clinic(store, client)
            let before = clinic.logins[.patientA]!
            let planted = "ptcoach_session=chosen-by-an-attacker"
            for cookie in [planted, before.cookie] {
                let after = try await client.execute(
                    uri: "/api/login",
                    method: .post,
                    headers: [.cookie: cookie],
                    body: ByteBuffer(string: #"{"login":"pa","password":"\#(Self.password)"}"#)
                ) { Self.cookie($0) }
                #expect(after != nil && after != cookie)
            }
            // The cookie held before the last login no longer works; the planted one never did.
            for cookie in [planted, before.cookie] {
                let status = try await client.execute(uri: "/api/patients", method: .get, headers: [.cookie: cookie]) {
                    $0.status
                }
                #expect(status == .unauthorized)
                let me = try await client.execute(uri: "/api/me", method: .get, headers: [.cookie: cookie]) {
                    try JSONValue.parse(String(buffer: $0.body))
                }
                #expect(me["user"] == .null)
            }
        }
    }

    @Test("Five wrong passwords block the login for 15 minutes (429, Retry-After), even with the right one")
    func loginLimit() async throws {
        let (store, _) = try LiveTestServer.store()
        let app = try LiveTestServer.application(store: store)
        try await app.test(.router) { client in
            _ = try await Self.clinic(store, client)
            for _ in 0..<5 {
                #expect(try await Self.login(client, "ta@example.org", password: "wrong guess!").0 == .unauthorized)
            }
            let blocked = try await client.execute(
                uri: "/api/login",
                method: .post,
                body: ByteBuffer(string: #"{"login":"ta@example.org","password":"\#(Self.password)"}"#)
            ) { ($0.status, $0.headers[.retryAfter]) }
            #expect(blocked.0 == .tooManyRequests)
            #expect(Int(blocked.1 ?? "") ?? 0 > 800)
            // Another login is not blocked by these failures.
            #expect(try await Self.login(client, "tb@example.org").0 == .ok)
        }
    }

    @Test("A login posted from another site is refused")
    func crossSiteLogin() async throws {
        let (store, _) = try LiveTestServer.store()
        let app = try LiveTestServer.application(store: store)
        try await app.test(.router) { client in
            _ = try await Self.clinic(store, client)
            let status = try await client.execute(
                uri: "/api/login",
                method: .post,
                headers: [.origin: "https://evil.example"],
                body: ByteBuffer(string: #"{"login":"ta@example.org","password":"\#(Self.password)"}"#)
            ) { $0.status }
            #expect(status == .forbidden)
        }
    }
}

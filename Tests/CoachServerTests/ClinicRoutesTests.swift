import CoachStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import CoachServer
@testable import PoseKit

/// The JSON API's edges, as the controllers give them: a body that is not what a route reads is one 400 saying what
/// to send, the login cookie is set through Hummingbird's cookie API with its attributes, and who is logged in comes
/// from the request context.
struct ClinicRoutesTests {
    static let password = "correct horse battery"

    @Test(
        "A body a route cannot read is 400 with what to send",
        arguments: [
            ("/api/login", #"{"login":"a"}"#, "send {\"login\": …, \"password\": …}"),
            ("/api/login", #"[1,2]"#, "send {\"login\": …, \"password\": …}"),
            ("/api/login", #"{"login":5,"password":"x"}"#, "send {\"login\": …, \"password\": …}"),
            ("/api/login", "not json", "the body is not valid JSON; send a JSON object"),
            ("/api/join", #"{"code":"X"}"#, "send {\"code\": …, \"login\": …, \"password\": …}"),
        ]
    )
    func unreadableBody(path: String, body: String, expected: String) async throws {
        let (store, _) = try LiveTestServer.store()
        let app = try LiveTestServer.application(store: store)
        try await app.test(.router) { client in
            try await client.execute(uri: path, method: .post, body: ByteBuffer(string: body)) { response in
                #expect(response.status == .badRequest)
                let message = try JSONValue.parse(String(buffer: response.body))["error"]?["message"]?.stringValue
                #expect(message == expected, "\(body)")
            }
        }
    }

    @Test("A login sets an HttpOnly, SameSite=Strict cookie for the session; logging out clears it")
    func loginCookie() async throws {
        let (store, _) = try LiveTestServer.store()
        _ = try await ClinicAccounts.addTherapist(
            name: "Dr A",
            login: "ta@example.org",
            password: Self.password,
            store: store,
            bcryptCost: 4
        )
        let app = try LiveTestServer.application(store: store)
        try await app.test(.router) { client in
            let (cookie, csrf) = try await client.execute(
                uri: "/api/login",
                method: .post,
                body: ByteBuffer(string: #"{"login":"ta@example.org","password":"\#(Self.password)"}"#)
            ) { response in
                #expect(response.status == .ok)
                let header = try #require(response.headers[.setCookie])
                for attribute in ["HttpOnly", "SameSite=Strict", "Path=/", "Max-Age=\(14 * 24 * 3600)"] {
                    #expect(header.contains(attribute), "\(header)")
                }
                #expect(!header.contains("Secure"), "no Secure over plain HTTP: \(header)")
                let me = try JSONValue.parse(String(buffer: response.body))
                #expect(me["user"]?["role"]?.stringValue == "therapist")
                return (String(header.prefix { $0 != ";" }), me["csrfToken"]?.stringValue ?? "")
            }
            let me = try await client.execute(uri: "/api/me", method: .get, headers: [.cookie: cookie]) {
                try JSONValue.parse(String(buffer: $0.body))
            }
            #expect(me["user"]?["login"]?.stringValue == "ta@example.org")
            let cleared = try await client.execute(
                uri: "/api/logout",
                method: .post,
                headers: [.cookie: cookie, ClinicAuth.csrfHeader: csrf]
            ) { ($0.status, $0.headers[.setCookie] ?? "") }
            #expect(cleared.0 == .ok && cleared.1.contains("Max-Age=0"), "\(cleared.1)")
            let after = try await client.execute(uri: "/api/me", method: .get, headers: [.cookie: cookie]) {
                try JSONValue.parse(String(buffer: $0.body))
            }
            #expect(after == .object(["user": .null]), "logged out: \(after)")
        }
    }

    @Test(
        "Report formats are the two a path can name",
        arguments: [("report.html", ReportFormat.html), ("report.pdf", .pdf), ("report.csv", nil), ("pdf", nil)]
    )
    func reportFormat(name: String, format: ReportFormat?) {
        #expect(ReportFormat(fileName: name) == format)
    }
}

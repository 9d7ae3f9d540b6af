import CoachStore
import Foundation
import NIOSSL
import PostgresNIO

/// A `--postgres` URL (`postgres://user:password@host:port/database`, `?sslmode=disable|prefer|require`, default
/// prefer), read once for the store's pool, its start-up probe and the live relay's connections.
struct PostgresURL {
    let host: String
    let port: Int
    let user: String
    let password: String?
    let database: String
    /// `disable`, `require`, or anything else for prefer.
    let sslMode: String
    private let url: String

    init(_ url: String) throws(StoreError) {
        guard let parts = URLComponents(string: url), ["postgres", "postgresql"].contains(parts.scheme ?? ""),
            let host = parts.host, let user = parts.user
        else {
            throw StoreError(
                "--postgres \(url) is not a PostgreSQL URL; write postgres://USER:PASSWORD@HOST:PORT/DATABASE"
            )
        }
        self.url = url
        self.host = host
        port = parts.port ?? 5432
        self.user = user
        password = parts.password?.removingPercentEncoding
        database = parts.path.hasPrefix("/") ? String(parts.path.dropFirst()) : parts.path
        sslMode = parts.queryItems?.first { $0.name == "sslmode" }?.value ?? "prefer"
    }

    /// Where it points, without the password (for messages).
    var location: String { "postgres://\(user)@\(host):\(port)/\(database)" }

    /// One connection's configuration.
    func connection() throws(StoreError) -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS
        do {
            switch sslMode {
            case "disable": tls = .disable
            case "require": tls = .require(try .init(configuration: .makeClientConfiguration()))
            default: tls = .prefer(try .init(configuration: .makeClientConfiguration()))
            }
        } catch {
            throw StoreError("cannot set up TLS for \(url)", cause: error)
        }
        return .init(
            host: host,
            port: port,
            username: user,
            password: password,
            database: database.isEmpty ? nil : database,
            tls: tls
        )
    }

    /// The connection pool's configuration.
    func client() -> PostgresClient.Configuration {
        let tls: PostgresClient.Configuration.TLS =
            switch sslMode {
            case "disable": .disable
            case "require": .require(.makeClientConfiguration())
            default: .prefer(.makeClientConfiguration())
            }
        return .init(
            host: host,
            port: port,
            username: user,
            password: password,
            database: database.isEmpty ? nil : database,
            tls: tls
        )
    }
}

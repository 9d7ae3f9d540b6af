import Foundation
import Logging
import PostgresNIO

/// The throw-away PostgreSQL server the test command starts (scripts/test-postgres.sh), for the tests that run on
/// both stores. `swift test` alone runs them on SQLite only and says so.
public enum TestPostgres {
    /// The server's URL, from `PTCOACH_TEST_POSTGRES_URL`.
    public static var url: String? {
        ProcessInfo.processInfo.environment["PTCOACH_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// A new, empty database on that server (tests run in parallel: one database each); its URL, or `nil` when
    /// no server was given.
    public static func freshDatabase() async throws -> String? {
        guard let url, var parts = URLComponents(string: url), let host = parts.host, let user = parts.user else {
            return nil
        }
        let name = "ptcoach_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let connection = try await PostgresConnection.connect(
            configuration: .init(
                host: host,
                port: parts.port ?? 5432,
                username: user,
                password: parts.password,
                database: String(parts.path.dropFirst()),
                tls: .disable
            ),
            id: 1,
            logger: Logger(label: "ptcoach.test-postgres")
        )
        do {
            try await connection.query(
                PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"),
                logger: Logger(label: "ptcoach.test-postgres")
            )
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()
        parts.path = "/" + name
        return parts.string
    }
}

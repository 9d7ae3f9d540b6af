import ArgumentParser
import CoachDatabase
import CoachPipeline
import CoachStore
import Foundation

/// Where the clinic is kept: an SQLite file in the data directory, or a PostgreSQL database (`--postgres`).
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: "Where the database is kept (created if missing).")
    var dataDirectory = "data"

    @Option(
        name: .long,
        help:
            "A PostgreSQL database instead of SQLite (postgres://USER:PASSWORD@HOST:PORT/DB): several servers share it."
    )
    var postgres: String?

    /// What the server says it saves into.
    var description: String {
        postgres.flatMap { URLComponents(string: $0) }.map { "PostgreSQL \($0.host ?? "")\($0.path)" }
            ?? dataDirectory + "/ptcoach.sqlite"
    }

    /// The options that name this database on another command's line (`ptcoach users add` beside a server): the
    /// data directory as an absolute path, or the PostgreSQL URL with its password left for the user to fill in.
    var commandLine: String {
        if let postgres, var parts = URLComponents(string: postgres) {
            if parts.password != nil { parts.password = "PASSWORD" }
            return "--postgres '\(parts.string ?? postgres)'"
        }
        let path = URL(fileURLWithPath: dataDirectory).standardizedFileURL.path
        return "--data-directory " + (path.contains(" ") ? "'\(path)'" : path)
    }

    /// The live-watch relay: PostgreSQL's LISTEN/NOTIFY for instances sharing a database, else in process.
    func openRelay() async throws -> any LiveRelay {
        guard let postgres else { return LocalLiveRelay() }
        do {
            return try await PostgresLiveRelay(url: postgres)
        } catch {
            throw CLIError(error.description)
        }
    }

    func open() async throws -> any ClinicStore {
        do {
            if let postgres { return try await PostgresClinicStore(url: postgres) }
            // A new data directory is its owner's alone (0700); the database file in it is 0600 in any case.
            try FileManager.default.createDirectory(
                atPath: dataDirectory,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
            return try SQLiteClinicStore(path: dataDirectory + "/ptcoach.sqlite")
        } catch let error as StoreError {
            throw CLIError(error.description)
        } catch {
            throw CLIError("cannot create the data directory \(dataDirectory): \(error.localizedDescription)")
        }
    }
}

import ArgumentParser
import CoachPipeline
import Testing

@testable import ptcoach

/// Runs `ptcoach` subcommands in the test process, the way `main` would.
enum InProcessCommand {
    /// Parses and runs `ptcoach ARGUMENTS…`; records a clear issue and returns `false` when the pose runtime
    /// is missing (scripts/setup.sh has not run), so that a test can stop without a cascade of failures.
    static func run(_ arguments: [String]) async throws -> Bool {
        var command = try #require(try CoachCommand.parseAsRoot(arguments) as? any AsyncParsableCommand)
        do {
            try await command.run()
        } catch let error as CLIError where error.message.contains("setup.sh") {
            Issue.record("the pose runtime is missing, run scripts/setup.sh first: \(error.message)")
            return false
        }
        return true
    }
}

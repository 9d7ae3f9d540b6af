import ArgumentParser
import Testing

@testable import ptcoach

/// One rule for what the command line says: a value an option refuses is a usage error (exit 64) whether it is
/// caught before or after the library is read; the README's spelling "analyse" works.
struct CommandLineRulesTests {
    private static func exitCode(_ arguments: [String]) async -> Int32? {
        do {
            var command = try CoachCommand.parseAsRoot(arguments)
            if var async = command as? any AsyncParsableCommand {
                try await async.run()
            } else {
                try command.run()
            }
            return 0
        } catch {
            return CoachCommand.exitStatus(for: error)
        }
    }

    @Test(
        "Refused option values exit 64",
        arguments: [
            ["analyze", "x.jsonl", "--exercise", "squat", "--hold", "-3"],
            ["analyze", "x.jsonl", "--exercise", "squat", "--hold", "inf"],
            ["analyze", "x.jsonl", "--exercise", "squat", "--hold", "500"],
            ["analyze", "x.jsonl", "--exercise", "plank", "--hold", "5"],
        ]
    )
    func refusedValues(arguments: [String]) async {
        #expect(await Self.exitCode(arguments) == 64)
    }

    @Test("\"analyse\" is analyze")
    func britishSpelling() throws {
        #expect(try CoachCommand.parseAsRoot(["analyse", "x.jsonl"]) is AnalyzeCommand)
    }

    @Test("An option given twice is refused, not silently the last")
    func repeatedOption() {
        let error = CoachCommand.repeatedOption(in: ["analyze", "x.jsonl", "--exercise", "squat", "--exercise=lunge"])
        #expect(error?.message.hasPrefix("--exercise is given twice") == true, "\(String(describing: error))")
        #expect(CoachCommand.exitCode(for: error!).rawValue == 64)
        #expect(CoachCommand.repeatedOption(in: ["analyze", "x.jsonl", "--exercise", "squat", "--json"]) == nil)
        // After "--" the words are arguments (a file named --exercise).
        #expect(CoachCommand.repeatedOption(in: ["analyze", "--exercise", "squat", "--", "--exercise"]) == nil)
    }

    @Test("A negative number given to an option says so (exit 64), not \"Missing value\"")
    func negativeValue() {
        let error = CoachCommand.negativeValue(in: ["analyze", "x.jsonl", "--reps", "-3"])
        #expect(
            error?.message.hasPrefix("--reps -3: a negative number is refused") == true,
            "\(String(describing: error))"
        )
        #expect(CoachCommand.exitCode(for: error!).rawValue == 64)
        #expect(CoachCommand.negativeValue(in: ["analyze", "x.jsonl", "--reps", "3", "-o", "-"]) == nil)
        #expect(CoachCommand.negativeValue(in: ["analyze", "--", "--reps", "-3"]) == nil)
    }

    @Test(
        "Refused values found while running exit 64 too: an unknown exercise, a report type, a missing password",
        arguments: [
            ["analyze", "x.jsonl", "--exercise", "squatz"],
            ["analyze", "x.jsonl", "--report", "out.txt"],
            ["users", "add", "--role", "therapist", "--name", "Dr\r\nEvil", "--login", "x", "--password-stdin"],
        ]
    )
    func refusedWhileRunning(arguments: [String]) async {
        #expect(await Self.exitCode(arguments) == 64)
    }

    @Test("Names typed in a browser reach the terminal without line breaks or escapes")
    func terminalSafeNames() {
        #expect(Terminal.safe("Pat\r\nOne\u{1B}[2J") == "Pat\\u{d}\\u{a}One\\u{1b}[2J")
        #expect(Terminal.safe("Zoë O'Neil") == "Zoë O'Neil")
    }

    @Test(
        "The server's hint names the same database: the data directory as an absolute path, PostgreSQL without its password"
    )
    func hintNamesTheDatabase() throws {
        var options = try StoreOptions.parse(["--data-directory", "clinic data"])
        #expect(options.commandLine.hasPrefix("--data-directory '/") && options.commandLine.hasSuffix("/clinic data'"))
        options = try StoreOptions.parse(["--postgres", "postgres://pt:secret@db:5432/ptcoach"])
        #expect(options.commandLine == "--postgres 'postgres://pt:PASSWORD@db:5432/ptcoach'")
    }
}

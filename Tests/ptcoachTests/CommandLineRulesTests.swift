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
            return CoachCommand.exitCode(for: error).rawValue
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
}

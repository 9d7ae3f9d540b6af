import ArgumentParser

/// The entry point: the command line's own rules first, then ``CoachCommand``.
@main
enum Main {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        // A refused option shows the usage of the subcommand it was given to, not the top level's.
        let named: any ParsableCommand.Type =
            CoachCommand.configuration.subcommands.first {
                $0._commandName == arguments.first || $0.configuration.aliases.contains(arguments.first ?? "")
            } ?? CoachCommand.self
        if let error = CoachCommand.repeatedOption(in: arguments) ?? CoachCommand.negativeValue(in: arguments) {
            named.exit(withError: error)
        }
        do {
            var command = try CoachCommand.parseAsRoot(arguments)
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            named.exit(withError: error)
        }
    }
}

/// `ptcoach`: the command-line face of PT Coach, and the one place that wires the adapters together.
struct CoachCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ptcoach",
        abstract: "PT Coach: an open augmented-reality coach for physical therapy.",
        discussion: """
            Finds body poses in videos, counts repetitions, measures joint angles against the \
            prescription and gives form feedback. Pose runtime and model: run scripts/setup.sh once.
            """,
        version: "0.1.0",
        subcommands: [
            PosesCommand.self, AnalyzeCommand.self, ExercisesCommand.self, TrainCommand.self, PredictCommand.self,
            EvaluateClassifierCommand.self, EvaluateRepsCommand.self, EvaluateDelaysCommand.self, ServeCommand.self,
            UsersCommand.self,
        ]
    )
}

/// A failure of the work the user can fix: printed as one line (`Error: …`), exit code 1. A refused option or value
/// is a `ValidationError` instead (exit code 64, with the usage).
struct CLIError: Error, CustomStringConvertible {
    var message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}

extension CoachCommand {
    /// A usage error (exit 64) for an option given twice: every option takes one value, and the parser would
    /// silently keep the last (`--exercise squat --exercise lunge` analysed a lunge). `nil` when none is repeated;
    /// words after `--` are not options.
    static func repeatedOption(in arguments: [String]) -> ValidationError? {
        var seen: Set<Substring> = []
        for argument in arguments {
            if argument == "--" { break }
            guard argument.hasPrefix("--"), argument.count > 2 else { continue }
            let name = argument.split(separator: "=", maxSplits: 1)[0]
            if !seen.insert(name).inserted {
                return ValidationError("\(name) is given twice; give it once (every option takes one value)")
            }
        }
        return nil
    }

    /// A usage error (exit 64) for a negative number given to an option: no option takes one, and the parser would
    /// read `--reps -3` as a missing value followed by an unknown option `-3`.
    static func negativeValue(in arguments: [String]) -> ValidationError? {
        for (option, value) in zip(arguments, arguments.dropFirst()) {
            if option == "--" { break }
            guard option.hasPrefix("--"), !option.contains("="), value.count > 1, value.hasPrefix("-"),
                Double(value) != nil
            else { continue }
            return ValidationError("\(option) \(value): a negative number is refused here; give a number above 0")
        }
        return nil
    }
}

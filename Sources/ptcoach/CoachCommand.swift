import ArgumentParser

/// The entry point: the command line's own rules first, then ``CoachCommand``.
@main
enum Main {
    static func main() async {
        if let error = CoachCommand.repeatedOption(in: Array(CommandLine.arguments.dropFirst())) {
            CoachCommand.exit(withError: error)
        }
        await CoachCommand.main()
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

/// A failure the user can fix: printed as one line (`Error: …`), exit code 1.
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
}

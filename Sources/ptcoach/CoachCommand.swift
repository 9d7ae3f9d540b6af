import ArgumentParser
import CoachPipeline
import Foundation

/// The entry point: the command line's own rules first, then ``CoachCommand``.
@main
enum Main {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let error = CoachCommand.repeatedOption(in: arguments) ?? CoachCommand.negativeValue(in: arguments) {
            refuse(error.message)
        }
        do {
            var command = try CoachCommand.parseAsRoot(arguments)
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch let error as ValidationError {
            // Refused by the command itself, once parsed: one line, exit 64.
            refuse(error.message)
        } catch let error as CLIError where error.exitCode != 1 {
            refuse(error.message, status: error.exitCode)
        } catch {
            CoachCommand.exit(withError: error)
        }
    }

    /// Prints a refused option or value as one line and exits with `status` (64: a usage error).
    static func refuse(_ message: String, status: Int32 = ExitCode.validationFailure.rawValue) -> Never {
        FileHandle.standardError.write(Data("Error: \(message)\n".utf8))
        CoachCommand.exit(withError: ExitCode(status))
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
            PosesCommand.self, AnalyzeCommand.self, LearnCommand.self, ExercisesCommand.self, TrainCommand.self,
            PredictCommand.self,
            EvaluateClassifierCommand.self, EvaluateRepsCommand.self, EvaluateDelaysCommand.self, ServeCommand.self,
            UsersCommand.self,
        ]
    )
}

/// A failure the user can fix: printed as one line (`Error: …`); exit code 1 when the work failed, 64 when an
/// option or value was refused (``refused(_:)``, as a `ValidationError` is).
/// The commands' errors are the analysis pipeline's: one line, exit 1, or 64 for a refused value.
typealias CLIError = AnalysisError

extension CoachCommand {
    /// The exit status `main` gives for `error` (a refused ``CLIError`` is 64, as a `ValidationError`).
    static func exitStatus(for error: any Error) -> Int32 {
        (error as? CLIError)?.exitCode ?? exitCode(for: error).rawValue
    }

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

import ArgumentParser

/// `ptcoach`: the command-line face of PT Coach, and the one place that wires the adapters together.
@main
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

import ArgumentParser

struct ExercisesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "exercises", abstract: "(being built)")

    func run() async throws {
        throw CLIError("ptcoach exercises is not built yet")
    }
}

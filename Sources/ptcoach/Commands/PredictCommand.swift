import ArgumentParser

struct PredictCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "predict", abstract: "(being built)")

    func run() async throws {
        throw CLIError("ptcoach predict is not built yet")
    }
}

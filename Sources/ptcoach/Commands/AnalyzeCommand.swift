import ArgumentParser

struct AnalyzeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "analyze", abstract: "(being built)")

    func run() async throws {
        throw CLIError("ptcoach analyze is not built yet")
    }
}

import ArgumentParser

struct PosesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "poses", abstract: "(being built)")

    func run() async throws {
        throw CLIError("ptcoach poses is not built yet")
    }
}

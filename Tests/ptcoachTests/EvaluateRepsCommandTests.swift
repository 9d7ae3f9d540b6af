import CoachPipeline
import Foundation
import Testing

@testable import ptcoach

/// `ptcoach evaluate-reps --recognition-only` on pose-tracks without an exercise label (as `ptcoach poses`
/// writes them for real videos): the manifest's second column is the label when it names a library
/// exercise, and a clear error names the file otherwise.
struct EvaluateRepsCommandTests {
    private static let shared = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/data")
    /// UI-PRMD m07 (shoulder abduction), subject s01, front view.
    private static let abduction = shared.appendingPathComponent("pose-tracks/ui-prmd/m07_s01_front.jsonl").path

    /// A copy of the UI-PRMD recording whose header has no labels, and a manifest naming it with `label`.
    private static func manifest(label: String) throws -> String {
        try #require(
            FileManager.default.fileExists(atPath: abduction),
            "missing \(abduction): the shared data (../shared/data) must sit next to the repository"
        )
        let folder = NSTemporaryDirectory() + "evaluate-reps-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var lines = try String(contentsOfFile: abduction, encoding: .utf8).split(separator: "\n").map(String.init)
        let header = try #require(lines.first)
        let labels = try #require(header.range(of: ",\"labels\":"))
        lines[0] = String(header[..<labels.lowerBound]) + "}"
        try lines.joined(separator: "\n").write(toFile: folder + "/track.jsonl", atomically: true, encoding: .utf8)
        try "path,label\ntrack.jsonl,\(label)\n".write(
            toFile: folder + "/manifest.csv",
            atomically: true,
            encoding: .utf8
        )
        return folder + "/manifest.csv"
    }

    @Test func aLibraryExerciseInTheSecondColumnIsTheLabel() async throws {
        let manifest = try Self.manifest(label: "shoulder-abduction")
        #expect(try await InProcessCommand.run(["evaluate-reps", "--manifest", manifest, "--recognition-only"]))
    }

    @Test func withoutAnyLabelTheErrorNamesTheFileAndTheWaysToGiveOne() async throws {
        let manifest = try Self.manifest(label: "correct")
        let error = await #expect(throws: CLIError.self) {
            try await InProcessCommand.run(["evaluate-reps", "--manifest", manifest, "--recognition-only"])
        }
        #expect(error?.message.contains("track.jsonl") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("--expect") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("second column") == true, "\(error?.message ?? "")")
    }
}

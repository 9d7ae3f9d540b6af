import ArgumentParser
import CoachKit
import CoachPipeline
import CoachTestSupport
import Foundation
import Testing

@testable import PoseKit
@testable import ptcoach

/// End to end: `ptcoach learn` on a real pose-track writes a definition that the library loads, and `ptcoach
/// analyze` with it counts the same recording's repetitions.
struct LearnCommandTests {
    private static let shared = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/data")
    /// UI-PRMD m07 (shoulder abduction), subject s01, front view: ten repetitions (labelled).
    static let abduction = shared.appendingPathComponent("pose-tracks/ui-prmd/m07_s01_front.jsonl").path
    static let hasData = FileManager.default.fileExists(atPath: abduction)

    @Test(
        .enabled(
            if: hasData,
            "skipped: the UI-PRMD pose-tracks are not at ../shared/data/pose-tracks/ui-prmd (the shared test data)"
        )
    )
    func aLearnedDefinitionLoadsAndCountsTheDemonstrationsOwnRepetitions() async throws {
        let folder = NSTemporaryDirectory() + "learn-command-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // When
        #expect(
            try await InProcessCommand.run(["learn", Self.abduction, "--name", "Arm raise", "-o", folder + "/arm.json"])
        )
        // Then the library loads it with its own validation
        let library = try ExerciseLibrary(directory: folder)
        let learned = try library.exercise(id: "arm-raise")
        #expect(learned.name == "Arm raise")
        #expect(learned.primaryAngle == .shoulderAbduction)
        #expect(learned.view == .front)
        // and analyze counts the recording's ten repetitions with it
        let report = folder + "/report.json"
        #expect(
            try await InProcessCommand.run([
                "analyze", Self.abduction, "--exercises-directory", folder, "--exercise", "arm-raise", "--report",
                report,
            ])
        )
        let summary = try JSONValue.parse(String(contentsOfFile: report, encoding: .utf8))
        let reps = try #require(summary["reps"]?.intValue)
        let labelled = try #require(PoseTrackReader(path: Self.abduction).header.label("reps").flatMap { Int($0) })
        #expect(abs(reps - labelled) <= 1, "labelled \(labelled), counted \(reps)")
    }

    @Test func badInputIsOneClearLine() async throws {
        let folder = NSTemporaryDirectory() + "learn-command-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A pose-track in which the person never moves
        var writer = try PoseTrackWriter(
            path: folder + "/still.jsonl",
            header: PoseTrackHeader(layout: .blazePose33, fps: 30, width: 640, height: 480, dimensions: 2)
        )
        for frame in SyntheticExercise(kind: .standStill).frames(reps: 2) { try writer.write(frame) }
        try writer.close()
        await #expect {
            try await InProcessCommand.run([
                "learn", folder + "/still.jsonl", "--name", "Still", "-o", folder + "/s.json",
            ])
        } throws: { error in
            let message = (error as? CLIError)?.message ?? ""
            return message.contains("no repetition found") && !message.contains("\n")
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/s.json"))
        #expect(throws: (any Error).self) {
            try CoachCommand.parseAsRoot(["learn", "x.jsonl", "--name", "A", "-o", "a.txt"])
        }
    }
}

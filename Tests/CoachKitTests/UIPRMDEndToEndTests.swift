import CoachKit
import Foundation
import PoseKit
import Testing

/// Real recordings from `../shared/data` (not in the repository).
struct UIPRMDEndToEndTests {
    static let data = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
            "shared/data/pose-tracks/ui-prmd"
        )

    @Test(arguments: ["m07_s01_front", "m10_s02_side", "m09_s03_oblique", "m07_s03_side"])
    func countsTenRepetitionsWithinOne(name: String) throws {
        let (header, frames) = try PoseTrackReader.readAll(path: try Self.path(name))
        let library = try ExerciseLibrary.bundled()
        let exercise = try library.exercise(id: try #require(header.label("exercise")))
        var session = CoachingSession(
            configuration: .init(
                exercise: exercise,
                frameWidth: Double(header.width),
                frameHeight: Double(header.height)
            )
        )
        for frame in frames { _ = session.ingest(frame) }
        #expect(abs(session.repetitions.count - 10) <= 1, "\(name): counted \(session.repetitions.count)")
    }

    /// With no exercise given: the straight-leg raise seen from the side, where the whole body's movement
    /// finds 5 of the 10 raises (the leg's brief lift is a small part of it) and the knee's angle finds them
    /// all; and a shoulder abduction, where the movement already counts all ten and no angle replaces it.
    @Test(arguments: [("m06_s01_side", "angle:kneeFlexion"), ("m07_s02_front", "movement")])
    func countsTenRepetitionsWithNoExerciseGiven(name: String, countedBy: String) throws {
        let summary = try RealPushUpTests.summaryWithoutAnExercise(try Self.path(name))
        #expect(abs(summary.reps - 10) <= 1, "\(name): counted \(summary.reps)")
        #expect(summary.countedBy.description == countedBy)
    }

    /// The path of a UI-PRMD recording, which must exist.
    static func path(_ name: String) throws -> String {
        let path = data.appendingPathComponent(name + ".jsonl").path
        try #require(
            FileManager.default.fileExists(atPath: path),
            "missing \(path): the end-to-end tests need ../shared/data next to the repository"
        )
        return path
    }
}

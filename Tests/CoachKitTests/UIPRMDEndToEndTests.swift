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
        let path = Self.data.appendingPathComponent(name + ".jsonl").path
        try #require(
            FileManager.default.fileExists(atPath: path),
            "missing \(path): the end-to-end tests need ../shared/data next to the repository"
        )
        let (header, frames) = try PoseTrackReader.readAll(path: path)
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
}

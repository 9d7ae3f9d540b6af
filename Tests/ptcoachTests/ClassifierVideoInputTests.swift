import CoachAnalysis
import CoachKit
import Foundation
import Testing

@testable import ptcoach

/// `ptcoach train` / `predict` read videos too: the real pose model turns them into pose sequences first.
struct ClassifierVideoInputTests {
    private static let videos = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/data/videos/kaiakol").path

    private func video(_ name: String) throws -> String {
        let path = Self.videos + "/" + name
        try #require(
            FileManager.default.fileExists(atPath: path),
            "missing \(path): the shared data (../shared/data) must sit next to the repository"
        )
        return path
    }

    @Test
    func aClassifierTrainedOnVideosTellsSquatsFromJumpingJacksInUnseenVideos() throws {
        // Given: three squat clips and two jumping-jack clips, read as videos.
        let source = PoseTrackSequenceSource()
        let training: [(String, String)] = [
            ("squat_correct_003.mp4", "squat"), ("squat_correct_004.mp4", "squat"),
            ("squat_correct_005.mp4", "squat"), ("jumpingjack_correct_003.mp4", "jumping-jack"),
            ("jumpingjack_correct_004.mp4", "jumping-jack"),
        ]
        let sequences = try training.map { try source.sequence(at: try video($0.0)) }
        #expect(sequences.allSatisfy { $0.name.hasSuffix(".mp4") })

        // When: a model is trained on them.
        let classifier = try ActionClassifier.train(sequences: sequences, labels: training.map(\.1))

        // Then: clips it never saw get their own label.
        let squat = try classifier.predict(source.sequence(at: video("squat_correct_011.mp4")))
        let jack = try classifier.predict(source.sequence(at: video("jumpingjack_correct_005.mp4")))
        #expect(squat.label == "squat")
        #expect(jack.label == "jumping-jack")
    }

    @Test
    func aFileThatIsNeitherAPoseTrackNorAVideoIsRefusedByName() throws {
        let error = #expect(throws: CoachKitError.self) {
            try PoseTrackSequenceSource().sequence(at: "/tmp/notes.txt")
        }
        #expect(error?.message.contains("neither a pose-track file") == true)
    }
}

import CoachAnalysis
import CoachKit
import CoachTestSupport
import Foundation
import PoseKit
import Testing

@testable import ptcoach

/// Hand classifiers trained on generated hands only (`SyntheticHandShape`, `SyntheticHandMovement`) and scored
/// on the real hand videos' phases (`../shared/data/videos/hands/labels.csv`), which no model saw: the figures
/// of the README's "Hand classifiers". The hands are found with the real hand model (`ptcoach poses --hands`),
/// or read from `$PTCOACH_HAND_TRACKS/NAME.hands.jsonl` when that is set (`scripts/evaluate-hand-classifier.sh`).
struct HandClassifierRealVideoTests {
    /// The phases by eye (labels.csv): seconds and label.
    private static let shapes: [(video: String, start: Double, end: Double, label: String)] =
        [
            ("fist_hetavshah1_reference", 0, 0.6, "open"),
            ("fist_hetavshah1_reference", 1.1, 2.25, "fist"),
            ("thumb-opposition_wakeexer_kapandji", 0, 1.8, "open"),
            ("thumb-opposition_wakeexer_kapandji", 16.0, 17.5, "open"),
        ]
        + [(2.0, 2.8), (3.8, 4.5), (5.8, 6.5), (7.8, 8.8), (9.3, 10.0), (11.0, 13.3), (13.5, 15.8)].map {
            ("thumb-opposition_wakeexer_kapandji", $0.0, $0.1, "pinch")
        }

    /// Clips of one movement each, cut around the phases by eye.
    private static let movements: [(video: String, start: Double, end: Double, label: String)] =
        [
            ("fist_hetavshah1_reference", 0, 3.7, "fist-open")
        ]
        + [(1.6, 3.2), (3.4, 4.9), (5.4, 6.9), (7.4, 9.1), (9.0, 10.5), (10.7, 13.5), (13.4, 16.0)].map {
            ("thumb-opposition_wakeexer_kapandji", $0.0, $0.1, "opposition")
        }
        + [(6.0, 8.3), (8.2, 11.8), (11.8, 15.8), (16.2, 21.8)].map {
            ("thumb-opposition_myrajourney", $0.0, $0.1, "opposition")
        }
        + [(0, 4.8), (5.0, 8.9), (9.0, 12.9), (13.0, 17.4), (17.5, 23.1)].map {
            ("wrist-flexion-extension_wakeexer", $0.0, $0.1, "wrist-flexion")
        }

    /// The hand track of a real video: from `$PTCOACH_HAND_TRACKS`, else found now with the real hand model.
    private static func track(_ video: String, in cache: inout [String: HandSequence]) async throws -> HandSequence? {
        if let sequence = cache[video] { return sequence }
        let path: String
        if let folder = ProcessInfo.processInfo.environment["PTCOACH_HAND_TRACKS"] {
            path = folder + "/\(video).hands.jsonl"
        } else {
            let input = try SharedData.path("videos/hands/\(video).mp4")
            path = NSTemporaryDirectory() + "hand-classifier-\(UUID().uuidString)-\(video).hands.jsonl"
            guard
                try await InProcessCommand.run(["poses", input, "--hands", "--num-hands", "1", "--quiet", "-o", path])
            else { return nil }
        }
        let sequence = try ClassifierInput.handSequence(at: path)
        if ProcessInfo.processInfo.environment["PTCOACH_HAND_TRACKS"] == nil {
            try? FileManager.default.removeItem(atPath: path)
        }
        cache[video] = sequence
        return sequence
    }

    @Test func handShapesLearntFromGeneratedHandsAreFoundInRealVideos() async throws {
        var rng = SplitMix64(seed: 1)
        var sequences: [HandSequence] = []
        var labels: [String] = []
        for i in 0..<60 {
            let shape = SyntheticHandShape.allCases[i % 3]
            sequences.append(
                HandSequence(frames: shape.frames(count: 10, chirality: i % 2 == 0 ? .left : .right, using: &rng))
            )
            labels.append(shape.rawValue)
        }
        let classifier = try HandClassifier.train(
            sequences: sequences,
            labels: labels,
            configuration: .init(kind: .pose)
        )
        var cache: [String: HandSequence] = [:]
        var truth: [String] = []
        var predicted: [String] = []
        var phasesRight = 0
        for phase in Self.shapes {
            guard let track = try await Self.track(phase.video, in: &cache) else { return }
            let prediction = classifier.predict(track.trimmed(from: phase.start, to: phase.end))
            for frame in prediction?.frames ?? [] {
                truth.append(phase.label)
                predicted.append(frame.label)
            }
            if prediction?.label == phase.label { phasesRight += 1 }
        }
        let report = ClassificationReport(truth: truth, predicted: predicted)
        print(
            "RESULT hand-pose generated->real: phases \(phasesRight)/\(Self.shapes.count), frames "
                + "\(report.correct)/\(report.total) = \(ClassifierInput.format(report.accuracy))\n\(report.text)"
        )
        #expect(report.accuracy >= 0.6, "\(report.text)")
    }

    @Test func handMovementsLearntFromGeneratedHandsAreFoundInRealVideos() async throws {
        var rng = SplitMix64(seed: 2)
        var sequences: [HandSequence] = []
        var labels: [String] = []
        for i in 0..<60 {
            let movement = SyntheticHandMovement.allCases[i % 3]
            let seconds = 1.5 + 3 * rng.uniform()
            sequences.append(movement.clip(seconds: seconds, chirality: i % 2 == 0 ? .left : .right, using: &rng))
            labels.append(movement.rawValue)
        }
        let configuration = HandClassifier.Configuration(kind: .action, timeBins: 4)
        let classifier = try HandClassifier.train(sequences: sequences, labels: labels, configuration: configuration)
        var cache: [String: HandSequence] = [:]
        var truth: [String] = []
        var predicted: [String] = []
        for clip in Self.movements {
            guard let track = try await Self.track(clip.video, in: &cache) else { return }
            truth.append(clip.label)
            predicted.append(classifier.predict(track.trimmed(from: clip.start, to: clip.end))?.label ?? "(no hand)")
        }
        let report = ClassificationReport(truth: truth, predicted: predicted)
        print(
            "RESULT hand-action generated->real: clips \(report.correct)/\(report.total) = "
                + "\(ClassifierInput.format(report.accuracy))\n\(report.text)"
        )
        #expect(report.accuracy >= 0.5, "\(report.text)")
    }
}

import CoachKit
import CoachTestSupport
import PoseKit
import Testing

/// End to end on real data: train on UI-PRMD subjects s01–s03 (all movements, all three views) and
/// recognise the movements of subject s05, whom the model never saw.
struct UIPRMDClassifierTests {
    static let movements: [(code: String, label: String)] = [
        ("m02", "hurdle-step"), ("m06", "standing-straight-leg-raise"), ("m07", "shoulder-abduction"),
        ("m08", "shoulder-extension"), ("m09", "shoulder-rotation"), ("m10", "shoulder-scaption"),
    ]

    static func load(subject: String, views: [String]) throws -> (sequences: [PoseSequence], labels: [String]) {
        var sequences: [PoseSequence] = []
        var labels: [String] = []
        for (code, label) in movements {
            for view in views {
                let path = try SharedData.path("pose-tracks/ui-prmd/\(code)_\(subject)_\(view).jsonl")
                let (_, frames) = try PoseTrackReader.readAll(path: path)
                // Every second frame keeps the debug-build test fast; 15 fps is plenty for these movements.
                let kept = frames.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
                sequences.append(PoseSequence(frames: kept, name: path))
                labels.append(label)
            }
        }
        return (sequences, labels)
    }

    @Test func recognisesMovementsOfASubjectItNeverSaw() throws {
        var sequences: [PoseSequence] = []
        var labels: [String] = []
        for subject in ["s01", "s02", "s03"] {
            let (s, l) = try Self.load(subject: subject, views: ["front", "side", "oblique"])
            sequences += s
            labels += l
        }
        let classifier = try ActionClassifier.train(sequences: sequences, labels: labels)
        let (test, truth) = try Self.load(subject: "s05", views: ["front", "side", "oblique"])
        let predicted = test.map { classifier.predict($0).label }
        let report = ClassificationReport(truth: truth, predicted: predicted)
        // `ptcoach train` on s01–s03 at the full frame rate gets 17/18 on s05 (and 15/18 on s04, the hardest
        // subject); allow two mistakes out of 18 so the test checks the pipeline, not luck.
        #expect(report.accuracy >= 16.0 / 18, "\(report.text)")
    }
}

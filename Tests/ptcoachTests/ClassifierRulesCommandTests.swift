import CoachAnalysis
import CoachKit
import CoachPipeline
import Foundation
import Testing

@testable import PoseKit
@testable import ptcoach

/// `ptcoach train` takes the form rules of the exercise the recordings' headers name (or `--exercise`),
/// and writes them into the model so that `predict` measures the same features.
struct ClassifierRulesCommandTests {
    private static let data = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/data").path

    /// A manifest of the nine Pose Trainer bicep curls with absolute paths, in a temporary folder.
    private func bicepManifest() throws -> (manifest: String, folder: String) {
        let source = Self.data + "/manifests/form-pose-trainer-bicep-curl-train.csv"
        try #require(
            FileManager.default.fileExists(atPath: source),
            "missing \(source): the shared data (../shared/data) must sit next to the repository"
        )
        let parsed = try ClassifierManifest(text: try String(contentsOfFile: source, encoding: .utf8), path: source)
        let folder = NSTemporaryDirectory() + "ptcoach-rules-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let rows = parsed.entries.map { "\($0.path),\($0.label)" }
        let manifest = folder + "/bicep.csv"
        try (["path,label"] + rows).joined(separator: "\n").write(toFile: manifest, atomically: true, encoding: .utf8)
        return (manifest, folder)
    }

    private func model(at path: String) throws -> [String: JSONValue] {
        try #require(try JSONValue.parse(try String(contentsOfFile: path, encoding: .utf8)).objectValue)
    }

    @Test func trainTakesTheRulesOfTheExerciseTheHeadersName() async throws {
        let (manifest, folder) = try bicepManifest()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = folder + "/model.json"
        guard try await InProcessCommand.run(["train", "--manifest", manifest, "--out", out, "--folds", "0"]) else {
            return
        }
        let object = try model(at: out)
        #expect(object["rules"]?.objectValue?["exercise"]?.stringValue == "bicep-curl")
        // The rules alone explain every training label, so the verdict is chosen (ModelSelection).
        #expect(object["method"]?.stringValue == "rule-verdict")
        // predict loads it and scores the same files (the header labels hold the truth).
        let classifier = try ClassifierInput.model(at: out)
        #expect(
            classifier.configuration.rules?.rules.map(\.id) == [
                "upper-arm-still", "elbow-still", "no-swing", "full-curl",
            ]
        )
        // ... and gives every training recording its label: the rules alone explain them.
        let entries = try ClassifierManifest(
            text: try String(contentsOfFile: manifest, encoding: .utf8),
            path: manifest
        )
        .entries
        #expect(entries.count == 9)
        for entry in entries {
            let prediction = classifier.predict(try PoseTrackSequenceSource().sequence(at: entry.path))
            #expect(prediction.label == entry.label, "\(entry.path)")
        }
        #expect(try await InProcessCommand.run(["predict", "--model", out, "--manifest", manifest, "--json"]))
    }

    @Test func exerciseNoneLeavesTheRulesOut() async throws {
        let (manifest, folder) = try bicepManifest()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = folder + "/model.json"
        guard
            try await InProcessCommand.run([
                "train", "--manifest", manifest, "--out", out, "--folds", "0", "--exercise", "none",
            ])
        else { return }
        let object = try model(at: out)
        #expect(object["rules"] == nil)
        #expect(object["method"]?.stringValue == "vote")
    }

    @Test(arguments: [
        ("plank", "--exercise plank has no form rules"),
        ("bicep-curls", "unknown exercise 'bicep-curls'"),
    ])
    func anExerciseWithoutUsableRulesIsRefused(exercise: String, expected: String) async throws {
        let (manifest, folder) = try bicepManifest()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        await #expect {
            _ = try await InProcessCommand.run([
                "train", "--manifest", manifest, "--out", folder + "/m.json", "--exercise", exercise,
            ])
        } throws: { error in
            (error as? CLIError)?.message.contains(expected) == true
        }
    }

    /// A form model of one exercise labels whatever it is given: `predict` warns when the recording is another
    /// exercise (issue: a push-up model called a bicep curl "correct (confidence 1.000)"), and not for its own.
    @Test func predictWarnsWhenTheRecordingIsAnotherExercise() async throws {
        let source = Self.data + "/manifests/form-pushup-train.csv"
        let parsed = try ClassifierManifest(text: try String(contentsOfFile: source, encoding: .utf8), path: source)
        let folder = NSTemporaryDirectory() + "ptcoach-unlike-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let manifest = folder + "/push-ups.csv"
        let rows = parsed.entries.map { "\($0.path),\($0.label)" }
        try (["path,label"] + rows).joined(separator: "\n").write(toFile: manifest, atomically: true, encoding: .utf8)
        let out = folder + "/model.json"
        guard try await InProcessCommand.run(["train", "--manifest", manifest, "--out", out, "--folds", "0"]) else {
            Issue.record("train failed")
            return
        }
        let classifier = try ClassifierInput.model(at: out)
        let curl = Self.data + "/pose-tracks/pose-trainer/bicep_bad_10.jsonl"
        let pushUp = Self.data + "/pose-tracks/kaiakol/pushup_correct_001.jsonl"
        let warnings = try PredictCommand.exerciseWarnings(paths: [curl, pushUp], classifier: classifier)
        #expect(warnings[0]?.contains("looks like a bicep curl") == true, "\(String(describing: warnings[0]))")
        #expect(warnings[0]?.contains("push-up") == true)
        #expect(warnings[1] == nil, "\(String(describing: warnings[1]))")
    }
}

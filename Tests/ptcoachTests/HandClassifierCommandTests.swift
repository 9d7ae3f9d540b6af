import CoachAnalysis
import CoachKit
import CoachPipeline
import CoachTestSupport
import Foundation
import Testing

@testable import PoseKit
@testable import ptcoach

/// `ptcoach train` on hand pose-tracks trains a hand classifier that `predict` and `evaluate-classifier` read
/// without extra flags; a model given the other kind of pose-track says so in one line.
struct HandClassifierCommandTests {
    /// Generated hand pose-tracks of each shape in a temporary folder, and a manifest `path,label` of them.
    private func handManifest(perShape: Int, seed: UInt64) throws -> (manifest: String, folder: String) {
        let folder = NSTemporaryDirectory() + "ptcoach-hands-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var rng = SplitMix64(seed: seed)
        var rows = ["path,label"]
        for i in 0..<perShape {
            for shape in SyntheticHandShape.allCases {
                let name = "\(shape.rawValue)-\(i).hands.jsonl"
                try write(
                    shape.frames(count: 12, chirality: i % 2 == 0 ? .right : .left, using: &rng),
                    to: folder + "/" + name
                )
                rows.append("\(name),\(shape.rawValue)")
            }
        }
        let manifest = folder + "/hands.csv"
        try rows.joined(separator: "\n").write(toFile: manifest, atomically: true, encoding: .utf8)
        return (manifest, folder)
    }

    private func write(_ frames: [HandFrame], to path: String) throws {
        var writer = try PoseTrackWriter(
            path: path,
            header: PoseTrackHeader(handsWithFPS: 30, width: 640, height: 480, dimensions: 3)
        )
        for frame in frames { try writer.write(frame) }
        try writer.close()
    }

    private func model(at path: String) throws -> [String: JSONValue] {
        try #require(try JSONValue.parse(try String(contentsOfFile: path, encoding: .utf8)).objectValue)
    }

    /// The message of the `CLIError` a command throws, or a recorded issue.
    private func failure(_ arguments: [String]) async throws -> String? {
        do {
            _ = try await InProcessCommand.run(arguments)
            Issue.record("`ptcoach \(arguments.joined(separator: " "))` succeeded; it should have failed")
            return nil
        } catch let error as CLIError {
            return error.message
        }
    }

    @Test func trainFindsHandTracksAndPredictReadsTheModel() async throws {
        let (manifest, folder) = try handManifest(perShape: 6, seed: 21)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = folder + "/model.json"
        #expect(try await InProcessCommand.run(["train", "--manifest", manifest, "--out", out]))
        let object = try model(at: out)
        #expect(object["format"]?.stringValue == HandClassifier.modelFormat)
        #expect(object["kind"]?.stringValue == "hand-pose")
        #expect(object["labels"]?.arrayValue?.compactMap(\.stringValue) == ["fist", "open", "pinch"])

        // New generated recordings, never trained on.
        let (test, testFolder) = try handManifest(perShape: 2, seed: 99)
        defer { try? FileManager.default.removeItem(atPath: testFolder) }
        guard case .hand(let classifier) = try ClassifierInput.anyModel(at: out) else {
            Issue.record("\(out) was not read as a hand model")
            return
        }
        let entries = try ClassifierInput.manifest(at: test).entries
        for entry in entries {
            let prediction = try #require(classifier.predict(try ClassifierInput.handSequence(at: entry.path)))
            #expect(prediction.label == entry.label, "\(entry.relativePath)")
        }
        #expect(try await InProcessCommand.run(["predict", "--model", out, "--manifest", test, "--json"]))
        #expect(try await InProcessCommand.run(["predict", "--model", out, entries[0].path]))
        #expect(
            try await InProcessCommand.run([
                "evaluate-classifier", "--manifest", manifest, "--group-by", "file", "--quiet",
            ])
        )
    }

    @Test func handActionModelsRecordTheirKind() async throws {
        let (manifest, folder) = try handManifest(perShape: 3, seed: 4)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = folder + "/action.json"
        #expect(
            try await InProcessCommand.run([
                "train", "--manifest", manifest, "--out", out, "--kind", "hand-action", "--time-bins", "2",
            ])
        )
        #expect(try model(at: out)["kind"]?.stringValue == "hand-action")
        guard case .hand(let classifier) = try ClassifierInput.anyModel(at: out) else {
            Issue.record("\(out) was not read as a hand model")
            return
        }
        #expect(classifier.kind == .action && classifier.configuration.timeBins == 2)
    }

    @Test func aModelGivenTheOtherKindOfTrackSaysSoInOneLine() async throws {
        let (manifest, folder) = try handManifest(perShape: 2, seed: 8)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let hands = folder + "/open-0.hands.jsonl"
        let body = try SharedData.path("pose-tracks/pose-trainer/bicep_good_1.jsonl")

        // A body model asked for on hand tracks.
        let message = try await failure([
            "train", "--manifest", manifest, "--out", folder + "/b.json", "--kind", "body",
        ])
        #expect(message?.contains("is a hand pose-track") == true && message?.contains("\n") == false)

        // A hand model given a body track.
        let handModel = folder + "/hands.json"
        #expect(try await InProcessCommand.run(["train", "--manifest", manifest, "--out", handModel, "--folds", "0"]))
        let bodyMessage = try await failure(["predict", "--model", handModel, body])
        #expect(bodyMessage?.contains("is a body pose-track, and \(handModel) is a hand model") == true)

        // A body model given a hand track.
        let bodyManifest = folder + "/body.csv"
        let curls = try SharedData.path("pose-tracks/pose-trainer")
        let files = try FileManager.default.contentsOfDirectory(atPath: curls).filter { $0.hasPrefix("bicep_") }
            .sorted()
        let rows = files.map { "\(curls)/\($0),\($0.contains("good") ? "good" : "bad")" }
        try (["path,label"] + rows).joined(separator: "\n").write(
            toFile: bodyManifest,
            atomically: true,
            encoding: .utf8
        )
        let bodyModel = folder + "/body.json"
        #expect(
            try await InProcessCommand.run([
                "train", "--manifest", bodyManifest, "--out", bodyModel, "--folds", "0", "--exercise", "none",
            ])
        )
        let handMessage = try await failure(["predict", "--model", bodyModel, hands])
        #expect(handMessage?.contains("is a hand pose-track, and \(bodyModel) is a body model") == true)
        #expect(handMessage?.contains("\n") == false)
    }
}

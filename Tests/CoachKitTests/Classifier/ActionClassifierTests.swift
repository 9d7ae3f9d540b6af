import CoachKit
import Testing

@testable import PoseKit

struct ActionClassifierTests {
    static func trainingSet() -> (sequences: [PoseSequence], labels: [String]) {
        var sequences: [PoseSequence] = []
        var labels: [String] = []
        for variant in 0..<6 {
            for motion in SyntheticMotion.allCases {
                sequences.append(motion.sequence(variant: variant))
                labels.append(motion.rawValue)
            }
        }
        return (sequences, labels)
    }

    @Test func separatesTwoDifferentMotions() throws {
        let (sequences, labels) = Self.trainingSet()
        let classifier = try ActionClassifier.train(sequences: sequences, labels: labels)
        #expect(classifier.labels == ["armRaise", "squat"])
        for variant in 100..<106 {
            for motion in SyntheticMotion.allCases {
                let prediction = classifier.predict(motion.sequence(variant: variant))
                #expect(prediction.label == motion.rawValue, "variant \(variant)")
                #expect(prediction.confidence > 0.6)
            }
        }
    }

    @Test(arguments: [
        ("mirrored", true, 1.0, 0.0, 0.0),
        ("moved", false, 1.0, 150.0, -60.0),
        ("scaled and moved", false, 0.5, 40.0, 30.0),
        ("mirrored, scaled and moved", true, 1.7, -200.0, 10.0),
    ])
    func predictionIgnoresPositionScaleAndMirroring(
        name: String,
        mirror: Bool,
        scale: Double,
        dx: Double,
        dy: Double
    ) throws {
        let (sequences, labels) = Self.trainingSet()
        let classifier = try ActionClassifier.train(sequences: sequences, labels: labels)
        for motion in SyntheticMotion.allCases {
            let original = motion.sequence(variant: 42)
            let copy = original.transformed(swapSides: mirror) { x, y in
                ((mirror ? 640 - x : x) * scale + dx, y * scale + dy)
            }
            let a = classifier.spec.vector(for: original)
            let b = classifier.spec.vector(for: copy)
            try #require(a.count == b.count)
            for k in a.indices where !(a[k].isNaN && b[k].isNaN) {
                #expect(abs(a[k] - b[k]) <= 1e-6 * max(1, abs(a[k])), "\(name): feature \(k) \(a[k]) vs \(b[k])")
            }
            let p = classifier.predict(original)
            let q = classifier.predict(copy)
            #expect(p.label == q.label)
            #expect(abs(p.confidence - q.confidence) < 1e-9)
        }
    }

    @Test func modelJSONRoundTripGivesIdenticalPredictions() throws {
        let (sequences, labels) = Self.trainingSet()
        let classifier = try ActionClassifier.train(sequences: sequences, labels: labels)
        let text = classifier.jsonText
        let loaded = try ActionClassifier(jsonText: text)
        #expect(loaded.jsonText == text)
        #expect(loaded.spec == classifier.spec)
        for variant in 200..<203 {
            for motion in SyntheticMotion.allCases {
                let sequence = motion.sequence(variant: variant)
                #expect(loaded.predict(sequence) == classifier.predict(sequence))
            }
        }
    }

    /// Model files were written with PoseKit's `JSONValue` (keys sorted, integers without a fraction) before the
    /// model became `Codable`: the text is the same byte for byte, so those files read as they did.
    @Test(arguments: [
        ActionClassifier.Configuration.Method.automatic, .logistic, .formLogistic, .nearestNeighbor, .vote,
    ])
    func theModelTextIsWhatTheJSONValueWriterGave(method: ActionClassifier.Configuration.Method) throws {
        let (sequences, labels) = Self.trainingSet()
        let text = try ActionClassifier.train(
            sequences: sequences,
            labels: labels,
            configuration: .init(method: method, trajectoryLength: 24, warpingRadius: 5)
        )
        .jsonText
        #expect(try JSONValue.parse(text).jsonText == text)
    }

    @Test func trainingIsDeterministic() throws {
        let (sequences, labels) = Self.trainingSet()
        let first = try ActionClassifier.train(sequences: sequences, labels: labels)
        let second = try ActionClassifier.train(sequences: sequences, labels: labels)
        #expect(first.jsonText == second.jsonText)
    }

    @Test func oneClassOnlyIsRefused() throws {
        let sequences = (0..<3).map { SyntheticMotion.squat.sequence(variant: $0) }
        #expect {
            try ActionClassifier.train(sequences: sequences, labels: ["squat", "squat", "squat"])
        } throws: { error in
            let error = error as? CoachKitError
            return error?.code == .unusableTrainingSet && error?.message.contains("one class only") == true
        }
    }

    @Test func recordingWithNobodyIsRefused() throws {
        var sequences = [SyntheticMotion.squat.sequence(variant: 0), SyntheticMotion.armRaise.sequence(variant: 0)]
        sequences.append(PoseSequence(frames: [PoseFrame(seconds: 0, poses: [])], name: "empty.jsonl"))
        #expect {
            try ActionClassifier.train(sequences: sequences, labels: ["squat", "armRaise", "squat"])
        } throws: { error in
            (error as? CoachKitError)?.message.contains("empty.jsonl") == true
        }
    }

    @Test(arguments: [
        ("not json at all", "not JSON"),
        ("{\"format\":\"something-else\",\"version\":1}", "not a classifier model"),
        ("{\"format\":\"ptcoach-action-classifier\",\"version\":99}", "version 99"),
        ("{\"format\":\"ptcoach-action-classifier\",\"version\":2,\"labels\":[\"a\"]}", "at least two labels"),
        (
            "{\"format\":\"ptcoach-action-classifier\",\"version\":1,\"labels\":[\"a\",\"b\"]}",
            "version 1 is not supported"
        ),
        (
            "{\"format\":\"ptcoach-action-classifier\",\"version\":2,\"labels\":[\"a\",\"b\"],\"method\":\"magic\"}",
            "\"method\" is \"magic\""
        ),
    ])
    func badModelFilesAreRefused(text: String, expected: String) {
        #expect {
            try ActionClassifier(jsonText: text, source: "m.json")
        } throws: { error in
            guard let error = error as? CoachKitError else { return false }
            return error.code == .malformedModel && error.message.hasPrefix("m.json: ")
                && error.message.contains(expected)
        }
    }

    @Test func truncatedOrMistypedWeightsAreRefused() throws {
        let (sequences, labels) = Self.trainingSet()
        let text = try ActionClassifier.train(
            sequences: sequences,
            labels: labels,
            configuration: .init(method: .logistic)
        )
        .jsonText
        var object = try #require(try JSONValue.parse(text).objectValue)
        // A number of the wrong type is named by its path.
        var weights = try #require(object["weights"]?.arrayValue)
        var row = try #require(weights[1].arrayValue)
        row[2] = .string("heavy")
        weights[1] = .array(row)
        #expect {
            var broken = object
            broken["weights"] = .array(weights)
            return try ActionClassifier(jsonText: JSONValue.object(broken).jsonText, source: "m.json")
        } throws: { error in
            (error as? CoachKitError)?.message == "m.json: \"weights[1][2]\" must be a number (got \"heavy\")"
        }
        object["biases"] = .array([.number(0)])
        #expect(throws: CoachKitError.self) { try ActionClassifier(jsonText: JSONValue.object(object).jsonText) }
        // The same inside a vote model's member.
        let voteText = try ActionClassifier.train(
            sequences: sequences,
            labels: labels,
            configuration: .init(method: .vote)
        )
        .jsonText
        var vote = try #require(try JSONValue.parse(voteText).objectValue)
        var members = try #require(vote["members"]?.objectValue)
        var logistic = try #require(members["logistic"]?.objectValue)
        logistic["biases"] = .array([.number(0)])
        members["logistic"] = .object(logistic)
        vote["members"] = .object(members)
        #expect {
            try ActionClassifier(jsonText: JSONValue.object(vote).jsonText, source: "vote.json")
        } throws: { error in
            (error as? CoachKitError)?.message == "vote.json: \"biases\" must have one number per label"
        }
    }

    @Test func crossValidationSeparatesSyntheticMotions() throws {
        let (sequences, labels) = Self.trainingSet()
        let folds = CrossValidation.stratifiedFolds(labels: labels, count: 3, seed: 1)
        let result = try CrossValidation.run(sequences: sequences, labels: labels, folds: folds)
        #expect(result.report.accuracy == 1)
    }

    @Test func stratifiedFoldsAreBalancedAndDeterministic() {
        let labels = Array(repeating: "a", count: 10) + Array(repeating: "b", count: 5)
        let folds = CrossValidation.stratifiedFolds(labels: labels, count: 5, seed: 7)
        #expect(folds == CrossValidation.stratifiedFolds(labels: labels, count: 5, seed: 7))
        for fold in 0..<5 {
            #expect(labels.indices.filter { folds[$0] == fold && labels[$0] == "a" }.count == 2)
            #expect(labels.indices.filter { folds[$0] == fold && labels[$0] == "b" }.count == 1)
        }
        #expect(CrossValidation.groupFolds(groups: ["s2", "s1", "s2"]) == [1, 0, 1])
    }
}

import CoachKit
import Testing

@testable import PoseKit

struct ModelSelectionTests {
    typealias Method = ActionClassifier.Configuration.Method

    @Test(arguments: [Method.logistic, .formLogistic, .nearestNeighbor, .vote, .automatic])
    func everyMethodSeparatesSyntheticMotions(method: Method) throws {
        let (sequences, labels) = ActionClassifierTests.trainingSet()
        let classifier = try ActionClassifier.train(
            sequences: sequences,
            labels: labels,
            configuration: .init(method: method)
        )
        if method != .automatic { #expect(classifier.model.method == method) }
        for variant in 100..<104 {
            for motion in SyntheticMotion.allCases {
                #expect(classifier.predict(motion.sequence(variant: variant)).label == motion.rawValue)
            }
        }
    }

    @Test func automaticVotesOnSmallTrainingSets() throws {
        let (sequences, labels) = ActionClassifierTests.trainingSet()
        let classifier = try ActionClassifier.train(sequences: sequences, labels: labels)
        let selection = try #require(classifier.selection)
        #expect(selection.total == sequences.count)
        #expect(selection.protocolName == "leave-one-out")  // 12 recordings ≤ 30
        #expect(selection.chosen == .vote)
        #expect(classifier.model.method == .vote)
        #expect(selection.logisticCorrect == 12)  // separable: every model and the vote get all 12
        #expect(selection.voteCorrect == 12)
    }

    @Test func automaticFollowsTheMarginRuleAboveThirtyRecordings() throws {
        var sequences: [PoseSequence] = []
        var labels: [String] = []
        for variant in 0..<16 {
            for motion in SyntheticMotion.allCases {
                sequences.append(motion.sequence(variant: variant))
                labels.append(motion.rawValue)
            }
        }
        let classifier = try ActionClassifier.train(sequences: sequences, labels: labels)
        let selection = try #require(classifier.selection)
        #expect(selection.total == 32)
        #expect(selection.protocolName == "stratified 5-fold")
        let required = Double(selection.logisticCorrect) + 0.32 * Double(selection.total).squareRoot()
        let alternative = max(selection.formLogisticCorrect, selection.nearestNeighborCorrect)
        let expected: Method =
            Double(alternative) <= required
            ? .logistic
            : selection.nearestNeighborCorrect > selection.formLogisticCorrect ? .nearestNeighbor : .formLogistic
        #expect(selection.chosen == expected)
        #expect(classifier.model.method == .logistic)  // separable: nothing can beat 32/32
    }

    @Test(arguments: [
        ([[0.9, 0.1], [0.4, 0.6], [0.7, 0.3]], 0),  // two votes of three for class 0
        ([[0.45, 0.55], [0.6, 0.4], [0.6, 0.4]], 0),  // majority wins
        ([[0.1, 0.9], [0.51, 0.49], [0.52, 0.48]], 0),  // majority wins over a higher mean for class 1
        ([[0.5, 0.3, 0.2], [0.2, 0.7, 0.1], [0.3, 0.1, 0.6]], 1),  // no majority: highest mean (class 1)
    ])
    func voteTakesTheMajorityElseTheHighestMean(members: [[Double]], winner: Int) throws {
        let probabilities = ActionClassifier.vote(members)
        try #require(probabilities.count == members[0].count)
        #expect(abs(probabilities.reduce(0, +) - 1) < 1e-9)
        #expect(probabilities.allSatisfy { $0 >= 0 })
        let best = probabilities.indices.max(by: { probabilities[$0] < probabilities[$1] })
        #expect(best == winner)
    }

    @Test func voteModelRoundTripsThroughJSON() throws {
        let (sequences, labels) = ActionClassifierTests.trainingSet()
        let classifier = try ActionClassifier.train(
            sequences: sequences,
            labels: labels,
            configuration: .init(method: .vote, trajectoryLength: 24, warpingRadius: 5)
        )
        let text = classifier.jsonText
        let loaded = try ActionClassifier(jsonText: text, source: "vote.json")
        #expect(loaded.jsonText == text)
        #expect(loaded.model == classifier.model)
        for variant in 300..<303 {
            for motion in SyntheticMotion.allCases {
                let sequence = motion.sequence(variant: variant)
                #expect(loaded.predict(sequence) == classifier.predict(sequence))
            }
        }
        var object = try #require(try JSONValue.parse(text).objectValue)
        var members = try #require(object["members"]?.objectValue)
        members["nearest-neighbor"] = nil
        object["members"] = .object(members)
        #expect {
            try ActionClassifier(jsonText: JSONValue.object(object).jsonText, source: "vote.json")
        } throws: { error in
            (error as? CoachKitError)?.message
                == "vote.json: \"members.nearest-neighbor\" is missing; a vote model needs all three members"
        }
    }

    @Test func nearestNeighborModelRoundTripsThroughJSON() throws {
        let (sequences, labels) = ActionClassifierTests.trainingSet()
        let classifier = try ActionClassifier.train(
            sequences: sequences,
            labels: labels,
            configuration: .init(method: .nearestNeighbor, trajectoryLength: 24, warpingRadius: 5)
        )
        let text = classifier.jsonText
        let loaded = try ActionClassifier(jsonText: text, source: "nn.json")
        #expect(loaded.jsonText == text)
        #expect(loaded.model == classifier.model)
        for variant in 300..<303 {
            for motion in SyntheticMotion.allCases {
                let sequence = motion.sequence(variant: variant)
                #expect(loaded.predict(sequence) == classifier.predict(sequence))
            }
        }
        let again = try ActionClassifier.train(
            sequences: sequences,
            labels: labels,
            configuration: .init(method: .nearestNeighbor, trajectoryLength: 24, warpingRadius: 5)
        )
        #expect(again.jsonText == text)
    }

    @Test func nearestNeighborModelWithWrongTemplateSizeIsRefused() throws {
        let (sequences, labels) = ActionClassifierTests.trainingSet()
        let text = try ActionClassifier.train(
            sequences: sequences,
            labels: labels,
            configuration: .init(method: .nearestNeighbor)
        ).jsonText
        var object = try #require(try JSONValue.parse(text).objectValue)
        var block = try #require(object["trajectory"]?.objectValue)
        block["templates"] = .array([.array([.number(1), .number(2)])])
        object["trajectory"] = .object(block)
        #expect {
            try ActionClassifier(jsonText: JSONValue.object(object).jsonText, source: "nn.json")
        } throws: { error in
            (error as? CoachKitError)?.message.contains("trajectory.templates[0]") == true
        }
    }

    @Test func versionOneModelsAreRefusedWithAClearMessage() throws {
        let (sequences, labels) = ActionClassifierTests.trainingSet()
        let text = try ActionClassifier.train(sequences: sequences, labels: labels).jsonText
        var object = try #require(try JSONValue.parse(text).objectValue)
        object["version"] = .number(1)
        object["method"] = nil
        #expect {
            try ActionClassifier(jsonText: JSONValue.object(object).jsonText, source: "old.json")
        } throws: { error in
            guard let error = error as? CoachKitError else { return false }
            return error.code == .malformedModel && error.message.hasPrefix("old.json: model version 1")
                && error.message.contains("retrain")
        }
    }

    @Test func leaveOneOutCrossValidationReportsTheMethodOfEveryFold() throws {
        let (sequences, labels) = ActionClassifierTests.trainingSet()
        let result = try CrossValidation.run(
            sequences: sequences,
            labels: labels,
            folds: Array(sequences.indices),
            configuration: .init(method: .nearestNeighbor)
        )
        #expect(result.methods == Array(repeating: .nearestNeighbor, count: sequences.count))
        #expect(result.report.accuracy == 1)
    }
}

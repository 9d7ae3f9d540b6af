import CoachKit
import PoseKit
import Testing

struct ModelSelectionTests {
    typealias Method = ActionClassifier.Configuration.Method

    @Test(arguments: [Method.logistic, .nearestNeighbor, .automatic])
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

    @Test func automaticRecordsTheInnerCrossValidationAndFollowsTheRule() throws {
        let (sequences, labels) = ActionClassifierTests.trainingSet()
        let classifier = try ActionClassifier.train(sequences: sequences, labels: labels)
        let selection = try #require(classifier.selection)
        #expect(selection.total == sequences.count)
        #expect(selection.protocolName == "leave-one-out")  // 12 recordings ≤ 30
        let required = Double(selection.logisticCorrect) + 0.32 * Double(selection.total).squareRoot()
        let alternative = max(selection.formLogisticCorrect, selection.nearestNeighborCorrect)
        let expected: Method =
            Double(alternative) <= required
            ? .logistic
            : selection.nearestNeighborCorrect > selection.formLogisticCorrect ? .nearestNeighbor : .formLogistic
        #expect(selection.chosen == expected)
        #expect(classifier.model.method == expected)
        #expect(selection.logisticCorrect == 12)  // separable: nothing can beat 12/12, so logistic stays
        #expect(classifier.model.method == .logistic)
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

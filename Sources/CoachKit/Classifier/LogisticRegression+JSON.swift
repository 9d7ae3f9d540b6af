import PoseKit

extension LogisticRegression {
    /// The model file's block of a regression: `standardization` (`mean`, `std`), `weights` (one row per
    /// class) and `biases`. The body and the hand classifiers write it the same way.
    var jsonBlock: [String: JSONValue] {
        func numbers(_ values: [Double]) -> JSONValue { .array(values.map(JSONValue.number)) }
        let d = featureCount
        return [
            "standardization": .object(["mean": numbers(means), "std": numbers(scales)]),
            "weights": .array((0..<classCount).map { j in numbers(Array(weights[(j * d)..<((j + 1) * d)])) }),
            "biases": numbers(biases),
        ]
    }

    /// Reads a block written by ``jsonBlock``, which must have `featureCount` features and `classCount` classes.
    ///
    /// - Throws: ``CoachKitError`` (`.malformedModel`) saying which entry is wrong.
    init(jsonBlock container: [String: JSONValue], featureCount d: Int, classCount: Int) throws(CoachKitError) {
        func fail(_ message: String) -> CoachKitError { CoachKitError(.malformedModel, message) }
        let standardization = container["standardization"]?.objectValue ?? [:]
        let means = try Self.finiteNumbers(standardization["mean"], "standardization.mean")
        let scales = try Self.finiteNumbers(standardization["std"], "standardization.std")
        guard means.count == d, scales.count == d else {
            throw fail("the standardization has \(means.count) means and \(scales.count) stds; the features need \(d)")
        }
        guard scales.allSatisfy({ $0 > 0 }) else { throw fail("\"standardization.std\" must be positive") }
        guard let weightRows = container["weights"]?.arrayValue, weightRows.count == classCount else {
            throw fail("\"weights\" must have one row per label (\(classCount))")
        }
        var weights: [Double] = []
        for (j, row) in weightRows.enumerated() {
            let values = try Self.finiteNumbers(row, "weights[\(j)]")
            guard values.count == d else { throw fail("\"weights[\(j)]\" has \(values.count) numbers; expected \(d)") }
            weights.append(contentsOf: values)
        }
        let biases = try Self.finiteNumbers(container["biases"], "biases")
        guard biases.count == classCount else { throw fail("\"biases\" must have one number per label") }
        self.init(means: means, scales: scales, weights: weights, biases: biases)
    }

    /// The numbers of a JSON array, each finite.
    ///
    /// - Throws: ``CoachKitError`` (`.malformedModel`) naming the entry `name`.
    static func finiteNumbers(_ value: JSONValue?, _ name: String) throws(CoachKitError) -> [Double] {
        guard let array = value?.arrayValue else {
            throw CoachKitError(.malformedModel, "\"\(name)\" must be an array of numbers")
        }
        var result: [Double] = []
        result.reserveCapacity(array.count)
        for element in array {
            guard let number = element.doubleValue, number.isFinite else {
                throw CoachKitError(.malformedModel, "\"\(name)\" holds \(element.jsonText), not a finite number")
            }
            result.append(number)
        }
        return result
    }
}

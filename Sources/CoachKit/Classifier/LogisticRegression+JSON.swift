extension LogisticRegression {
    /// A model file's block of a regression: `standardization` (`mean`, `std`), `weights` (one row per class) and
    /// `biases`. The body classifier (``ActionClassifier``, at the top level or per vote member) and the hand
    /// classifier (``HandClassifier``) write it the same way, beside their own fields at the same level.
    ///
    /// Its fields are optional so that a missing one gets the message of a wrong one.
    struct Block: Codable {
        struct Standardization: Codable {
            var mean: [Double]?
            var std: [Double]?
        }

        var standardization: Standardization?
        var weights: [[Double]]?
        var biases: [Double]?

        init() {}

        /// The block of `regression`.
        init(_ regression: LogisticRegression) {
            let d = regression.featureCount
            standardization = Standardization(mean: regression.means, std: regression.scales)
            weights = (0..<regression.classCount).map { j in Array(regression.weights[(j * d)..<((j + 1) * d)]) }
            biases = regression.biases
        }
    }

    /// The regression of a model file's `block`, which must have `featureCount` features and `classCount` classes
    /// (one per label).
    ///
    /// - Throws: ``CoachKitError`` (`.malformedModel`) naming the field that is wrong (the caller adds the file).
    init(_ block: Block, featureCount d: Int, classCount: Int) throws(CoachKitError) {
        func fail(_ message: String) -> CoachKitError { CoachKitError(.malformedModel, message) }
        let means = block.standardization?.mean ?? []
        let scales = block.standardization?.std ?? []
        guard means.count == d, scales.count == d else {
            throw fail("the standardization has \(means.count) means and \(scales.count) stds; the features need \(d)")
        }
        guard scales.allSatisfy({ $0 > 0 }) else { throw fail("\"standardization.std\" must be positive") }
        guard let rows = block.weights, rows.count == classCount else {
            throw fail("\"weights\" must have one row per label (\(classCount))")
        }
        for (j, row) in rows.enumerated() where row.count != d {
            throw fail("\"weights[\(j)]\" has \(row.count) numbers; expected \(d)")
        }
        guard let biases = block.biases, biases.count == classCount else {
            throw fail("\"biases\" must have one number per label")
        }
        self.init(means: means, scales: scales, weights: rows.flatMap { $0 }, biases: biases)
    }
}

/// Honest estimates of a classifier's accuracy: every example is predicted by a model that was trained
/// without it (and, with groups, without anything of its group, such as the same subject).
///
/// Folds are deterministic: the stratified split shuffles each class with a seeded generator.
///
/// ```swift
/// let folds = CrossValidation.stratifiedFolds(labels: labels, count: 5, seed: 1)
/// let result = try CrossValidation.run(sequences: sequences, labels: labels, folds: folds)
/// print(result.report.weightedF1)
/// ```
public enum CrossValidation {
    /// The outcome of one cross-validation run.
    public struct Result: Sendable, Hashable {
        /// The out-of-fold prediction of each example.
        public var predictions: [ActionClassifier.Prediction]
        public var report: ClassificationReport
        /// The model each fold trained (its ``ActionClassifier/Configuration/Method``), in fold order.
        public var methods: [ActionClassifier.Configuration.Method]
    }

    /// A fold number for each example such that each class is spread evenly over `count` folds.
    ///
    /// `count` is lowered to the size of the smallest class when that is smaller (at least 2).
    public static func stratifiedFolds(labels: [String], count: Int, seed: UInt64) -> [Int] {
        var generator = SplitMix64(seed: seed)
        var folds = [Int](repeating: 0, count: labels.count)
        var next = 0
        for label in Set(labels).sorted() {
            var members = labels.indices.filter { labels[$0] == label }
            // Fisher–Yates with our own generator, so the split is the same on every platform.
            if members.count > 1 {
                for i in stride(from: members.count - 1, to: 0, by: -1) {
                    let j = Int(generator.next() % UInt64(i + 1))
                    members.swapAt(i, j)
                }
            }
            // Continue dealing where the previous class stopped, so fold sizes stay balanced.
            for member in members {
                folds[member] = next % count
                next += 1
            }
        }
        return folds
    }

    /// A fold number for each example: one fold per distinct group (leave-one-group-out).
    public static func groupFolds(groups: [String]) -> [Int] {
        let distinct = Set(groups).sorted()
        let index = Dictionary(uniqueKeysWithValues: distinct.enumerated().map { ($1, $0) })
        return groups.map { index[$0]! }
    }

    /// Trains one model per fold on the other folds and predicts the fold.
    ///
    /// The feature spec (which joints to use) is fitted on each fold's training part too.
    /// - Throws: ``CoachKitError`` when a fold's training part cannot train a classifier (one class).
    public static func run(
        sequences: [PoseSequence],
        labels: [String],
        folds: [Int],
        configuration: ActionClassifier.Configuration = .init()
    ) throws(CoachKitError) -> Result {
        precondition(sequences.count == labels.count && labels.count == folds.count, "one label and fold per sequence")
        try ActionClassifier.validate(sequences: sequences, labels: labels, configuration: configuration)
        var cache: [SequenceFeatureSpec: ActionClassifier.PreparedFeatures] = [:]
        var predictions = [ActionClassifier.Prediction?](repeating: nil, count: sequences.count)
        var methods: [ActionClassifier.Configuration.Method] = []
        for fold in Set(folds).sorted() {
            let train = folds.indices.filter { folds[$0] != fold }
            let test = folds.indices.filter { folds[$0] == fold }
            let trainLabels = train.map { labels[$0] }
            guard Set(trainLabels).count >= 2 else {
                throw CoachKitError(
                    .unusableTrainingSet,
                    "fold \(fold) leaves one class only for training; use fewer folds or add examples"
                )
            }
            let spec = try SequenceFeatureSpec.fitted(
                to: train.map { sequences[$0] },
                timeBins: configuration.timeBins
            )
            let prepared: ActionClassifier.PreparedFeatures
            if let cached = cache[spec] {
                prepared = cached
            } else {
                prepared = ActionClassifier.PreparedFeatures(
                    spec: spec,
                    sequences: sequences,
                    configuration: configuration
                )
                cache[spec] = prepared
            }
            let classifier = ActionClassifier.train(
                prepared: prepared,
                rows: train,
                labels: labels,
                configuration: configuration
            )
            methods.append(classifier.model.method)
            for i in test {
                predictions[i] = classifier.predict(i, in: prepared)
            }
        }
        let resolved = predictions.map { $0! }
        return Result(
            predictions: resolved,
            report: ClassificationReport(truth: labels, predicted: resolved.map(\.label)),
            methods: methods
        )
    }
}

/// A tiny, fast, seedable pseudo-random generator (Steele, Lea & Flood's SplitMix64), so that folds are
/// the same on every platform and every run.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A trainable classifier of pose sequences: Create ML's `MLActionClassifier`, for Linux.
///
/// It learns any labels (exercise ids, good/bad form, …) from whole recordings. Each recording becomes
/// one fixed-length vector (``SequenceFeatureSpec``: joint angles and body-relative positions, invariant
/// to position, scale and mirroring, summarised over time), and an L2-regularised multinomial logistic
/// regression (``LogisticRegression``) maps it to probabilities. Training is deterministic: the same
/// recordings and labels in the same order give the same model, bit for bit.
///
/// ```swift
/// let classifier = try ActionClassifier.train(sequences: sequences, labels: labels)
/// let prediction = classifier.predict(sequence)
/// print(prediction.label, prediction.confidence)
/// let json = classifier.jsonText   // and ActionClassifier(jsonText:) to load it again
/// ```
public struct ActionClassifier: Sendable, Hashable {
    /// Training settings.
    public struct Configuration: Sendable, Hashable {
        /// The L2 penalty on the weights (on standardised features).
        public var regularization: Double
        /// The most L-BFGS iterations.
        public var maximumIterations: Int
        /// The number of time bins of each feature's temporal profile.
        public var timeBins: Int

        public init(regularization: Double = 0.03, maximumIterations: Int = 150, timeBins: Int = 16) {
            precondition(regularization > 0, "regularization (\(regularization)) must be positive")
            precondition(maximumIterations > 0, "maximumIterations (\(maximumIterations)) must be positive")
            self.regularization = regularization
            self.maximumIterations = maximumIterations
            self.timeBins = timeBins
        }
    }

    /// The classifier's answer for one recording.
    public struct Prediction: Sendable, Hashable {
        public var label: String
        /// The probability of ``label`` (0–1).
        public var confidence: Double
        /// The probability of each of the classifier's labels, in ``ActionClassifier/labels`` order.
        public var probabilities: [Double]
    }

    /// The classes, sorted.
    public var labels: [String]
    /// The features the model reads.
    public var spec: SequenceFeatureSpec
    public var model: LogisticRegression
    public var configuration: Configuration

    public init(labels: [String], spec: SequenceFeatureSpec, model: LogisticRegression, configuration: Configuration) {
        precondition(labels.count == model.classCount, "\(labels.count) labels for \(model.classCount) classes")
        self.labels = labels
        self.spec = spec
        self.model = model
        self.configuration = configuration
    }

    /// Trains a classifier on labelled recordings.
    ///
    /// - Throws: ``ClassifierError`` (`.unusableTrainingSet`) for fewer than two classes, a recording with
    ///   no person in it, or recordings that lack the joints needed to place the body.
    public static func train(
        sequences: [PoseSequence],
        labels: [String],
        configuration: Configuration = Configuration()
    ) throws(ClassifierError) -> ActionClassifier {
        try validate(sequences: sequences, labels: labels)
        let spec = try SequenceFeatureSpec.fitted(to: sequences, timeBins: configuration.timeBins)
        let features = sequences.map(spec.vector(for:))
        return train(features: features, labels: labels, spec: spec, configuration: configuration)
    }

    /// Trains on feature vectors already computed with `spec` (used by cross-validation to share work).
    static func train(
        features: [[Double]],
        labels: [String],
        spec: SequenceFeatureSpec,
        configuration: Configuration
    ) -> ActionClassifier {
        let classes = Array(Set(labels)).sorted()
        let indexOf = Dictionary(uniqueKeysWithValues: classes.enumerated().map { ($1, $0) })
        let model = LogisticRegression.fit(
            features: features,
            classes: labels.map { indexOf[$0]! },
            classCount: classes.count,
            regularization: configuration.regularization,
            maximumIterations: configuration.maximumIterations
        )
        return ActionClassifier(labels: classes, spec: spec, model: model, configuration: configuration)
    }

    /// Checks that the recordings and labels can train a classifier.
    static func validate(sequences: [PoseSequence], labels: [String]) throws(ClassifierError) {
        precondition(sequences.count == labels.count, "\(sequences.count) sequences but \(labels.count) labels")
        let classes = Set(labels)
        guard classes.count >= 2 else {
            let only = classes.first.map { "`\($0)`" } ?? "none"
            throw ClassifierError(
                .unusableTrainingSet,
                "the training set has one class only (\(only)); a classifier needs examples of at least two labels"
            )
        }
        for sequence in sequences where !sequence.hasPerson.contains(true) {
            throw ClassifierError(
                .unusableTrainingSet,
                "\(sequence.name): no frame shows a person; remove the file from the manifest or re-run the pose estimator"
            )
        }
    }

    /// Classifies one recording.
    public func predict(_ sequence: PoseSequence) -> Prediction {
        predict(features: spec.vector(for: sequence))
    }

    /// Classifies a feature vector computed with ``spec``.
    public func predict(features: [Double]) -> Prediction {
        let probabilities = model.probabilities(features)
        var best = 0
        for j in 1..<probabilities.count where probabilities[j] > probabilities[best] { best = j }
        return Prediction(label: labels[best], confidence: probabilities[best], probabilities: probabilities)
    }
}

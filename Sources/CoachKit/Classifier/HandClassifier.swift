/// A trainable classifier of hands: Create ML's `MLHandPoseClassifier` and `MLHandActionClassifier`, for Linux,
/// on hand pose-tracks (`ptcoach poses VIDEO --hands`).
///
/// - **hand pose** (``Kind/pose``): a static hand shape (open, fist, pinch, …). Every frame of a training
///   recording with a hand is a sample, described by ``HandFeatures`` (finger flexions, thumb-to-fingertip
///   distances, fingertips to the wrist, spreads). A recording is predicted frame by frame, each frame's
///   probabilities averaged with those of the frames before it (``Configuration/smoothingFrames``, the evidence
///   over a few frames Apple's hand-pose samples gather), and the recording takes the label most frames got.
/// - **hand action** (``Kind/action``): a movement (make a fist and open, thumb opposition, wrist flexion). A
///   whole clip is a sample: its shape and orientation features summarised over time as the body classifier's
///   are (``HandFeatures/actionVector(for:timeBins:)``).
///
/// Both map features to labels with the body classifier's L2-regularised logistic regression
/// (``LogisticRegression``). Training is deterministic.
///
/// ```swift
/// let classifier = try HandClassifier.train(sequences: clips, labels: labels, configuration: .init(kind: .pose))
/// let prediction = classifier.predict(sequence)          // nil when no frame has a hand
/// print(prediction?.label, prediction?.frames.map(\.label))
/// ```
public struct HandClassifier: Sendable, Hashable {
    /// What a sample is.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A hand shape, every frame a sample.
        case pose = "hand-pose"
        /// A movement, every clip a sample.
        case action = "hand-action"
    }

    /// Training settings.
    public struct Configuration: Sendable, Hashable {
        public var kind: Kind
        /// The L2 penalty on the weights (on standardised features).
        public var regularization: Double
        /// The most L-BFGS iterations.
        public var maximumIterations: Int
        /// For actions: the number of time bins of each feature's temporal profile.
        public var timeBins: Int
        /// For hand poses: how many frames with a hand (this one and those before it) each frame's label is
        /// decided over (1: no smoothing).
        public var smoothingFrames: Int

        public init(
            kind: Kind,
            regularization: Double = 0.03,
            maximumIterations: Int = 150,
            timeBins: Int = 16,
            smoothingFrames: Int = 5
        ) {
            precondition(regularization > 0, "regularization (\(regularization)) must be positive")
            precondition(maximumIterations > 0, "maximumIterations (\(maximumIterations)) must be positive")
            precondition(timeBins >= 1, "timeBins (\(timeBins)) must be at least 1")
            precondition(smoothingFrames >= 1, "smoothingFrames (\(smoothingFrames)) must be at least 1")
            self.kind = kind
            self.regularization = regularization
            self.maximumIterations = maximumIterations
            self.timeBins = timeBins
            self.smoothingFrames = smoothingFrames
        }
    }

    /// A hand-pose classifier's answer for one frame with a hand.
    public struct FramePrediction: Sendable, Hashable {
        public var seconds: Double
        public var label: String
        /// The smoothed probability of ``label``.
        public var confidence: Double
    }

    /// The classifier's answer for one recording.
    public struct Prediction: Sendable, Hashable {
        public var label: String
        /// For an action, the probability of ``label``; for a hand pose, the share of the frames with a hand
        /// that got it.
        public var confidence: Double
        /// In ``HandClassifier/labels`` order: the probabilities (action) or the shares of frames (hand pose).
        public var probabilities: [Double]
        /// For a hand pose, the label of each frame with a hand; empty for an action.
        public var frames: [FramePrediction]
    }

    /// The classes, sorted.
    public var labels: [String]
    public var model: LogisticRegression
    public var configuration: Configuration

    public var kind: Kind { configuration.kind }

    /// The names of the features the model reads, in order (summarised ones once per feature).
    public var featureNames: [String] { HandFeatures.names(orientation: kind == .action) }

    /// The length of a sample's feature vector.
    public var featureCount: Int {
        kind == .action ? HandFeatures.actionCount(timeBins: configuration.timeBins) : featureNames.count
    }

    public init(labels: [String], model: LogisticRegression, configuration: Configuration) {
        precondition(labels.count == model.classCount, "\(labels.count) labels for \(model.classCount) classes")
        self.labels = labels
        self.model = model
        self.configuration = configuration
        precondition(model.featureCount == featureCount, "\(model.featureCount) features, expected \(featureCount)")
    }

    /// The samples of a recording: one row per frame with a hand (hand pose), or one row (action).
    static func samples(of sequence: HandSequence, configuration: Configuration) -> [[Double]] {
        switch configuration.kind {
        case .pose: sequence.hands.compactMap { $0.map { HandFeatures.frame(of: $0, orientation: false) } }
        case .action:
            sequence.handCount == 0
                ? [] : [HandFeatures.actionVector(for: sequence, timeBins: configuration.timeBins)]
        }
    }

    /// Trains a classifier on labelled hand recordings.
    ///
    /// - Throws: ``CoachKitError`` (`.unusableTrainingSet`) for fewer than two labels, or a label none of whose
    ///   recordings shows a hand.
    public static func train(
        sequences: [HandSequence],
        labels: [String],
        configuration: Configuration
    ) throws(CoachKitError) -> HandClassifier {
        precondition(sequences.count == labels.count, "\(sequences.count) recordings for \(labels.count) labels")
        let classes = Array(Set(labels)).sorted()
        guard classes.count >= 2 else {
            throw CoachKitError(.unusableTrainingSet, "training needs at least two labels, got \(classes)")
        }
        let indexOf = Dictionary(uniqueKeysWithValues: classes.enumerated().map { ($1, $0) })
        var rows: [[Double]] = []
        var rowClasses: [Int] = []
        for (sequence, label) in zip(sequences, labels) {
            let samples = samples(of: sequence, configuration: configuration)
            rows += samples
            rowClasses += repeatElement(indexOf[label]!, count: samples.count)
        }
        for (k, label) in classes.enumerated() where !rowClasses.contains(k) {
            throw CoachKitError(
                .unusableTrainingSet,
                "no recording labelled `\(label)` shows a hand; check its files are hand pose-tracks with hands in them"
            )
        }
        let model = LogisticRegression.fit(
            features: rows,
            classes: rowClasses,
            classCount: classes.count,
            regularization: configuration.regularization,
            maximumIterations: configuration.maximumIterations
        )
        return HandClassifier(labels: classes, model: model, configuration: configuration)
    }

    /// Classifies a recording; `nil` when no frame of it shows a hand.
    public func predict(_ sequence: HandSequence) -> Prediction? {
        switch kind {
        case .action:
            guard let row = Self.samples(of: sequence, configuration: configuration).first else { return nil }
            let probabilities = model.probabilities(row)
            let best = ModelSelection.argmax(probabilities)
            return Prediction(
                label: labels[best],
                confidence: probabilities[best],
                probabilities: probabilities,
                frames: []
            )
        case .pose:
            var frames: [FramePrediction] = []
            var recent: [[Double]] = []
            var votes = [Double](repeating: 0, count: labels.count)
            for (seconds, hand) in zip(sequence.seconds, sequence.hands) {
                guard let hand else { continue }
                recent.append(model.probabilities(HandFeatures.frame(of: hand, orientation: false)))
                if recent.count > configuration.smoothingFrames { recent.removeFirst() }
                var mean = [Double](repeating: 0, count: labels.count)
                for probabilities in recent {
                    for j in mean.indices { mean[j] += probabilities[j] / Double(recent.count) }
                }
                let best = ModelSelection.argmax(mean)
                votes[best] += 1
                frames.append(FramePrediction(seconds: seconds, label: labels[best], confidence: mean[best]))
            }
            guard !frames.isEmpty else { return nil }
            let shares = votes.map { $0 / Double(frames.count) }
            let best = ModelSelection.argmax(shares)
            return Prediction(label: labels[best], confidence: shares[best], probabilities: shares, frames: frames)
        }
    }

    /// Each recording predicted by a model trained on the recordings outside its fold (`folds[i]`: the fold of
    /// recording `i`, as ``CrossValidation/stratifiedFolds(labels:count:seed:)`` and
    /// ``CrossValidation/groupFolds(groups:)`` give them); `nil` for a recording with no hand.
    ///
    /// - Throws: ``CoachKitError`` when a fold's training recordings cannot train a model (one label only).
    public static func crossValidate(
        sequences: [HandSequence],
        labels: [String],
        folds: [Int],
        configuration: Configuration
    ) throws(CoachKitError) -> [Prediction?] {
        precondition(folds.count == sequences.count, "one fold per recording")
        var predictions = [Prediction?](repeating: nil, count: sequences.count)
        for fold in Set(folds).sorted() {
            let train = sequences.indices.filter { folds[$0] != fold }
            let classifier = try Self.train(
                sequences: train.map { sequences[$0] },
                labels: train.map { labels[$0] },
                configuration: configuration
            )
            for i in sequences.indices where folds[i] == fold { predictions[i] = classifier.predict(sequences[i]) }
        }
        return predictions
    }
}

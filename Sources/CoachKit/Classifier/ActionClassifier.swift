/// A trainable classifier of pose sequences: Create ML's `MLActionClassifier`, for Linux.
///
/// It learns any labels (exercise ids, good/bad form, …) from whole recordings, with one of two models:
/// - **logistic**: each recording becomes one fixed-length vector (``SequenceFeatureSpec``: joint angles
///   and body-relative positions, invariant to position, scale and mirroring, summarised over time) and
///   an L2-regularised multinomial logistic regression (``LogisticRegression``) maps it to probabilities;
/// - **nearest neighbour**: each recording becomes a few normalised angle/height trajectories and takes
///   the label of the most similar training recording under dynamic time warping
///   (``TrajectoryNearestNeighbor``, Pose Trainer's classifier).
///
/// - **form logistic**: logistic regression on a short vector of form features of the active side (elbow
///   angle, upper arm against trunk, elbow travel, wrist height, trunk lean: their 5th/95th percentiles
///   and range), for small form data sets;
/// - **vote**: all three of the above, each recording labelled by their majority (see ``vote(_:)``);
/// - **rule logistic** and **rule verdict**, when the recordings are of one library exercise
///   (``Configuration/rules``): logistic regression on the exercise's form rules measured over the
///   recording (``RuleFeatureSpec``), or the coach's own verdict (any rule broken) mapped to the label it
///   goes with in the training set (``RuleVerdict``); **rule vote**: the vote's three models and the
///   rule verdict.
///
/// With ``Configuration/Method/automatic`` (the default) training picks the model inside the training
/// set (``ModelSelection``): the vote for small training sets (at most ``ModelSelection/leaveOneOutLimit``
/// recordings), otherwise logistic regression unless another model gets clearly more held-out training
/// recordings right. Training is deterministic: the same recordings and labels in the same order give
/// the same model, bit for bit.
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
        /// Which model to train.
        public enum Method: String, Sendable, Hashable, CaseIterable {
            /// Logistic regression on summary features.
            case logistic
            /// Logistic regression on a few form features (``SequenceFeatureSpec/formVector(for:)``).
            case formLogistic = "form-logistic"
            /// DTW nearest neighbour on trajectories.
            case nearestNeighbor = "nearest-neighbor"
            /// The majority of logistic, form logistic and nearest neighbour (``ActionClassifier/vote(_:)``).
            case vote
            /// Logistic regression on the library exercise's form-rule features (``RuleFeatureSpec``).
            case ruleLogistic = "rule-logistic"
            /// The coach's verdict (any form rule broken) mapped to labels by the training set (``RuleVerdict``).
            case ruleVerdict = "rule-verdict"
            /// The vote's three models and the rule verdict, voting (``ActionClassifier/vote(_:)``): what
            /// ``automatic`` takes for small training sets when there are form rules.
            case ruleVote = "rule-vote"
            /// The vote for training sets of at most ``ModelSelection/leaveOneOutLimit`` recordings;
            /// otherwise logistic regression unless form logistic regression or nearest neighbour
            /// cross-validates better inside the training set by more than ``selectionMargin`` · √n
            /// (``ModelSelection``). With ``Configuration/rules`` the rule models are candidates too.
            case automatic
        }

        /// The L2 penalty on the weights (on standardised features).
        public var regularization: Double
        /// The most L-BFGS iterations.
        public var maximumIterations: Int
        /// The number of time bins of each feature's temporal profile.
        public var timeBins: Int
        public var method: Method
        /// Time steps of the nearest-neighbour trajectories.
        public var trajectoryLength: Int
        /// The DTW band, in steps.
        public var warpingRadius: Int
        /// For ``Method/automatic`` on training sets above ``ModelSelection/leaveOneOutLimit`` recordings
        /// (smaller ones take the vote): another model is chosen only when it gets more than
        /// `selectionMargin · √n` more of the `n` held-out training recordings right than logistic
        /// regression (a margin that grows like the noise of the counts). 0.32 makes it 2 recordings at
        /// n = 40, the smallest margin at which automatic selection did not lose to logistic regression on
        /// the push-up set (UI-PRMD: no margin lost); chosen on those two sets only.
        public var selectionMargin: Double
        /// The form rules of the library exercise the recordings are of, as features (``RuleFeatureSpec``);
        /// `nil` when the recordings are of several exercises or of none in the library.
        public var rules: RuleFeatureSpec?

        public init(
            regularization: Double = 0.03,
            maximumIterations: Int = 150,
            timeBins: Int = 16,
            method: Method = .automatic,
            trajectoryLength: Int = 32,
            warpingRadius: Int = 8,
            selectionMargin: Double = 0.32,
            rules: RuleFeatureSpec? = nil
        ) {
            precondition(regularization > 0, "regularization (\(regularization)) must be positive")
            precondition(maximumIterations > 0, "maximumIterations (\(maximumIterations)) must be positive")
            precondition(trajectoryLength >= 2, "trajectoryLength (\(trajectoryLength)) must be at least 2")
            precondition(warpingRadius >= 0, "warpingRadius (\(warpingRadius)) must not be negative")
            precondition(selectionMargin >= 0, "selectionMargin (\(selectionMargin)) must not be negative")
            self.regularization = regularization
            self.maximumIterations = maximumIterations
            self.timeBins = timeBins
            self.method = method
            self.trajectoryLength = trajectoryLength
            self.warpingRadius = warpingRadius
            self.selectionMargin = selectionMargin
            self.rules = rules
        }
    }

    /// The trained model.
    public enum Model: Sendable, Hashable {
        case logistic(LogisticRegression)
        case formLogistic(LogisticRegression)
        case nearestNeighbor(TrajectoryNearestNeighbor)
        /// The three models above, trained on the same recordings, voting.
        case vote(logistic: LogisticRegression, form: LogisticRegression, neighbors: TrajectoryNearestNeighbor)
        /// Logistic regression on ``RuleFeatureSpec/vector(for:)``.
        case ruleLogistic(LogisticRegression)
        /// The coach's verdict on ``RuleFeatureSpec/vector(for:)``.
        case ruleVerdict(RuleVerdict)
        /// The three models of ``vote(logistic:form:neighbors:)`` and the rule verdict, voting.
        case ruleVote(
            logistic: LogisticRegression,
            form: LogisticRegression,
            neighbors: TrajectoryNearestNeighbor,
            verdict: RuleVerdict
        )

        /// The method name (`logistic`, `form-logistic`, `nearest-neighbor`, `vote`, `rule-logistic` or
        /// `rule-verdict`).
        public var method: Configuration.Method {
            switch self {
            case .logistic: .logistic
            case .formLogistic: .formLogistic
            case .nearestNeighbor: .nearestNeighbor
            case .vote: .vote
            case .ruleLogistic: .ruleLogistic
            case .ruleVerdict: .ruleVerdict
            case .ruleVote: .ruleVote
            }
        }

        var classCount: Int {
            switch self {
            case .logistic(let model), .formLogistic(let model), .ruleLogistic(let model): model.classCount
            case .ruleVerdict(let model): model.classCount
            case .nearestNeighbor(let model): model.classCount
            case .vote(let model, _, _), .ruleVote(let model, _, _, _): model.classCount
            }
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
    public var model: Model
    public var configuration: Configuration
    /// How the model was chosen, when ``Configuration/method`` was `automatic`.
    public var selection: ModelSelection.Outcome?

    public init(
        labels: [String],
        spec: SequenceFeatureSpec,
        model: Model,
        configuration: Configuration,
        selection: ModelSelection.Outcome? = nil
    ) {
        precondition(labels.count == model.classCount, "\(labels.count) labels for \(model.classCount) classes")
        self.labels = labels
        self.spec = spec
        self.model = model
        self.configuration = configuration
        self.selection = selection
    }

    /// Trains a classifier on labelled recordings.
    ///
    /// - Throws: ``CoachKitError`` (`.unusableTrainingSet`) for fewer than two classes, a recording with
    ///   no person in it, recordings that lack the joints needed to place the body, or a rule method
    ///   without ``Configuration/rules``.
    public static func train(
        sequences: [PoseSequence],
        labels: [String],
        configuration: Configuration = Configuration()
    ) throws(CoachKitError) -> ActionClassifier {
        try validate(sequences: sequences, labels: labels, configuration: configuration)
        let spec = try SequenceFeatureSpec.fitted(to: sequences, timeBins: configuration.timeBins)
        let prepared = PreparedFeatures(spec: spec, sequences: sequences, configuration: configuration)
        return train(prepared: prepared, rows: Array(sequences.indices), labels: labels, configuration: configuration)
    }

    /// Features of a set of recordings under one spec, computed once and shared by cross-validation folds.
    struct PreparedFeatures {
        var spec: SequenceFeatureSpec
        /// Summary vectors (empty when the method does not need them).
        var vectors: [[Double]]
        /// Trajectories (empty when the method does not need them).
        var trajectories: [[Double]]
        /// Form vectors (empty when the method does not need them).
        var formVectors: [[Double]]
        /// Rule features (empty without ``Configuration/rules`` or when the method does not need them).
        var ruleVectors: [[Double]]

        init(spec: SequenceFeatureSpec, sequences: [PoseSequence], configuration: Configuration) {
            self.spec = spec
            let method = configuration.method
            let all = method == .automatic || method == .vote || method == .ruleVote
            vectors = all || method == .logistic ? sequences.map(spec.vector(for:)) : []
            formVectors = all || method == .formLogistic ? sequences.map(spec.formVector(for:)) : []
            trajectories =
                all || method == .nearestNeighbor
                ? sequences.map { spec.trajectory(for: $0, length: configuration.trajectoryLength) } : []
            let rules =
                all || method == .ruleLogistic || method == .ruleVerdict ? configuration.rules : nil
            ruleVectors = rules.map { rules in sequences.map(rules.vector(for:)) } ?? []
        }

        /// The features of recording `i` that `method` reads.
        func row(_ i: Int, for method: Configuration.Method) -> [Double] {
            switch method {
            case .logistic, .automatic, .vote, .ruleVote: vectors[i]
            case .formLogistic: formVectors[i]
            case .nearestNeighbor: trajectories[i]
            case .ruleLogistic, .ruleVerdict: ruleVectors[i]
            }
        }
    }

    /// Trains on the `rows` of features already computed (used by cross-validation to share work).
    static func train(
        prepared: PreparedFeatures,
        rows: [Int],
        labels: [String],
        configuration: Configuration
    ) -> ActionClassifier {
        let trainLabels = rows.map { labels[$0] }
        let classes = Array(Set(trainLabels)).sorted()
        let indexOf = Dictionary(uniqueKeysWithValues: classes.enumerated().map { ($1, $0) })
        let classIndices = trainLabels.map { indexOf[$0]! }
        var method = configuration.method
        var selection: ModelSelection.Outcome? = nil
        if method == .automatic {
            let outcome = ModelSelection.select(
                vectors: rows.map { prepared.vectors[$0] },
                formVectors: rows.map { prepared.formVectors[$0] },
                trajectories: rows.map { prepared.trajectories[$0] },
                ruleVectors: prepared.ruleVectors.isEmpty ? [] : rows.map { prepared.ruleVectors[$0] },
                rules: configuration.rules,
                classes: classIndices,
                classCount: classes.count,
                configuration: configuration
            )
            selection = outcome
            method = outcome.chosen
        }
        func regression(_ method: Configuration.Method) -> LogisticRegression {
            LogisticRegression.fit(
                features: rows.map { prepared.row($0, for: method) },
                classes: classIndices,
                classCount: classes.count,
                regularization: configuration.regularization,
                maximumIterations: configuration.maximumIterations
            )
        }
        func neighbors() -> TrajectoryNearestNeighbor {
            TrajectoryNearestNeighbor.fit(
                trajectories: rows.map { prepared.trajectories[$0] },
                classes: classIndices,
                classCount: classes.count,
                length: configuration.trajectoryLength,
                radius: configuration.warpingRadius
            )
        }
        func verdict() -> RuleVerdict {
            RuleVerdict.fit(
                features: rows.map { prepared.ruleVectors[$0] },
                classes: classIndices,
                classCount: classes.count,
                rules: configuration.rules!
            )
        }
        let model: Model =
            switch method {
            case .nearestNeighbor: .nearestNeighbor(neighbors())
            case .formLogistic: .formLogistic(regression(.formLogistic))
            case .vote: .vote(logistic: regression(.logistic), form: regression(.formLogistic), neighbors: neighbors())
            case .ruleLogistic: .ruleLogistic(regression(.ruleLogistic))
            case .ruleVerdict: .ruleVerdict(verdict())
            case .ruleVote:
                .ruleVote(
                    logistic: regression(.logistic),
                    form: regression(.formLogistic),
                    neighbors: neighbors(),
                    verdict: verdict()
                )
            case .logistic, .automatic: .logistic(regression(.logistic))
            }
        return ActionClassifier(
            labels: classes,
            spec: prepared.spec,
            model: model,
            configuration: configuration,
            selection: selection
        )
    }

    /// Checks that the recordings and labels can train a classifier.
    static func validate(
        sequences: [PoseSequence],
        labels: [String],
        configuration: Configuration = Configuration()
    ) throws(CoachKitError) {
        if [.ruleLogistic, .ruleVerdict, .ruleVote].contains(configuration.method), configuration.rules == nil {
            throw CoachKitError(
                .unusableTrainingSet,
                "method `\(configuration.method.rawValue)` needs the form rules of a library exercise; name it "
                    + "(`--exercise ID`) or pick another method"
            )
        }
        precondition(sequences.count == labels.count, "\(sequences.count) sequences but \(labels.count) labels")
        let classes = Set(labels)
        guard classes.count >= 2 else {
            let only = classes.first.map { "`\($0)`" } ?? "none"
            throw CoachKitError(
                .unusableTrainingSet,
                "the training set has one class only (\(only)); a classifier needs examples of at least two labels"
            )
        }
        for sequence in sequences where !sequence.hasPerson.contains(true) {
            throw CoachKitError(
                .unusableTrainingSet,
                "\(sequence.name): no frame shows a person; remove the file from the manifest or re-run the pose estimator"
            )
        }
    }

    /// Classifies one recording.
    public func predict(_ sequence: PoseSequence) -> Prediction {
        switch model {
        case .logistic(let regression):
            prediction(regression.probabilities(spec.vector(for: sequence)))
        case .formLogistic(let regression):
            prediction(regression.probabilities(spec.formVector(for: sequence)))
        case .nearestNeighbor(let neighbors):
            prediction(neighbors.probabilities(spec.trajectory(for: sequence, length: neighbors.length)))
        case .vote(let logistic, let form, let neighbors):
            prediction(
                Self.vote([
                    logistic.probabilities(spec.vector(for: sequence)),
                    form.probabilities(spec.formVector(for: sequence)),
                    neighbors.probabilities(spec.trajectory(for: sequence, length: neighbors.length)),
                ])
            )
        case .ruleLogistic(let regression):
            prediction(regression.probabilities(ruleVector(for: sequence)))
        case .ruleVerdict(let verdict):
            prediction(verdict.probabilities(ruleVector(for: sequence)))
        case .ruleVote(let logistic, let form, let neighbors, let verdict):
            prediction(
                Self.vote([
                    logistic.probabilities(spec.vector(for: sequence)),
                    form.probabilities(spec.formVector(for: sequence)),
                    neighbors.probabilities(spec.trajectory(for: sequence, length: neighbors.length)),
                    verdict.probabilities(ruleVector(for: sequence)),
                ])
            )
        }
    }

    /// How unlike the training recordings `sequence` is (``LogisticRegression/distanceFromTraining(_:)`` of the
    /// model's standardised features: about 1 for recordings like those trained on); `nil` for a model without
    /// them (nearest neighbour, rule verdict).
    public func distanceFromTraining(_ sequence: PoseSequence) -> Double? {
        switch model {
        case .logistic(let regression), .vote(let regression, _, _), .ruleVote(let regression, _, _, _):
            regression.distanceFromTraining(spec.vector(for: sequence))
        case .formLogistic(let regression): regression.distanceFromTraining(spec.formVector(for: sequence))
        case .ruleLogistic(let regression): regression.distanceFromTraining(ruleVector(for: sequence))
        case .nearestNeighbor, .ruleVerdict: nil
        }
    }

    /// The rule features a rule model reads (``Configuration/rules`` is set whenever such a model is).
    private func ruleVector(for sequence: PoseSequence) -> [Double] {
        configuration.rules!.vector(for: sequence)
    }

    /// Classifies recording `i` of features computed with ``spec``.
    func predict(_ i: Int, in prepared: PreparedFeatures) -> Prediction {
        switch model {
        case .logistic(let regression), .formLogistic(let regression), .ruleLogistic(let regression):
            prediction(regression.probabilities(prepared.row(i, for: model.method)))
        case .ruleVerdict(let verdict): prediction(verdict.probabilities(prepared.ruleVectors[i]))
        case .ruleVote(let logistic, let form, let neighbors, let verdict):
            prediction(
                Self.vote([
                    logistic.probabilities(prepared.vectors[i]),
                    form.probabilities(prepared.formVectors[i]),
                    neighbors.probabilities(prepared.trajectories[i]),
                    verdict.probabilities(prepared.ruleVectors[i]),
                ])
            )
        case .nearestNeighbor(let neighbors): prediction(neighbors.probabilities(prepared.trajectories[i]))
        case .vote(let logistic, let form, let neighbors):
            prediction(
                Self.vote([
                    logistic.probabilities(prepared.vectors[i]),
                    form.probabilities(prepared.formVectors[i]),
                    neighbors.probabilities(prepared.trajectories[i]),
                ])
            )
        }
    }

    /// Combines the probabilities of several models into one answer: each model votes for its most
    /// probable class; a class with more than half of the votes wins, otherwise the class with the
    /// highest mean probability. The result puts the winner first in probability: it is the mean of the
    /// members' probabilities, with the winner raised to the largest of them where it was not already
    /// (so that ``Prediction/label`` is always the most probable class).
    ///
    /// ```swift
    /// let p = ActionClassifier.vote([[0.9, 0.1], [0.4, 0.6], [0.7, 0.3]])   // class 0 wins, 2 votes of 3
    /// ```
    public static func vote(_ members: [[Double]]) -> [Double] {
        precondition(!members.isEmpty && members.allSatisfy { $0.count == members[0].count }, "equal-length votes")
        let classCount = members[0].count
        var votes = [Int](repeating: 0, count: classCount)
        var mean = [Double](repeating: 0, count: classCount)
        for probabilities in members {
            votes[ModelSelection.argmax(probabilities)] += 1
            for j in 0..<classCount { mean[j] += probabilities[j] / Double(members.count) }
        }
        let leader = ModelSelection.argmax(votes.map(Double.init))
        let winner = 2 * votes[leader] > members.count ? leader : ModelSelection.argmax(mean)
        let highest = mean.max() ?? 0
        if mean[winner] < highest {
            // Keep a distribution: move the difference from the others to the winner, proportionally.
            let others = 1 - mean[winner]
            let target = highest + 1e-9
            let shrink = others > 0 ? (1 - target) / others : 0
            for j in 0..<classCount where j != winner { mean[j] *= shrink }
            mean[winner] = target
        }
        return mean
    }

    private func prediction(_ probabilities: [Double]) -> Prediction {
        var best = 0
        for j in 1..<probabilities.count where probabilities[j] > probabilities[best] { best = j }
        return Prediction(label: labels[best], confidence: probabilities[best], probabilities: probabilities)
    }
}

/// Chooses between logistic regression, form logistic regression and DTW nearest neighbour using the
/// training set only.
///
/// The rule: cross-validate the three models (and their vote, ``ActionClassifier/vote(_:)``) inside the
/// training set — leave-one-out when it has at most ``leaveOneOutLimit`` recordings, stratified
/// ``folds``-fold (seed 1) otherwise. Up to ``leaveOneOutLimit`` recordings the vote is chosen: there the
/// counts of the single models differ by one or two recordings (the margin below is 1.75 recordings at
/// n = 30), too few to tell them apart, and the majority of three different models is steadier than
/// any one picked by such counts. Above it, keep logistic regression (the model tuned on the large sets)
/// unless the better of the other two gets more than `selectionMargin · √n` more of the `n` held-out
/// recordings right (``ActionClassifier/Configuration/selectionMargin``); between those two a tie goes to
/// form logistic regression. Inside the selection the nearest-neighbour channels are standardised with the whole
/// training set's statistics (they use no labels); logistic regression standardises on each inner fold.
///
/// With form rules (``ActionClassifier/Configuration/rules``: the recordings are of one library
/// exercise) the rule models are cross-validated the same way. Up to ``leaveOneOutLimit`` recordings,
/// for the reason the vote is chosen there, no count picks a model: the rule verdict joins the vote as a
/// fourth member (``ActionClassifier/Configuration/Method/ruleVote``), unless the verdict alone gets every
/// held-out training recording right; then it is chosen: it learns no threshold (only which label goes
/// with a broken rule), so its count is not fitted to the recordings, and all right means the library's
/// rules explain the labels (a fitted model's "all right" on a few recordings would not say as much).
/// Above it the better rule model (a tie to the verdict, which fits nothing but its mapping to labels) is a
/// candidate against logistic regression like the other two, by the same `selectionMargin · √n`. Without
/// rules the selection is what it was before they existed.
///
/// ```swift
/// let outcome = ModelSelection.select(vectors: v, formVectors: f, trajectories: t, classes: c,
///                                     classCount: 2, configuration: .init())
/// print(outcome.chosen, outcome.logisticCorrect, outcome.voteCorrect, outcome.total)
/// ```
public enum ModelSelection {
    /// Training sets up to this size are cross-validated leave-one-out.
    public static let leaveOneOutLimit = 30
    /// Folds of the stratified split for larger training sets.
    public static let folds = 5

    /// What the selection measured and chose.
    public struct Outcome: Sendable, Hashable {
        public var chosen: ActionClassifier.Configuration.Method
        /// Held-out training recordings each model got right, out of ``total``.
        public var logisticCorrect: Int
        public var formLogisticCorrect: Int
        public var nearestNeighborCorrect: Int
        /// Held-out training recordings the vote of the three got right.
        public var voteCorrect: Int
        /// Held-out training recordings the rule models got right; `nil` without form rules.
        public var ruleLogisticCorrect: Int?
        public var ruleVerdictCorrect: Int?
        /// Held-out training recordings the rule vote got right; `nil` without form rules.
        public var ruleVoteCorrect: Int?
        public var total: Int
        /// `leave-one-out` or `stratified K-fold`.
        public var protocolName: String

        public init(
            chosen: ActionClassifier.Configuration.Method,
            logisticCorrect: Int,
            formLogisticCorrect: Int,
            nearestNeighborCorrect: Int,
            voteCorrect: Int,
            total: Int,
            protocolName: String,
            ruleLogisticCorrect: Int? = nil,
            ruleVerdictCorrect: Int? = nil,
            ruleVoteCorrect: Int? = nil
        ) {
            self.chosen = chosen
            self.logisticCorrect = logisticCorrect
            self.formLogisticCorrect = formLogisticCorrect
            self.nearestNeighborCorrect = nearestNeighborCorrect
            self.voteCorrect = voteCorrect
            self.total = total
            self.protocolName = protocolName
            self.ruleLogisticCorrect = ruleLogisticCorrect
            self.ruleVerdictCorrect = ruleVerdictCorrect
            self.ruleVoteCorrect = ruleVoteCorrect
        }
    }

    /// Cross-validates both models on the training rows and picks one.
    static func select(
        vectors: [[Double]],
        formVectors: [[Double]],
        trajectories: [[Double]],
        ruleVectors: [[Double]] = [],
        rules: RuleFeatureSpec? = nil,
        classes: [Int],
        classCount: Int,
        configuration: ActionClassifier.Configuration
    ) -> Outcome {
        let n = classes.count
        let folds: [Int]
        let protocolName: String
        let smallest = (0..<classCount).map { k in classes.count(where: { $0 == k }) }.min() ?? 0
        if n <= leaveOneOutLimit || smallest < 2 {
            folds = Array(0..<n)
            protocolName = "leave-one-out"
        } else {
            let k = min(Self.folds, smallest)
            folds = CrossValidation.stratifiedFolds(labels: classes.map(String.init), count: k, seed: 1)
            protocolName = "stratified \(k)-fold"
        }

        // Nearest neighbour: one distance matrix, then the nearest outside each held-out fold.
        let neighbors = TrajectoryNearestNeighbor.fit(
            trajectories: trajectories,
            classes: classes,
            classCount: classCount,
            length: configuration.trajectoryLength,
            radius: configuration.warpingRadius
        )
        var distance = [Double](repeating: 0, count: n * n)
        for i in 0..<n {
            for j in (i + 1)..<max(i + 1, n) {
                let d = TrajectoryNearestNeighbor.dtw(
                    neighbors.templates[i],
                    neighbors.templates[j],
                    length: neighbors.length,
                    channels: neighbors.channelCount,
                    radius: neighbors.radius
                )
                distance[i * n + j] = d
                distance[j * n + i] = d
            }
        }
        var neighborProbabilities: [[Double]] = []
        for i in 0..<n {
            let others = (0..<n).filter { folds[$0] != folds[i] }
            neighborProbabilities.append(
                TrajectoryNearestNeighbor.probabilities(
                    distances: others.map { distance[i * n + $0] },
                    classes: others.map { classes[$0] },
                    classCount: classCount
                )
            )
        }

        // Logistic regressions: one fit per inner fold.
        func heldOutProbabilities(_ rows: [[Double]]) -> [[Double]] {
            var probabilities = [[Double]](repeating: [], count: n)
            for fold in Set(folds).sorted() {
                let train = (0..<n).filter { folds[$0] != fold }
                let model = LogisticRegression.fit(
                    features: train.map { rows[$0] },
                    classes: train.map { classes[$0] },
                    classCount: classCount,
                    regularization: configuration.regularization,
                    maximumIterations: configuration.maximumIterations
                )
                for i in 0..<n where folds[i] == fold { probabilities[i] = model.probabilities(rows[i]) }
            }
            return probabilities
        }
        let logisticProbabilities = heldOutProbabilities(vectors)
        let formProbabilities = heldOutProbabilities(formVectors)
        func correct(_ probabilities: [[Double]]) -> Int {
            (0..<n).count(where: { argmax(probabilities[$0]) == classes[$0] })
        }
        let logisticCorrect = correct(logisticProbabilities)
        let formLogisticCorrect = correct(formProbabilities)
        let nearestNeighborCorrect = correct(neighborProbabilities)
        let voteCorrect = correct(
            (0..<n).map {
                ActionClassifier.vote([logisticProbabilities[$0], formProbabilities[$0], neighborProbabilities[$0]])
            }
        )
        // The rule models, when there are rules.
        var ruleLogisticCorrect: Int? = nil
        var ruleVerdictCorrect: Int? = nil
        var ruleVoteCorrect: Int? = nil
        if let rules, ruleVectors.count == n {
            ruleLogisticCorrect = correct(heldOutProbabilities(ruleVectors))
            var verdictProbabilities = [[Double]](repeating: [], count: n)
            for fold in Set(folds).sorted() {
                let train = (0..<n).filter { folds[$0] != fold }
                let verdict = RuleVerdict.fit(
                    features: train.map { ruleVectors[$0] },
                    classes: train.map { classes[$0] },
                    classCount: classCount,
                    rules: rules
                )
                for i in 0..<n where folds[i] == fold {
                    verdictProbabilities[i] = verdict.probabilities(ruleVectors[i])
                }
            }
            ruleVerdictCorrect = correct(verdictProbabilities)
            ruleVoteCorrect = correct(
                (0..<n).map {
                    ActionClassifier.vote([
                        logisticProbabilities[$0], formProbabilities[$0], neighborProbabilities[$0],
                        verdictProbabilities[$0],
                    ])
                }
            )
        }
        var chosen = ActionClassifier.Configuration.Method.logistic
        let required = Double(logisticCorrect) + configuration.selectionMargin * Double(n).squareRoot()
        if n <= leaveOneOutLimit {
            chosen = .vote
        } else if Double(max(formLogisticCorrect, nearestNeighborCorrect)) > required {
            chosen = nearestNeighborCorrect > formLogisticCorrect ? .nearestNeighbor : .formLogistic
        }
        if let ruleLogisticCorrect, let ruleVerdictCorrect {
            if n <= leaveOneOutLimit {
                // The verdict alone when it gets every held-out training recording right: it learns no
                // threshold, so that count is no fit to these recordings; the library's rules explain the labels.
                chosen = ruleVerdictCorrect == n ? .ruleVerdict : .ruleVote
            } else {
                // The better rule model (a tie to the verdict) replaces the choice above when it beats
                // logistic regression by the margin and the other candidates too.
                let rule: ActionClassifier.Configuration.Method =
                    ruleLogisticCorrect > ruleVerdictCorrect ? .ruleLogistic : .ruleVerdict
                let ruleCorrect = Double(max(ruleLogisticCorrect, ruleVerdictCorrect))
                let others = Double(max(formLogisticCorrect, nearestNeighborCorrect))
                if ruleCorrect > required, ruleCorrect > others { chosen = rule }
            }
        }
        return Outcome(
            chosen: chosen,
            logisticCorrect: logisticCorrect,
            formLogisticCorrect: formLogisticCorrect,
            nearestNeighborCorrect: nearestNeighborCorrect,
            voteCorrect: voteCorrect,
            total: n,
            protocolName: protocolName,
            ruleLogisticCorrect: ruleLogisticCorrect,
            ruleVerdictCorrect: ruleVerdictCorrect,
            ruleVoteCorrect: ruleVoteCorrect
        )
    }

    static func argmax(_ values: [Double]) -> Int {
        var best = 0
        for j in values.indices where values[j] > values[best] { best = j }
        return best
    }
}

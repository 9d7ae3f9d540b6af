/// The coaching session's form verdict as a classifier: a recording in which any of the exercise's form
/// rules is broken (``RuleFeatureSpec/brokenRules(in:)``) gets the label whose training recordings break
/// a rule most often (the rate within each label), one in which none is broken the label whose training
/// recordings keep the rules most often.
///
/// No threshold is learnt: the rules' bounds are the exercise library's. Training only counts, per
/// label, the training recordings with and without a broken rule. The probability of a label is its
/// rate of the recording's verdict with one added to each count (Laplace: `(count + 1) / (recordings + 2)`),
/// normalised over the labels. Rates, not counts: the verdict is about form, and the more frequent label
/// of a small training set must not take every recording the rules let pass (leave-one-out on a set
/// whose "kept" recordings are split between the labels would otherwise always vote against the one
/// held out).
///
/// ```swift
/// let verdict = RuleVerdict.fit(features: ruleRows, classes: [0, 1, 1], classCount: 2, rules: rules)
/// let probabilities = verdict.probabilities(rules.vector(for: sequence))
/// ```
public struct RuleVerdict: Sendable, Hashable {
    /// `counts[k]`: training recordings of class `k` with no rule broken (`[0]`) and with one broken (`[1]`).
    public var counts: [[Int]]
    /// The rules whose margins the features hold.
    public var rules: RuleFeatureSpec

    public var classCount: Int { counts.count }

    public init(counts: [[Int]], rules: RuleFeatureSpec) {
        precondition(counts.allSatisfy { $0.count == 2 }, "two counts (kept, broken) per class")
        self.counts = counts
        self.rules = rules
    }

    /// Counts the verdicts of labelled rule-feature rows.
    public static func fit(features: [[Double]], classes: [Int], classCount: Int, rules: RuleFeatureSpec) -> RuleVerdict
    {
        precondition(features.count == classes.count, "one class per feature row")
        var counts = [[Int]](repeating: [0, 0], count: classCount)
        for (row, k) in zip(features, classes) { counts[k][rules.brokenRules(in: row).isEmpty ? 0 : 1] += 1 }
        return RuleVerdict(counts: counts, rules: rules)
    }

    /// The probability of each class given the verdict on `features` (a ``RuleFeatureSpec/vector(for:)``).
    public func probabilities(_ features: [Double]) -> [Double] {
        let broken = rules.brokenRules(in: features).isEmpty ? 0 : 1
        let smoothed = counts.map { Double($0[broken] + 1) / Double($0[0] + $0[1] + 2) }
        let total = smoothed.reduce(0, +)
        return smoothed.map { $0 / total }
    }
}

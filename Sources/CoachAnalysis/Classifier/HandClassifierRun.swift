public import CoachKit
import CoachPipeline
import Foundation

/// The hand classifier's cross-validation as `train` and `evaluate-classifier` report it: folds that keep each
/// recording file whole (the frames and clips of one video are never split between training and test), and
/// reports per row of the manifest and, for hand poses, per frame.
public enum HandClassifierRun {
    /// The outcome of a cross-validation.
    public struct Result {
        public var predictions: [HandClassifier.Prediction?]
        /// One entry per manifest row (a row without a hand is predicted `(no hand)`).
        public var rows: ClassificationReport
        /// One entry per frame with a hand (hand pose), `nil` for actions.
        public var frames: ClassificationReport?
    }

    /// The label reported for a recording with no hand in it.
    public static let noHand = "(no hand)"

    /// Folds over groups: every row of a group (a file, or a header label's value) in the same fold. Up to
    /// `leaveOneOutLimit` groups, or when a label has a single group, one group per fold; else stratified
    /// `count`-fold over the groups (by the label of their first row).
    public static func folds(
        groups: [String],
        labels: [String],
        count: Int,
        seed: UInt64
    ) -> (folds: [Int], name: String) {
        var firstLabel: [String: String] = [:]
        for (group, label) in zip(groups, labels) where firstLabel[group] == nil { firstLabel[group] = label }
        let distinct = firstLabel.keys.sorted()
        let groupLabels = distinct.map { firstLabel[$0]! }
        let smallest = Set(groupLabels).map { label in groupLabels.count(where: { $0 == label }) }.min() ?? 0
        let k = min(count, smallest)
        if distinct.count <= ModelSelection.leaveOneOutLimit || k < 2 {
            return (CrossValidation.groupFolds(groups: groups), "leave-one-group-out, \(distinct.count) groups")
        }
        let groupFolds = CrossValidation.stratifiedFolds(labels: groupLabels, count: k, seed: seed)
        let foldOf = Dictionary(uniqueKeysWithValues: zip(distinct, groupFolds))
        return (groups.map { foldOf[$0]! }, "stratified \(k)-fold over \(distinct.count) groups, seed \(seed)")
    }

    /// Cross-validates and scores.
    public static func run(
        sequences: [HandSequence],
        labels: [String],
        folds: [Int],
        configuration: HandClassifier.Configuration
    ) throws -> Result {
        let predictions = try HandClassifier.crossValidate(
            sequences: sequences,
            labels: labels,
            folds: folds,
            configuration: configuration
        )
        return Result(
            predictions: predictions,
            rows: ClassificationReport(truth: labels, predicted: predictions.map { $0?.label ?? noHand }),
            frames: configuration.kind == .pose ? frameReport(predictions, labels: labels) : nil
        )
    }

    /// Every frame's label against its row's.
    public static func frameReport(
        _ predictions: [HandClassifier.Prediction?],
        labels: [String]
    ) -> ClassificationReport {
        var truth: [String] = []
        var predicted: [String] = []
        for (prediction, label) in zip(predictions, labels) {
            for frame in prediction?.frames ?? [] {
                truth.append(label)
                predicted.append(frame.label)
            }
        }
        return ClassificationReport(truth: truth, predicted: predicted)
    }

    /// The row groups of `--group-by KEY`: `file` groups the rows of one recording file, any other key the
    /// recordings with the same value of that header label. Without it, files.
    public static func groups(
        _ key: String?,
        manifest: ClassifierManifest,
        sequences: [HandSequence]
    ) throws -> [String] {
        guard let key, key != "file" else { return manifest.entries.map(\.path) }
        return try zip(manifest.entries, sequences).map { entry, sequence in
            guard let value = sequence.metadata[key] else {
                throw AnalysisError(
                    "\(manifest.path):\(entry.line): \(entry.relativePath) has no header label `\(key)`; "
                        + "--group-by file groups by recording file"
                )
            }
            return value
        }
    }
}

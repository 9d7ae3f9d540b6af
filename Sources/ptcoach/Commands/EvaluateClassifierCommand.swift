import ArgumentParser
import CoachAnalysis
import CoachKit
import CoachPipeline
import Foundation

/// `ptcoach evaluate-classifier`: an honest accuracy estimate of `ptcoach train` on a manifest, by
/// cross-validation (every recording is predicted by a model trained without it).
struct EvaluateClassifierCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate-classifier",
        abstract: "Cross-validate the sequence classifier on a labelled manifest.",
        discussion: """
            With --group-by KEY (a pose-track header label such as `subject`) it leaves one group out at a \
            time; with --leave-one-out it leaves one recording out at a time; otherwise it runs stratified k-fold, repeated with different seeds, and pools the \
            out-of-fold predictions of all repeats into one report. Metrics: per-class precision = TP/(TP+FP), \
            recall = TP/(TP+FN), F1 = 2PR/(P+R); weighted F1 = F1 averaged over classes weighted by support. \
            On hand pose-tracks (--kind hand-pose, the default for them, or hand-action) the folds keep each \
            recording file whole; --group-by file leaves one file out at a time (leave-one-video-out), and \
            without --group-by or --leave-one-out files are dealt into stratified folds. A hand-pose model is \
            scored per manifest row (its frames' majority) and per frame.
            """
    )

    @Option(name: .long, help: "CSV file `path,label`.")
    var manifest: String

    @Option(name: .long, help: "Leave one group out, grouping by this pose-track header label (e.g. subject).")
    var groupBy: String?

    @Option(name: .long, help: "Folds of stratified k-fold (lowered to the smallest class size).")
    var folds: Int = 5

    @Option(name: .long, help: "Repeats of stratified k-fold, with seeds 1…N.")
    var repeats: Int = 5

    @OptionGroup var model: ClassifierModelOptions

    @Flag(name: .long, help: "Leave one recording out at a time (instead of k-fold).")
    var leaveOneOut = false

    @Flag(name: .long, help: "Print only the one-line summary.")
    var quiet = false

    func validate() throws {
        guard folds >= 2 else { throw ValidationError("--folds must be at least 2, got \(folds)") }
        guard repeats >= 1 else { throw ValidationError("--repeats must be at least 1, got \(repeats)") }
        guard !(leaveOneOut && groupBy != nil) else {
            throw ValidationError("give --leave-one-out or --group-by, not both")
        }
    }

    func run() async throws {
        let manifest = try ClassifierInput.manifest(at: manifest)
        let labels = manifest.entries.map(\.label)
        if let hand = try ClassifierInput.kind(model.kind, for: manifest).hand {
            try runHands(manifest: manifest, kind: hand)
            return
        }
        let sequences = try ClassifierInput.sequences(of: manifest)
        let configuration = try model.configuration(for: sequences)
        let start = ContinuousClock.now
        let pooled =
            leaveOneOut || groupBy != nil
            ? try leaveGroupsOut(manifest, sequences: sequences, labels: labels, configuration: configuration)
            : try repeatedKFold(manifest, sequences: sequences, labels: labels, configuration: configuration)
        let elapsed = ClassifierInput.seconds(since: start)
        printResult(
            pooled,
            manifest: manifest,
            recordings: sequences.count,
            configuration: configuration,
            elapsed: elapsed
        )
    }
}

// MARK: - The steps of `run`

extension EvaluateClassifierCommand {
    /// The predictions of every run of a protocol, pooled, and a figure per run (a held-out group or a repeat).
    private struct Pooled {
        var protocolName = ""
        var truth: [String] = []
        var predicted: [String] = []
        var perRun: [Double] = []
        var methods: [ActionClassifier.Configuration.Method] = []
    }

    /// Leave one group (`--group-by`) or one recording (`--leave-one-out`) out; prints the misclassified recordings
    /// and each held-out group's accuracy unless `--quiet`.
    private func leaveGroupsOut(
        _ manifest: ClassifierManifest,
        sequences: [PoseSequence],
        labels: [String],
        configuration: ActionClassifier.Configuration
    ) throws -> Pooled {
        var groups: [String] = []
        let groupBy = groupBy ?? "recording"
        for (entry, sequence) in zip(manifest.entries, sequences) {
            guard let group = leaveOneOut ? String(entry.line) : sequence.metadata[groupBy] else {
                throw CLIError(
                    "\(manifest.path):\(entry.line): \(entry.relativePath) has no header label `\(groupBy)`"
                )
            }
            groups.append(group)
        }
        let result = try CrossValidation.run(
            sequences: sequences,
            labels: labels,
            folds: CrossValidation.groupFolds(groups: groups),
            configuration: configuration
        )
        var pooled = Pooled(truth: labels, predicted: result.predictions.map(\.label), methods: result.methods)
        if !quiet {
            for (entry, prediction) in zip(manifest.entries, result.predictions)
            where prediction.label != entry.label {
                print(
                    "misclassified \(entry.relativePath) (\(entry.label)) as \(prediction.label), "
                        + "confidence \(ClassifierInput.format(prediction.confidence))"
                )
            }
        }
        pooled.protocolName = "leave-one-\(groupBy)-out (\(Set(groups).count) groups)"
        // Accuracy per held-out group.
        for group in Set(groups).sorted() {
            let members = groups.indices.filter { groups[$0] == group }
            let right = members.count(where: { pooled.predicted[$0] == labels[$0] })
            pooled.perRun.append(Double(right) / Double(members.count))
            if !quiet, !leaveOneOut { print("held out \(groupBy)=\(group): \(right)/\(members.count) correct") }
        }
        return pooled
    }

    /// Stratified k-fold (k at most the smallest class), `--repeats` times with seeds 1, 2, …, pooled.
    private func repeatedKFold(
        _ manifest: ClassifierManifest,
        sequences: [PoseSequence],
        labels: [String],
        configuration: ActionClassifier.Configuration
    ) throws -> Pooled {
        let smallest = Set(labels).map { label in labels.count(where: { $0 == label }) }.min() ?? 0
        let k = min(folds, smallest)
        guard k >= 2 else {
            throw CLIError(
                "\(manifest.path): the smallest class has \(smallest) recording(s); k-fold needs at least 2"
            )
        }
        var pooled = Pooled(protocolName: "stratified \(k)-fold x \(repeats) repeats (pooled)")
        for seed in 1...repeats {
            let result = try CrossValidation.run(
                sequences: sequences,
                labels: labels,
                folds: CrossValidation.stratifiedFolds(labels: labels, count: k, seed: UInt64(seed)),
                configuration: configuration
            )
            pooled.truth += labels
            pooled.predicted += result.predictions.map(\.label)
            pooled.methods += result.methods
            pooled.perRun.append(result.report.weightedF1)
        }
        return pooled
    }

    /// Prints the report (unless `--quiet`) and the one-line `RESULT` summary.
    private func printResult(
        _ pooled: Pooled,
        manifest: ClassifierManifest,
        recordings: Int,
        configuration: ActionClassifier.Configuration,
        elapsed: Double
    ) {
        let report = ClassificationReport(truth: pooled.truth, predicted: pooled.predicted)
        let perRun = pooled.perRun
        let mean = perRun.reduce(0, +) / Double(max(1, perRun.count))
        let spread = (perRun.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(max(1, perRun.count))).squareRoot()
        let protocolName = pooled.protocolName
        if !quiet {
            print(
                "\(manifest.path): \(recordings) recordings, protocol \(protocolName), method \(model.method), "
                    + "L2 \(model.regularization), trajectory \(model.trajectoryLength) steps, DTW band \(model.warpingRadius)"
            )
            print(report.text)
        }
        let runKind = groupBy == nil && !leaveOneOut ? "per-repeat weighted F1" : "per-group accuracy"
        let chosen = [
            ActionClassifier.Configuration.Method.logistic, .formLogistic, .nearestNeighbor, .vote, .ruleLogistic,
            .ruleVerdict, .ruleVote,
        ].map { m in
            "\(pooled.methods.count(where: { $0 == m }))"
        }
        print(
            "RESULT \(manifest.path) protocol=\"\(protocolName)\" accuracy=\(ClassifierInput.format(report.accuracy)) "
                + "weightedF1=\(ClassifierInput.format(report.weightedF1)) \(runKind)=\(ClassifierInput.format(mean))"
                + "±\(ClassifierInput.format(spread)) method=\(model.method) rules=\(configuration.rules?.exerciseID ?? "none") "
                + "folds logistic/form/neighbor/vote/rule-logistic/rule-verdict/rule-vote="
                + "\(chosen.joined(separator: "/")) seconds=\(ClassifierInput.format(elapsed, decimals: 2))"
        )
    }
}

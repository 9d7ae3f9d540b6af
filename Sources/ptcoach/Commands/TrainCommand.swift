import ArgumentParser
import CoachAnalysis
import CoachKit
import CoachPipeline
import Foundation
import MediaIO
import PoseKit

/// `ptcoach train`: learns a sequence classifier from a `path,label` manifest and writes it as JSON.
struct TrainCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "train",
        abstract: "Train a sequence classifier (exercise ids, good/bad form, …) from labelled pose-track files.",
        discussion: """
            The manifest is a CSV file with the header `path,label`; paths are relative to the manifest. \
            Features are joint angles and body-relative positions summarised over time, invariant to \
            position, scale and mirroring; the model is an L2-regularised logistic regression. The summary \
            includes a stratified k-fold cross-validated accuracy, an estimate of accuracy on new recordings \
            of the same kind. With --method automatic (the default): up to 30 training recordings, the \
            majority vote of logistic regression, logistic regression on a few form features of the active \
            side and DTW nearest neighbour on its normalised angle trajectories; above 30, logistic \
            regression unless one of the other two cross-validates clearly better inside the training set \
            (stratified 5-fold). \
            When every recording's header names the same library exercise (label `exercise`), or with \
            --exercise ID, that exercise's form rules measured over each recording are features too \
            (per rule: margin past its bound and share of frames past it; the primary angle's range), \
            the model file records them, and up to 30 recordings the vote gets a fourth member, the \
            coach's own verdict (any rule broken); above 30 a rule model is one more candidate. \
            Hand pose-tracks (ptcoach poses VIDEO --hands) train a hand classifier: --kind hand-pose (the \
            default for them) learns hand shapes from every frame (finger flexions, thumb-to-fingertip \
            distances, fingertips to the wrist, finger spreads; invariant to position, size and left/right) \
            and predicts per frame, smoothed over --smoothing-frames, and per file by majority; --kind \
            hand-action learns movements from whole clips, those features and the hand's tilt summarised over \
            time. A manifest with the header `path,label,start,end` labels parts of recordings (seconds). \
            Training is deterministic.
            """
    )

    @Option(name: .long, help: "CSV file `path,label` listing the training recordings.")
    var manifest: String

    @Option(name: .long, help: "Where to write the model (JSON).")
    var out: String

    @OptionGroup var model: ClassifierModelOptions

    @Option(name: .long, help: "Folds of the cross-validation in the summary (0 to skip it).")
    var folds: Int = 5

    @Option(name: .long, help: "Seed of the cross-validation split.")
    var seed: UInt64 = 1

    @Option(
        name: .long,
        help: "Cross-validate leaving one group out, grouping by this header label (e.g. subject), instead of k-fold."
    )
    var groupBy: String?

    func validate() throws {
        guard folds == 0 || folds >= 2 else {
            throw ValidationError("--folds must be 0 (skip) or at least 2, got \(folds)")
        }
    }

    func run() async throws {
        // Before any work: a model that cannot be written is known now, not after training.
        do {
            try OutputFile.check(out, overwrite: true)
        } catch {
            throw CLIError("--out \(out): \(error.message)")
        }
        InterruptCleanup.install()
        let start = ContinuousClock.now
        let manifest = try ClassifierInput.manifest(at: manifest)
        let labels = manifest.entries.map(\.label)
        let classes = Set(labels)
        guard classes.count >= 2 else {
            throw CLIError(
                "\(manifest.path): every row has the label `\(labels[0])`; training needs at least two labels"
            )
        }
        let kind = try ClassifierInput.kind(model.kind, for: manifest)
        if let hand = kind.hand {
            try trainHands(manifest: manifest, kind: hand, start: start)
            return
        }
        let sequences = try ClassifierInput.sequences(of: manifest)
        let loaded = ClassifierInput.seconds(since: start)
        let configuration = try model.configuration(for: sequences)
        let (classifier, trained) = try trainAndWrite(manifest, json: \.jsonText) {
            try ActionClassifier.train(sequences: sequences, labels: labels, configuration: configuration)
        }

        let counts = classes.sorted().map { label in "\(label) \(labels.count(where: { $0 == label }))" }
        print("Trained on \(sequences.count) recordings, \(classes.count) classes: \(counts.joined(separator: ", "))")
        describe(classifier, configuration: configuration)
        let trainingReport = ClassificationReport(
            truth: labels,
            predicted: sequences.map { classifier.predict($0).label }
        )
        print("Training accuracy: \(ClassifierInput.format(trainingReport.accuracy)) (on the training set itself)")
        let crossValidated = try crossValidate(
            manifest,
            sequences: sequences,
            labels: labels,
            configuration: configuration
        )
        print(
            "Time: loading \(ClassifierInput.format(loaded, decimals: 2)) s, training "
                + "\(ClassifierInput.format(trained, decimals: 2)) s, cross-validation "
                + "\(ClassifierInput.format(crossValidated, decimals: 2)) s"
        )
        print("Wrote \(out)")
    }

    /// Prints the features, the model and, where one was chosen inside the training set, how.
    private func describe(_ classifier: ActionClassifier, configuration: ActionClassifier.Configuration) {
        print(
            "Features: \(classifier.spec.featureCount) per recording from \(classifier.spec.joints.count) joints "
                + "(\(classifier.spec.joints.map(\.name).joined(separator: " "))), origin \(classifier.spec.origin.name), "
                + "scale \(classifier.spec.scale.rawValue), \(model.timeBins) time bins; L2 \(model.regularization)"
        )
        switch classifier.model {
        case .logistic:
            print("Model: logistic regression on \(classifier.spec.featureCount) summary features")
        case .formLogistic:
            print("Model: logistic regression on \(classifier.spec.formFeatureCount) form features")
        case .nearestNeighbor(let neighbors):
            print(
                "Model: DTW nearest neighbour over \(neighbors.templates.count) recordings, "
                    + "\(neighbors.channelCount) channels x \(neighbors.length) steps, band \(neighbors.radius)"
            )
        case .ruleLogistic:
            print(
                "Model: logistic regression on \(classifier.configuration.rules?.featureCount ?? 0) form-rule features"
            )
        case .ruleVerdict(let verdict):
            print(
                "Model: the coach's form verdict (any rule of \(verdict.rules.exerciseID) broken), mapped to labels "
                    + "by the training set"
            )
        case .ruleVote(_, _, let neighbors, let verdict):
            print(
                "Model: majority vote of logistic regression (\(classifier.spec.featureCount) summary features), "
                    + "logistic regression (\(classifier.spec.formFeatureCount) form features), DTW nearest "
                    + "neighbour (\(neighbors.channelCount) channels x \(neighbors.length) steps, band \(neighbors.radius)) "
                    + "and the coach's form verdict (any rule of \(verdict.rules.exerciseID) broken)"
            )
        case .vote(_, _, let neighbors):
            print(
                "Model: majority vote of logistic regression (\(classifier.spec.featureCount) summary features), "
                    + "logistic regression (\(classifier.spec.formFeatureCount) form features) and DTW nearest "
                    + "neighbour (\(neighbors.channelCount) channels x \(neighbors.length) steps, band \(neighbors.radius))"
            )
        }
        if let rules = classifier.configuration.rules {
            print(
                "Form rules of \(rules.exerciseID) as features: \(rules.rules.map(\.id).joined(separator: ", ")) "
                    + "(margin and share of frames past each bound) and the \(rules.primaryAngle.rawValue) range"
            )
        }
        if let selection = classifier.selection {
            let margin = "\(ClassifierInput.format(configuration.selectionMargin, decimals: 2)) x sqrt(n) more"
            let rule =
                selection.total <= ModelSelection.leaveOneOutLimit
                ? "at most \(ModelSelection.leaveOneOutLimit) recordings: the vote (with form rules, the rule vote)"
                : "another model than logistic needs more than \(margin)"
            var ruleCounts = ""
            if let logistic = selection.ruleLogisticCorrect, let verdict = selection.ruleVerdictCorrect {
                ruleCounts =
                    ", rule logistic \(logistic)/\(selection.total), rule verdict \(verdict)/\(selection.total), "
                    + "rule vote \(selection.ruleVoteCorrect ?? 0)/\(selection.total)"
            }
            print(
                "  chosen by \(selection.protocolName) inside the training set: logistic "
                    + "\(selection.logisticCorrect)/\(selection.total), form logistic "
                    + "\(selection.formLogisticCorrect)/\(selection.total), nearest neighbour "
                    + "\(selection.nearestNeighborCorrect)/\(selection.total), vote \(selection.voteCorrect)/\(selection.total)"
                    + ruleCounts + " correct; \(rule)"
            )
        }
    }

    /// Cross-validates as `--folds`/`--group-by` say, prints the accuracy, and gives the seconds it took (0 when
    /// skipped).
    private func crossValidate(
        _ manifest: ClassifierManifest,
        sequences: [PoseSequence],
        labels: [String],
        configuration: ActionClassifier.Configuration
    ) throws -> Double {
        let classes = Set(labels)
        var crossValidated = 0.0
        let smallest = classes.map { label in labels.count(where: { $0 == label }) }.min() ?? 0
        let k = min(folds, smallest)
        let cvStart = ContinuousClock.now
        var split: [Int]? = nil
        var protocolName = ""
        if let groupBy {
            var groups: [String] = []
            for (entry, sequence) in zip(manifest.entries, sequences) {
                guard let group = sequence.metadata[groupBy] else {
                    throw CLIError(
                        "\(manifest.path):\(entry.line): \(entry.relativePath) has no header label `\(groupBy)`"
                    )
                }
                groups.append(group)
            }
            split = CrossValidation.groupFolds(groups: groups)
            protocolName = "leave-one-\(groupBy)-out, \(Set(groups).count) groups"
        } else if folds >= 2, k >= 2 {
            split = CrossValidation.stratifiedFolds(labels: labels, count: k, seed: seed)
            protocolName = "stratified \(k)-fold, seed \(seed)"
        } else if folds >= 2 {
            print("Cross-validation skipped: the smallest class has \(smallest) recording(s); it needs at least 2")
        }
        if let split {
            let result = try CrossValidation.run(
                sequences: sequences,
                labels: labels,
                folds: split,
                configuration: configuration
            )
            crossValidated = ClassifierInput.seconds(since: cvStart)
            print(
                "Cross-validated accuracy (\(protocolName)): \(ClassifierInput.format(result.report.accuracy)) "
                    + "(\(result.report.correct)/\(result.report.total)), weighted F1 "
                    + "\(ClassifierInput.format(result.report.weightedF1)): expect about this on new recordings "
                    + "like these"
            )
            if groupBy == nil {
                print(
                    "  (k-fold mixes recordings of the same person or session across folds; if the manifest has "
                        + "several per person, --group-by subject gives a more honest figure)"
                )
            }
        }
        return crossValidated
    }

    /// Trains with `train` (a failure names the manifest), writes the model's JSON to `--out`, and gives the model
    /// and the seconds training took.
    func trainAndWrite<Model>(
        _ manifest: ClassifierManifest,
        json: (Model) -> String,
        _ train: () throws -> Model
    ) throws -> (Model, Double) {
        let start = ContinuousClock.now
        let model: Model
        do {
            model = try train()
        } catch {
            throw CLIError("\(manifest.path): \(error)")
        }
        let seconds = ClassifierInput.seconds(since: start)
        do {
            try json(model).write(toFile: out, atomically: true, encoding: .utf8)
        } catch {
            throw CLIError("cannot write the model to \(out): \(error.localizedDescription)")
        }
        return (model, seconds)
    }
}

import CoachAnalysis
import CoachKit
import CoachPipeline
import Foundation

extension EvaluateClassifierCommand {
    /// `evaluate-classifier` on a hand manifest: every row predicted by a model trained without its group (its
    /// file, or its value of `--group-by`; with `--leave-one-out`, its row).
    func runHands(manifest: ClassifierManifest, kind: HandClassifier.Kind) throws {
        let labels = manifest.entries.map(\.label)
        let sequences = try ClassifierInput.handSequences(of: manifest)
        let configuration = model.handConfiguration(kind)
        let start = ContinuousClock.now
        let split: [Int]
        let protocolName: String
        if leaveOneOut {
            split = CrossValidation.groupFolds(groups: manifest.entries.map { String($0.line) })
            protocolName = "leave-one-row-out (\(manifest.entries.count) rows)"
        } else if let groupBy {
            let groups = try HandClassifierRun.groups(groupBy, manifest: manifest, sequences: sequences)
            split = CrossValidation.groupFolds(groups: groups)
            protocolName = "leave-one-\(groupBy)-out (\(Set(groups).count) groups)"
        } else {
            let groups = manifest.entries.map(\.path)
            (split, protocolName) = HandClassifierRun.folds(groups: groups, labels: labels, count: folds, seed: 1)
        }
        let result: HandClassifierRun.Result
        do {
            result = try HandClassifierRun.run(
                sequences: sequences,
                labels: labels,
                folds: split,
                configuration: configuration
            )
        } catch {
            throw CLIError(
                "\(manifest.path): \(error); a fold's training rows must hold at least two labels (each label in more "
                    + "than one group)"
            )
        }
        let elapsed = ClassifierInput.seconds(since: start)
        if !quiet {
            for (entry, prediction) in zip(manifest.entries, result.predictions)
            where prediction?.label != entry.label {
                let times = entry.isTimeRange ? " \(entry.start ?? 0)-\(entry.end.map { "\($0)" } ?? "end") s" : ""
                print(
                    "misclassified \(entry.relativePath)\(times) (\(entry.label)) as "
                        + "\(prediction?.label ?? HandClassifierRun.noHand), confidence "
                        + ClassifierInput.format(prediction?.confidence ?? 0)
                )
            }
            print("\(manifest.path): \(sequences.count) rows, \(kind.rawValue), protocol \(protocolName)")
            print(result.rows.text)
            if let frames = result.frames {
                print("Per frame:")
                print(frames.text)
            }
        }
        var line =
            "RESULT \(manifest.path) kind=\(kind.rawValue) protocol=\"\(protocolName)\" "
            + "accuracy=\(ClassifierInput.format(result.rows.accuracy)) (\(result.rows.correct)/\(result.rows.total)) "
            + "weightedF1=\(ClassifierInput.format(result.rows.weightedF1))"
        if let frames = result.frames {
            line += " frameAccuracy=\(ClassifierInput.format(frames.accuracy)) (\(frames.correct)/\(frames.total))"
        }
        print(line + " seconds=\(ClassifierInput.format(elapsed, decimals: 2))")
    }
}

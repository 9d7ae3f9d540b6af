import CoachAnalysis
import CoachKit
import Foundation

extension TrainCommand {
    /// `train` on hand pose-tracks.
    func trainHands(manifest: ClassifierManifest, kind: HandClassifier.Kind, start: ContinuousClock.Instant) throws {
        if model.kind == "automatic" {
            print(
                "Hand pose-tracks: training a hand-pose classifier (every frame with a hand is a sample); "
                    + "--kind hand-action learns movements from whole clips"
            )
        }
        let labels = manifest.entries.map(\.label)
        let sequences = try ClassifierInput.handSequences(of: manifest)
        let loaded = ClassifierInput.seconds(since: start)
        let configuration = model.handConfiguration(kind)
        let (classifier, trained) = try trainAndWrite(manifest, json: \.jsonText) {
            try HandClassifier.train(sequences: sequences, labels: labels, configuration: configuration)
        }
        let classes = classifier.labels
        let counts = classes.map { label in "\(label) \(labels.count(where: { $0 == label }))" }
        let frames = sequences.reduce(0) { $0 + $1.handCount }
        print(
            "Trained a \(kind.rawValue) classifier on \(sequences.count) recordings (\(frames) frames with a hand), "
                + "\(classes.count) classes: \(counts.joined(separator: ", "))"
        )
        switch kind {
        case .pose:
            print(
                "Features: \(classifier.featureCount) per frame (\(classifier.featureNames.joined(separator: " "))); "
                    + "each frame's label from the mean probabilities of the last \(configuration.smoothingFrames) "
                    + "frames with a hand, each recording's from most frames"
            )
        case .action:
            print(
                "Features: \(classifier.featureCount) per clip: \(classifier.featureNames.count) per-frame features "
                    + "(\(classifier.featureNames.joined(separator: " "))) summarised over time, "
                    + "\(configuration.timeBins) time bins"
            )
        }
        print("Model: logistic regression, L2 \(configuration.regularization)")
        let training = sequences.map { classifier.predict($0) }
        let rowReport = ClassificationReport(
            truth: labels,
            predicted: training.map { $0?.label ?? HandClassifierRun.noHand }
        )
        var trainingLine = "Training accuracy: \(ClassifierInput.format(rowReport.accuracy)) per recording"
        if kind == .pose {
            let frameReport = HandClassifierRun.frameReport(training, labels: labels)
            trainingLine += ", \(ClassifierInput.format(frameReport.accuracy)) per frame"
        }
        print(trainingLine + " (on the training set itself)")
        let cvStart = ContinuousClock.now
        var crossValidated = 0.0
        if folds >= 2 {
            let groups = try HandClassifierRun.groups(groupBy ?? "file", manifest: manifest, sequences: sequences)
            let (split, name) = HandClassifierRun.folds(groups: groups, labels: labels, count: folds, seed: seed)
            do {
                let result = try HandClassifierRun.run(
                    sequences: sequences,
                    labels: labels,
                    folds: split,
                    configuration: configuration
                )
                var line =
                    "Cross-validated accuracy (\(name), by \(groupBy ?? "file")): "
                    + "\(ClassifierInput.format(result.rows.accuracy)) (\(result.rows.correct)/\(result.rows.total)) "
                    + "per recording"
                if let frames = result.frames {
                    line += ", \(ClassifierInput.format(frames.accuracy)) (\(frames.correct)/\(frames.total)) per frame"
                }
                print(line)
            } catch {
                print("Cross-validation skipped: \(error)")
            }
            crossValidated = ClassifierInput.seconds(since: cvStart)
        }
        print(
            "Time: loading \(ClassifierInput.format(loaded, decimals: 2)) s, training "
                + "\(ClassifierInput.format(trained, decimals: 2)) s, cross-validation "
                + "\(ClassifierInput.format(crossValidated, decimals: 2)) s"
        )
        print("Wrote \(out)")
    }
}

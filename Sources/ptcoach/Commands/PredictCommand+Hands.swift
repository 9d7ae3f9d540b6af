import CoachAnalysis
import CoachKit
import CoachPipeline
import Foundation
import PoseKit

extension PredictCommand {
    /// `predict` with a hand model: hand pose-tracks (or videos, whose hands are found first), one line per file;
    /// a hand-pose model also gives each frame's label.
    func runHands(_ classifier: HandClassifier) throws {
        var names: [String] = []
        var sequences: [HandSequence] = []
        var truth: [String]? = nil
        if let manifest {
            let parsed = try ClassifierInput.manifest(at: manifest)
            for entry in parsed.entries {
                if let error = try ClassifierInput.kindMismatch(file: entry.path, modelPath: model, isHandModel: true) {
                    throw CLIError("\(parsed.path):\(entry.line): \(error.message)")
                }
            }
            sequences += try ClassifierInput.handSequences(of: parsed)
            names += parsed.entries.map { entry in
                entry.isTimeRange
                    ? "\(entry.relativePath)@\(entry.start.map { "\($0)" } ?? "")-\(entry.end.map { "\($0)" } ?? "")"
                    : entry.relativePath
            }
            truth = parsed.entries.map(\.label)
        }
        for file in files {
            if let error = try ClassifierInput.kindMismatch(file: file, modelPath: model, isHandModel: true) {
                throw error
            }
            sequences.append(try ClassifierInput.handSequence(at: file))
            names.append(file)
        }
        if manifest != nil, !files.isEmpty { truth = nil }  // mixing sources: no single truth

        let predictions = sequences.map(classifier.predict)
        for (name, prediction) in zip(names, predictions) {
            let label = prediction?.label ?? HandClassifierRun.noHand
            let confidence = prediction?.confidence ?? 0
            let warning = prediction == nil ? "no hand in any frame" : nil
            if json {
                let frames = classifier.kind == .pose ? prediction?.frames ?? [] : nil
                print(
                    PredictionJSON.line(
                        file: name,
                        label: label,
                        confidence: confidence,
                        warning: warning,
                        frames: frames
                    )
                )
            } else {
                var text = "\(name): \(label) (confidence \(ClassifierInput.format(confidence)))"
                if let warning { text += "; warning: \(warning)" }
                if classifier.kind == .pose, let frames = prediction?.frames {
                    text += "; frames: " + Self.stretches(frames).joined(separator: ", ")
                }
                print(text)
            }
        }
        guard let truth else { return }
        let rows = ClassificationReport(
            truth: truth,
            predicted: predictions.map { $0?.label ?? HandClassifierRun.noHand },
            labels: classifier.labels
        )
        Self.printReport(rows, json: json)
        if classifier.kind == .pose {
            if !json { print("\nPer frame (each frame with a hand against its row's label):") }
            Self.printReport(
                HandClassifierRun.frameReport(predictions, labels: truth),
                json: json,
                key: "frameReport"
            )
        }
    }

    /// The frames' labels as stretches of one label: `0.00-0.55 s open`.
    static func stretches(_ frames: [HandClassifier.FramePrediction]) -> [String] {
        var out: [String] = []
        var start = 0
        for i in frames.indices where i == frames.count - 1 || frames[i + 1].label != frames[start].label {
            out.append(
                "\(ClassifierInput.format(frames[start].seconds, decimals: 2))-"
                    + "\(ClassifierInput.format(frames[i].seconds, decimals: 2)) s \(frames[start].label)"
            )
            start = i + 1
        }
        return out
    }
}

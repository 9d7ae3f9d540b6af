import ArgumentParser
import CoachAnalysis
import CoachKit
import CoachPipeline
import Foundation
import PoseKit

/// `ptcoach predict`: classifies pose-track files with a model written by `ptcoach train`.
struct PredictCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "predict",
        abstract: "Classify pose-track files with a model from `ptcoach train`.",
        discussion: """
            Prints one line per file (with --json: {"file","label","confidence","warning"}). A hand model \
            (trained on hand pose-tracks) reads hand pose-tracks; a hand-pose model also gives each frame's \
            label (with --json, "frames": [{"t","label","confidence"}]; as text, the stretches of one label). \
            A form model of one \
            exercise warns when the built-in recogniser names a file as another exercise. With --manifest \
            (a `path,label` CSV), or when every file's header labels hold one of the model's labels, it \
            also prints per-class precision/recall/F1, weighted F1 and a confusion matrix.
            """
    )

    @Option(name: .long, help: "The model file written by `ptcoach train --out`.")
    var model: String

    @Option(name: .long, help: "A `path,label` CSV of labelled files to predict and score.")
    var manifest: String?

    @Option(name: .long, help: "The header label holding the truth (default: found automatically).")
    var labelKey: String?

    @Flag(name: .long, help: "Print one JSON object per line.")
    var json = false

    @Argument(help: "Pose-track files (.jsonl) to classify.")
    var files: [String] = []

    func validate() throws {
        guard manifest != nil || !files.isEmpty else {
            throw ValidationError("give pose-track files to classify, or --manifest TEST.csv")
        }
    }

    func run() async throws {
        let classifier: ActionClassifier
        switch try ClassifierInput.anyModel(at: model) {
        case .hand(let hand):
            try runHands(hand)
            return
        case .body(let body): classifier = body
        }

        var names: [String] = []
        var paths: [String] = []
        var sequences: [PoseSequence] = []
        var truth: [String]? = nil
        if let manifest {
            let parsed = try ClassifierInput.manifest(at: manifest)
            for entry in parsed.entries {
                if let error = try ClassifierInput.kindMismatch(file: entry.path, modelPath: model, isHandModel: false)
                {
                    throw CLIError("\(parsed.path):\(entry.line): \(error.message)")
                }
            }
            sequences += try ClassifierInput.sequences(of: parsed)
            names += parsed.entries.map(\.relativePath)
            paths += parsed.entries.map(\.path)
            truth = parsed.entries.map(\.label)
        }
        let source = PoseTrackSequenceSource()
        for file in files {
            if let error = try ClassifierInput.kindMismatch(file: file, modelPath: model, isHandModel: false) {
                throw error
            }
            do {
                sequences.append(try source.sequence(at: file))
            } catch {
                throw CLIError("\(error)")
            }
            names.append(file)
            paths.append(file)
        }
        if manifest == nil { truth = headerTruth(sequences, labels: Set(classifier.labels)) }
        if manifest != nil, !files.isEmpty { truth = nil }  // mixing sources: no single truth

        let start = ContinuousClock.now
        let predictions = sequences.map(classifier.predict)
        let elapsed = ClassifierInput.seconds(since: start)
        let warnings = try Self.exerciseWarnings(paths: paths, classifier: classifier)
        for ((name, prediction), warning) in zip(zip(names, predictions), warnings) {
            if json {
                print(
                    PredictionJSON.line(
                        file: name,
                        label: prediction.label,
                        confidence: prediction.confidence,
                        warning: warning
                    )
                )
            } else {
                print(
                    "\(name): \(prediction.label) (confidence \(ClassifierInput.format(prediction.confidence)))"
                        + (warning.map { "; warning: \($0)" } ?? "")
                )
            }
        }
        guard let truth else { return }
        let report = ClassificationReport(truth: truth, predicted: predictions.map(\.label), labels: classifier.labels)
        Self.printReport(report, json: json)
        if !json { print("(\(sequences.count) files predicted in \(ClassifierInput.format(elapsed, decimals: 3)) s)") }
    }

    /// Prints a report: as one JSON line `{"report": …}` (per class precision, recall, F1, support; the
    /// confusion matrix), or as text.
    static func printReport(_ report: ClassificationReport, json: Bool, key: String = "report") {
        if json {
            print(PredictionJSON.report(report, key: key))
        } else {
            print("")
            print(report.text)
        }
    }

    /// For a form model of one exercise (trained with its form rules), a warning for each recording that the
    /// built-in recogniser names as another exercise: the model labels whatever it is given, often with a
    /// confidence of 1 (a push-up model called a bicep curl "correct (confidence 1.000)"). `nil` where the
    /// recording is recognised as the model's exercise, or as none (nothing to contradict the model).
    ///
    /// Measured on recordings the recogniser was not tuned on: of 40 push-up videos of other people (Calimiro), 37
    /// are named push-ups, 2 other exercises (warned wrongly), 1 none; of 40 Pose Trainer curls, raises and
    /// presses, 37 are named as other exercises (warned) and 3 as none.
    static func exerciseWarnings(paths: [String], classifier: ActionClassifier) throws -> [String?] {
        guard let id = classifier.configuration.rules?.exerciseID else { return paths.map { _ in nil } }
        let library = try ExerciseLibrary.bundled()
        let modelName = library[id]?.name.lowercased() ?? id
        return paths.map { path in
            guard var frames = try? PoseTrackFrameSource(path: path),
                let summary = try? BodyPipeline.run(
                    source: &frames,
                    configuration: .analysis(
                        exercise: nil,
                        library: library.exercises,
                        width: frames.width,
                        height: frames.height
                    ),
                    name: path
                ),
                let seen = summary.exercise, seen != id
            else { return nil }
            let seenName = (summary.exerciseName ?? seen).lowercased()
            return "this recording looks like a \(seenName), and the model judges the form of a \(modelName): "
                + "its label may mean nothing here"
        }
    }

    /// The truth from the pose-track headers: the value of `--label-key`, or of the one header label
    /// whose value is a model label in every file. `nil` when there is none.
    private func headerTruth(_ sequences: [PoseSequence], labels: Set<String>) -> [String]? {
        if let labelKey {
            let values = sequences.map { $0.metadata[labelKey] }
            return values.allSatisfy({ $0 != nil }) ? values.map { $0! } : nil
        }
        guard let first = sequences.first else { return nil }
        for key in first.metadata.keys.sorted() {
            let values = sequences.compactMap { $0.metadata[key] }
            if values.count == sequences.count, values.allSatisfy(labels.contains) { return values }
        }
        return nil
    }
}

import ArgumentParser
import CoachAnalysis
import CoachKit
import CoachPipeline
import Foundation
import MediaIO
import PoseKit

struct AnalyzeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Count repetitions, measure angles and check form in a recording.",
        discussion: """
            INPUT is a video (mp4, mov, webm, avi, …: its poses are found first, as `ptcoach poses` does) or a \
            pose-track file (.jsonl). With --exercise the exercise's definition drives the counting, the angles \
            and the form rules; without it the exercise is recognised from the library and any periodic \
            movement is counted. --model MODEL.json (from `ptcoach train` on exercise ids) recognises the \
            exercise of the whole recording with that classifier instead, then counts it as if it were given. \
            --json prints one JSON object (exercise, reps, repetitions, …). \
            --annotate writes the video with the AR overlay (H.264 MP4, or WebM for a .webm name; a pose-track \
            is drawn on a plain background); --report writes a report (.html, .pdf or .json).
            """,
        aliases: ["analyse"]
    )

    @Argument(help: "A video, or a pose-track file (.jsonl).")
    var input: String

    @Option(name: .long, help: "The exercise id (see `ptcoach exercises`); recognised when left out.")
    var exercise: String?

    @Option(
        name: .long,
        help: "Recognise the exercise with a model from `ptcoach train` on exercise ids, not the built-in recognizer."
    )
    var model: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The repetitions prescribed for the set (e.g. 10).",
            discussion:
                "The overlay shows the count against it (4 / 10), the report and --json the reps done against it."
        )
    )
    var reps: Int?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Seconds to hold the peak of each repetition, as prescribed (e.g. 5); needs --exercise.",
            discussion: "A repetition held for less is flagged: \"Hold the position for 5 s before coming back\"."
        )
    )
    var hold: Double?

    @Option(name: .long, help: "A directory of exercise definition JSON files to use instead of the bundled library.")
    var exercisesDirectory: String?

    @Flag(name: .long, help: "Print one JSON object instead of a report.")
    var json = false

    @Option(name: .long, help: "Write the video with the AR overlay here (.mp4, or .webm).")
    var annotate: String?

    @Option(name: .long, help: "Write a report here: .html (self-contained), .pdf or .json.")
    var report: String?

    @Flag(name: .long, help: "Replace existing --annotate / --report files.")
    var overwrite = false

    @Flag(name: .long, help: "Show the pose runtime's own log lines (video input).")
    var verbose = false

    /// A development option: the recogniser's factors from a JSON object of names and numbers (every name of
    /// `ExerciseRecognizer.Scoring.Configuration.named`), the others as built in; `scripts/fit-recogniser.py`
    /// fits them without recompiling.
    @Option(name: .customLong("recogniser-factors"), help: .hidden)
    var recogniserFactors: String?

    func validate() throws {
        if let reps, !(1...1000).contains(reps) {
            throw ValidationError("--reps must be between 1 and 1000 (the repetitions prescribed), got \(reps)")
        }
        if let hold {
            guard exercise != nil else {
                throw ValidationError(
                    "--hold needs --exercise: the hold is prescribed for a named exercise's repetitions"
                )
            }
            // Its upper bound is the exercise's longest repetition, checked once the definition is read.
            guard hold > 0, hold.isFinite else {
                throw ValidationError("--hold must be a number of seconds above 0 (the hold at each peak), got \(hold)")
            }
        }
    }

    func run() async throws {
        try AnalysisOutputs.validate(annotate: annotate, report: report, input: input, overwrite: overwrite)
        InterruptCleanup.install()
        // A hand exercise (finger-flexion, thumb-opposition, …) is measured on the hands, not the body.
        if try analyzeHandExercise() { return }
        let library = try BodyAnalysis.loadLibrary(directory: exercisesDirectory)
        let factors = try recogniserFactors.map(Self.recogniserFactors(at:))
        if exercise != nil, model != nil {
            throw CLIError.refused(
                "give --exercise or --model, not both: --model finds the exercise that --exercise names"
            )
        }
        let classifier = try model.map(ClassifierInput.model(at:))
        var definition = try exerciseGiven(in: library)
        // A video's poses are found first, into a temporary pose-track; then both kinds go the same way.
        let video = try AnalysisOutputs.videoInfo(input)
        var track = input
        var temporary: String?
        defer { if let temporary { OutputFile.remove(temporary) } }
        // With --annotate, a video is drawn and encoded while its poses are found (same session, same
        // frames as the counting pass below); the video is committed only once that pass agrees.
        var annotator: VideoAnnotator?
        // Any failure before the video is committed removes its temporary file now (not whenever the last
        // reference to the annotator goes, which a finishing pose thread may still hold for a moment).
        var committed = false
        defer { if !committed { annotator?.cancel() } }
        if let video {
            // With --model the exercise is known only once all the poses are: the video is drawn afterwards.
            if let annotate, classifier == nil {
                annotator = try videoAnnotator(
                    path: annotate,
                    video: video,
                    exercise: definition,
                    library: library,
                    factors: factors
                )
            }
            // With --annotate the stages run side by side (decoding, inference, drawing, encoding); the poses
            // are found as ``PosesCommand/annotatedStreams(info:cores:warmUpSeconds:)`` says.
            let path = try VideoPoses.temporaryPoseTrack(
                of: input,
                probed: video,
                purpose: "analyze",
                verbose: verbose,
                annotator: annotator
            )
            temporary = path
            track = path
        }
        var modelPrediction: ActionClassifier.Prediction?
        if let classifier, let model {
            (definition, modelPrediction) = try recognise(track: track, with: classifier, from: model, in: library)
        }
        var counted = try count(track: track, exercise: definition, library: library, factors: factors)
        if modelPrediction != nil { counted.summary.exerciseSource = .model }
        if report != nil, definition == nil {
            counted.series = try BodyAnalysis.seriesFromTheStart(
                counted.series,
                summary: counted.summary,
                track: track,
                library: library,
                name: input
            )
        }
        let summaryJSON = try jsonText(counted.summary)
        if let annotator {
            try commit(annotator, agreeingWith: summaryJSON)
            committed = true
        }
        if annotate != nil || report != nil {
            try writeOutputs(
                counted,
                summaryJSON: summaryJSON,
                exercise: definition,
                track: track,
                video: video,
                annotator
            )
        }
        printResult(counted, summaryJSON: summaryJSON, modelPrediction: modelPrediction)
    }
}

// MARK: - The steps of `run`

extension AnalyzeCommand {
    /// What the counting pass gives: the session's summary, the angle series for the report, what the coach said.
    struct Counted {
        var summary: SessionSummary
        var series: [ReportInput.AngleSample]
        var guidance: GuidanceTally
        var configuration: CoachingSession.Configuration
    }

    /// Analyses a hand exercise's recording and prints its outcome; false when `--exercise` is not a hand exercise.
    private func analyzeHandExercise() throws -> Bool {
        guard model == nil, let exercise,
            let hand = try HandAnalysis.exercise(id: exercise, directory: exercisesDirectory)
        else { return false }
        var request = HandAnalysis.Request(input: input)
        (request.hold, request.reps, request.annotate, request.report) = (hold, reps, annotate, report)
        (request.overwrite, request.json, request.verbose) = (overwrite, json, verbose)
        let outcome = try HandAnalysis.analyze(request, exercise: hand)
        print(outcome.printed)
        if json {
            FileHandle.standardError.write(Data(outcome.written.utf8))
        } else {
            print(outcome.written, terminator: "")
        }
        return true
    }

    /// The definition `--exercise` names, with `--hold` prescribed on it; nil without `--exercise`.
    private func exerciseGiven(in library: ExerciseLibrary) throws -> ExerciseDefinition? {
        guard let exercise else { return nil }
        var definition: ExerciseDefinition
        do {
            definition = try library.exercise(id: exercise)
        } catch {
            throw CLIError.refused("--exercise " + error.message)
        }
        guard let hold else { return definition }
        let id = definition.id
        guard let spec = definition.repetition else {
            throw ValidationError(
                "--hold is for repetitions held at their peak; '\(id)' is itself a hold (timed already)"
            )
        }
        // The bound the definition file's holdSeconds has: a repetition longer than maximumSeconds is not counted.
        guard spec.acceptsHold(hold) else {
            throw ValidationError(
                "--hold must be above 0 and below \(String(format: "%g", spec.maximumSeconds)) seconds for '\(id)' "
                    + "(its longest repetition), got \(hold)"
            )
        }
        definition.repetition?.holdSeconds = hold
        return definition
    }

    /// The annotator that draws and encodes `video` to `path` while its poses are found.
    private func videoAnnotator(
        path: String,
        video: VideoInfo,
        exercise definition: ExerciseDefinition?,
        library: ExerciseLibrary,
        factors: ExerciseRecognizer.Scoring.Configuration?
    ) throws -> VideoAnnotator {
        let header = PoseTrackHeader(
            layout: .blazePose33,
            fps: video.fps,
            width: video.width,
            height: video.height,
            dimensions: 3
        )
        return try VideoAnnotator(
            path: path,
            video: video,
            header: header,
            session: BodyAnalysis.sessionConfiguration(
                exercise: definition,
                library: library,
                width: Double(video.width),
                height: Double(video.height),
                recogniserFactors: factors
            ),
            overwrite: overwrite,
            prescribedReps: reps
        )
    }

    /// The exercise `classifier` (read from `model`, the `--model` file) recognises in the whole pose-track, and its prediction.
    private func recognise(
        track: String,
        with classifier: ActionClassifier,
        from model: String,
        in library: ExerciseLibrary
    ) throws -> (ExerciseDefinition, ActionClassifier.Prediction) {
        let prediction: ActionClassifier.Prediction
        do {
            prediction = classifier.predict(try PoseTrackSequenceSource().sequence(at: track))
        } catch {
            throw CLIError("\(input): \(error)")
        }
        guard let chosen = library[prediction.label] else {
            throw CLIError(
                "\(model) labelled \(input) `\(prediction.label)`, which is not an exercise id of the library; "
                    + "--model needs a model trained on exercise ids (see `ptcoach exercises`)"
            )
        }
        return (chosen, prediction)
    }

    /// The counting pass over the pose-track: one coaching session, frame by frame.
    private func count(
        track: String,
        exercise definition: ExerciseDefinition?,
        library: ExerciseLibrary,
        factors: ExerciseRecognizer.Scoring.Configuration?
    ) throws
        -> Counted
    {
        var source = try PoseTrackFrameSource(path: track)
        let configuration = BodyAnalysis.sessionConfiguration(
            exercise: definition,
            library: library,
            width: source.width,
            height: source.height,
            recogniserFactors: factors
        )
        var series: [ReportInput.AngleSample] = []
        var guidance = GuidanceTally()
        let summary = try BodyPipeline.run(source: &source, configuration: configuration, name: input) { snapshot in
            if let sample = BodyAnalysis.angleSample(of: snapshot) { series.append(sample) }
            guidance.add(snapshot)
        }
        return Counted(summary: summary, series: series, guidance: guidance, configuration: configuration)
    }

    /// The summary as `--json` prints it, with the prescription.
    private func jsonText(_ summary: SessionSummary) throws -> String {
        try BodyAnalysis.jsonText(summary, file: input, prescribedReps: reps, prescribedHoldSeconds: hold)
    }

    /// Finishes the annotated video once the session it drew agrees with the counted one.
    private func commit(_ annotator: VideoAnnotator, agreeingWith summaryJSON: String) throws {
        try annotator.drain()
        guard try jsonText(annotator.summary()) == summaryJSON else {
            annotator.cancel()
            throw CLIError("\(input): internal error: the drawn session differs from the counted one; no video written")
        }
        try annotator.finish()
    }

    /// Writes `--annotate` (unless `annotator` drew it already) and `--report`.
    private func writeOutputs(
        _ counted: Counted,
        summaryJSON: String,
        exercise definition: ExerciseDefinition?,
        track: String,
        video: VideoInfo?,
        _ annotator: VideoAnnotator?
    ) throws {
        try AnalysisOutputs.write(
            summary: counted.summary,
            summaryJSON: summaryJSON,
            series: counted.series,
            exercise: definition,
            track: track,
            video: video,
            configuration: counted.configuration,
            annotate: annotate,
            report: report,
            overwrite: overwrite,
            input: input,
            prescribedReps: reps,
            annotated: annotator
        )
    }

    /// Prints the JSON object or the text report, then where the files went.
    private func printResult(
        _ counted: Counted,
        summaryJSON: String,
        modelPrediction: ActionClassifier.Prediction?
    ) {
        let summary = counted.summary
        if json {
            print(summaryJSON)
        } else {
            print(BodyAnalysis.report(summary, file: input, prescribedReps: reps))
            if summary.reps == 0, summary.holds.isEmpty, let reason = counted.guidance.longest {
                let share = Int((100 * reason.seconds / max(summary.durationSeconds, 1e-9)).rounded())
                print("  nothing counted; for \(share)% of the recording the coach said: \(reason.text)")
            }
            if let modelPrediction, let model {
                let confidence = ClassifierInput.format(modelPrediction.confidence, decimals: 2)
                print("  recognised by \(model): confidence \(confidence)")
            }
        }
        // Where the files went (on standard error with --json, which keeps standard output one JSON object).
        let written = [annotate, report].compactMap { $0 }.map { "wrote \($0)\n" }.joined()
        if !written.isEmpty {
            if json { FileHandle.standardError.write(Data(written.utf8)) } else { print(written, terminator: "") }
        }
    }
}

extension AnalyzeCommand {
    /// The recogniser's factors of `--recogniser-factors`: the built-in ones with those the file names replaced.
    static func recogniserFactors(at path: String) throws -> ExerciseRecognizer.Scoring.Configuration {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIError.refused("--recogniser-factors: cannot read \(path)")
        }
        let values: [String: Double]
        do {
            values = try JSONDecoder().decode([String: Double].self, from: data)
        } catch {
            throw CLIError.refused("--recogniser-factors: \(path) is not a JSON object of names and numbers")
        }
        do {
            return try ExerciseRecognizer.Scoring.Configuration().overriding(values)
        } catch {
            throw CLIError.refused("--recogniser-factors: \(error.description)")
        }
    }
}

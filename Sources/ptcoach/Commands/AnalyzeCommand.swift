import ArgumentParser
import CoachKit
import Foundation
import MediaIO
import PoseKit

/// Frames read from a pose-track file.
struct PoseTrackFrameSource: PoseFrameSource {
    var reader: PoseTrackReader
    var width: Double { Double(reader.header.width) }
    var height: Double { Double(reader.header.height) }
    var fps: Double { reader.header.fps }

    init(path: String) throws {
        do {
            reader = try PoseTrackReader(path: path)
        } catch {
            throw CLIError(error.description)
        }
    }

    mutating func next() throws -> PoseFrame? {
        do {
            return try reader.next()
        } catch {
            throw CLIError(error.description)
        }
    }
}

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
        if model == nil, let exercise, let hand = try HandAnalysis.exercise(id: exercise, directory: exercisesDirectory)
        {
            try HandAnalysis.run(self, exercise: hand)
            return
        }
        let library = try Self.loadLibrary(directory: exercisesDirectory)
        if exercise != nil, model != nil {
            throw CLIError.refused(
                "give --exercise or --model, not both: --model finds the exercise that --exercise names"
            )
        }
        let classifier = try model.map(ClassifierInput.model(at:))
        var definition: ExerciseDefinition?
        if let exercise {
            do {
                definition = try library.exercise(id: exercise)
            } catch {
                throw CLIError.refused("--exercise " + error.message)
            }
        }
        if let hold, let id = definition?.id {
            guard let spec = definition?.repetition else {
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
            definition?.repetition?.holdSeconds = hold
        }
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
            // Unique per call: analyses may run side by side in one process (the tests do).
            let path = NSTemporaryDirectory() + "ptcoach-analyze-\(getpid())-\(UUID().uuidString.prefix(8)).jsonl"
            temporary = path
            PartialFiles.register(path)
            // With --model the exercise is known only once all the poses are: the video is drawn afterwards.
            if let annotate, classifier == nil {
                let header = PoseTrackHeader(
                    layout: .blazePose33,
                    fps: video.fps,
                    width: video.width,
                    height: video.height,
                    dimensions: 3
                )
                annotator = try VideoAnnotator(
                    path: annotate,
                    video: video,
                    header: header,
                    session: Self.sessionConfiguration(
                        exercise: definition,
                        library: library,
                        width: Double(video.width),
                        height: Double(video.height)
                    ),
                    overwrite: overwrite,
                    prescribedReps: reps
                )
            }
            // With --annotate the stages run side by side (decoding, inference, drawing, encoding); the poses
            // are found as ``PosesCommand/annotatedStreams(info:cores:warmUpSeconds:)`` says.
            try PosesCommand.writePoseTrack(
                of: input,
                to: path,
                segments: nil,
                numPoses: 1,
                mode: .video,
                quiet: false,
                verbose: verbose,
                annotator: annotator,
                probed: video,
                temporary: true
            )
            track = path
        }
        var modelPrediction: ActionClassifier.Prediction?
        if let classifier, let model {
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
            definition = chosen
            modelPrediction = prediction
        }
        var source = try PoseTrackFrameSource(path: track)
        let configuration = Self.sessionConfiguration(
            exercise: definition,
            library: library,
            width: source.width,
            height: source.height
        )
        var series: [ReportInput.AngleSample] = []
        var guidance = GuidanceTally()
        var summary = try Self.analyze(source: &source, configuration: configuration, name: input) { snapshot in
            if let sample = Self.angleSample(of: snapshot) { series.append(sample) }
            guidance.add(snapshot)
        }
        if modelPrediction != nil { summary.exerciseSource = .model }
        if report != nil, definition == nil {
            series = try Self.seriesFromTheStart(series, summary: summary, track: track, library: library, name: input)
        }
        let summaryJSON = try Self.jsonText(summary, file: input, prescribedReps: reps, prescribedHoldSeconds: hold)
        if let annotator {
            try annotator.drain()
            guard
                try Self.jsonText(annotator.summary(), file: input, prescribedReps: reps, prescribedHoldSeconds: hold)
                    == summaryJSON
            else {
                annotator.cancel()
                throw CLIError(
                    "\(input): internal error: the drawn session differs from the counted one; no video written"
                )
            }
            try annotator.finish()
            committed = true
        }
        if annotate != nil || report != nil {
            try AnalysisOutputs.write(
                summary: summary,
                summaryJSON: summaryJSON,
                series: series,
                exercise: definition,
                track: track,
                video: video,
                configuration: configuration,
                annotate: annotate,
                report: report,
                overwrite: overwrite,
                input: input,
                prescribedReps: reps,
                annotated: annotator
            )
        }
        if json {
            print(summaryJSON)
        } else {
            print(Self.report(summary, file: input, prescribedReps: reps))
            if summary.reps == 0, summary.holds.isEmpty, let reason = guidance.longest {
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

    /// The report's angle series of a recording whose exercise was recognised: the angle is followed from when the
    /// exercise was named, and the first repetitions, often before then, had no curve on the chart. Before then,
    /// the angle as the exercise given measures it (a replay of `track`); `series` unchanged when nothing is missing.
    static func seriesFromTheStart(
        _ series: [ReportInput.AngleSample],
        summary: SessionSummary,
        track: String,
        library: ExerciseLibrary,
        name: String
    ) throws -> [ReportInput.AngleSample] {
        guard let first = summary.segments.first(where: { $0.exercise != nil }),
            let named = first.exercise.flatMap({ library[$0] }), named.repetition != nil,
            let start = summary.repetitions.first?.startSeconds, start < (series.first?.seconds ?? .infinity)
        else { return series }
        let until = series.first?.seconds ?? .infinity
        var replay = try PoseTrackFrameSource(path: track)
        let given = sessionConfiguration(exercise: named, library: library, width: replay.width, height: replay.height)
        var earlier: [ReportInput.AngleSample] = []
        _ = try? CoachingSession.analyze(source: &replay, configuration: given, name: name) { snapshot in
            if snapshot.seconds < until, let sample = angleSample(of: snapshot) { earlier.append(sample) }
        }
        return earlier + series
    }

    /// The report's angle chart sample of a frame: the primary angle, when it is one in degrees.
    static func angleSample(of snapshot: CoachSnapshot) -> ReportInput.AngleSample? {
        guard let degrees = snapshot.primaryAngle, snapshot.primaryAngleKind?.isDegrees == true else { return nil }
        return ReportInput.AngleSample(seconds: snapshot.seconds, degrees: degrees)
    }

    static func loadLibrary(directory: String?) throws -> ExerciseLibrary {
        do {
            if let directory { return try ExerciseLibrary(directory: directory) }
            return try ExerciseLibrary.bundled()
        } catch {
            throw CLIError(error.description)
        }
    }

    /// The session settings of an analysis (the same for the counting pass, the drawing pass and the live coach).
    static func sessionConfiguration(
        exercise: ExerciseDefinition?,
        library: ExerciseLibrary,
        width: Double,
        height: Double
    ) -> CoachingSession.Configuration {
        .analysis(exercise: exercise, library: library.exercises, width: width, height: height)
    }

    /// Runs a coaching session over every frame of `source`, showing `observe` the state after each frame
    /// (``CoachKit/CoachingSession/analyze(source:configuration:name:observe:)``).
    ///
    /// - Throws: ``CLIError`` when nobody is seen, or the joints the exercise needs never are.
    static func analyze(
        source: inout some PoseFrameSource,
        configuration: CoachingSession.Configuration,
        name: String,
        observe: (CoachSnapshot) -> Void = { _ in }
    ) throws -> SessionSummary {
        do {
            return try CoachingSession.analyze(
                source: &source,
                configuration: configuration,
                name: name,
                observe: observe
            )
        } catch let error as CoachKitError {
            throw CLIError(error.message)
        }
    }

    /// The `--json` object (``CoachKit/SessionSummary/jsonText(file:prescribedReps:prescribedHoldSeconds:)``).
    static func jsonText(
        _ summary: SessionSummary,
        file: String,
        prescribedReps: Int? = nil,
        prescribedHoldSeconds: Double? = nil
    ) throws -> String {
        try summary.jsonText(file: file, prescribedReps: prescribedReps, prescribedHoldSeconds: prescribedHoldSeconds)
    }

    /// Why a repetition of an exercise the coach could not tell is not judged.
    static let unsureReason = "the exercise is not known: pick it"

    static func report(
        _ summary: SessionSummary,
        file: String,
        prescribedReps: Int? = nil
    ) -> String {
        func f(_ x: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", x) }
        var lines: [String] = []
        // How sure the recogniser is, when it named the exercise: below the fitted threshold it names none (its
        // names there were right too rarely, RecognitionConfidence) and asks for the exercise.
        let unsure = summary.recognitionUnsure
        let sureness = summary.recognitionConfidence.map { ", confidence \(f($0, 2))" } ?? ""
        let exercise =
            unsure
            ? "\(RecognitionConfidence.unsureSentence) (give --exercise; recognition confidence "
                + "\(f(summary.recognitionConfidence ?? 0, 2)) is below \(f(RecognitionConfidence.fitted.namedAtLeast, 2)))"
            : summary.exerciseName.map { "\($0) (\(summary.exercise!), \(summary.exerciseSource.rawValue)\(sureness))" }
                ?? "no library exercise recognised"
        lines.append("\(file): \(exercise)")
        let done =
            prescribedReps.map { "\(summary.reps) of \($0) prescribed repetitions" }
            ?? "\(summary.reps) repetition\(summary.reps == 1 ? "" : "s")"
        lines.append("  \(done) in \(f(summary.durationSeconds)) s")
        for rep in summary.repetitions {
            var line = "  rep \(rep.index): \(f(rep.startSeconds))–\(f(rep.endSeconds)) s"
            // The primary angle on the side measured, the one the target, the peak, the JSON's peakAngle and the
            // overlay speak of; never the far arm whose guessed keypoints swept a wider range. A range the joint
            // cannot take is not given as a measurement.
            if let primary = rep.measuredPrimaryRange {
                let side = primary.side.map { " \($0.rawValue)" } ?? ""
                line +=
                    primary.isAnatomicallyPossible
                    ? ", \(primary.angle.displayName)\(side) \(f(primary.min, 0))–\(f(primary.max, 0))\(primary.angle.unit)"
                    : ", \(primary.angle.displayName)\(side) not measured (keypoints guessed: "
                        + "\(f(primary.min, 0))–\(f(primary.max, 0))\(primary.angle.unit) is past what the joint can do)"
            }
            // Against the repetition's own exercise, judged once when it was counted (the report says the same);
            // not against an exercise the coach could not tell.
            if unsure {
                line += ", not checked (\(Self.unsureReason))"
                if rep.gapSeconds > 0 { line += " [pose lost for \(f(rep.gapSeconds)) s]" }
                lines.append(line)
                continue
            }
            if let range = rep.range {
                let possible = rep.angles.first.flatMap { $0.angle.anatomicalRange }.map { $0.contains(range.peak) }
                line +=
                    possible == false
                    ? ", range not measured (a peak of \(range.format(range.peak)) is past what the joint can do)"
                    : ", \(range.text)"
            }
            // A pause at the peak a programme asks for ("hold 5 s at the top"); a turn at the peak is no hold.
            if let held = rep.tempo.atPeakSeconds, held >= 1 { line += ", held \(f(held)) s at the peak" }
            line += ", \(rep.verdict.text)"
            if let reason = rep.uncheckedReason {
                line += rep.verdict == .notChecked ? " (\(reason))" : " (not checked: \(reason))"
            }
            if let issue = rep.issues.first { line += ": \(issue.cue)" }
            if rep.gapSeconds > 0 { line += " [pose lost for \(f(rep.gapSeconds)) s]" }
            if !rep.safetyBreaches.isEmpty { line += " [safety: \(rep.safetyBreaches[0].warning)]" }
            lines.append(line)
        }
        // Numbered and placed in time as the repetitions are: two holds of the same length are two holds.
        for (i, hold) in summary.holds.enumerated() {
            lines.append(
                "  hold \(i + 1): \(f(hold.startSeconds))–\(f(hold.endSeconds)) s, held \(f(hold.heldSeconds)) s of "
                    + "\(f(hold.targetSeconds, 0)) s\(hold.completed ? " (done)" : "")"
            )
        }
        // One line per crossing of a safety limit, however the angle wavered about it.
        for warning in summary.safetyWarnings {
            let unit = warning.angle.unit
            var line = "  safety at \(f(warning.seconds)) s: \(warning.text) (\(warning.angle.displayName)"
            if let peak = warning.peak { line += " peak \(f(peak, 0))\(unit)" }
            line += ", limit \(f(warning.limit, 0))\(unit)"
            if let duration = warning.durationSeconds { line += ", \(f(duration)) s" }
            lines.append(line + ")")
        }
        // A segment under a tenth of a second with nothing counted is the recogniser changing its mind, not a part.
        let segments = summary.segments.filter { $0.reps > 0 || $0.endSeconds - $0.startSeconds >= 0.1 }
        if segments.count > 1 {
            lines.append("  segments:")
            for s in segments {
                lines.append(
                    "    \(f(s.startSeconds))–\(f(s.endSeconds)) s: \(s.exercise ?? "—") (\(s.reps) rep\(s.reps == 1 ? "" : "s"))"
                )
            }
        }
        // Of the repetitions whose form was checked, so that none not checked passes for good.
        let checked = summary.repetitions.filter { $0.verdict != .notChecked }.count
        if let good = summary.averages.goodFraction {
            let of = checked == summary.reps ? "repetitions" : "\(checked) checked repetition\(checked == 1 ? "" : "s")"
            lines.append("  good form: \(Int((good * 100).rounded()))% of \(of)")
        } else if summary.reps > 0, let reason = summary.formNotCheckedReason {
            // Never praise, nor name a best repetition, where no repetition's form was looked at.
            lines.append("  form not checked: \(reason)")
        }
        return lines.joined(separator: "\n")
    }
}

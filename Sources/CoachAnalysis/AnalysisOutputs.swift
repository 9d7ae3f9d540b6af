public import CoachKit
import CoachPipeline
import Foundation
public import MediaIO
import PoseKit

/// The files `ptcoach analyze` writes besides its standard output: the annotated video and the report.
public enum AnalysisOutputs {
    /// Checks the output paths before any work starts, so a bad name costs nothing and the input is never touched.
    ///
    /// - Throws: ``AnalysisError/refused(_:)`` (exit 64: a refused value) for an unknown extension, an output equal to the
    ///   input, a missing folder, or an existing file without `--overwrite`.
    public static func validate(annotate: String?, report: String?, input: String, overwrite: Bool) throws {
        if let annotate {
            let ext = (annotate as NSString).pathExtension.lowercased()
            guard ["mp4", "m4v", "mov", "webm"].contains(ext) else {
                throw AnalysisError.refused("--annotate \(annotate): name the video .mp4 (H.264) or .webm (VP9)")
            }
            try check(annotate, option: "--annotate", input: input, overwrite: overwrite)
        }
        if let report {
            guard ReportWriter.Format(path: report) != nil else {
                throw AnalysisError.refused("--report \(report): unknown report type; name it .html, .pdf or .json")
            }
            try check(report, option: "--report", input: input, overwrite: overwrite)
        }
        if let annotate, let report, same(annotate, report) {
            throw AnalysisError.refused(
                "--annotate and --report name the same file \(report); give them different names"
            )
        }
    }

    public static func check(_ path: String, option: String, input: String, overwrite: Bool) throws {
        if same(path, input) {
            throw AnalysisError.refused("\(option) \(path) is the input file; choose another name so the input is kept")
        }
        let folder = (path as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        let directory = folder.isEmpty ? "." : folder
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw AnalysisError.refused("\(option) \(path): the folder \(directory) does not exist; create it first")
        }
        guard FileManager.default.isWritableFile(atPath: directory) else {
            throw AnalysisError.refused("\(option) \(path): the folder \(directory) is not writable")
        }
        if FileManager.default.fileExists(atPath: path), !overwrite {
            throw AnalysisError.refused("\(option) \(path) already exists; pass --overwrite to replace it")
        }
    }

    private static func same(_ a: String, _ b: String) -> Bool {
        URL(fileURLWithPath: a).standardizedFileURL.resolvingSymlinksInPath().path
            == URL(fileURLWithPath: b).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// The video behind `input`, or `nil` for a pose-track file (recognised by its first bytes, not its name).
    public static func videoInfo(_ input: String) throws -> VideoInfo? {
        if let handle = FileHandle(forReadingAtPath: input) {
            let head = (try? handle.read(upToCount: 64)) ?? Data()
            try? handle.close()
            let text = String(decoding: head, as: UTF8.self).drop { $0 == " " || $0 == "\u{FEFF}" }
            if text.hasPrefix("{") { return nil }
        }
        // A file named as a pose-track that does not start like one is a broken pose-track, not a bad video.
        if ["jsonl", "json"].contains(URL(fileURLWithPath: input).pathExtension.lowercased()),
            FileManager.default.fileExists(atPath: input)
        {
            throw AnalysisError(
                "\(input):1: not a pose-track: its first line must be the JSON header ({\"format\":\"pose-track\", …}); "
                    + "write it with `ptcoach poses` or see the pose-track format"
            )
        }
        do {
            let info = try VideoInfo(probing: input)
            if info.isStillImage {
                throw AnalysisError(
                    "\(input) is a still image; analyze needs a video or a pose-track (try `ptcoach poses`)"
                )
            }
            return info
        } catch let error as AnalysisError {
            throw error
        } catch {
            throw AnalysisError("\(error)")
        }
    }

    /// Draws the annotated video and the report stills in one pass (unless `annotated` already wrote the
    /// video while the poses were found: then the stills are read from it), then writes the report.
    public static func write(
        summary: SessionSummary,
        summaryJSON: String,
        series: [ReportInput.AngleSample],
        exercise: ExerciseDefinition?,
        track: String,
        video: VideoInfo?,
        configuration: CoachingSession.Configuration,
        annotate: String?,
        report: String?,
        overwrite: Bool,
        input: String,
        prescribedReps: Int? = nil,
        annotated: VideoAnnotator? = nil
    ) throws {
        let wantsStills = report.map { ReportWriter.Format(path: $0) != .json } ?? false
        // One report section per exercise done (a recording may hold several), each with its own stills.
        let names = Dictionary(configuration.library.map { ($0.id, $0.name) }) { first, _ in first }
        let parts = summary.exerciseParts(names: names)
        // A still shows the overlay as it was live: prefer repetitions during which it showed the exercise's angle
        // (with no exercise given, those before the exercise was recognised showed "Observing…").
        let shown = { (rep: Repetition) in
            series.contains { $0.seconds >= rep.startSeconds && $0.seconds <= rep.endSeconds }
        }
        let picks =
            wantsStills ? parts.map { stillRepetitions($0.summary.repetitions, shown: shown) } : parts.map { _ in [] }
        let times = picks.joined().map { peakSeconds(of: $0.rep, in: series) }
        var images: [RGBImage?] = []
        if let annotated {
            // The video is already written: the stills are its frames.
            images = annotated.stills(at: times)
        } else if annotate != nil || !times.isEmpty {
            images = try AnnotationPass.run(
                track: track,
                video: video,
                session: configuration,
                annotate: annotate,
                overwrite: overwrite,
                prescribedReps: prescribedReps,
                stillTimes: times
            )
        }
        guard let report else { return }
        var next = images.makeIterator()
        let sections = zip(parts, picks).map { part, picks in
            let stills = picks.compactMap { pick in
                next.next().flatMap { image in
                    image.map { ReportInput.Still(caption: pick.caption, repetition: pick.rep.index, image: $0) }
                }
            }
            let definition = part.exercise.flatMap { id in configuration.library.first { $0.id == id } }
            return ReportInput.Exercise(
                summary: part.summary,
                // The prescription is for the exercise given; a recording of several has none per exercise.
                prescribedReps: parts.count == 1 ? prescribedReps : nil,
                prescribedHoldSeconds: parts.count == 1 ? exercise?.repetition?.holdSeconds : nil,
                angleSeries: parts.count == 1 ? series : series.filter { part.contains($0.seconds) },
                stills: stills,
                definition: definition ?? (parts.count == 1 ? exercise : nil)
            )
        }
        let held = sections.count == 1 && sections[0].isHold
        let input = ReportInput(
            title: summary.headline(isHold: held, name: parts.count > 1 ? "\(parts.count) exercises" : nil),
            subtitle: "\((input as NSString).lastPathComponent) · \(String(format: "%.1f", summary.durationSeconds)) s",
            exercises: sections,
            summaryJSON: summaryJSON
        )
        do {
            try ReportWriter.write(input, to: report, overwrite: overwrite)
        } catch {
            throw AnalysisError("\(error)")
        }
    }

    /// The best and the worst repetition (one still when there is one repetition, none without). The captions
    /// name the still, the report adds "(repetition N)"; when every repetition was good the worst is the one
    /// with the smallest range, and is called that rather than "needs most work". "Best" and "needs most work" are
    /// said only of repetitions whose form was judged: of repetitions "not checked" the stills show the largest and
    /// the smallest range, or just "Repetition shown" (nobody looked at their form: none is the best).
    ///
    /// - Parameter shown: whether the live overlay showed the exercise during a repetition; when some did, the
    ///   stills are taken among those.
    public static func stillRepetitions(
        _ all: [Repetition],
        shown: (Repetition) -> Bool = { _ in true }
    ) -> [(rep: Repetition, caption: String)] {
        let candidates = all.contains(where: shown) ? all.filter(shown) : all
        guard !candidates.isEmpty else { return [] }
        let judged = candidates.filter { $0.verdict != .notChecked }
        guard !judged.isEmpty else { return uncheckedStills(candidates) }
        // Of the judged ones only; one judged repetition is shown as such, beside none called "needs most work".
        let reps = judged
        func score(_ rep: Repetition) -> Double {
            (rep.verdict == .good ? 10 : 0) - Double(rep.issues.count + 5 * rep.safetyBreaches.count)
                + min(rep.rangeOfMotion ?? 0, 1.5)
        }
        let best = reps.max { score($0) < score($1) }!
        let worst = reps.min { score($0) < score($1) }!
        if reps.count == 1 || best.index == worst.index { return [(best, "Repetition shown")] }
        let allGood = reps.allSatisfy { $0.verdict == .good && $0.issues.isEmpty && $0.safetyBreaches.isEmpty }
        let worstCaption =
            !allGood
            ? "Needs most work" : worst.rangeOfMotion != nil ? "Smallest range of motion" : "Another repetition"
        return [(best, "Best repetition"), (worst, worstCaption)]
    }

    /// The stills of repetitions none of whose form was checked: the largest and the smallest range when the ranges
    /// were measured and differ, else the first repetition.
    private static func uncheckedStills(_ reps: [Repetition]) -> [(rep: Repetition, caption: String)] {
        let measured = reps.filter {
            $0.rangeOfMotion != nil && $0.measurementReliable && $0.range?.status != .notMeasurable
        }
        guard let largest = measured.max(by: { $0.rangeOfMotion! < $1.rangeOfMotion! }),
            let smallest = measured.min(by: { $0.rangeOfMotion! < $1.rangeOfMotion! }),
            largest.index != smallest.index
        else { return [(reps[0], "Repetition shown")] }
        return [(largest, "Largest range of motion"), (smallest, "Smallest range of motion")]
    }

    /// The middle of the repetition's time at its peak, as it was measured (its tempo); for a repetition without
    /// a measured peak, the time within it where the primary angle is farthest from its value at the start. (The
    /// angle series starts when the exercise is named: a pull-up named within its second repetition had that
    /// repetition's still at the hang, 54°, instead of the top.)
    public static func peakSeconds(of rep: Repetition, in series: [ReportInput.AngleSample]) -> Double {
        if rep.peakAngle != nil {
            let peak = rep.startSeconds + rep.tempo.toPeakSeconds + (rep.tempo.atPeakSeconds ?? 0) / 2
            if peak >= rep.startSeconds, peak <= rep.endSeconds { return peak }
        }
        let window = series.filter { $0.seconds >= rep.startSeconds && $0.seconds <= rep.endSeconds }
        guard let first = window.first else { return (rep.startSeconds + rep.endSeconds) / 2 }
        return window.max { abs($0.degrees - first.degrees) < abs($1.degrees - first.degrees) }!.seconds
    }
}

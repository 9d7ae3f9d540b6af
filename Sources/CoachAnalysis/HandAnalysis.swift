public import CoachKit
import CoachPipeline
import Foundation
public import MediaIO
public import PoseKit

/// `ptcoach analyze INPUT --exercise finger-flexion` (any hand exercise): the hands of a video are found first
/// (`ptcoach poses --hands`), or a hand pose-track is read, then a ``CoachKit/HandCoachingSession`` counts and
/// judges; the text, `--json`, `--report` (with a chart per finger) and `--annotate` (the hand skeleton drawn)
/// come from the same session.
public enum HandAnalysis {
    /// The hand exercise `id`, when it is one (the bundled hand library, or `DIRECTORY/hands` with
    /// `--exercises-directory`); `nil` for any other id, which is then looked up among the body exercises.
    public static func exercise(id: String, directory: String?) throws -> HandExerciseDefinition? {
        try library(directory: directory)?[id]
    }

    /// The hand exercises: the bundled ones, or those of `DIRECTORY/hands` (`nil` when it has none).
    public static func library(directory: String?) throws -> HandExerciseLibrary? {
        do {
            if let directory {
                let hands = (directory as NSString).appendingPathComponent("hands")
                guard FileManager.default.fileExists(atPath: hands) else { return nil }
                return try HandExerciseLibrary(directory: hands)
            }
            return try HandExerciseLibrary.bundled()
        } catch {
            throw AnalysisError(error.description)
        }
    }

    /// The most hands a video's hand pass looks for: the patient's two and one more, so a third hand is seen.
    public static let handsSought = 3

    /// Coaches `frames` (with the body pose of each, for the wrist's inclination) through a ``HandPipeline``: the
    /// summary, the primary measurement over time and each finger's.
    ///
    /// - Throws: ``AnalysisError`` when the hand was measured in no frame, with what the coach said.
    public static func measure(
        frames: [HandFrame],
        bodies: [Pose?],
        exercise: HandExerciseDefinition,
        width: Double,
        height: Double,
        name: String
    ) throws -> (
        summary: HandSessionSummary, series: [ReportInput.AngleSample],
        fingerSeries: [Finger: [ReportInput.AngleSample]]
    ) {
        var pipeline = HandPipeline(exercise: exercise, width: width, height: height)
        var series: [ReportInput.AngleSample] = []
        var fingerSeries: [Finger: [ReportInput.AngleSample]] = [:]
        for (index, frame) in frames.enumerated() {
            let snapshot = pipeline.step(frame, body: bodies.isEmpty ? nil : bodies[index])
            if let value = snapshot.value { series.append(.init(seconds: frame.seconds, degrees: value)) }
            for (finger, value) in snapshot.fingers {
                fingerSeries[finger, default: []].append(.init(seconds: frame.seconds, degrees: value))
            }
        }
        let summary = pipeline.summary
        guard summary.framesMeasured > 0 else {
            let cue = summary.setUp.max { $0.seconds < $1.seconds }?.cue ?? HandSetUp.Issue.noHand.cue()
            throw AnalysisError(
                "\(name): the hand was not measured in any of the \(summary.frames) frames; the coach said: \(cue)"
            )
        }
        return (summary, series, fingerSeries)
    }

    /// The report of a hand session: the primary measurement over time, then one chart per finger.
    public static func reportInput(
        _ summary: HandSessionSummary,
        exercise: HandExerciseDefinition,
        series: [ReportInput.AngleSample],
        fingerSeries: [Finger: [ReportInput.AngleSample]],
        stills: [ReportInput.Still],
        file: String,
        prescribedReps: Int?,
        json: String
    ) -> ReportInput {
        let section = ReportInput.Exercise(
            hand: summary,
            exercise: exercise,
            angleSeries: series,
            fingerSeries: fingerSeries,
            stills: stills,
            prescribedReps: prescribedReps
        )
        var subtitle = "\((file as NSString).lastPathComponent) · \(String(format: "%.1f", summary.durationSeconds)) s"
        if let figures = summary.figures { subtitle += " · " + figures }
        let done = prescribedReps.map { "\(summary.reps) of \($0)" } ?? "\(summary.reps)"
        return ReportInput(
            title: "\(exercise.name): \(done) repetition\(summary.reps == 1 ? "" : "s")",
            subtitle: subtitle,
            exercises: [section],
            summaryJSON: json
        )
    }

    /// Draws the hand skeleton, the count and the cues over the video (or a plain background for a pose-track),
    /// replaying the session frame by frame; returns the frames nearest `stillTimes` (for the report).
    public static func annotate(
        frames: [HandFrame],
        bodies: [Pose?] = [],
        video: VideoInfo?,
        header: PoseTrackHeader,
        exercise: HandExerciseDefinition,
        to path: String?,
        overwrite: Bool,
        prescribedReps: Int?,
        stillTimes: [Double]
    ) throws -> [RGBImage?] {
        let width = video?.width ?? header.width
        let height = video?.height ?? header.height
        let fps = video?.fps ?? header.fps
        let decoder: VideoDecoder?
        do {
            decoder = try video.map { try VideoDecoder(path: $0.path, info: $0, bytesPerPixel: 4) }
        } catch {
            throw AnalysisError("\(error)")
        }
        let encoder = try path.map {
            try AnnotationPass.encoder(path: $0, width: width, height: height, fps: fps, overwrite: overwrite)
        }
        defer { decoder?.stop() }
        var finished = false
        defer { if !finished { encoder?.cancel() } }
        var pipeline = HandPipeline(exercise: exercise, width: Double(width), height: Double(height))
        let renderer = OverlayRenderer()
        let background = OverlayColor(red: 38, green: 42, blue: 48)
        var stills = NearestStills(times: stillTimes)
        var cue: (text: String, kind: OverlayState.CueKind, until: Double)?
        for (index, frame) in frames.enumerated() {
            let snapshot = pipeline.step(frame, body: bodies.isEmpty ? nil : bodies[index])
            if let said = snapshot.cue {
                let kind: OverlayState.CueKind =
                    switch said.kind {
                    case .encouragement: .encouragement
                    case .form: .correction
                    case .safety: .safety
                    default: .info
                    }
                cue = (said.text, kind, frame.seconds + 2.5)
            }
            if let shown = cue, frame.seconds > shown.until { cue = nil }
            let state = overlayState(snapshot, exercise: exercise, cue: cue, prescribedReps: prescribedReps)
            var image: RGBImage
            do {
                if let decoder {
                    var picture = RGBImage(width: width, height: height, bytesPerPixel: 4)
                    guard try decoder.nextFrame(into: &picture) != nil else { break }
                    image = picture
                    renderer.render(state, onto: &image)
                } else {
                    image = renderer.render(state, width: width, height: height, background: background)
                }
                try encoder?.append(image)
            } catch {
                throw AnalysisError("\(error)")
            }
            stills.offer(image, at: frame.seconds)
        }
        do {
            try encoder?.finish()
        } catch {
            throw AnalysisError("\(error)")
        }
        finished = true
        return stills.images
    }

    /// What the overlay shows of `snapshot`: the count, the cue on screen, the hands and the range of motion.
    private static func overlayState(
        _ snapshot: HandCoachingSession.Snapshot,
        exercise: HandExerciseDefinition,
        cue: (text: String, kind: OverlayState.CueKind, until: Double)?,
        prescribedReps: Int?
    ) -> OverlayState {
        var state = OverlayState(
            reps: snapshot.reps,
            prescribedReps: prescribedReps,
            exerciseName: exercise.name,
            cue: cue?.text,
            cueKind: cue?.kind ?? .info,
            setupGuidance: snapshot.setUp.map { $0.cue(side: exercise.side) }
        )
        state.hands = snapshot.hands
        state.coachedHand = snapshot.coachedIndex
        if snapshot.value != nil, let band = exercise.targetBand {
            let start = exercise.repetition.start
            let scale = max(abs(band.lowerBound - start), abs(band.upperBound - start))
            let near = min(abs(band.lowerBound - start), abs(band.upperBound - start)) / scale
            state.rangeOfMotion = .init(progress: snapshot.progress, target: min(near, 1)...1, label: "ROM")
        }
        return state
    }
}

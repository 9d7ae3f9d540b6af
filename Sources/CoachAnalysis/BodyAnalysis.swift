public import CoachKit
import CoachPipeline
import Foundation
public import MediaIO
import PoseKit

/// The parts of `ptcoach analyze` for a body exercise that are not its options: the library and the session
/// settings, the report's angle series, the `--json` object and the text report (``BodyAnalysis/report(_:file:prescribedReps:)``).
public enum BodyAnalysis {
    /// The report's angle series of a recording whose exercise was recognised: the angle is followed from when the
    /// exercise was named, and the first repetitions, often before then, had no curve on the chart. Before then,
    /// the angle as the exercise given measures it (a replay of `track`); `series` unchanged when nothing is missing.
    public static func seriesFromTheStart(
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
        _ = try? BodyPipeline.run(source: &replay, configuration: given, name: name) { snapshot in
            if snapshot.seconds < until, let sample = angleSample(of: snapshot) { earlier.append(sample) }
        }
        return earlier + series
    }

    /// The report's angle chart sample of a frame: the primary angle, when it is one in degrees.
    public static func angleSample(of snapshot: CoachSnapshot) -> ReportInput.AngleSample? {
        guard let degrees = snapshot.primaryAngle, snapshot.primaryAngleKind?.isDegrees == true else { return nil }
        return ReportInput.AngleSample(seconds: snapshot.seconds, degrees: degrees)
    }

    public static func loadLibrary(directory: String?) throws -> ExerciseLibrary {
        do {
            if let directory { return try ExerciseLibrary(directory: directory) }
            return try ExerciseLibrary.bundled()
        } catch {
            throw AnalysisError(error.description)
        }
    }

    /// The session settings of an analysis (the same for the counting pass, the drawing pass and the live coach);
    /// `recogniserFactors` replaces the recogniser's built-in factors (a development option of `analyze`).
    public static func sessionConfiguration(
        exercise: ExerciseDefinition?,
        library: ExerciseLibrary,
        width: Double,
        height: Double,
        recogniserFactors: ExerciseRecognizer.Scoring.Configuration? = nil
    ) -> CoachingSession.Configuration {
        var configuration = CoachingSession.Configuration.analysis(
            exercise: exercise,
            library: library.exercises,
            width: width,
            height: height
        )
        if let recogniserFactors { configuration.recognition.scoring = recogniserFactors }
        return configuration
    }

    /// The `--json` object (``CoachKit/SessionSummary/jsonText(file:prescribedReps:prescribedHoldSeconds:)``).
    public static func jsonText(
        _ summary: SessionSummary,
        file: String,
        prescribedReps: Int? = nil,
        prescribedHoldSeconds: Double? = nil
    ) throws -> String {
        try summary.jsonText(file: file, prescribedReps: prescribedReps, prescribedHoldSeconds: prescribedHoldSeconds)
    }
}

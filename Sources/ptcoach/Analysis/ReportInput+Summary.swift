import CoachKit
import MediaIO
import PoseKit

extension ReportInput {
    /// The report of one analysed recording: the session summary, the primary angle over time and the stills.
    init(
        summary: SessionSummary,
        file: String,
        exercise: ExerciseDefinition?,
        angleSeries: [AngleSample],
        stills: [Still],
        summaryJSON: String?
    ) {
        let name = summary.exerciseName ?? exercise?.name ?? "Movement"
        let repetitions = summary.repetitions.map { rep in
            let concentric = rep.tempo.concentricSeconds
            let eccentric = rep.tempo.eccentricSeconds
            let verdict: Verdict =
                !rep.safetyBreaches.isEmpty ? .unsafe : rep.verdict == .good ? .good : .needsWork
            return Repetition(
                index: rep.index,
                startSeconds: rep.startSeconds,
                endSeconds: rep.endSeconds,
                peakDegrees: rep.peakAngle,
                rangeOfMotion: rep.rangeOfMotion,
                tempoUpSeconds: concentric ?? rep.tempo.toPeakSeconds,
                tempoDownSeconds: eccentric ?? rep.tempo.fromPeakSeconds,
                verdict: verdict,
                issues: rep.issues.map(\.cue) + rep.safetyBreaches.map(\.warning)
            )
        }
        var events = summary.formIssues.map { Event(seconds: $0.seconds, text: $0.cue) }
        events += summary.safetyWarnings.map { Event(seconds: $0.seconds, text: $0.text, isSafety: true) }
        events.sort { $0.seconds < $1.seconds }
        let section = Exercise(
            name: name,
            angleName: exercise?.primaryAngle.displayName.capitalizingFirstLetter ?? "Angle",
            targetRange: exercise?.isHold == false ? 1...1.5 : nil,
            rangeOfMotionUnit: .fraction,
            targetDegrees: exercise?.target.map { $0.min...$0.max },
            prescribedReps: nil,
            repetitions: repetitions,
            angleSeries: angleSeries,
            events: events,
            stills: stills,
            holdSeconds: summary.holds.map(\.heldSeconds),
            holdTargetSeconds: summary.holds.first?.targetSeconds
        )
        let minutes = Int(summary.durationSeconds) / 60
        let seconds = Int(summary.durationSeconds) % 60
        self.init(
            title: "\(name): \(summary.reps) repetition\(summary.reps == 1 ? "" : "s")",
            subtitle: "\(file) · \(minutes):\(seconds < 10 ? "0" : "")\(seconds) recorded",
            exercises: [section],
            summaryJSON: summaryJSON
        )
    }
}

extension String {
    fileprivate var capitalizingFirstLetter: String { prefix(1).uppercased() + dropFirst() }
}

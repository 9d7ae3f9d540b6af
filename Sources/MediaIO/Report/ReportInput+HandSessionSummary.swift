public import CoachKit
public import PoseKit

extension ReportInput.Exercise {
    /// The report section for a hand exercise's summary: the primary measurement over time, then one chart per
    /// finger, and the repetitions with their range (rest to peak, in the measurement's unit), tempo, hold and cue.
    ///
    /// ```swift
    /// let section = ReportInput.Exercise(hand: session.summary(), exercise: fist, angleSeries: primary,
    ///                                    fingerSeries: perFinger)
    /// try ReportWriter.write(ReportInput(title: "Fist", exercises: [section]), to: "report.html")
    /// ```
    ///
    /// - Parameters:
    ///   - exercise: the definition followed (with the prescription's hold); without it (an exercise no longer in
    ///     the library) the section has no target and the repetitions' direction is read from their values.
    ///   - angleSeries: the primary measurement over time.
    ///   - fingerSeries: each finger's measurement over time (flexion, or the thumb's distance to it).
    public init(
        hand summary: HandSessionSummary,
        exercise: HandExerciseDefinition?,
        angleSeries: [ReportInput.AngleSample] = [],
        fingerSeries: [Finger: [ReportInput.AngleSample]] = [:],
        stills: [ReportInput.Still] = [],
        prescribedReps: Int? = nil
    ) {
        let repetitions = summary.repetitions.map { rep in
            let direction = exercise?.repetition.direction ?? (rep.peak >= rep.rest ? 1 : -1)
            let status: ReportInput.RangeStatus? = exercise?.target.map { target in
                let short = direction > 0 ? rep.peak < target.min : rep.peak > target.max
                return short ? .short : .within
            }
            return ReportInput.Repetition(
                index: rep.index,
                startSeconds: rep.startSeconds,
                endSeconds: rep.endSeconds,
                peakDegrees: rep.peak,
                rangeOfMotion: abs(rep.peak - rep.rest),
                tempoUpSeconds: rep.peakSeconds - rep.startSeconds,
                tempoDownSeconds: rep.endSeconds - rep.peakSeconds,
                heldSeconds: rep.heldSeconds,
                verdict: rep.verdict == .good ? .good : .needsWork,
                rangeStatus: status,
                issues: rep.issues
            )
        }
        let primary = summary.primary
        let name = primary.displayName
        self.init(
            name: summary.exerciseName,
            angleName: name.prefix(1).uppercased() + name.dropFirst() + (primary.isDegrees ? "" : " (hand lengths)"),
            targetRange: exercise.flatMap { e in
                e.target.map { _ in abs(e.repetition.peak - e.repetition.start) * 0.8...Double.infinity }
            },
            rangeOfMotionUnit: primary.isDegrees ? .degrees : .fraction,
            targetDegrees: exercise?.targetBand,
            prescribedReps: prescribedReps,
            prescribedHoldSeconds: exercise?.repetition.holdSeconds,
            repetitions: repetitions,
            angleSeries: angleSeries,
            events: summary.cues.filter { $0.kind == .form || $0.kind == .setup }.map {
                ReportInput.Event(seconds: $0.seconds, text: $0.text)
            },
            stills: stills
        )
        let targets = exercise?.fingerTargets
        let measure = targets?.measure ?? summary.fingers.first?.measure ?? .flexion
        for finger in Finger.allCases {
            guard let samples = fingerSeries[finger], !samples.isEmpty else { continue }
            let what =
                measure == .opposition
                ? "thumb to \(finger.rawValue) fingertip (hand lengths)"
                : "\(finger.rawValue) finger flexion (MCP+PIP+DIP)"
            let band: ClosedRange<Double>? = targets.flatMap { t in
                guard t.fingers.contains(finger) else { return nil }
                return (t.min ?? 0)...(t.max ?? 360)
            }
            moreSeries.append(
                .init(name: what.prefix(1).uppercased() + what.dropFirst(), samples: samples, target: band)
            )
        }
    }
}

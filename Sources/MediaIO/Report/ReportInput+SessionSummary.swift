public import CoachKit

extension ReportInput.Exercise {
    /// The report section for a coaching session's summary.
    ///
    /// Range of motion is the coach's fraction of the target excursion (1 = target reached), so the
    /// target is open-ended from 100 % ("≥ 100 %": going further is not a miss; a peak past the safe range
    /// shows as a safety warning). Tempo uses the concentric/eccentric halves when the exercise names
    /// them, else the halves to and from the peak. A repetition the camera view could not measure
    /// (``CoachKit/Repetition/measurementReliable``) has no range of motion here, so it is never "in target".
    ///
    /// ```swift
    /// let exercise = ReportInput.Exercise(summary: session.summary, angleSeries: samples, stills: stills)
    /// try ReportWriter.write(ReportInput(title: "Session report", exercises: [exercise]), to: "report.html")
    /// ```
    ///
    /// - Parameters:
    ///   - angleSeries: the primary angle per frame (from the snapshots), for the angle chart.
    ///   - targetDegrees: the primary angle's target band at the peak, shaded on the angle chart; by default
    ///     the definition's (a hold's: its first condition's band).
    ///   - prescribedHoldSeconds: how long each repetition is to be held at its peak; by default the
    ///     definition's (`repetition.holdSeconds`).
    ///   - definition: the exercise, when known: its primary angle names the angle chart, and a hold's
    ///     section reports the time held instead of repetitions.
    public init(
        summary: SessionSummary,
        prescribedReps: Int? = nil,
        prescribedHoldSeconds: Double? = nil,
        angleSeries: [ReportInput.AngleSample] = [],
        targetDegrees: ClosedRange<Double>? = nil,
        stills: [ReportInput.Still] = [],
        definition: ExerciseDefinition? = nil
    ) {
        let repetitions = summary.repetitions.map { rep in
            let verdict: ReportInput.Verdict =
                if !rep.safetyBreaches.isEmpty { .unsafe } else if rep.exercise == nil { .notJudged } else {
                    switch rep.verdict {
                    case .good: .good
                    case .needsWork: .needsWork
                    case .notChecked: .notChecked
                    }
                }
            // A peak the joint cannot reach (an elbow "flexed" 173°) is keypoints guessed, not a measurement: no peak,
            // no range against the target, as the text output says.
            let possible = rep.angles.first?.angle.anatomicalRange
            let impossible = rep.peakAngle.map { possible?.contains($0) == false } ?? false
            // The coach's own judgement of the range, so the report says what the text output says.
            let rangeStatus: ReportInput.RangeStatus? = rep.range.map {
                if impossible { return .notMeasurable }
                return switch $0.status {
                case .short: .short
                case .reached: .within
                case .beyond: .beyond
                case .notMeasurable: .notMeasurable
                }
            }
            var notes = rep.issues.map(\.cue) + rep.safetyBreaches.map(\.warning)
            if let reason = rep.uncheckedReason { notes.append("Not checked: \(reason)") }
            if impossible, let peak = rep.peakAngle {
                notes.append("Peak \(Int(peak.rounded()))° is past what the joint can do: not measured")
            }
            if rep.gapSeconds > 0 {
                let tenths = (rep.gapSeconds * 10).rounded()
                notes.append("Pose lost for \(Int(tenths) / 10).\(Int(tenths) % 10) s")
            }
            return ReportInput.Repetition(
                index: rep.index,
                startSeconds: rep.startSeconds,
                endSeconds: rep.endSeconds,
                peakDegrees: impossible ? nil : rep.peakAngle,
                // Not measurable from this camera view: no range of motion to judge, as the text output says.
                rangeOfMotion: rep.measurementReliable && rep.range?.status != .notMeasurable && !impossible
                    ? rep.rangeOfMotion : nil,
                tempoUpSeconds: rep.tempo.concentricSeconds ?? rep.tempo.fromPeakSeconds,
                tempoDownSeconds: rep.tempo.eccentricSeconds ?? rep.tempo.toPeakSeconds,
                heldSeconds: rep.tempo.atPeakSeconds,
                verdict: verdict,
                rangeStatus: rangeStatus,
                issues: notes
            )
        }
        let events =
            summary.formIssues.map { ReportInput.Event(seconds: $0.seconds, text: $0.cue) }
            + summary.safetyWarnings.map {
                ReportInput.Event(seconds: $0.seconds, text: Self.text(of: $0), isSafety: true)
            }
        let angleName =
            definition?.primaryAngle.displayName ?? summary.repetitions.first?.angles.first?.angle.displayName
            ?? "angle"
        self.init(
            name: summary.exerciseName ?? summary.exercise ?? "Unrecognised exercise",
            angleName: angleName.prefix(1).uppercased() + angleName.dropFirst(),
            // Movement counted without a recognised exercise has no target to reach.
            targetRange: summary.exercise == nil ? nil : 1.0...Double.infinity,
            rangeOfMotionUnit: .fraction,
            // No band to reach on the angle chart where no repetition's range could be measured.
            targetDegrees: summary.repetitions.allSatisfy({ $0.range?.status == .notMeasurable })
                && !summary.repetitions.isEmpty ? nil : targetDegrees ?? definition?.targetBand,
            prescribedReps: prescribedReps,
            prescribedHoldSeconds: prescribedHoldSeconds ?? definition?.repetition?.holdSeconds,
            repetitions: repetitions,
            angleSeries: angleSeries,
            events: events.sorted { $0.seconds < $1.seconds },
            stills: stills,
            holdSeconds: summary.holds.map(\.heldSeconds),
            holdTargetSeconds: summary.holds.first?.targetSeconds ?? definition?.hold?.seconds,
            isHold: definition?.isHold ?? false
        )
        formNotCheckedReason = summary.formNotCheckedReason
    }

    /// A safety crossing on the timeline: its words, with how far past the limit it went and for how long ("Don't
    /// lock your knees (peak 168°, limit 160°, 0.2 s)").
    static func text(of warning: SafetyWarning) -> String {
        guard let peak = warning.peak else { return warning.text }
        let unit = warning.angle.unit
        let duration = warning.durationSeconds.map { ", " + HTMLText.number($0, decimals: 1) + " s" } ?? ""
        return
            "\(warning.text) (peak \(HTMLText.number(peak))\(unit), limit \(HTMLText.number(warning.limit))\(unit)\(duration))"
    }
}

import CoachKit

/// The summary numbers of one exercise, computed once for the HTML and PDF reports.
struct ExerciseStatistics {
    let exercise: ReportInput.Exercise
    let repsDone: Int
    /// Repetitions whose range of motion reached the target range (their form aside), no safety limit crossed.
    let repsInTarget: Int
    /// Repetitions with a range of motion (the others were counted where the camera view cannot measure it).
    let repsMeasured: Int
    let meanRangeOfMotion: Double?
    let meanTempoUp: Double?
    let meanTempoDown: Double?
    /// The mean time held at the peak, over the repetitions where it was measured.
    let meanHeld: Double?
    let formIssueCount: Int
    let safetyCount: Int
    let durationSeconds: Double

    init(_ exercise: ReportInput.Exercise) {
        self.exercise = exercise
        repsDone = exercise.repetitions.count
        // Reached the range, whatever the form (not past a safety limit): raises to 140 % held too briefly at the
        // top read "0 reached the target range" beside an average range of motion of 140 %.
        repsInTarget =
            exercise.repetitions.filter { rep in
                guard rep.verdict != .unsafe else { return false }
                if let status = rep.rangeStatus { return status == .within }
                guard let rom = rep.rangeOfMotion, let target = exercise.targetRange else { return false }
                return target.contains(rom)
            }.count
        repsMeasured = exercise.repetitions.filter { $0.rangeOfMotion != nil }.count
        // As each repetition shows it (``shownRangeOfMotion(_:)``): at most 100 % of an open-ended target.
        let openEnded = Self.isOpenEnded(exercise)
        meanRangeOfMotion = Self.mean(
            exercise.repetitions.compactMap { $0.rangeOfMotion.map { openEnded ? min($0, 1) : $0 } }
        )
        meanTempoUp = Self.mean(exercise.repetitions.compactMap(\.tempoUpSeconds))
        meanTempoDown = Self.mean(exercise.repetitions.compactMap(\.tempoDownSeconds))
        meanHeld = Self.mean(exercise.repetitions.compactMap(\.heldSeconds))
        formIssueCount = exercise.events.filter { !$0.isSafety }.count
        safetyCount = exercise.events.filter(\.isSafety).count
        durationSeconds = max(
            exercise.angleSeries.last?.seconds ?? 0,
            exercise.repetitions.map(\.endSeconds).max() ?? 0,
            exercise.events.map(\.seconds).max() ?? 0
        )
    }

    static func mean(_ values: [Double]) -> Double? {
        values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
    }

    /// The repetition tables' cell for a time in seconds ("1.2 s"; "–" when not measured).
    static func secondsText(_ seconds: Double?) -> String {
        seconds.map { HTMLText.number($0, decimals: 1) + " s" } ?? "–"
    }

    /// The repetition tables' cell for how long the peak was held: "–" under a second (a turn at the peak, no
    /// pause there), as the text output says nothing then.
    static func heldText(_ rep: ReportInput.Repetition) -> String {
        secondsText(rep.heldSeconds.flatMap { $0 >= 1 ? $0 : nil })
    }

    /// Green within the target range, amber short of or beyond it (or judged as needing work), red
    /// when a safety limit was crossed; a repetition whose range was not measured is "good form", "not checked"
    /// or amber, never "in target".
    static func status(of rep: ReportInput.Repetition, in exercise: ReportInput.Exercise) -> ReportStatus {
        if rep.verdict == .unsafe { return .unsafe }
        if rep.verdict == .notJudged { return .unknown }
        // The coach's judgement of the range when it made one (the text output's), else from the fraction.
        let range: ReportInput.RangeStatus? =
            rep.rangeStatus
            ?? rep.rangeOfMotion.flatMap { rom in
                exercise.targetRange.map { rom < $0.lowerBound ? .short : rom > $0.upperBound ? .beyond : .within }
            }
        // Short of the target says so; a repetition that reached it, or has no range to judge, but whose form was
        // flagged (a hold at the peak too short, a rounded back) needs work: it was called "short".
        switch range {
        case .short?: return .short
        case .beyond?: return .beyond
        case .within?: return rep.verdict == .needsWork ? .needsWork : .within
        case .notMeasurable?, nil:
            return rep.verdict == .good ? .goodForm : rep.verdict == .notChecked ? .notChecked : .needsWork
        }
    }

    /// The tempo card's note: the halves, and the time held at the peak when it was held (a second or more on
    /// average) or a hold was prescribed ("lowering / lifting, held 5.2 s of 5 s").
    var tempoNote: String {
        var note = "lowering / lifting"
        let prescribed = exercise.prescribedHoldSeconds
        if let held = meanHeld, held >= 1 || prescribed != nil {
            note += ", held " + HTMLText.number(held, decimals: 1) + " s"
            // As the coach says it: "of 5 s", "of 2.5 s".
            if let prescribed { note += " of " + CoachingSession.secondsText(prescribed) + " s" }
        }
        return note
    }

    /// The tempo card's colour: amber when the peak is held shorter than prescribed (by the same half second
    /// the coach allows each repetition), green when as long; neutral with no hold prescribed.
    var tempoStatus: ReportStatus {
        guard let prescribed = exercise.prescribedHoldSeconds, let held = meanHeld else { return .unknown }
        return held >= prescribed - CoachingSession.holdSlackSeconds ? .within : .short
    }

    /// "target 90–120°" (the band the peak angle should reach, as the text output says it; else "≥ 100 %"), and
    /// how many repetitions could not be measured.
    var inTargetNote: String? {
        guard let target = targetText else { return nil }
        let unmeasured = repsDone - repsMeasured
        let degrees = exercise.targetDegrees.flatMap { band in
            exercise.rangeOfMotionUnit == .fraction
                ? "\(HTMLText.number(band.lowerBound))–\(HTMLText.number(band.upperBound))°" : nil
        }
        return "target \(degrees ?? target)" + (unmeasured > 0 ? ", \(unmeasured) not measurable" : "")
    }

    /// A repetition's range of motion in the tables and on the chart: as the coach says it, a percentage up to
    /// 100 (past the target, the peak angle beside it says how far), "–" when not measured.
    func rangeOfMotionCell(_ rep: ReportInput.Repetition) -> String {
        shownRangeOfMotion(rep).map(formatRangeOfMotion) ?? "–"
    }

    /// The range of motion shown for a repetition: against an open-ended fraction target ("≥ 100 %"), at most 1;
    /// how far past it the peak went is the peak angle's to say, and the status's colour.
    func shownRangeOfMotion(_ rep: ReportInput.Repetition) -> Double? {
        rep.rangeOfMotion.map { Self.isOpenEnded(exercise) ? min($0, 1) : $0 }
    }

    private static func isOpenEnded(_ exercise: ReportInput.Exercise) -> Bool {
        exercise.rangeOfMotionUnit == .fraction && exercise.targetRange?.upperBound.isFinite == false
    }

    /// Whether no repetition's form could be checked (each "not checked" or not judged, or none counted): then "no
    /// form issues" would read as praise for what nobody looked at. A hold is judged by its time, not its form.
    var formNotChecked: Bool {
        if exercise.isHold { return false }
        return exercise.formNotCheckedReason != nil
            || exercise.repetitions.allSatisfy { $0.verdict == .notChecked || $0.verdict == .notJudged }
    }

    /// "form not checked: <reason>" (the summary's reason; else what the repetitions say), when ``formNotChecked``.
    var formNotCheckedText: String {
        let reason =
            exercise.formNotCheckedReason
            ?? (exercise.repetitions.isEmpty
                ? "no repetitions counted"
                : exercise.repetitions.allSatisfy { $0.verdict == .notJudged } ? "no exercise recognised" : nil)
        return "form not checked" + (reason.map { ": \($0)" } ?? "")
    }

    /// The form issues card: the moments flagged, or "not checked" (neutral) when no repetition's form was.
    var formIssuesCard: (value: String, note: String, status: ReportStatus) {
        formNotChecked
            ? ("–", formNotCheckedText, .unknown)
            : ("\(formIssueCount)", "moments flagged", formIssueCount == 0 ? .within : .short)
    }

    /// The status of the whole set's rep count.
    var repCountStatus: ReportStatus {
        guard let prescribed = exercise.prescribedReps else { return .unknown }
        return repsDone >= prescribed ? .within : .short
    }

    /// A range-of-motion value with its unit ("97°", "85 %").
    func formatRangeOfMotion(_ value: Double) -> String {
        switch exercise.rangeOfMotionUnit {
        case .degrees: HTMLText.number(value) + "°"
        case .fraction: HTMLText.number(value * 100) + " %"
        }
    }

    /// The target range with its unit ("90–120°", or "≥ 100 %" when it has no upper end).
    var targetText: String? {
        guard let target = exercise.targetRange else { return nil }
        guard target.upperBound.isFinite else { return "≥ " + formatRangeOfMotion(target.lowerBound) }
        switch exercise.rangeOfMotionUnit {
        case .degrees: return "\(HTMLText.number(target.lowerBound))–\(HTMLText.number(target.upperBound))°"
        case .fraction:
            return "\(HTMLText.number(target.lowerBound * 100))–\(HTMLText.number(target.upperBound * 100)) %"
        }
    }

    /// One plain sentence a patient reads first.
    var headline: String {
        var parts: [String] = []
        if exercise.isHold {
            let target = exercise.holdTargetSeconds.map { " of \(HTMLText.number($0)) s" } ?? ""
            parts.append(
                exercise.holdSeconds.max().map { "Longest hold \(HTMLText.number($0, decimals: 1)) s\(target)" }
                    ?? "The position was not held"
            )
        } else if let prescribed = exercise.prescribedReps {
            parts.append("\(repsDone) of \(prescribed) repetitions done")
        } else {
            parts.append("\(repsDone) repetition\(repsDone == 1 ? "" : "s") done")
        }
        if exercise.targetRange != nil, repsDone > 0 {
            parts.append(
                repsMeasured == 0
                    ? "range of motion not measurable from this camera view"
                    : repsMeasured < repsDone
                        ? "\(repsInTarget) of the \(repsMeasured) measured reached the target range"
                        : "\(repsInTarget) reached the target range"
            )
        }
        if safetyCount > 0 {
            parts.append("\(safetyCount) safety warning\(safetyCount == 1 ? "" : "s")")
        } else if formNotChecked {
            parts.append(formNotCheckedText)
        } else if formIssueCount == 0 {
            parts.append("no form issues")
        }
        return parts.joined(separator: "; ") + "."
    }
}

public import CoachKit
import CoachPipeline
import Foundation
import PoseKit

extension BodyAnalysis {
    /// Why a repetition of an exercise the coach could not tell is not judged.
    public static let unsureReason = "the exercise is not known: pick it"

    public static func report(
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
        lines += summary.repetitions.map { repetitionLine($0, unsure: unsure) }
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

    /// One repetition's line of the text report: its time, range, verdict and first issue.
    private static func repetitionLine(_ rep: Repetition, unsure: Bool) -> String {
        func f(_ x: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", x) }
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
            return line
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
        return line
    }
}

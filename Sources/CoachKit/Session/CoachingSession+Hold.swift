import PoseKit

/// The session's holds: an exercise held (a plank, a wall sit; given, or recognised) timed while its conditions are
/// met, and a prescribed hold at a repetition's peak. The only file that writes ``holdTimer``.
extension CoachingCore {
    // MARK: - Holds

    /// A hold's angle on the left and on the right (`nil` where not measured): from the exercise given's own
    /// measurements, or, for a hold recognised with no exercise given, from the recogniser's latest sample
    /// (`sample`, `nil` before the first; in the image plane unless the depth is trusted, as the repetitions are
    /// measured).
    private func holdAngle(
        _ angle: AngleKind,
        of exercise: ExerciseDefinition,
        sample: [Double]?
    ) -> (left: Double?, right: Double?) {
        if mode.isRecognised { return recognizedAngle(angle, in: sample) }
        guard let a = exercise.angles.firstIndex(of: angle) else { return (nil, nil) }
        return angles.leftAndRight(ofAngle: a)
    }

    /// Times the hold of `exercise` in this frame (`valid`: the person measurable and settled): its progress, the
    /// cue of a condition not met, the praise once the target is reached. `sample`: the recogniser's latest, with no
    /// exercise given (a hold recognised is measured on it).
    mutating func updateHold(
        _ exercise: ExerciseDefinition,
        valid: Bool,
        dt: Double,
        at t: Double,
        recogniserSample sample: [Double]?
    ) {
        guard let hold = exercise.hold else { return }
        var failing: String?
        if valid {
            for condition in hold.conditions {
                let (l, r) = holdAngle(condition.angle, of: exercise, sample: sample)
                if !condition.isMet(on: exercise.side, left: l, right: r) {
                    failing = condition.cue
                    break
                }
            }
        }
        let holding = valid && failing == nil
        let (primaryL, primaryR) = holdAngle(hold.conditions[0].angle, of: exercise, sample: sample)
        // Drawn at the joint of the side the value comes from, as for a repetition.
        let holdSide: BodySide? = !hold.conditions[0].angle.isSided ? nil : primaryL == nil ? .right : .left
        showAngle(
            primaryL ?? primaryR,
            side: holdSide,
            joint: hold.conditions[0].angle.vertexJoint(side: holdSide ?? .left)
        )
        // A hold recognised late began where the 10-Hz ring shows its conditions met.
        let start: Double? =
            holding && !holdTimer.isTiming && mode.isRecognised
            ? recognizedHoldStart(exercise, hold, at: t) : nil
        switch holdTimer.ingest(holding: holding, startingAt: start, dt: dt, at: t, target: hold.seconds) {
        case .held(let progress, let reachedTarget):
            if let progress { emit(.holdProgress(progress)) }
            if reachedTarget { offer(Cue(kind: .encouragement, text: exercise.praise, seconds: t)) }
        case .released(let progress):
            emit(.holdProgress(progress))
        case nil:
            break
        }
        if !holding, let failing, valid {
            offer(Cue(kind: .setup, text: failing, priority: Tuning.holdConditionCuePriority, seconds: t))
        }
        let held = holdTimer.heldSeconds
        showHold(HoldProgress(heldSeconds: held, targetSeconds: hold.seconds, holding: holding))
        showProgress(min(1, held / hold.seconds))
    }

    /// `angle` on the left and on the right in the recogniser's `sample` (`nil` where not measured, or no sample yet):
    /// in the image plane unless the depth is trusted, as with an exercise given. Inlined (see
    /// ``CoachingSession/primaryValue(side:)``).
    @inline(__always)
    func recognizedAngle(_ angle: AngleKind, in sample: [Double]?) -> (left: Double?, right: Double?) {
        guard let sample else { return (nil, nil) }
        let k =
            ExerciseRecognizer.index(angle) * 2 + (setUp.depthTrusted != true ? ExerciseRecognizer.flatAngleBase : 0)
        // The recogniser's sample has NaN where an angle is not measured.
        return (sample[k].isNaN ? nil : sample[k], sample[k + 1].isNaN ? nil : sample[k + 1])
    }

    /// A hold recognised ends with its segment, when another exercise (or none) is recognised.
    mutating func endHold(_ hold: ExerciseDefinition.HoldSpec) {
        holdTimer.end(target: hold.seconds)
        showHold(nil)
    }

    /// With no exercise given, a hold is named seconds after it began (the recogniser decides over a window):
    /// it is timed from where the 10-Hz ring shows its conditions met without a break up to now (a 12-s wall sit
    /// was timed 5.6 s).
    private func recognizedHoldStart(
        _ exercise: ExerciseDefinition,
        _ hold: ExerciseDefinition.HoldSpec,
        at t: Double
    ) -> Double {
        var start = t
        var index = ring.next
        for _ in 0..<ring.count {
            index = index == 0 ? ring.capacity - 1 : index - 1
            // A stretch without samples (the person not seen or not steady) ends it.
            guard start - ring.times[index] <= Tuning.holdSampleGapSeconds,
                ring.meets(hold, of: exercise, sample: index, imagePlane: setUp.depthTrusted != true)
            else { break }
            start = ring.times[index]
        }
        return start
    }

    // MARK: - A hold at the peak

    /// A prescribed hold at the peak, live: how long the repetition under way has been held there (the overlay
    /// counts it), and once it is long enough, a cue to come back.
    mutating func updatePeakHold(counter c: Int, target: Double, at t: Double) {
        // From half a second on: on the way up the angle is always near its highest value so far.
        guard let since = counting.heldAtPeakSince(counter: c), t - since >= CoachingSession.shownHoldSeconds
        else {
            showPeakHold(nil)
            return
        }
        let held = t - since
        showPeakHold(HoldProgress(heldSeconds: held, targetSeconds: target, holding: true))
        if held >= target, holdTimer.reachesPeakHold(since: since) {
            say(Cue(kind: .timing, text: "\(CoachingSession.secondsText(target)) s: now come back slowly", seconds: t))
        }
    }
}

extension CoachingSession {
    /// The overlay counts a hold at the peak from this long: a turn at the peak is no hold.
    static let shownHoldSeconds = 0.5

    /// How much shorter than prescribed a hold at the peak may be: the plateau is found to about a tenth of a
    /// second at each end, and nobody counts seconds exactly.
    public static let holdSlackSeconds = 0.5

    /// Seconds for a cue or a prescription: whole when whole ("5"), else to a tenth ("2.5").
    public static func secondsText(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String((seconds * 10).rounded() / 10)
    }
}

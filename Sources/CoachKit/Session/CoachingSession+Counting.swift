import PoseKit

/// The session's counting with an exercise given (the primary angle's counters, the fallback signals), the
/// repetitions completed, safety limits and holds.
extension CoachingSession {
    // MARK: - Counting

    mutating func count(_ exercise: ExerciseDefinition, valid: Bool, at t: Double, pose: Pose) {
        guard let spec = exercise.repetition else { return }
        if valid { updateSlotSeen(pose) }
        // 10-Hz ring of this exercise's angles, for repetitions counted from the movement.
        if valid, ring.isDue(at: t), ring.capacity > 0 {
            let i = ring.beginSample(at: t)
            // Only angles whose joints are seen, as for the angle counter's repetitions.
            for (a, angle) in exercise.angles.enumerated() {
                let k = ExerciseRecognizer.index(angle) * 2
                let left = angles.seenValue(AngleSlot(angle: a, side: .left)) ?? .nan
                ring[sample: i, slot: k] = left
                ring[sample: i, slot: k + 1] =
                    angle.isSided ? (angles.seenValue(AngleSlot(angle: a, side: .right)) ?? .nan) : left
            }
        }
        let frame = RepetitionCounting.Frame(
            pose: pose,
            seconds: t,
            valid: valid,
            hasDepth: hasDepth,
            depthUnjudged: setUp.depthTrusted == nil,
            measuredSide: measuresOneSide ? measuredSide : nil
        )
        record(
            counting.ingest(
                frame,
                angles: &angles,
                imagePlane: &imagePlaneAngles,
                presence: setUp.presence,
                counted: log.countedSpans
            ),
            exercise: exercise
        )
        guard let best = counting.workingCounter else { return }
        let workingSide = counting.side(ofCounter: best)
        snapshot.side = workingSide
        // Until the depth verdict, the image plane's numbers: what the repetitions are measured in when the
        // depth proves a guess (every video so far), so that the overlay does not show a guessed-depth angle
        // (a curl's 153° read 77°) that the summary then reports otherwise.
        let imagePlane = setUp.depthTrusted == nil && hasDepth
        snapshot.primaryAngle = imagePlane ? flatPrimaryValue(side: workingSide) : primaryValue(side: workingSide)
        snapshot.rangeOfMotionProgress = counting.progress(ofCounter: best, imagePlane: imagePlane)
        snapshot.primaryJoint = exercise.primaryAngle.vertexJoint(side: workingSide ?? .left)
        if let target = spec.holdSeconds {
            updatePeakHold(counter: counting.countingCounter ?? best, target: target, at: t)
        }
    }

    /// Measures, judges and records, in order, what ``counting`` emitted: repetitions of the primary angle (judged on
    /// their statistics), those of a fallback signal (measured as the movement's, as `exercise` when one is known),
    /// and the revisions.
    mutating func record(_ counted: [RepetitionCounting.Event], exercise: ExerciseDefinition?) {
        var recounting = false
        for event in counted {
            switch event {
            case .completed(let completed, let side, let statistics):
                guard let exercise else { continue }
                let repetition = judge.judge(
                    completed,
                    side: side,
                    exercise: exercise,
                    statistics: statistics,
                    context: measurementContext,
                    recounting: recounting,
                    index: repetitions.count + 1,
                    breaches: safety.pendingBreaches,
                    gapSeconds: gapSeconds(from: completed.startSeconds, to: completed.endSeconds)
                )
                safety.clearBreaches()
                recordRepetition(repetition, at: completed.endSeconds)
            case .counted(let rep):
                completeAgnostic(rep, exercise: exercise)
            case .replaced(let reps):
                withdrawRepetitions()
                for rep in reps { completeAgnostic(rep, exercise: exercise) }
            case .recounting:
                withdrawRepetitions()
                snapshot.repCount = 0
                recounting = true
            }
        }
    }

    /// A prescribed hold at the peak, live: how long the repetition under way has been held there (the overlay
    /// counts it), and once it is long enough, a cue to come back.
    private mutating func updatePeakHold(counter c: Int, target: Double, at t: Double) {
        // From half a second on: on the way up the angle is always near its highest value so far.
        guard let since = counting.heldAtPeakSince(counter: c), t - since >= Self.shownHoldSeconds
        else {
            snapshot.peakHold = nil
            return
        }
        let held = t - since
        snapshot.peakHold = HoldProgress(heldSeconds: held, targetSeconds: target, holding: true)
        if held >= target, since != peakHoldReachedSince {
            peakHoldReachedSince = since
            let cue = Cue(kind: .timing, text: "\(Self.secondsText(target)) s: now come back slowly", seconds: t)
            if let given = cues.offer(cue) { give(given) }
        }
    }

    /// Forgets the repetitions so far, which a recount is about to replace (``SessionLog/withdrawRepetitions()``),
    /// and a cue about them still waiting is not given.
    mutating func withdrawRepetitions() {
        if !repetitions.isEmpty { events.append(.repetitionsRevised([])) }
        cues.withdrawPending(where: SessionLog.isAboutRepetitions)
        log.withdrawRepetitions()
    }

    /// The overlay counts a hold at the peak from this long: a turn at the peak is no hold.
    static let shownHoldSeconds = 0.5

    /// How much shorter than prescribed a hold at the peak may be: the plateau is found to about a tenth of a
    /// second at each end, and nobody counts seconds exactly.
    public static let holdSlackSeconds = 0.5

    /// Seconds for a cue or a prescription: whole when whole ("5"), else to a tenth ("2.5").
    public static func secondsText(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String((seconds * 10).rounded() / 10)
    }

    mutating func recordRepetition(_ repetition: Repetition, at t: Double) {
        log.record(repetition, at: t)
        recognised?.replay.pending = true
        snapshot.repCount = repetitions.count
        events.append(.repCompleted(repetition))
        // An exercise recognised below the fitted confidence is not one to praise or correct by: the coach says it
        // cannot tell which it is (RecognitionConfidence), so it only counts.
        let unsure = mode.isRecognised && snapshot.recognitionUnsure
        if let issue = repetition.issues.first, !unsure {
            _ = cues.offer(Cue(kind: .form, text: issue.cue, priority: issue.priority, seconds: t))
        } else if repetition.safetyBreaches.isEmpty {
            // The exercise's own praise; a repetition whose form was not checked (no exercise recognised, a view
            // that does not suit it, an exercise recognised too unsurely) is counted aloud instead of praised.
            let praise =
                repetition.verdict == .notChecked || unsure
                ? "Rep \(repetitions.count)"
                : mode.exercise?.praise ?? recognizedExercise?.praise ?? "Good rep!"
            _ = cues.offer(Cue(kind: .encouragement, text: praise, seconds: t))
        }
    }

    // MARK: - Safety

    mutating func checkSafety(at t: Double) {
        guard !safety.limits.isEmpty else { return }
        var anyActive = false
        for slot in safety.slots.indices {
            let value = angles.value(AngleSlot(index: safety.slots[slot].value)) ?? .nan
            switch safety.ingest(slot: slot, value: value, at: t) {
            case .within: break
            case .beyond: anyActive = true
            case .breached(let warning):
                anyActive = true
                events.append(.warning(warning))
                if let cue = cues.offer(Cue(kind: .safety, text: warning.text, seconds: t)) { give(cue) }
                snapshot.safetyWarning = warning.text
            }
        }
        if !anyActive, snapshot.safetyWarning != nil { snapshot.safetyWarning = nil }
    }

    // MARK: - Holds

    /// A hold's angle on the left and on the right (NaN where not measured): from the exercise given's own
    /// measurements, or, for a hold recognised with no exercise given, from the recogniser's latest sample
    /// (in the image plane unless the depth is trusted, as the repetitions are measured).
    private func holdAngle(_ angle: AngleKind, of exercise: ExerciseDefinition) -> (left: Double, right: Double) {
        if mode.isRecognised { return recognizedAngle(angle) }
        guard let a = exercise.angles.firstIndex(of: angle) else { return (.nan, .nan) }
        return angles.leftAndRight(ofAngle: a)
    }

    mutating func updateHold(_ exercise: ExerciseDefinition, valid: Bool, dt: Double, at t: Double) {
        guard let hold = exercise.hold else { return }
        var failing: String?
        if valid {
            for condition in hold.conditions {
                let (l, r) = holdAngle(condition.angle, of: exercise)
                if !condition.isMet(on: exercise.side, left: l, right: r) {
                    failing = condition.cue
                    break
                }
            }
        }
        let holding = valid && failing == nil
        let (primaryL, primaryR) = holdAngle(hold.conditions[0].angle, of: exercise)
        snapshot.primaryAngle = primaryL.isNaN ? (primaryR.isNaN ? nil : primaryR) : primaryL
        // Drawn at the joint of the side the value comes from, as for a repetition.
        let holdSide: BodySide? = !hold.conditions[0].angle.isSided ? nil : primaryL.isNaN ? .right : .left
        snapshot.side = holdSide
        snapshot.primaryJoint = hold.conditions[0].angle.vertexJoint(side: holdSide ?? .left)
        // A hold recognised late began where the 10-Hz ring shows its conditions met.
        let start: Double? =
            holding && !holdTimer.isTiming && mode.isRecognised
            ? recognizedHoldStart(exercise, hold, at: t) : nil
        switch holdTimer.ingest(holding: holding, startingAt: start, dt: dt, at: t, target: hold.seconds) {
        case .held(let progress, let reachedTarget):
            if let progress { events.append(.holdProgress(progress)) }
            if reachedTarget {
                _ = cues.offer(Cue(kind: .encouragement, text: exercise.praise, seconds: t))
            }
        case .released(let progress):
            events.append(.holdProgress(progress))
        case nil:
            break
        }
        if !holding, let failing, valid {
            _ = cues.offer(Cue(kind: .setup, text: failing, priority: Tuning.holdConditionCuePriority, seconds: t))
        }
        let held = holdTimer.heldSeconds
        snapshot.hold = HoldProgress(heldSeconds: held, targetSeconds: hold.seconds, holding: holding)
        snapshot.rangeOfMotionProgress = min(1, held / hold.seconds)
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
}

import PoseKit

/// What the session tells: this frame's events, the cues (one at a time, ``CueScheduler``), the overlay's
/// ``CoachSnapshot`` and the ``SessionLog`` the summary is made of.
///
/// The only file that writes them (``Output``): the session's other files report what they found through the methods
/// here, so that what the person sees and hears, and why then, is decided in one place. The set-up sentence ("Step
/// back so that your knees are in the picture…") comes from ``SetUpCheck`` and is shown by ``show(_:at:)``.
extension CoachingSession {
    /// The session's output, written by this file's methods only.
    struct Output: Sendable {
        /// The state for the overlay after the latest frame.
        var snapshot = CoachSnapshot()
        /// This frame's events (the buffer is reused).
        var events: [CoachEvent] = []
        /// What is said when.
        var cues: CueScheduler
        /// The repetitions, form issues, cues and segments, for the summary.
        var log = SessionLog()
        /// The praise of the exercise coached (given, or recognised: ``showRecognised(_:decision:confidence:)``).
        var praise: String?
        /// Whether a repetition was recorded since ``CoachingCore/takeRepetitionRecorded()`` (with no exercise given,
        /// the replay's measurements are then adopted at the frame's end).
        var repetitionRecorded = false
    }
}

extension CoachingCore {
    // MARK: - The frame

    /// Lets go of last frame's events (keeping their buffer).
    mutating func clearEvents() {
        if !output.events.isEmpty { output.events.removeAll(keepingCapacity: true) }
    }

    /// Lets go of the pose shown, so that the smoother can reuse its buffer.
    mutating func releasePose() {
        output.snapshot.pose = nil
    }

    /// The frame's time and pose (`nil`: nobody) on the overlay.
    mutating func showFrame(at t: Double, pose: Pose?) {
        output.snapshot.seconds = t
        output.snapshot.pose = pose
    }

    mutating func emit(_ event: CoachEvent) {
        output.events.append(event)
    }

    /// The end of a frame: the cue whose turn it is is given, and the overlay shows the latest for a while.
    mutating func finishFrame(at t: Double) {
        if let cue = output.cues.ingest(at: t) { give(cue) }
        if let current = output.cues.current, t - current.seconds <= Tuning.cueShownSeconds {
            output.snapshot.cueText = current.text
            output.snapshot.cueKind = current.kind
        } else if output.snapshot.cueText != nil {
            output.snapshot.cueText = nil
            output.snapshot.cueKind = nil
        }
    }

    // MARK: - Cues

    /// Gives `cue` now: as an event, and in the log.
    mutating func give(_ cue: Cue) {
        output.events.append(.cue(cue))
        output.log.log(cue)
    }

    /// Offers `cue` to the scheduler, which says it in its turn (a cue it would give at once waits for the frame's
    /// end).
    mutating func offer(_ cue: Cue) {
        _ = output.cues.offer(cue)
    }

    /// Offers `cue` and gives it at once when the scheduler lets it be said now (a safety warning, a hold's timing).
    mutating func say(_ cue: Cue) {
        if let given = output.cues.offer(cue) { give(given) }
    }

    /// Shows the set-up guidance that changed: its sentence on the overlay, as an event and as a cue.
    mutating func show(_ guidance: SetUpCheck.Guidance, at t: Double) {
        let text = guidance.issue?.sentence
        output.snapshot.setupGuidance = text
        if let text {
            output.events.append(.setupGuidance(text))
            _ = output.cues.offer(Cue(kind: .setup, text: text, seconds: t))
        }
    }

    /// A limit crossed: the warning as an event, said at once, and on the overlay.
    mutating func warn(_ warning: SafetyWarning, at t: Double) {
        output.events.append(.warning(warning))
        say(Cue(kind: .safety, text: warning.text, seconds: t))
        output.snapshot.safetyWarning = warning.text
    }

    /// No limit crossed in this frame: the overlay's warning goes.
    mutating func clearSafetyWarning() {
        if output.snapshot.safetyWarning != nil { output.snapshot.safetyWarning = nil }
    }

    // MARK: - The overlay

    /// Whether the overlay shows the range gauge (``SetUpCheck/Check/rangeMeasurable``).
    mutating func showRangeMeasurable(_ measurable: Bool) {
        output.snapshot.rangeMeasurable = measurable
    }

    /// The primary angle on the overlay: its value, the side it is measured on and the joint it is drawn at.
    mutating func showAngle(_ angle: Double?, side: BodySide?, joint: Joint?) {
        output.snapshot.primaryAngle = angle
        output.snapshot.side = side
        output.snapshot.primaryJoint = joint
    }

    /// How far the repetition under way (or the hold) has come (0...1).
    mutating func showProgress(_ progress: Double) {
        output.snapshot.rangeOfMotionProgress = progress
    }

    /// A prescribed hold at the peak being held (`nil`: none).
    mutating func showPeakHold(_ progress: HoldProgress?) {
        output.snapshot.peakHold = progress
    }

    /// The hold being timed (`nil`: none).
    mutating func showHold(_ progress: HoldProgress?) {
        output.snapshot.hold = progress
    }

    mutating func showRepCount(_ count: Int) {
        output.snapshot.repCount = count
    }

    /// The confidence of the exercise recognised, which a decision confirmed.
    mutating func showConfidence(_ confidence: Double) {
        output.snapshot.confidence = confidence
    }

    /// A decision that recognised nothing: shown, and reported when it changed.
    mutating func showNothingRecognised(_ decision: RecognitionState) {
        if output.snapshot.recognition != decision {
            output.snapshot.recognition = decision
            output.events.append(.recognized(decision))
        }
    }

    /// The exercise recognised is now `exercise` (`nil`: none), by `decision`: shown and reported.
    mutating func showRecognised(_ exercise: ExerciseDefinition?, decision: RecognitionState, confidence: Double) {
        output.snapshot.recognition = decision
        output.snapshot.confidence = confidence
        output.snapshot.exerciseID = exercise?.id
        output.snapshot.exerciseName = exercise?.name
        output.snapshot.primaryAngleKind = exercise?.primaryAngle
        output.snapshot.targetRange = exercise?.targetBand
        output.praise = exercise?.praise
        output.events.append(.recognized(decision))
    }

    // MARK: - Repetitions

    /// Records a repetition completed: counted on the overlay, reported, and praised or corrected in its turn.
    mutating func recordRepetition(_ repetition: Repetition, at t: Double) {
        output.log.record(repetition, at: t)
        output.repetitionRecorded = true
        output.snapshot.repCount = repetitions.count
        output.events.append(.repCompleted(repetition))
        // An exercise recognised below the fitted confidence is not one to praise or correct by: the coach says it
        // cannot tell which it is (RecognitionConfidence), so it only counts.
        let unsure = mode.isRecognised && output.snapshot.recognitionUnsure
        if let issue = repetition.issues.first, !unsure {
            _ = output.cues.offer(Cue(kind: .form, text: issue.cue, priority: issue.priority, seconds: t))
        } else if repetition.safetyBreaches.isEmpty {
            // The exercise's own praise; a repetition whose form was not checked (no exercise recognised, a view
            // that does not suit it, an exercise recognised too unsurely) is counted aloud instead of praised.
            let praise =
                repetition.verdict == .notChecked || unsure
                ? "Rep \(repetitions.count)"
                : output.praise ?? "Good rep!"
            _ = output.cues.offer(Cue(kind: .encouragement, text: praise, seconds: t))
        }
    }

    /// Whether a repetition was recorded since the last call, which clears it.
    mutating func takeRepetitionRecorded() -> Bool {
        defer { output.repetitionRecorded = false }
        return output.repetitionRecorded
    }

    /// Forgets the repetitions so far, which a recount is about to replace (``SessionLog/withdrawRepetitions()``),
    /// and a cue about them still waiting is not given.
    mutating func withdrawRepetitions() {
        if !repetitions.isEmpty { output.events.append(.repetitionsRevised([])) }
        output.cues.withdrawPending(where: SessionLog.isAboutRepetitions)
        output.log.withdrawRepetitions()
    }

    /// The repetition at `i` is now `judged` (measured again, or as the exercise recognised measured it).
    mutating func replaceRepetition(_ i: Int, with judged: Repetition, at t: Double) {
        output.log.replace(i, with: judged, at: t)
    }

    /// The count agrees with another: the repetitions at `withdrawn` go, `earlier` ones come in front
    /// (``SessionLog/recount(withdrawing:adding:at:)``), and a form cue or praise waiting for its turn, about a
    /// repetition withdrawn or renumbered ("Rep 1"), is not given.
    mutating func recountRepetitions(withdrawing withdrawn: Set<Int>, adding earlier: [Repetition], at t: Double) {
        output.cues.withdrawPending(where: SessionLog.isAboutRepetitions)
        output.log.recount(withdrawing: withdrawn, adding: earlier, at: t)
    }

    /// Reports that repetitions reported before changed: the events of this frame say them revised, then the last
    /// `completedNow` (completed in this frame) as completed, so that the events folded are ``repetitions``.
    mutating func reportRevision(completedNow: Int) {
        output.events.removeAll { if case .repCompleted = $0 { true } else { false } }
        output.events.append(.repetitionsRevised(Array(repetitions.dropLast(completedNow))))
        output.events += repetitions.suffix(completedNow).map(CoachEvent.repCompleted)
    }

    /// The repetitions completed in this frame (the last `reportedNow`) changed before they were reported: their
    /// events carry them as they are now.
    mutating func updateReported(_ reportedNow: Int) {
        var k = repetitions.count - reportedNow
        for e in output.events.indices {
            guard case .repCompleted = output.events[e] else { continue }
            output.events[e] = .repCompleted(repetitions[k])
            k += 1
        }
    }

    /// Closes the segment of the exercise recognised so far (`id`, `nil`: none) at `t`.
    mutating func closeSegment(at t: Double, exercise id: String?, confidence: Double) {
        output.log.closeSegment(at: t, exercise: id, confidence: confidence, recordingStart: clock.first ?? 0)
    }

    /// Shows `repetition` as the provisional one (none: `nil`) instead of `shownBefore`, with the events that say so:
    /// the one shown before ends, confirmed or withdrawn, unless `repetition` replaces it (same times, or a later one
    /// while it is not confirmed). The caller keeps `repetition` as the one shown.
    mutating func showProvisional(_ repetition: Repetition?, replacing shownBefore: Repetition?) {
        guard repetition != shownBefore else { return }
        if let shown = shownBefore, repetition.map({ !CoachingSession.sameTimes($0, shown) }) ?? true {
            let confirmed = repetitions.count >= shown.index
            if confirmed || repetition == nil {
                output.events.append(.provisionalRepetitionEnded(confirmed: confirmed))
            }
        }
        if let repetition { output.events.append(.provisionalRepetition(repetition)) }
        output.snapshot.provisionalReps = repetition == nil ? 0 : 1
    }
}

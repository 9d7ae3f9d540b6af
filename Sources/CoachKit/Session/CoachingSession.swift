public import PoseKit

/// The coach for one person in one session: from pose frames to repetitions, angles, form verdicts and
/// cues.
///
/// A synchronous state machine. Each frame goes through ``PoseSelector`` (the patient, not the
/// bystander) → ``PoseSmoother`` → the set-up check (in frame? walking? the right camera view?) →
/// recognition (when no exercise is given) → repetition counting (definition-driven ``RepCounter`` on
/// the primary angle, or the exercise-agnostic ``PeriodicMotionCounter``) → angles and range of motion
/// → form rules and safety limits → ``CueScheduler``. In the steady state a frame allocates nothing:
/// the event buffer is reused (do not keep the returned array across calls if you care about that).
///
/// ```swift
/// var session = CoachingSession(configuration: .init(exercise: try library.exercise(id: "squat")))
/// for frame in frames {
///     for event in session.ingest(frame) {
///         if case .repCompleted(let rep) = event { print("rep \(rep.index): \(rep.verdict)") }
///     }
/// }
/// let summary = session.summary()
/// ```
public struct CoachingSession: Sendable {
    public var configuration: Configuration { core.configuration }

    /// ``Configuration/exercise`` given, or recognised from ``Configuration/library``.
    var mode: Mode { core.mode }
    /// The state for the overlay after the latest frame.
    public var snapshot: CoachSnapshot { core.snapshot }
    /// The view estimated at the latest frame.
    public var view: View { core.view }
    /// Repetitions so far.
    public var repetitions: [Repetition] { core.repetitions }
    /// Whether the latest frame's person was measurable: in frame, and not walking (diagnostics: `ptcoach
    /// evaluate-reps`).
    package var lastFrameValid: Bool { core.lastFrameValid }
    /// In frame, walking, the view, the depth, presence, and what to tell the person (``SetUpCheck``).
    var setUp: SetUpCheck { core.setUp }

    /// The coaching of the exercise given, less the recogniser: front end, set-up check, clock, angles, counting,
    /// judging, safety, holds and output (``CoachingCore``; with no exercise given, of the movement).
    var core: CoachingCore

    /// With no exercise given: the projection of the pose on the movement counted (torso lengths), and which
    /// principal component that movement is (0 = the leading one). For diagnostics (`--trace`).
    package var agnosticSignal: (value: Double?, component: Int) {
        recognised?.movementSignal ?? (nil, 0)
    }

    /// The repetitions each counting signal found so far (exercise given): `"angle"` (the primary angle's
    /// counter, as counted), `"movement"`, then `"<kind>:<side><direction>"` for each other angle (side L, R or
    /// -, direction + or -).
    /// For diagnostics (`ptcoach evaluate-reps --per-file`).
    package var signalCounts: [(signal: String, reps: Int)] { core.counting.signalCounts }

    /// With no exercise given: the recogniser, the movement counted, the exercise recognised and its replay as if
    /// given.
    var recognised: RecognisedCoach?
    /// The exercise recognised (its index in the library), with no exercise given.
    var recognizedIndex: Int? { recognised?.recognizedIndex }

    public init(configuration: Configuration) {
        let mode: Mode =
            configuration.exercise.map { .given(GivenDefinition($0)) } ?? .recognised(library: configuration.library)
        core = CoachingCore(configuration: configuration, mode: mode)
        if case .recognised(let library) = mode {
            recognised = RecognisedCoach(library: library, configuration: configuration.recognition)
        }
    }

    // MARK: - Ingest

    /// Processes one frame and returns what happened in it.
    public mutating func ingest(_ frame: PoseFrame) -> [CoachEvent] {
        guard recognised != nil else { return core.ingest(frame) }
        core.clearEvents()
        if core.clock.ended { return core.output.events }
        // Let go of last frame's pose first, so that the smoother can reuse its buffer.
        core.releasePose()
        coach(core.select(frame), of: frame)
        return core.output.events
    }

    /// Ends the set: what its end adds (a movement too short for the counter's window, an exercise named by a last
    /// decision and the repetitions judged as it) comes as events, so that the events folded
    /// (``CoachEvent/fold(_:)``) are ``summary()``'s repetitions. Frames ingested afterwards are not coached.
    public mutating func finish() -> [CoachEvent] {
        core.clearEvents()
        guard !core.clock.ended else { return [] }
        if endsWithMore {
            let before = repetitions
            endRecording()
            // Judged again once named: the ones reported before changed in place.
            if repetitions.count >= before.count, zip(before, repetitions).contains(where: { $0 != $1 }) {
                core.reportRevision(completedNow: repetitions.count - before.count)
            }
        }
        countProvisionalAtEnd()
        recountAsGivenAtEnd()
        // One the movement had time to confirm, and did not, is withdrawn.
        showProvisional(nil)
        core.end()
        return core.output.events
    }

    /// Coaches `smoothed`, the pose ``PoseSelector`` and ``PoseSmoother`` made of `frame` (`nil`: nobody), with no
    /// exercise given, into the core's events. The recognised exercise's session (``ExerciseReplay``) gets it too: it
    /// selects and smooths the same frames the same way once it has followed them from the first.
    private mutating func coach(_ smoothed: Pose?, of frame: PoseFrame) {
        // Every frame is kept, and coached as the exercise recognised (CoachingSession+AsGiven).
        replay(frame, smoothed: smoothed)
        let t = frame.seconds
        let dt = core.beginFrame(smoothed, at: t)
        guard let pose = smoothed else {
            noPerson(at: t)
            core.finishFrame(at: t)
            return
        }
        if configuration.emitsPoseEvents { core.emit(.pose(pose)) }
        let asRecognised = recognised.map { (movementKnown: $0.hasMovement, index: $0.recognizedIndex) }
        let check = core.checkSetUp(pose, at: t, asRecognised: asRecognised)
        coachRecognised(pose, check, dt: dt, at: t)
        core.endFrame(at: t)
    }

    /// A frame with a person, with no exercise given: recognition, the movement's count, and the exercise
    /// recognised's measurements and provisional repetition.
    private mutating func coachRecognised(_ pose: Pose, _ check: SetUpCheck.Check, dt: Double, at t: Double) {
        var held = check.presence.held
        recognize(pose, steady: check.valid, at: t)
        // A gap is bridged as for an exercise given, when the movement's signal continues where it was (the
        // head above the picture at the top of each push-up; see Guides.md, "Cases behind the code").
        if check.presence.returnsFromGap,
            let bridged = core.decideGapReturn(
                continues: recognised?.continues(with: pose, useDepth: setUp.hasDepth) ?? true,
                at: t
            )
        {
            held = false
            if !bridged { countAgnostic(pose, valid: false, dt: dt, at: t) }
        }
        if !held { countAgnostic(pose, valid: check.valid, dt: dt, at: t) }
        adoptMeasurementsAsGiven()
        updateProvisionalRepetition()
    }

    private mutating func noPerson(at t: Double) {
        // A glitch or a held gap drops nothing.
        let (held, guidance) = core.lookForNobody(at: t)
        recognize(nil, steady: false, at: t)
        if !held { countMovementOfNobody(at: t) }
        // The definition is read (copied) only for a hold.
        if recognizedIndex.map({ configuration.library[$0].isHold }) ?? false, let exercise = recognizedExercise {
            core.updateHold(exercise, valid: false, dt: 0, at: t, recogniserSample: recognised?.sample)
        }
        if let guidance { core.show(guidance, at: t) }
    }
}

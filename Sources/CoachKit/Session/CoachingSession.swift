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
    public let configuration: Configuration

    /// ``Configuration/exercise`` given, or recognised from ``Configuration/library``.
    let mode: Mode
    /// The state for the overlay after the latest frame.
    public var snapshot: CoachSnapshot { output.snapshot }
    /// The view estimated at the latest frame.
    public var view: View { setUp.view }
    /// Repetitions so far.
    public var repetitions: [Repetition] { output.log.repetitions }

    /// The patient's pose of each frame, smoothed.
    private var frontEnd: PoseFrontEnd
    /// This frame's events, the cues, the overlay and the log (written in `CoachingSession+Output.swift` only).
    var output: Output
    /// In frame, walking, the view, the depth, presence, and what to tell the person (``SetUpIssue``).
    var setUp: SetUpCheck
    /// The first and latest frame, the time a person was seen, and whether ``finish()`` ended the session.
    var clock = SessionClock()
    /// Whether the latest frame's person was measurable: in frame, and not walking (diagnostics: `ptcoach
    /// evaluate-reps`).
    package var lastFrameValid: Bool { setUp.lastFrameValid }

    /// The exercise's angles and each repetition's statistics (3-D when the keypoints have depth, else the image
    /// plane).
    var angles: AngleMeter
    /// The angles in the image plane and their per-repetition statistics, while it is not yet known whether the
    /// keypoints' depth is measured or guessed (``DepthJitterCheck``): kept as the 3-D ones are, with the image-plane
    /// counters' phases and peaks, and taking over from them when the depth proves a guess (`nil` once the verdict
    /// is in). So the repetition under way at the verdict keeps its whole range, and its peak angle, form rules and
    /// range of motion come from the one signal its counter followed (a first pull-up read "target reached" with a
    /// peak of 138° while its elbows' ranges, begun at the verdict, ended at 88–104° and "Pull a little higher"
    /// judged 44°).
    var imagePlaneAngles: AngleMeter?
    var safety: SafetyMonitor
    /// The side a bilateral exercise is measured on when ``measuresOneSide`` (read on every frame).
    var nearSide: NearSideEstimator

    var holdTimer = HoldTimer()

    /// The repetitions' counters (primary angle, image plane, movement, other angles) and what counts.
    var counting: RepetitionCounting

    /// With no exercise given: the projection of the pose on the movement counted (torso lengths), and which
    /// principal component that movement is (0 = the leading one). For diagnostics (`--trace`).
    package var agnosticSignal: (value: Double?, component: Int) {
        recognised?.movementSignal ?? (nil, 0)
    }

    /// The repetitions each counting signal found so far (exercise given): `"angle"` (the primary angle's
    /// counter, as counted), `"movement"`, then `"<kind>:<side><direction>"` for each other angle (side L, R or
    /// -, direction + or -).
    /// For diagnostics (`ptcoach evaluate-reps --per-file`).
    package var signalCounts: [(signal: String, reps: Int)] { counting.signalCounts }

    /// With no exercise given: the recogniser, the movement counted, the exercise recognised and its replay as if
    /// given.
    var recognised: RecognisedCoach?
    /// The exercise recognised (its index in the library), with no exercise given.
    var recognizedIndex: Int? { recognised?.recognizedIndex }
    /// The body's angles at 10 Hz (with an exercise given, its own angles, when it counts repetitions).
    var ring = AngleSampleRing(capacity: 0)
    /// Judges the repetitions completed.
    var judge: RepetitionJudge

    public init(configuration: Configuration) {
        self.configuration = configuration
        mode = configuration.exercise.map { .given(GivenDefinition($0)) } ?? .recognised(library: configuration.library)
        frontEnd = PoseFrontEnd(selector: configuration.selector, smoother: configuration.smoother)
        output = Output(cues: CueScheduler(configuration: configuration.cues))
        safety = SafetyMonitor(exercise: mode.exercise)
        judge = RepetitionJudge(exercise: mode.exercise)
        output.events.reserveCapacity(16)
        counting = RepetitionCounting(exercise: mode.exercise)
        switch mode {
        case .given(let given):
            let exercise = given.definition
            if exercise.repetition != nil { ring = AngleSampleRing(capacity: Tuning.angleSampleCapacity) }
            output.snapshot.exerciseID = exercise.id
            output.snapshot.exerciseName = exercise.name
            output.snapshot.confidence = 1
            output.snapshot.primaryAngleKind = exercise.primaryAngle
            // A hold's band is its first condition's (the primary angle's): the overlay's arc turns green in it.
            output.snapshot.targetRange = exercise.targetBand
            output.snapshot.recognition = .exercise(id: exercise.id, confidence: 1)
            output.praise = exercise.praise
        case .recognised(let library):
            recognised = RecognisedCoach(library: library, configuration: configuration.recognition)
            ring = AngleSampleRing(capacity: Tuning.angleSampleCapacity)
            output.snapshot.recognition = .noPerson
        }
        angles = AngleMeter(
            configuration: .init(
                angles: mode.exercise?.angles ?? [],
                direction: mode.exercise?.repetition?.direction ?? 1,
                counters: counting.counterCount
            )
        )
        imagePlaneAngles = angles
        nearSide = NearSideEstimator(primaryAngle: mode.exercise?.primaryAngle)
        setUp = SetUpCheck(
            exercise: configuration.exercise,
            library: configuration.library,
            configuration: .init(
                visibility: JointVisibility(
                    minimumJointConfidence: configuration.minimumJointConfidence,
                    frameWidth: configuration.frameWidth,
                    frameHeight: configuration.frameHeight,
                    edgeMarginFraction: configuration.edgeMarginFraction
                ),
                walking: .init(
                    walkingTorsoLengths: configuration.walkingTorsoLengths,
                    minimumJointConfidence: configuration.minimumJointConfidence
                ),
                presence: .init(
                    settleSeconds: configuration.settleSeconds,
                    glitchSeconds: configuration.glitchSeconds,
                    briefAbsenceSeconds: configuration.briefAbsenceSeconds,
                    bridgeSeconds: configuration.bridgeSeconds,
                    // Gaps are bridged when repetitions are counted (of a given exercise, or of the movement when
                    // none is given).
                    bridges: (mode.exercise?.repetition != nil || recognised != nil)
                        && configuration.bridgeSeconds > configuration.glitchSeconds
                ),
                useDepth: configuration.useDepth
            )
        )
    }

    // MARK: - Ingest

    /// Processes one frame and returns what happened in it.
    public mutating func ingest(_ frame: PoseFrame) -> [CoachEvent] {
        clearEvents()
        if clock.ended { return output.events }
        // Let go of last frame's pose first, so that the smoother can reuse its buffer.
        releasePose()
        coach(frontEnd.ingest(frame), of: frame)
        return output.events
    }

    /// Ends the set: what its end adds (a movement too short for the counter's window, an exercise named by a last
    /// decision and the repetitions judged as it) comes as events, so that the events folded
    /// (``CoachEvent/fold(_:)``) are ``summary()``'s repetitions. Frames ingested afterwards are not coached.
    public mutating func finish() -> [CoachEvent] {
        clearEvents()
        guard !clock.ended else { return [] }
        if endsWithMore {
            let before = repetitions
            endRecording()
            // Judged again once named: the ones reported before changed in place.
            if repetitions.count >= before.count, zip(before, repetitions).contains(where: { $0 != $1 }) {
                reportRevision(completedNow: repetitions.count - before.count)
            }
        }
        countProvisionalAtEnd()
        recountAsGivenAtEnd()
        // One the movement had time to confirm, and did not, is withdrawn.
        showProvisional(nil)
        clock.end()
        return output.events
    }

    /// ``ingest(_:)`` for a frame whose pose another session selected and smoothed, with a selector and smoother
    /// in the very state this session's would be in (``ExerciseReplay``): the work is not done twice. The pose is let go
    /// of before returning, so that the other session's smoother can reuse its buffer.
    mutating func ingest(_ frame: PoseFrame, smoothed: Pose?) -> [CoachEvent] {
        clearEvents()
        coach(smoothed, of: frame)
        releasePose()
        return output.events
    }

    /// Coaches `smoothed`, the pose ``PoseSelector`` and ``PoseSmoother`` made of `frame` (`nil`: nobody), into
    /// ``events``. With no exercise given, the recognised exercise's session (``ExerciseReplay``) gets it too: it selects
    /// and smooths the same frames the same way once it has followed them from the first.
    mutating func coach(_ smoothed: Pose?, of frame: PoseFrame) {
        // No exercise given: every frame is kept, and coached as the exercise recognised (CoachingSession+AsGiven).
        if mode.isRecognised { replay(frame, smoothed: smoothed) }
        let t = frame.seconds
        let dt = clock.ingest(at: t, person: smoothed != nil)
        showFrame(at: t, pose: smoothed)
        guard let pose = smoothed else {
            noPerson(at: t)
            finishFrame(at: t)
            return
        }
        if configuration.emitsPoseEvents { emit(.pose(pose)) }
        let check = checkSetUp(pose, at: t)
        switch mode {
        case .given(let given): coachGiven(pose, given.definition, check, dt: dt, at: t)
        case .recognised: coachRecognised(pose, check, dt: dt, at: t)
        }
        if let guidance = setUp.counted(output.log.repetitions.count) { show(guidance, at: t) }
        finishFrame(at: t)
    }

    /// The set-up check: in frame, walking and the depth's verdict; then the view, presence and what to tell.
    private mutating func checkSetUp(_ pose: Pose, at t: Double) -> SetUpCheck.Check {
        let look = setUp.look(at: pose, at: t)
        if let measured = look.depthVerdict {
            let asRecognised = recognised.map { (movementKnown: $0.hasMovement, index: $0.recognizedIndex) }
            takeDepthVerdict(measured: measured, asRecognised: asRecognised)
        }
        let check = setUp.check(pose, look, at: t, recognizedIndex: recognizedIndex)
        showRangeMeasurable(check.rangeMeasurable)
        if let guidance = check.guidance { show(guidance, at: t) }
        return check
    }

    /// A frame with a person, of the exercise given: its angles, safety, then the hold or the repetition's count.
    private mutating func coachGiven(
        _ pose: Pose,
        _ exercise: ExerciseDefinition,
        _ check: SetUpCheck.Check,
        dt: Double,
        at t: Double
    ) {
        var held = check.presence.held
        measure(pose, exercise)
        checkSafety(at: t)
        if check.presence.returnsFromGap,
            let bridged = setUp.decideGapReturn(continues: countedAngleContinues(), at: t)
        {
            held = false
            // Not the same repetition (or not the same place): dropped, as after any longer stretch.
            if !bridged { count(exercise, valid: false, at: t, pose: pose) }
        }
        if exercise.isHold {
            updateHold(exercise, valid: check.presence.settled, dt: dt, at: t, recogniserSample: nil)
        } else if !held {
            count(exercise, valid: check.valid, at: t, pose: pose)
        } else {
            skipCount()
        }
    }

    /// A frame with a person, with no exercise given: recognition, the movement's count, and the exercise
    /// recognised's measurements and provisional repetition.
    private mutating func coachRecognised(_ pose: Pose, _ check: SetUpCheck.Check, dt: Double, at t: Double) {
        var held = check.presence.held
        recognize(pose, steady: check.valid, at: t)
        // A gap is bridged as for an exercise given, when the movement's signal continues where it was (the
        // head above the picture at the top of each push-up; see Guides.md, "Cases behind the code").
        if check.presence.returnsFromGap,
            let bridged = setUp.decideGapReturn(
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
        let (presence, guidance) = setUp.ingestNobody(at: t)
        let held = presence.held
        lostPerson(held: held, at: t)
        if mode.isRecognised {
            recognize(nil, steady: false, at: t)
            if !held { countMovementOfNobody(at: t) }
        }
        // The definition is read (copied) only for a hold.
        let isHold = mode.givenIsHold ?? recognizedIndex.map { configuration.library[$0].isHold } ?? false
        if isHold, let exercise = mode.exercise ?? recognizedExercise {
            updateHold(exercise, valid: false, dt: 0, at: t, recogniserSample: recognised?.sample)
        }
        if let guidance { show(guidance, at: t) }
    }
}

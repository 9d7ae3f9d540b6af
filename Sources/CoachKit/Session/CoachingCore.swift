import PoseKit

/// The coaching of one exercise given, less the recogniser: the front end, the set-up check, the clock, the angles,
/// the counting, judging, safety, holds and the output. ``CoachingSession`` is this core, with the recogniser
/// (``RecognisedCoach``) when no exercise is given; the replay of the exercise recognised (``ExerciseReplay``) is a core
/// given it. Its methods are in `CoachingSession+Counting.swift`, `+Judging`, `+Hold`, `+Output` and `+SetUp`; this
/// file has the stored properties and the given exercise's pipeline, and is the only one that writes ``frontEnd``,
/// ``setUp`` and ``clock``.
struct CoachingCore: Sendable {
    typealias Configuration = CoachingSession.Configuration
    typealias Mode = CoachingSession.Mode
    typealias Output = CoachingSession.Output
    typealias Tuning = CoachingSession.Tuning
    typealias View = CoachingSession.View

    let configuration: Configuration
    /// ``Configuration/exercise`` given, or recognised from ``Configuration/library``.
    let mode: Mode
    /// The state for the overlay after the latest frame.
    var snapshot: CoachSnapshot { output.snapshot }
    /// The view estimated at the latest frame.
    var view: View { setUp.view }
    /// Repetitions so far.
    var repetitions: [Repetition] { output.log.repetitions }

    /// The patient's pose of each frame, smoothed.
    private var frontEnd: PoseFrontEnd
    /// This frame's events, the cues, the overlay and the log (written in `CoachingSession+Output.swift` only).
    var output: Output
    /// In frame, walking, the view, the depth, presence, and what to tell the person (``SetUpIssue``).
    var setUp: SetUpCheck
    /// The first and latest frame, the time a person was seen, and whether ``end()`` (``CoachingSession/finish()``)
    /// ended the session.
    var clock = SessionClock()
    /// Whether the latest frame's person was measurable: in frame, and not walking (diagnostics: `ptcoach
    /// evaluate-reps`).
    var lastFrameValid: Bool { setUp.lastFrameValid }

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

    /// The body's angles at 10 Hz (with an exercise given, its own angles, when it counts repetitions).
    var ring = AngleSampleRing(capacity: 0)
    /// Judges the repetitions completed.
    var judge: RepetitionJudge

    init(configuration: Configuration, mode: Mode) {
        self.configuration = configuration
        self.mode = mode
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
        case .recognised:
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
                    bridges: (mode.exercise?.repetition != nil || mode.isRecognised)
                        && configuration.bridgeSeconds > configuration.glitchSeconds
                ),
                useDepth: configuration.useDepth
            )
        )
    }

    // MARK: - The exercise given's pipeline

    /// ``CoachingSession/ingest(_:)`` of the exercise given.
    mutating func ingest(_ frame: PoseFrame) -> [CoachEvent] {
        clearEvents()
        if clock.ended { return output.events }
        // Let go of last frame's pose first, so that the smoother can reuse its buffer.
        releasePose()
        coach(select(frame), of: frame)
        return output.events
    }

    /// ``ingest(_:)`` for a frame whose pose another session selected and smoothed, with a selector and smoother
    /// in the very state this session's would be in (``ExerciseReplay``): the work is not done twice. The pose is let
    /// go of before returning, so that the other session's smoother can reuse its buffer.
    mutating func ingest(_ frame: PoseFrame, smoothed: Pose?) -> [CoachEvent] {
        clearEvents()
        coach(smoothed, of: frame)
        releasePose()
        return output.events
    }

    /// The patient's pose in `frame`, selected and smoothed (`nil`: nobody).
    mutating func select(_ frame: PoseFrame) -> Pose? {
        frontEnd.ingest(frame)
    }

    /// Coaches `smoothed`, the pose ``PoseSelector`` and ``PoseSmoother`` made of `frame` (`nil`: nobody), of the
    /// exercise given, into ``Output/events``.
    mutating func coach(_ smoothed: Pose?, of frame: PoseFrame) {
        guard case .given(let given) = mode else { return }
        let t = frame.seconds
        let dt = beginFrame(smoothed, at: t)
        guard let pose = smoothed else {
            let (_, guidance) = lookForNobody(at: t)
            if mode.givenIsHold == true {
                updateHold(given.definition, valid: false, dt: 0, at: t, recogniserSample: nil)
            }
            if let guidance { show(guidance, at: t) }
            finishFrame(at: t)
            return
        }
        if configuration.emitsPoseEvents { emit(.pose(pose)) }
        let check = checkSetUp(pose, at: t, asRecognised: nil)
        coachGiven(pose, given.definition, check, dt: dt, at: t)
        endFrame(at: t)
    }

    /// The frame's clock (the seconds since the frame before) and the overlay's frame.
    mutating func beginFrame(_ smoothed: Pose?, at t: Double) -> Double {
        let dt = clock.ingest(at: t, person: smoothed != nil)
        showFrame(at: t, pose: smoothed)
        return dt
    }

    /// The end of a frame with a person: the set-up sentence about the count, then the cue shown.
    mutating func endFrame(at t: Double) {
        if let guidance = setUp.counted(output.log.repetitions.count) { show(guidance, at: t) }
        finishFrame(at: t)
    }

    /// The set-up check: in frame, walking and the depth's verdict; then the view, presence and what to tell.
    /// `asRecognised`: with no exercise given, whether the movement is known and the exercise recognised's index.
    mutating func checkSetUp(
        _ pose: Pose,
        at t: Double,
        asRecognised: (movementKnown: Bool, index: Int?)?
    ) -> SetUpCheck.Check {
        let look = setUp.look(at: pose, at: t)
        if let measured = look.depthVerdict {
            takeDepthVerdict(measured: measured, asRecognised: asRecognised)
        }
        let check = setUp.check(pose, look, at: t, recognizedIndex: asRecognised?.index ?? nil)
        showRangeMeasurable(check.rangeMeasurable)
        if let guidance = check.guidance { show(guidance, at: t) }
        return check
    }

    /// Whether a gap just bridged is kept (``SetUpCheck/decideGapReturn(continues:at:)``).
    mutating func decideGapReturn(continues: Bool, at t: Double) -> Bool? {
        setUp.decideGapReturn(continues: continues, at: t)
    }

    /// A frame with nobody: the set-up check's presence, and the counters told (a glitch or a held gap drops
    /// nothing). Returns whether the gap is held, and the set-up sentence to show once the hold is updated.
    mutating func lookForNobody(at t: Double) -> (held: Bool, guidance: SetUpCheck.Guidance?) {
        let (presence, guidance) = setUp.ingestNobody(at: t)
        lostPerson(held: presence.held, at: t)
        return (presence.held, guidance)
    }

    /// Ends the session: frames ingested afterwards are not coached.
    mutating func end() {
        clock.end()
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
            let bridged = decideGapReturn(continues: countedAngleContinues(), at: t)
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
}

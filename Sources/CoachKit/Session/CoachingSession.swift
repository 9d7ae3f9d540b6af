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
    /// What the set-up check reads of the exercise given on every frame.
    let givenExercise: GivenExercise
    /// ``measurementReliable(recognised:)`` for its key, as last worked out (no exercise can have index -2).
    var reliability = (key: ReliabilityKey(recognizedIndex: -2, hasDepth: false, view: .unknown), value: false)
    /// The state for the overlay after the latest frame.
    public internal(set) var snapshot = CoachSnapshot()
    /// The view estimated at the latest frame.
    public var view: View { viewEstimator.view }
    /// Repetitions so far.
    public var repetitions: [Repetition] { log.repetitions }

    private var selector: PoseSelector
    private var smoother: PoseSmoother
    var cues: CueScheduler
    var events: [CoachEvent] = []
    /// Set by ``finish()``.
    var finished = false

    // Set-up and gating.
    /// Whether a joint is seen and in the picture.
    let visibility: JointVisibility
    /// Whether the joints the exercise needs are in the picture.
    var inFrame: InFrameCheck
    var walking: WalkingDetector
    var viewEstimator = ViewEstimator()
    /// The joints each form rule's angle needs on the left and the right (the midline ones on both), and the
    /// view the rule needs. Counting does not wait for them; when one the view lets the coach judge is out of
    /// the picture for a second, the person is asked to step back so that it is in (a push-up with the feet cut
    /// off cannot be judged for its body line).
    let ruleJoints: [(left: [Joint], right: [Joint], angle: AngleKind, view: ExerciseDefinition.CameraView)]
    /// The body parts (bits of ``BodyPart``) a form rule misses in this frame, and since when.
    var missingParts = 0
    var missingPartsSince = Double.nan
    var missingPartsAdvice: String?
    var framesWithPerson = 0
    var secondsWithPerson = 0.0
    private var previousFrameHadPerson = false
    var lastSeconds = -Double.infinity
    var firstSeconds = Double.nan
    private var lastPersonSeconds = -Double.infinity
    /// Glitches, gaps and interruptions, and whether the person has settled.
    var presence: PresenceTracker
    var guidance: String?
    /// Whether the latest frame's person was measurable: in frame, and not walking (diagnostics: `ptcoach
    /// evaluate-reps`).
    package internal(set) var lastFrameValid = false
    var hasDepth = false
    var depthCheck = DepthJitterCheck()

    // Definition-driven counting.
    var counters: [RepCounter] = []
    /// Whether the counters were skipped (a glitch, a held gap) since they were last fed: the next feed bridges
    /// the gap (``RepCounter/bridgeGap(at:)``).
    var countersSkipped = false
    var counterSides: [BodySide?] = []
    var peakS: [Double] = []
    var values: [Double] = []  // angle index × 2 + side, this frame
    /// `values` one and two frames with a person ago (NaN after a frame without one): a repetition's angle
    /// ranges use the median of the last three, so a value seen in a single frame (a limb that flips for a
    /// frame, "39–178°") is not reported as the angle reached.
    var previousValues: [Double] = []
    var olderValues: [Double] = []
    /// Whether `values` are from the last frame (false after a frame without a person).
    var valuesAreRecent = false
    var statMin: [Double] = []
    var statMax: [Double] = []
    var statPeak: [Double] = []
    var safety: SafetyMonitor
    /// The joints of each angle slot (`a * 2 + side`) and the vertex they are seen from (``JointVisibility/isSeen(_:vertex:)``).
    var slotJoints: [[Joint]] = []
    var slotVertex: [Joint] = []
    /// Whether the slot's joints are all seen in this frame: only then does its value enter the repetition's
    /// angle ranges (an angle through an ankle the pose estimator placed outside the picture is a guess).
    var slotSeen: [Bool] = []
    /// The body parts (``BodyPart`` bits) that kept each slot from being seen since the statistics were reset.
    var slotMissingParts: [Int] = []
    var lastRepEnd = -Double.infinity
    var workingSide: BodySide?
    /// When the prescribed hold at the peak was last reached (its cue is said once per repetition).
    var peakHoldReachedSince = -Double.infinity
    /// The counter (side) whose repetitions count, once one has counted.
    var countingCounter: Int?
    /// How well each side's primary-angle joints are seen (smoothed mean confidence, left and right).
    var sideConfidence = (left: 0.0, right: 0.0)
    /// Smoothed mean depth of the left primary-angle joints minus the right ones (positive: the left side
    /// is farther from the camera), when keypoints have depth.
    var sideDepthDifference = 0.0
    /// The side a bilateral exercise is measured on when ``measuresOneSide`` (``nearSide()``), as of this
    /// frame's measurement (read on every frame).
    var measuredSide = BodySide.left

    let primaryJoints: (left: [Joint], right: [Joint])

    var holdTimer = HoldTimer()

    // The movement of the exercise's joints, counted as a cross-check of the angle counter.
    var movement: PeriodicMotionCounter?
    var angleReps = 0
    var secondary: [RepCounter] = []
    /// The value each secondary counter reads (`a * 2 + side` in `values`; with no exercise given, the angle's
    /// slot in the recognizer's 10-Hz samples, `ExerciseRecognizer.index(kind) * 2 + side`).
    var secondarySlots: [Int] = []
    /// With no exercise given: whether the secondary counters were told of an invalid stretch since their last sample.
    var secondaryInvalid = true
    /// The angles in the image plane and their per-repetition statistics, while it is not yet known whether
    /// the keypoints' depth is measured or guessed (``DepthJitterCheck``): kept as the 3-D ones are, with the
    /// image-plane counters' phases and peaks (``swapPlanes()``), and swapped in for them when the depth
    /// proves a guess. So the repetition under way at the verdict keeps its whole range, and its peak angle,
    /// form rules and range of motion come from the one signal its counter followed (a first pull-up read
    /// "target reached" with a peak of 138° while its elbows' ranges, begun at the verdict, ended at 88–104°
    /// and "Pull a little higher" judged 44°).
    var imagePlane = AnglePlane()
    var flatCounters: [RepCounter] = []
    /// Whether the exercise's primary angle has a left and a right (read on every frame).
    var primaryIsSided = false

    /// One plane's angle values and statistics (see ``imagePlane``); the session's own live in its properties.
    struct AnglePlane {
        var values: [Double] = []
        var previousValues: [Double] = []
        var olderValues: [Double] = []
        var statMin: [Double] = []
        var statMax: [Double] = []
        var statPeak: [Double] = []
        var slotMissingParts: [Int] = []
        var peakS: [Double] = []
    }

    /// Exchanges the session's angle values and statistics with ``imagePlane`` (array buffers only: no copy), so
    /// that the same code keeps both: swapped, run, swapped back.
    mutating func swapPlanes() {
        swap(&values, &imagePlane.values)
        swap(&previousValues, &imagePlane.previousValues)
        swap(&olderValues, &imagePlane.olderValues)
        swap(&statMin, &imagePlane.statMin)
        swap(&statMax, &imagePlane.statMax)
        swap(&statPeak, &imagePlane.statPeak)
        swap(&slotMissingParts, &imagePlane.slotMissingParts)
        swap(&peakS, &imagePlane.peakS)
    }
    /// The repetitions `flatCounters` completed (and that could count) before the depth verdict, with their
    /// counter: when the depth proves a guess, they replace the ones counted on the 3-D angle until then.
    var flatCompleted: [(rep: RepCounter.Completed, counter: Int, statistics: RepetitionStatistics)] = []

    /// A repetition's angle ranges, values at the peak and missing parts, per slot (``statMin`` and the rest).
    typealias RepetitionStatistics = (min: [Double], max: [Double], peak: [Double], missingParts: [Int])
    /// What the repetitions are counted from (with no exercise given, the movement until one of the body's angles
    /// proves it misses repetitions), and the repetitions each fallback signal found.
    var source = CountingSource(configuration: .init(movementOnly: false), otherAngles: 0)

    /// With no exercise given: the projection of the pose on the movement counted (torso lengths), and which
    /// principal component that movement is (0 = the leading one). For diagnostics (`--trace`).
    package var agnosticSignal: (value: Double?, component: Int) {
        (agnostic?.signal, agnostic?.lastChoice ?? 0)
    }

    /// The repetitions each counting signal found so far (exercise given): `"angle"` (the primary angle's
    /// counter, as counted), `"movement"`, then `"<kind>:<side><direction>"` for each other angle (side L, R or
    /// -, direction + or -).
    /// For diagnostics (`ptcoach evaluate-reps --per-file`).
    package var signalCounts: [(signal: String, reps: Int)] {
        guard let exercise = mode.exercise, exercise.repetition != nil else { return [] }
        var list: [(signal: String, reps: Int)] = [("angle", angleReps), ("movement", source.fallbackReps[0].count)]
        for k in secondary.indices {
            let slot = secondarySlots[k]
            let angle = exercise.angles[slot / 2]
            let side = angle.isSided ? (slot % 2 == 0 ? "L" : "R") : "-"
            let direction = secondary[k].configuration.direction > 0 ? "+" : "-"
            list.append(("\(angle.rawValue):\(side)\(direction)", source.fallbackReps[k + 1].count))
        }
        return list
    }

    // Recognition and agnostic counting.
    var recognizer: ExerciseRecognizer?
    var agnostic: PeriodicMotionCounter?
    var recognition = RecognitionTracker()
    /// The exercise recognised (its index in the library), with no exercise given.
    var recognizedIndex: Int? { recognition.recognizedIndex }
    /// The body's angles at 10 Hz (with an exercise given, its own angles, when it counts repetitions).
    var ring = AngleSampleRing(capacity: 0)

    /// With no exercise given: the frames of the last ``AsGiven/replaySeconds``, and the exercise recognised
    /// coached as if it had been given (``CoachingSession+AsGiven.swift``).
    var asGiven = AsGiven()

    /// The repetitions, form issues, cues and segments, for the summary.
    var log = SessionLog()
    /// While repetitions counted before the depth verdict are recounted from their image-plane angle only.
    var recounting = false
    /// Judges the repetitions completed.
    var judge: RepetitionJudge

    public init(configuration: Configuration) {
        self.configuration = configuration
        mode = configuration.exercise.map { .given(GivenDefinition($0)) } ?? .recognised(library: configuration.library)
        givenExercise = GivenExercise(isHold: configuration.exercise?.isHold, view: configuration.exercise?.view)
        selector = PoseSelector(configuration: configuration.selector)
        smoother = PoseSmoother(configuration: configuration.smoother)
        cues = CueScheduler(configuration: configuration.cues)
        visibility = JointVisibility(
            minimumJointConfidence: configuration.minimumJointConfidence,
            frameWidth: configuration.frameWidth,
            frameHeight: configuration.frameHeight,
            edgeMarginFraction: configuration.edgeMarginFraction
        )
        inFrame = InFrameCheck(exercise: mode.exercise, visibility: visibility)
        safety = SafetyMonitor(exercise: mode.exercise)
        judge = RepetitionJudge(exercise: mode.exercise)
        walking = WalkingDetector(
            configuration: .init(
                walkingTorsoLengths: configuration.walkingTorsoLengths,
                minimumJointConfidence: configuration.minimumJointConfidence
            )
        )
        events.reserveCapacity(16)
        switch mode {
        case .given(let given):
            let exercise = given.definition
            primaryIsSided = exercise.primaryAngle.isSided
            let n = exercise.angles.count * 2
            values = Array(repeating: .nan, count: n)
            previousValues = values
            olderValues = values
            statMin = Array(repeating: .infinity, count: n)
            statMax = Array(repeating: -.infinity, count: n)
            statPeak = Array(repeating: .nan, count: n)
            for angle in exercise.angles {
                for side in [BodySide.left, .right] {
                    slotJoints.append(angle.joints(side: side))
                    slotVertex.append(angle.vertexJoint(side: side))
                }
            }
            slotSeen = Array(repeating: true, count: n)
            slotMissingParts = Array(repeating: 0, count: n)
            imagePlane = AnglePlane(
                values: values,
                previousValues: values,
                olderValues: values,
                statMin: statMin,
                statMax: statMax,
                statPeak: statPeak,
                slotMissingParts: slotMissingParts
            )
            if let spec = exercise.repetition {
                var joints: [Joint] = []
                for angle in exercise.angles {
                    for side in [BodySide.left, .right] {
                        for joint in angle.joints(side: side) where !joints.contains(joint) { joints.append(joint) }
                    }
                }
                movement = PeriodicMotionCounter(
                    configuration: .init(
                        minimumRange: 0.15,
                        minimumSeconds: spec.minimumSeconds,
                        maximumSeconds: spec.maximumSeconds,
                        joints: joints
                    )
                )
                for (a, angle) in exercise.angles.enumerated() where a > 0 && angle.countsRepetitions {
                    // Both directions: which end of another angle is its rest is not known (a pull-up's
                    // shoulder abduction rests high, a squat's hip flexion low).
                    for side in 0..<(angle.isSided ? 2 : 1) {
                        for direction in [1.0, -1.0] {
                            secondary.append(
                                RepCounter(
                                    configuration: .init(
                                        direction: direction,
                                        minimumRange: 15,
                                        minimumSeconds: spec.minimumSeconds,
                                        maximumSeconds: spec.maximumSeconds
                                    )
                                )
                            )
                            secondarySlots.append(a * 2 + side)
                        }
                    }
                }
                ring = AngleSampleRing(capacity: 300)
                let sides: [BodySide?] =
                    switch exercise.side {
                    case .left: [.left]
                    case .right: [.right]
                    case .both: [nil]
                    case .either: exercise.primaryAngle.isSided ? [.left, .right] : [nil]
                    }
                counterSides = sides
                counters = sides.map { _ in RepCounter(configuration: RepCounter.Configuration(spec)) }
                flatCounters = counters
                peakS = Array(repeating: -.infinity, count: sides.count)
                imagePlane.peakS = peakS
            }
            snapshot.exerciseID = exercise.id
            snapshot.exerciseName = exercise.name
            snapshot.confidence = 1
            snapshot.primaryAngleKind = exercise.primaryAngle
            // A hold's band is its first condition's (the primary angle's): the overlay's arc turns green in it.
            snapshot.targetRange = exercise.targetBand
            snapshot.recognition = .exercise(id: exercise.id, confidence: 1)
        case .recognised(let library):
            recognizer = ExerciseRecognizer(exercises: library, configuration: configuration.recognition)
            agnostic = PeriodicMotionCounter()
            for (k, kind) in ExerciseRecognizer.kinds.enumerated() where kind.countsRepetitions {
                for side in 0..<(kind.isSided ? 2 : 1) {
                    for direction in [1.0, -1.0] {
                        secondary.append(RepCounter(configuration: .init(direction: direction, minimumRange: 15)))
                        secondarySlots.append(k * 2 + side)
                    }
                }
            }
            ring = AngleSampleRing(capacity: 300)
            snapshot.recognition = .noPerson
        }
        primaryJoints = (
            mode.exercise?.primaryAngle.joints(side: .left) ?? [],
            mode.exercise?.primaryAngle.joints(side: .right) ?? []
        )
        presence = PresenceTracker(
            configuration: .init(
                settleSeconds: configuration.settleSeconds,
                glitchSeconds: configuration.glitchSeconds,
                briefAbsenceSeconds: configuration.briefAbsenceSeconds,
                bridgeSeconds: configuration.bridgeSeconds,
                // Gaps are bridged when repetitions are counted (of a given exercise, or of the movement when none
                // is given).
                bridges: (mode.exercise?.repetition != nil || agnostic != nil)
                    && configuration.bridgeSeconds > configuration.glitchSeconds
            )
        )
        source = CountingSource(
            configuration: .init(movementOnly: mode.isRecognised),
            otherAngles: secondary.count
        )
        ruleJoints = (mode.exercise?.formRules ?? []).map { rule in
            (rule.angle.joints(side: .left), rule.angle.joints(side: .right), rule.angle, rule.view)
        }
    }

    // MARK: - Ingest

    /// Processes one frame and returns what happened in it.
    public mutating func ingest(_ frame: PoseFrame) -> [CoachEvent] {
        if !events.isEmpty { events.removeAll(keepingCapacity: true) }
        if finished { return events }
        // Let go of last frame's pose first, so that the smoother can reuse its buffer.
        snapshot.pose = nil
        let selected = selector.ingest(frame)
        let smoothed = smoother.ingest(selected, at: frame.seconds)
        coach(smoothed, of: frame)
        return events
    }

    /// ``ingest(_:)`` for a frame whose pose another session selected and smoothed, with a selector and smoother
    /// in the very state this session's would be in (``AsGiven``): the work is not done twice. The pose is let go
    /// of before returning, so that the other session's smoother can reuse its buffer.
    mutating func ingest(_ frame: PoseFrame, smoothed: Pose?) -> [CoachEvent] {
        if !events.isEmpty { events.removeAll(keepingCapacity: true) }
        coach(smoothed, of: frame)
        snapshot.pose = nil
        return events
    }

    /// Coaches `smoothed`, the pose ``PoseSelector`` and ``PoseSmoother`` made of `frame` (`nil`: nobody), into
    /// ``events``. With no exercise given, the recognised exercise's session (``AsGiven``) gets it too: it selects
    /// and smooths the same frames the same way once it has followed them from the first.
    mutating func coach(_ smoothed: Pose?, of frame: PoseFrame) {
        // No exercise given: every frame is kept, and coached as the exercise recognised (CoachingSession+AsGiven).
        if mode.isRecognised { asGiven.ingest(frame, pose: smoothed) }
        let t = frame.seconds
        if firstSeconds.isNaN { firstSeconds = t }
        let dt = lastSeconds.isFinite ? min(max(t - lastSeconds, 0), 0.5) : 0
        lastSeconds = t
        snapshot.seconds = t
        snapshot.pose = smoothed
        guard let pose = smoothed else {
            noPerson(at: t)
            finishFrame(at: t)
            return
        }
        if configuration.emitsPoseEvents { events.append(.pose(pose)) }
        framesWithPerson += 1
        if previousFrameHadPerson { secondsWithPerson += dt }
        previousFrameHadPerson = true
        lastPersonSeconds = t

        // Set-up check.
        let inFrame = self.inFrame.ingest(pose)
        let walking = self.walking.ingest(pose, at: t)
        updateView(pose)
        // The overlay shows no range gauge where the repetition's range will be "not measurable" (the same test).
        snapshot.rangeMeasurable = measurementReliable(recognised: true)
        let valid = inFrame && !walking
        lastFrameValid = valid
        let bodyX = pose[.root].confidence > 0 ? pose[.root].x : pose[.neck].confidence > 0 ? pose[.neck].x : .nan
        let presence = self.presence.ingest(
            valid: valid,
            walking: walking,
            bodyX: bodyX,
            torso: self.walking.torso,
            at: t
        )
        let glitch = presence.glitch
        let returnsFromGap = presence.returnsFromGap
        var held = presence.held
        var advice: String?
        if glitch {
            advice = guidance  // a glitch changes nothing the person is told
        } else if !inFrame {
            advice = "Step back so that your whole body is in the picture"
        } else if walking {
            advice = "Stand still in your start position"
        } else if let needed = givenExercise.view, !hasDepth {
            if needed == .side, view == .front {
                advice = "Turn sideways to the camera so I can measure the movement"
            } else if needed == .front, view == .side {
                advice = "Face the camera so I can measure the movement"
            }
        }
        if advice == nil, valid { advice = adviceForFormJoints(pose, at: t) } else { missingPartsSince = .nan }
        setGuidance(advice, at: t)
        let settled = presence.settled

        switch mode {
        case .given(let given):
            measure(pose, given.definition)
            checkSafety(at: t)
            if returnsFromGap, let bridged = self.presence.decideGapReturn(continues: countedAngleContinues(), at: t) {
                held = false
                // Not the same repetition (or not the same place): dropped, as after any longer stretch.
                if !bridged { count(given.definition, valid: false, at: t, pose: pose) }
            }
            if given.definition.isHold {
                updateHold(given.definition, valid: settled, dt: dt, at: t)
            } else if !held {
                count(given.definition, valid: valid, at: t, pose: pose)
            } else {
                countersSkipped = true
            }
        case .recognised:
            recognize(pose, steady: valid, at: t)
            // A gap is bridged as for an exercise given, when the movement's signal continues where it was (the
            // head above the picture at the top of each push-up; see Guides.md, "Cases behind the code").
            if returnsFromGap,
                let bridged = self.presence.decideGapReturn(
                    continues: agnostic?.continues(with: pose, useDepth: hasDepth) ?? true,
                    at: t
                )
            {
                held = false
                if !bridged { countAgnostic(pose, valid: false, dt: dt, at: t) }
            }
            if !held { countAgnostic(pose, valid: valid, dt: dt, at: t) }
            adoptMeasurementsAsGiven()
            updateProvisionalRepetition()
        }
        finishFrame(at: t)
    }

    private mutating func finishFrame(at t: Double) {
        if let cue = cues.ingest(at: t) { give(cue) }
        if let current = cues.current, t - current.seconds <= 3 {
            snapshot.cueText = current.text
            snapshot.cueKind = current.kind
        } else if snapshot.cueText != nil {
            snapshot.cueText = nil
            snapshot.cueKind = nil
        }
    }

    mutating func give(_ cue: Cue) {
        events.append(.cue(cue))
        log.log(cue)
    }

    private mutating func noPerson(at t: Double) {
        lastFrameValid = false
        valuesAreRecent = false
        previousFrameHadPerson = false
        // A glitch or a held gap drops nothing.
        let held = presence.ingestNobody(at: t).held
        if held {
            countersSkipped = true
        } else {
            for i in counters.indices { _ = counters[i].ingest(nil, at: t, valid: false) }
            if depthCheck.trusted == nil {
                for i in flatCounters.indices { _ = flatCounters[i].ingest(nil, at: t, valid: false) }
            }
        }
        if mode.isRecognised {
            recognize(nil, steady: false, at: t)
            if !held { _ = agnostic?.ingest(nil, at: t, valid: false) }
        }
        // The definition is read (copied) only for a hold.
        let isHold = givenExercise.isHold ?? recognizedIndex.map { configuration.library[$0].isHold } ?? false
        if isHold, let exercise = mode.exercise ?? recognizedExercise {
            updateHold(exercise, valid: false, dt: 0, at: t)
        }
        if t - lastPersonSeconds >= 1 {
            setGuidance("Step into the camera view", at: t)
        }
    }

    private mutating func setGuidance(_ text: String?, at t: Double) {
        guard text != guidance else { return }
        guidance = text
        snapshot.setupGuidance = text
        if let text {
            events.append(.setupGuidance(text))
            _ = cues.offer(Cue(kind: .setup, text: text, priority: 1, seconds: t))
        }
    }
}

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
    public struct Configuration: Sendable {
        /// The exercise prescribed; `nil` to recognise it from `library` and count any periodic movement.
        public var exercise: ExerciseDefinition?
        /// The exercises recognition chooses from (when `exercise` is `nil`).
        public var library: [ExerciseDefinition]
        /// The image size, to tell when the person is at the edge of the frame.
        public var frameWidth: Double?
        public var frameHeight: Double?
        public var selector: PoseSelector.Configuration
        public var smoother: PoseSmoother.Configuration
        public var cues: CueScheduler.Configuration
        public var recognition: ExerciseRecognizer.Configuration
        /// Measure angles in 3-D when keypoints have depth, unless ``DepthJitterCheck`` finds it a video pose
        /// estimator's guess (then it is ignored and angles are measured in the image plane).
        public var useDepth: Bool
        /// How long the person must be in frame and not walking before a repetition may start. Waived when
        /// the person is already in frame and still at the start of the recording (a clip that starts in
        /// position), so a short clip's first repetition is not lost.
        public var settleSeconds: Double
        /// Joints below this confidence are not seen.
        public var minimumJointConfidence: Double
        /// Joints closer than this fraction of the frame size to its edge are out of frame.
        public var edgeMarginFraction: Double
        /// Horizontal movement of the feet (or the root when no foot is seen), in torso lengths in one
        /// second, above which the person is walking.
        public var walkingTorsoLengths: Double
        /// Whether to report the pose as an event every frame.
        public var emitsPoseEvents: Bool
        /// An invalid stretch (out of frame, walking, nobody seen) shorter than this is a glitch of the pose
        /// estimator (a skeleton that collapses for a few frames, a wrist at the edge): it neither drops the
        /// repetition under way nor restarts the settling time; those frames are just not counted.
        public var glitchSeconds: Double
        /// After a stretch out of frame (or without a pose) at most this long, in which the person did not
        /// walk, a repetition may start at once: the person is still in position.
        public var briefAbsenceSeconds: Double
        /// An invalid stretch longer than a glitch but shorter than this (the pose lost, the feet out of the
        /// picture for a moment) is bridged when the person did not walk, is found again where they were, and
        /// the counted angle after it continues what it did before (still past the lower threshold in a
        /// repetition, still short of the upper one at rest, ``RepCounter/continues(with:)``): the repetition
        /// under way survives and records the gap (``Repetition/gapSeconds``). Otherwise it is dropped, as
        /// any longer stretch drops it. Exercise given, repetitions only.
        public var bridgeSeconds: Double

        public init(
            exercise: ExerciseDefinition? = nil,
            library: [ExerciseDefinition] = [],
            frameWidth: Double? = nil,
            frameHeight: Double? = nil,
            selector: PoseSelector.Configuration = .init(),
            smoother: PoseSmoother.Configuration = .init(),
            cues: CueScheduler.Configuration = .init(),
            recognition: ExerciseRecognizer.Configuration = .init(),
            useDepth: Bool = true,
            settleSeconds: Double = 0.5,
            minimumJointConfidence: Double = 0.2,
            edgeMarginFraction: Double = 0.005,
            walkingTorsoLengths: Double = 0.8,
            emitsPoseEvents: Bool = true,
            glitchSeconds: Double = 0.3,
            briefAbsenceSeconds: Double = 1.5,
            bridgeSeconds: Double = 1.0
        ) {
            self.exercise = exercise
            self.library = library
            self.frameWidth = frameWidth
            self.frameHeight = frameHeight
            self.selector = selector
            self.smoother = smoother
            self.cues = cues
            self.recognition = recognition
            self.useDepth = useDepth
            self.settleSeconds = settleSeconds
            self.minimumJointConfidence = minimumJointConfidence
            self.edgeMarginFraction = edgeMarginFraction
            self.walkingTorsoLengths = walkingTorsoLengths
            self.emitsPoseEvents = emitsPoseEvents
            self.glitchSeconds = glitchSeconds
            self.briefAbsenceSeconds = briefAbsenceSeconds
            self.bridgeSeconds = bridgeSeconds
        }
    }

    /// The view the camera has of the person, from shoulder width relative to torso length.
    public enum View: String, Sendable, Hashable, Codable {
        case front, side, oblique, unknown
    }

    public let configuration: Configuration

    /// The two ways a session coaches: the exercise given (prescribed), or recognised from the library while any
    /// periodic movement is counted.
    enum Mode: Sendable {
        case given(ExerciseDefinition)
        case recognised(library: [ExerciseDefinition])

        /// The exercise given (`nil` when it is recognised).
        var exercise: ExerciseDefinition? {
            if case .given(let exercise) = self { exercise } else { nil }
        }

        var isRecognised: Bool { if case .recognised = self { true } else { false } }
    }

    /// ``Configuration/exercise`` given, or recognised from ``Configuration/library``.
    let mode: Mode
    /// The state for the overlay after the latest frame.
    public private(set) var snapshot = CoachSnapshot()
    /// The view estimated at the latest frame.
    public var view: View { viewEstimator.view }
    /// Repetitions so far.
    public var repetitions: [Repetition] { log.repetitions }

    private var selector: PoseSelector
    private var smoother: PoseSmoother
    private var cues: CueScheduler
    private var events: [CoachEvent] = []
    /// Set by ``finish()``.
    private var finished = false

    // Set-up and gating.
    /// Whether a joint is seen and in the picture.
    private let visibility: JointVisibility
    /// Whether the joints the exercise needs are in the picture.
    private var inFrame: InFrameCheck
    private var walking: WalkingDetector
    private var viewEstimator = ViewEstimator()
    /// The joints each form rule's angle needs on the left and the right (the midline ones on both), and the
    /// view the rule needs. Counting does not wait for them; when one the view lets the coach judge is out of
    /// the picture for a second, the person is asked to step back so that it is in (a push-up with the feet cut
    /// off cannot be judged for its body line).
    private let ruleJoints: [(left: [Joint], right: [Joint], angle: AngleKind, view: ExerciseDefinition.CameraView)]
    /// The body parts (bits of ``BodyPart``) a form rule misses in this frame, and since when.
    private var missingParts = 0
    private var missingPartsSince = Double.nan
    private var missingPartsAdvice: String?
    private var framesWithPerson = 0
    private var secondsWithPerson = 0.0
    private var previousFrameHadPerson = false
    private var lastSeconds = -Double.infinity
    private var firstSeconds = Double.nan
    private var lastPersonSeconds = -Double.infinity
    /// Glitches, gaps and interruptions, and whether the person has settled.
    private var presence: PresenceTracker
    private var guidance: String?
    /// Whether the latest frame's person was measurable: in frame, and not walking (diagnostics).
    public private(set) var lastFrameValid = false
    private var hasDepth = false
    private var depthCheck = DepthJitterCheck()

    // Definition-driven counting.
    private var counters: [RepCounter] = []
    private var counterSides: [BodySide?] = []
    private var peakS: [Double] = []
    private var values: [Double] = []  // angle index × 2 + side, this frame
    /// `values` one and two frames with a person ago (NaN after a frame without one): a repetition's angle
    /// ranges use the median of the last three, so a value seen in a single frame (a limb that flips for a
    /// frame, "39–178°") is not reported as the angle reached.
    private var previousValues: [Double] = []
    private var olderValues: [Double] = []
    /// Whether `values` are from the last frame (false after a frame without a person).
    private var valuesAreRecent = false
    private var statMin: [Double] = []
    private var statMax: [Double] = []
    private var statPeak: [Double] = []
    private var safety: SafetyMonitor
    /// The joints of each angle slot (`a * 2 + side`) and the vertex they are seen from (``JointVisibility/isSeen(_:vertex:)``).
    private var slotJoints: [[Joint]] = []
    private var slotVertex: [Joint] = []
    /// Whether the slot's joints are all seen in this frame: only then does its value enter the repetition's
    /// angle ranges (an angle through an ankle the pose estimator placed outside the picture is a guess).
    private var slotSeen: [Bool] = []
    /// The body parts (``BodyPart`` bits) that kept each slot from being seen since the statistics were reset.
    private var slotMissingParts: [Int] = []
    private var lastRepEnd = -Double.infinity
    private var workingSide: BodySide?
    /// When the prescribed hold at the peak was last reached (its cue is said once per repetition).
    private var peakHoldReachedSince = -Double.infinity
    /// The counter (side) whose repetitions count, once one has counted.
    private var countingCounter: Int?
    /// How well each side's primary-angle joints are seen (smoothed mean confidence, left and right).
    private var sideConfidence = (left: 0.0, right: 0.0)
    /// Smoothed mean depth of the left primary-angle joints minus the right ones (positive: the left side
    /// is farther from the camera), when keypoints have depth.
    private var sideDepthDifference = 0.0
    private let primaryJoints: (left: [Joint], right: [Joint])

    private var holdTimer = HoldTimer()

    // The movement of the exercise's joints, counted as a cross-check of the angle counter.
    private var movement: PeriodicMotionCounter?
    private var angleReps = 0
    private var secondary: [RepCounter] = []
    /// The value each secondary counter reads (`a * 2 + side` in `values`; with no exercise given, the angle's
    /// slot in the recognizer's 10-Hz samples, `ExerciseRecognizer.index(kind) * 2 + side`).
    private var secondarySlots: [Int] = []
    /// With no exercise given: whether the secondary counters were told of an invalid stretch since their last sample.
    private var secondaryInvalid = true
    /// The angles in the image plane and their per-repetition statistics, while it is not yet known whether
    /// the keypoints' depth is measured or guessed (``DepthJitterCheck``): kept as the 3-D ones are, with the
    /// image-plane counters' phases and peaks (``swapPlanes()``), and swapped in for them when the depth
    /// proves a guess. So the repetition under way at the verdict keeps its whole range, and its peak angle,
    /// form rules and range of motion come from the one signal its counter followed (a first pull-up read
    /// "target reached" with a peak of 138° while its elbows' ranges, begun at the verdict, ended at 88–104°
    /// and "Pull a little higher" judged 44°).
    private var imagePlane = AnglePlane()
    private var flatCounters: [RepCounter] = []
    /// Whether the exercise's primary angle has a left and a right (read on every frame).
    private var primaryIsSided = false

    /// One plane's angle values and statistics (see ``imagePlane``); the session's own live in its properties.
    private struct AnglePlane {
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
    private mutating func swapPlanes() {
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
    private var flatCompleted: [(rep: RepCounter.Completed, counter: Int, statistics: RepetitionStatistics)] = []

    /// A repetition's angle ranges, values at the peak and missing parts, per slot (``statMin`` and the rest).
    private typealias RepetitionStatistics = (min: [Double], max: [Double], peak: [Double], missingParts: [Int])
    /// What the repetitions are counted from (with no exercise given, the movement until one of the body's angles
    /// proves it misses repetitions), and the repetitions each fallback signal found.
    private var source = CountingSource(configuration: .init(movementOnly: false), otherAngles: 0)
    /// Whether repetitions come from a fallback signal because the primary angle proved unreliable.
    public var countsMovement: Bool { source.signal != .primaryAngle }

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
    private var recognizer: ExerciseRecognizer?
    private var agnostic: PeriodicMotionCounter?
    private var recognition = RecognitionTracker()
    /// The exercise recognised (its index in the library), with no exercise given.
    private var recognizedIndex: Int? { recognition.recognizedIndex }
    /// The body's angles at 10 Hz (with an exercise given, its own angles, when it counts repetitions).
    private var ring = AngleSampleRing(capacity: 0)

    /// The repetitions, form issues, cues and segments, for the summary.
    private var log = SessionLog()
    /// While repetitions counted before the depth verdict are recounted from their image-plane angle only.
    private var recounting = false
    /// Judges the repetitions completed.
    private var judge: RepetitionJudge

    public init(configuration: Configuration) {
        self.configuration = configuration
        mode = configuration.exercise.map(Mode.given) ?? .recognised(library: configuration.library)
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
        case .given(let exercise):
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
        let t = frame.seconds
        if firstSeconds.isNaN { firstSeconds = t }
        let dt = lastSeconds.isFinite ? min(max(t - lastSeconds, 0), 0.5) : 0
        lastSeconds = t
        snapshot.seconds = t
        // Let go of last frame's pose first, so that the smoother can reuse its buffer.
        snapshot.pose = nil
        let selected = selector.ingest(frame)
        let smoothed = smoother.ingest(selected, at: t)
        snapshot.pose = smoothed
        guard let pose = smoothed else {
            noPerson(at: t)
            finishFrame(at: t)
            return events
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
        } else if let exercise = mode.exercise, !hasDepth {
            if exercise.view == .side, view == .front {
                advice = "Turn sideways to the camera so I can measure the movement"
            } else if exercise.view == .front, view == .side {
                advice = "Face the camera so I can measure the movement"
            }
        }
        if advice == nil, valid { advice = adviceForFormJoints(pose, at: t) } else { missingPartsSince = .nan }
        setGuidance(advice, at: t)
        let settled = presence.settled

        switch mode {
        case .given(let exercise):
            measure(pose, exercise)
            checkSafety(at: t)
            if returnsFromGap, let bridged = self.presence.decideGapReturn(continues: countedAngleContinues(), at: t) {
                held = false
                // Not the same repetition (or not the same place): dropped, as after any longer stretch.
                if !bridged { count(exercise, valid: false, at: t, pose: pose) }
            }
            if exercise.isHold {
                updateHold(exercise, valid: settled, dt: dt, at: t)
            } else if !held {
                count(exercise, valid: valid, at: t, pose: pose)
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
        }
        finishFrame(at: t)
        return events
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

    private mutating func give(_ cue: Cue) {
        events.append(.cue(cue))
        log.log(cue)
    }

    private mutating func noPerson(at t: Double) {
        lastFrameValid = false
        valuesAreRecent = false
        previousFrameHadPerson = false
        // A glitch or a held gap drops nothing.
        let held = presence.ingestNobody(at: t).held
        if !held {
            for i in counters.indices { _ = counters[i].ingest(nil, at: t, valid: false) }
            if depthCheck.trusted == nil {
                for i in flatCounters.indices { _ = flatCounters[i].ingest(nil, at: t, valid: false) }
            }
        }
        if mode.isRecognised {
            recognize(nil, steady: false, at: t)
            if !held { _ = agnostic?.ingest(nil, at: t, valid: false) }
        }
        if let exercise = mode.exercise ?? recognizedExercise, exercise.isHold {
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

    // MARK: - Set-up

    /// "Step back so that your feet are in the picture …" when, for a second, a form rule the camera view
    /// could judge misses joints on both sides; `nil` otherwise. Allocates only when the advice changes.
    private mutating func adviceForFormJoints(_ pose: Pose, at t: Double) -> String? {
        guard mode.exercise?.isHold == false, measurementReliable else {
            missingPartsSince = .nan
            return nil
        }
        var missing = 0
        var judged = false
        for rule in ruleJoints {
            if rule.view != .any, !hasDepth, !(rule.view == .front && view == .front),
                !(rule.view == .side && view == .side)
            {
                continue
            }
            judged = true
            var left = 0
            var right = 0
            let leftVertex = pose[rule.angle.vertexJoint(side: .left)]
            let rightVertex = pose[rule.angle.vertexJoint(side: .right)]
            for joint in rule.left where !visibility.isSeen(pose[joint], vertex: leftVertex) {
                left |= BodyPart.of(joint)
            }
            for joint in rule.right where !visibility.isSeen(pose[joint], vertex: rightVertex) {
                right |= BodyPart.of(joint)
            }
            guard left != 0, right != 0 else { continue }
            // The side that misses less is the one to bring into the picture.
            missing |= left.nonzeroBitCount <= right.nonzeroBitCount ? left : right
        }
        // A frame where no rule can be judged (the view changed for a moment) neither shows nor clears it.
        if !judged { return guidance != nil && guidance == missingPartsAdvice ? guidance : nil }
        if missing == 0 {
            missingPartsSince = .nan
            return nil
        }
        if missing != missingParts || missingPartsSince.isNaN {
            missingParts = missing
            missingPartsSince = t
            missingPartsAdvice = nil
        }
        guard t - missingPartsSince >= 1 else { return nil }
        if missingPartsAdvice == nil {
            let verb = missing == BodyPart.head ? "is" : "are"
            missingPartsAdvice =
                "Step back so that your \(BodyPart.names(missing)) \(verb) in the picture, so I can check your form"
        }
        return missingPartsAdvice
    }

    private mutating func updateView(_ pose: Pose) {
        let ls = pose[.leftShoulder]
        let rs = pose[.rightShoulder]
        hasDepth = configuration.useDepth && ls.z != nil && rs.z != nil && pose[.leftHip].z != nil
        if hasDepth, depthCheck.trusted == nil {
            depthCheck.ingest(pose)
            // The depth proved a guess: from now on angles are measured in the image plane, and the
            // counters that followed the primary angle that way from the start take over.
            if depthCheck.trusted == false {
                // Before the recount: its repetitions are judged as measured in the image plane, the view
                // deciding what it can measure (a squat filmed from behind was "reliable"; see Guides.md, "Cases behind the code").
                hasDepth = false
                if recognizer != nil {
                    for i in 0..<ring.count { ring.useImagePlaneAngles(ofSample: i) }
                    recountAnglesInImagePlane()
                }
                swap(&counters, &flatCounters)
                swapPlanes()
                recountInImagePlane()
            }
            if depthCheck.trusted != nil { flatCompleted.removeAll() }
        }
        hasDepth = hasDepth && depthCheck.trusted != false
        _ = viewEstimator.ingest(pose, torso: walking.torso)
    }

    private var measurementReliable: Bool { measurementReliable(for: mode.exercise) }

    /// The same for `exercise` (a recognised one, for repetitions counted from the movement).
    private func measurementReliable(for exercise: ExerciseDefinition?) -> Bool {
        MeasurementContext.isReliable(for: exercise, hasDepth: hasDepth, view: view)
    }

    /// How the session measures, for judging a repetition.
    private var measurementContext: MeasurementContext {
        MeasurementContext(
            hasDepth: hasDepth,
            view: view,
            facesCameraSquarely: viewEstimator.facesCameraSquarely,
            measuredSide: measuredSide,
            depthTrusted: depthCheck.trusted == true
        )
    }

    /// Whether a repetition that started at `start` may count (``PresenceTracker/mayCount(startingAt:)``).
    private func mayCount(startingAt start: Double) -> Bool { presence.mayCount(startingAt: start) }

    /// Whether the counted angle, measured again after a gap, continues what its counter did before it
    /// (``RepCounter/continues(with:)``): the counters of the primary angle (the side counting, once one has
    /// counted), the image-plane ones while the depth is not judged, and the other angle counting instead.
    private func countedAngleContinues() -> Bool {
        for c in counters.indices where countingCounter == nil || countingCounter == c {
            if !counters[c].continues(with: primaryValue(side: counterSides[c])) { return false }
        }
        if depthCheck.trusted == nil, hasDepth {
            for c in flatCounters.indices where countingCounter == nil || countingCounter == c {
                if !flatCounters[c].continues(with: flatPrimaryValue(side: counterSides[c])) { return false }
            }
        }
        if case .secondaryAngle(let k) = source.signal {
            let v = values[secondarySlots[k]]
            if !secondary[k].continues(with: v.isNaN ? nil : v) { return false }
        }
        return true
    }

    /// The longest bridged gap within `start...end` (0 when none).
    private func gapSeconds(from start: Double, to end: Double) -> Double {
        presence.gapSeconds(from: start, to: end)
    }

    // MARK: - Measuring

    private mutating func measure(_ pose: Pose, _ exercise: ExerciseDefinition) {
        if exercise.primaryAngle.isSided {
            var l = 0.0
            var r = 0.0
            var lz = 0.0
            var rz = 0.0
            var depth = true
            let (left, right) = primaryJoints
            for joint in left {
                let k = pose[joint]
                l += k.confidence
                if let z = k.z { lz += z } else { depth = false }
            }
            for joint in right {
                let k = pose[joint]
                r += k.confidence
                if let z = k.z { rz += z } else { depth = false }
            }
            let n = Double(max(1, left.count))
            sideConfidence.left += 0.1 * (l / n - sideConfidence.left)
            sideConfidence.right += 0.1 * (r / n - sideConfidence.right)
            let torso = walking.torso
            if depth, torso > 0 { sideDepthDifference += 0.1 * ((lz - rz) / n / torso - sideDepthDifference) }
            measuredSide = nearSide()
        }
        let recent = valuesAreRecent
        if depthCheck.trusted == nil, hasDepth {
            swapPlanes()
            measureAngles(pose, exercise, useDepth: false, recent: recent)
            swapPlanes()
        }
        measureAngles(pose, exercise, useDepth: hasDepth, recent: recent)
        valuesAreRecent = true
    }

    /// This frame's angles in `values`, the last two kept (NaN where the last frame had nobody: `recent` false).
    private mutating func measureAngles(_ pose: Pose, _ exercise: ExerciseDefinition, useDepth: Bool, recent: Bool) {
        for i in values.indices {
            olderValues[i] = recent ? previousValues[i] : .nan
            previousValues[i] = recent ? values[i] : .nan
        }
        for (a, angle) in exercise.angles.enumerated() {
            values[a * 2] = angle.measure(pose, side: .left, useDepth: useDepth) ?? .nan
            values[a * 2 + 1] =
                angle.isSided ? (angle.measure(pose, side: .right, useDepth: useDepth) ?? .nan) : .nan
        }
    }

    /// Whether a bilateral exercise is measured on one side only: unless the person faces the camera, the
    /// far limbs are hidden or guessed (a video pose estimator's depth is a guess too), so the near side,
    /// the better seen, is the measurement.
    private var measuresOneSide: Bool { view != .front }

    /// The side a bilateral exercise is measured on when ``measuresOneSide`` (``nearSide()``), as of this
    /// frame's measurement (read on every frame).
    private var measuredSide = BodySide.left

    /// The better seen side, else (equal confidences) the nearer one by depth.
    private func nearSide() -> BodySide {
        if abs(sideConfidence.right - sideConfidence.left) > 0.05 {
            return sideConfidence.right > sideConfidence.left ? .right : .left
        }
        // Depth decides only when it is measured: a video pose estimator's guessed z flips the near side
        // from frame to frame, and a signal that alternates sides counts phantom repetitions (2 in one descent
        // of an oblique squat before the depth verdict; see Guides.md, "Cases behind the code").
        guard depthCheck.trusted == true else { return .left }
        return sideDepthDifference > 0 ? .right : .left
    }

    /// The primary value for a counter: one side, or for a bilateral exercise the mean of both (the
    /// measured side alone when the far side cannot be seen).
    private func primaryValue(side: BodySide?) -> Double? {
        Self.primaryValue(side: side, left: values[0], right: values[1], sole: soleSide)
    }

    /// The primary angle in the image plane while the depth is not judged (``imagePlane``).
    private func flatPrimaryValue(side: BodySide?) -> Double? {
        Self.primaryValue(side: side, left: imagePlane.values[0], right: imagePlane.values[1], sole: soleSide)
    }

    /// The side a bilateral primary angle is measured on alone (``measuresOneSide``), else `nil`.
    private var soleSide: BodySide? { measuresOneSide && primaryIsSided ? measuredSide : nil }

    /// The primary value from its left and right values (NaN: not measured); `sole`: the only side measured.
    /// Static, and given what it needs: `count` reads it on every frame, and a method of the session's made
    /// the compiler copy the whole session to call it.
    private static func primaryValue(side: BodySide?, left l: Double, right r: Double, sole: BodySide?) -> Double? {
        switch side {
        case .left?: return l.isNaN ? nil : l
        case .right?: return r.isNaN ? nil : r
        case nil:
            if l.isNaN { return r.isNaN ? nil : r }
            if r.isNaN { return l }
            if let sole { return sole == .left ? l : r }
            return (l + r) / 2
        }
    }

    private mutating func resetStats(side: BodySide?) {
        for i in 0..<statMin.count {
            if let side, isSidedSlot(i), (i % 2 == 0) != (side == .left) { continue }
            statMin[i] = .infinity
            statMax[i] = -.infinity
            statPeak[i] = .nan
            slotMissingParts[i] = 0
        }
    }

    /// The depth proved a guess: the repetitions counted so far on the 3-D primary angle (a guessed depth can
    /// swing a standing knee between 90° and 130°; see Guides.md, "Cases behind the code") are replaced by those the
    /// image-plane counters found in the same time, each with the image-plane statistics it had then; the
    /// repetition under way keeps those swapped in at the verdict.
    /// The fallback signals' repetitions until then were measured with the guessed depth too: forgotten.
    private mutating func recountInImagePlane() {
        guard source.signal == .primaryAngle, let exercise = mode.exercise else { return }
        source.forget()
        for k in secondary.indices { secondary[k].reset() }
        guard !repetitions.isEmpty || !flatCompleted.isEmpty else { return }
        withdrawRepetitions()
        angleReps = 0
        lastRepEnd = -.infinity
        countingCounter = nil
        snapshot.repCount = 0
        recounting = true
        defer { recounting = false }
        // Each is judged on the image-plane statistics it had when its counter completed it, put in the plane
        // given up (the 3-D one, now in `imagePlane`), so that those of the repetition under way are kept.
        swapPlanes()
        defer { swapPlanes() }
        for (rep, c, statistics) in flatCompleted {
            (statMin, statMax, statPeak, slotMissingParts) = statistics
            complete(rep, counter: c, exercise)
        }
    }

    /// While the depth is not judged: the image-plane counters and statistics, kept as the session's own are.
    private mutating func countInImagePlane(valid: Bool, at t: Double, direction: Double) {
        for c in flatCounters.indices {
            let value = flatPrimaryValue(side: counterSides[c])
            let event = flatCounters[c].ingest(value, at: t, valid: valid)
            let active = flatCounters[c].phase == .active
            swapPlanes()
            updateStatistics(counter: c, value: value, active: active, valid: valid, direction: direction)
            if case .completed(let rep) = event {
                if mayCount(startingAt: rep.startSeconds) {
                    flatCompleted.append((rep, c, (statMin, statMax, statPeak, slotMissingParts)))
                }
                resetStatistics(counter: c)
            }
            swapPlanes()
        }
    }

    /// Per-repetition statistics run from the end of the previous repetition (or from when the person
    /// became measurable) to the end of this one, so a repetition's range includes the start position it
    /// began from, not only the part past the counter's threshold; the peak is where counter `c`'s signal
    /// (`value`) went furthest while its repetition was under way (`active`).
    private mutating func updateStatistics(
        counter c: Int,
        value: Double?,
        active: Bool,
        valid: Bool,
        direction: Double
    ) {
        let side = counterSides[c]
        if !valid {
            resetStatistics(counter: c)
        } else if !active {
            updateStats(side: side, peak: false)
        } else if let value {
            let s = value * direction
            let isPeak = s >= peakS[c]
            if isPeak { peakS[c] = s }
            updateStats(side: side, peak: isPeak)
        }
    }

    /// Starts counter `c`'s side afresh: after its repetition, or when the person is not measurable.
    private mutating func resetStatistics(counter c: Int) {
        resetStats(side: counterSides[c])
        peakS[c] = -.infinity
    }

    private func isSidedSlot(_ i: Int) -> Bool {
        mode.exercise!.angles[i / 2].isSided
    }

    private mutating func updateStats(side: BodySide?, peak: Bool) {
        for i in 0..<values.count {
            // The median of the last three frames: what was held for two frames or more.
            let a = values[i]
            let b = previousValues[i]
            let c = olderValues[i]
            guard !a.isNaN, !b.isNaN, !c.isNaN, slotSeen[i] else { continue }
            let v = Swift.max(Swift.min(a, b), Swift.min(Swift.max(a, b), c))
            if let side, isSidedSlot(i), (i % 2 == 0) != (side == .left) { continue }
            if v < statMin[i] { statMin[i] = v }
            if v > statMax[i] { statMax[i] = v }
            if peak { statPeak[i] = v }
        }
    }

    /// Which angle slots have all their joints seen in this frame (``slotSeen``), and which body parts kept
    /// the others from it (``slotMissingParts``). No allocation.
    private mutating func updateSlotSeen(_ pose: Pose) {
        // The image-plane statistics are kept only until the depth verdict (``imagePlane``).
        let imagePlaneKept = depthCheck.trusted == nil && hasDepth
        for i in slotJoints.indices {
            let vertex = pose[slotVertex[i]]
            var missing = 0
            for joint in slotJoints[i] where !visibility.isSeen(pose[joint], vertex: vertex) {
                missing |= BodyPart.of(joint)
            }
            slotSeen[i] = missing == 0
            slotMissingParts[i] |= missing
            if imagePlaneKept { imagePlane.slotMissingParts[i] |= missing }
        }
    }

    // MARK: - Counting

    private mutating func count(_ exercise: ExerciseDefinition, valid: Bool, at t: Double, pose: Pose) {
        guard let spec = exercise.repetition else { return }
        if valid { updateSlotSeen(pose) }
        // 10-Hz ring of this exercise's angles, for repetitions counted from the movement.
        if valid, ring.isDue(at: t), ring.capacity > 0 {
            let i = ring.beginSample(at: t)
            // Only angles whose joints are seen, as for the angle counter's repetitions.
            for (a, angle) in exercise.angles.enumerated() {
                let k = ExerciseRecognizer.index(angle) * 2
                let left = slotSeen[a * 2] ? values[a * 2] : .nan
                ring[sample: i, slot: k] = left
                ring[sample: i, slot: k + 1] = angle.isSided ? (slotSeen[a * 2 + 1] ? values[a * 2 + 1] : .nan) : left
            }
        }
        if movement != nil, (movement?.ingest(pose, at: t, valid: valid, useDepth: hasDepth) ?? 0) > 0,
            let reps = movement?.completed
        {
            for rep in reps where mayCount(startingAt: rep.startSeconds) {
                if source.record(rep, from: .movement) { completeAgnostic(rep, exercise: exercise) }
            }
            switchToFallbackIfAngleFails(exercise)
        }
        // The other measured angles, each counted on its own: one of them may move periodically when
        // the primary angle cannot be measured.
        for k in secondary.indices {
            let v = values[secondarySlots[k]]
            if case .completed(let rep) = secondary[k].ingest(v.isNaN ? nil : v, at: t, valid: valid),
                mayCount(startingAt: rep.startSeconds)
            {
                if source.record(rep, from: .secondaryAngle(k)) { completeAgnostic(rep, exercise: exercise) }
                switchToFallbackIfAngleFails(exercise)
            }
        }
        if depthCheck.trusted == nil, hasDepth { countInImagePlane(valid: valid, at: t, direction: spec.direction) }
        // ``soleSide``, read from the stored properties here: through the computed property the compiler copied
        // the whole session on every frame.
        let sole: BodySide? = view != .front && primaryIsSided ? measuredSide : nil
        for c in counters.indices {
            let value = Self.primaryValue(side: counterSides[c], left: values[0], right: values[1], sole: sole)
            let event = counters[c].ingest(value, at: t, valid: valid)
            let active = counters[c].phase == .active
            updateStatistics(counter: c, value: value, active: active, valid: valid, direction: spec.direction)
            if case .completed(let completed) = event {
                if source.signal == .primaryAngle, mayCount(startingAt: completed.startSeconds) {
                    complete(completed, counter: c, exercise)
                    switchToFallbackIfAngleFails(exercise)
                }
                resetStatistics(counter: c)
            }
        }
        // The working side and the overlay's numbers: the side that moves more; a side never measured (the far
        // arm hidden in a side view) has no range.
        var best = 0
        if counters.count == 2 {
            let spread0 = counters[0].observedRange.map { $0.high - $0.low } ?? -1
            let spread1 = counters[1].observedRange.map { $0.high - $0.low } ?? -1
            if spread1 > spread0 { best = 1 }
        }
        if !counters.isEmpty {
            workingSide = counterSides[best]
            snapshot.side = workingSide
            // Until the depth verdict, the image plane's numbers: what the repetitions are measured in when the
            // depth proves a guess (every video so far), so that the overlay does not show a guessed-depth angle
            // (a curl's 153° read 77°) that the summary then reports otherwise.
            if depthCheck.trusted == nil, hasDepth {
                snapshot.primaryAngle = flatPrimaryValue(side: workingSide)
                snapshot.rangeOfMotionProgress = flatCounters[best].progress
            } else {
                snapshot.primaryAngle = primaryValue(side: workingSide)
                snapshot.rangeOfMotionProgress = counters[best].progress
            }
            snapshot.primaryJoint = exercise.primaryAngle.vertexJoint(side: workingSide ?? .left)
            if let target = spec.holdSeconds { updatePeakHold(counter: countingCounter ?? best, target: target, at: t) }
        }
    }

    /// A prescribed hold at the peak, live: how long the repetition under way has been held there (the overlay
    /// counts it), and once it is long enough, a cue to come back.
    private mutating func updatePeakHold(counter c: Int, target: Double, at t: Double) {
        // From half a second on: on the way up the angle is always near its highest value so far.
        guard source.signal == .primaryAngle, let since = counters[c].heldAtPeakSince,
            t - since >= Self.shownHoldSeconds
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

    /// Counts from another signal when ``CountingSource`` finds the one counted missing repetitions: the
    /// repetitions so far are replaced by that signal's, the ones missed included.
    private mutating func switchToFallbackIfAngleFails(_ exercise: ExerciseDefinition?) {
        guard
            let signal = source.ingest(
                angleReps: angleReps,
                counted: repetitions,
                movementKnown: agnostic?.hasMovement == true
            ),
            let k = signal.fallback
        else { return }
        // Replace the angle counter's repetitions by the fallback's.
        withdrawRepetitions()
        for rep in source.fallbackReps[k] { completeAgnostic(rep, exercise: exercise) }
    }

    /// The angle the `k`-th secondary counter reads: one of the exercise's, or with none given, of the body's.
    private func countedAngle(_ k: Int) -> AngleKind {
        let slot = secondarySlots[k]
        return mode.exercise?.angles[slot / 2] ?? ExerciseRecognizer.kinds[slot / 2]
    }

    /// Forgets the repetitions so far, which a recount is about to replace (``SessionLog/withdrawRepetitions()``),
    /// and a cue about them still waiting is not given.
    private mutating func withdrawRepetitions() {
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

    private mutating func complete(_ completed: RepCounter.Completed, counter c: Int, _ exercise: ExerciseDefinition) {
        // With one counter per side, only the side that moves more counts, and never the same movement twice.
        if counters.count == 2 {
            // One side at a time: the side that counts first is the working side, and it stays so until
            // the other has counted two more (a glitchy resting limb, flipping between two wrong
            // positions, must not take turns with the moving one); the same movement is never counted twice.
            if let working = countingCounter, working != c {
                guard counters[c].count >= counters[working].count + 2 else { return }
            }
            countingCounter = c
            if completed.startSeconds < lastRepEnd - 0.1 { return }
        }
        lastRepEnd = completed.endSeconds
        let side = counterSides[c]
        // The primary angle on the side counted is the counter's own signal: its range holds the rest and
        // the peak the counter saw, and its value at the peak is the repetition's peak angle. So the form rule
        // on that angle (a push-up's depth) and the range-of-motion text judge the same number; a range that
        // began before the depth verdict (the angles were 3-D until then) still reaches the peak.
        let primary = exercise.primaryAngle
        let countedSide: BodySide? = side ?? (measuresOneSide ? measuredSide : nil)
        let countedSlot: Int? = !primary.isSided ? 0 : countedSide.map { $0 == .left ? 0 : 1 }
        if let slot = countedSlot {
            statMin[slot] = Swift.min(statMin[slot], completed.restValue, completed.peakValue)
            statMax[slot] = Swift.max(statMax[slot], completed.restValue, completed.peakValue)
            statPeak[slot] = completed.peakValue
        }
        let repetition = judge.judge(
            completed,
            side: side,
            exercise: exercise,
            statistics: (statMin, statMax, statPeak, slotMissingParts),
            context: measurementContext,
            recounting: recounting,
            index: repetitions.count + 1,
            breaches: safety.pendingBreaches,
            gapSeconds: gapSeconds(from: completed.startSeconds, to: completed.endSeconds)
        )
        safety.clearBreaches()
        angleReps += 1
        recordRepetition(repetition, at: completed.endSeconds)
    }

    private mutating func recordRepetition(_ repetition: Repetition, at t: Double) {
        log.record(repetition, at: t)
        snapshot.repCount = repetitions.count
        events.append(.repCompleted(repetition))
        if let issue = repetition.issues.first {
            _ = cues.offer(Cue(kind: .form, text: issue.cue, priority: issue.priority, seconds: t))
        } else if repetition.safetyBreaches.isEmpty {
            // The exercise's own praise; a movement with no exercise recognised was not judged, so it is counted
            // aloud instead of praised.
            let praise =
                repetition.exercise == nil
                ? "Rep \(repetitions.count)"
                : mode.exercise?.praise ?? recognizedExercise?.praise ?? "Good rep!"
            _ = cues.offer(Cue(kind: .encouragement, text: praise, priority: 1, seconds: t))
        }
    }

    // MARK: - Safety

    private mutating func checkSafety(at t: Double) {
        guard !safety.limits.isEmpty else { return }
        var anyActive = false
        for slot in safety.slots.indices {
            switch safety.ingest(slot: slot, value: values[safety.slots[slot].value], at: t) {
            case .within: break
            case .beyond: anyActive = true
            case .breached(let warning):
                anyActive = true
                events.append(.warning(warning))
                if let cue = cues.offer(Cue(kind: .safety, text: warning.text, priority: 1, seconds: t)) { give(cue) }
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
        guard let a = exercise.angles.firstIndex(of: angle), a * 2 + 1 < values.count else { return (.nan, .nan) }
        return (values[a * 2], values[a * 2 + 1])
    }

    private mutating func updateHold(_ exercise: ExerciseDefinition, valid: Bool, dt: Double, at t: Double) {
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
                _ = cues.offer(Cue(kind: .encouragement, text: exercise.praise, priority: 1, seconds: t))
            }
        case .released(let progress):
            events.append(.holdProgress(progress))
        case nil:
            break
        }
        if !holding, let failing, valid { _ = cues.offer(Cue(kind: .setup, text: failing, priority: 2, seconds: t)) }
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
            guard start - ring.times[index] <= 0.5,
                ring.meets(hold, of: exercise, sample: index, imagePlane: depthCheck.trusted != true)
            else { break }
            start = ring.times[index]
        }
        return start
    }

    // MARK: - Recognition

    private mutating func recognize(_ pose: Pose?, steady: Bool, at t: Double) {
        // Optional chaining mutates in place: copying the recognizer out would copy its buffers.
        guard recognizer != nil else { return }
        let decision = recognizer?.ingest(pose, at: t, steady: steady)
        if pose != nil, steady, ring.isDue(at: t) {
            let written = ring.beginSample(at: t)
            ring.write(recognizer!.sample, to: written)
            if depthCheck.trusted == false { ring.useImagePlaneAngles(ofSample: written) }
            countAngles(ofSample: written)
        } else if pose == nil || !steady, !secondaryInvalid {
            secondaryInvalid = true
            for k in secondary.indices { _ = secondary[k].ingest(nil, at: t, valid: false) }
        }
        guard let decision else { return }
        // A new exercise takes over after winning two decisions in a row.
        switch recognition.ingest(decision, bestIndex: recognizer?.bestIndex) {
        case .sameExercise(let confidence):
            snapshot.confidence = confidence
        case .switchExercise(let index, let confidence):
            switchExercise(to: index, confidence: confidence, state: decision, at: t)
        case .nothingRecognised:
            if snapshot.recognition != decision {
                snapshot.recognition = decision
                events.append(.recognized(decision))
            }
        case nil:
            break
        }
    }

    /// An angle on the left and on the right in the recogniser's latest sample (NaN where not measured), with no
    /// exercise given: in the image plane unless the depth is trusted, as with an exercise given.
    private func recognizedAngle(_ angle: AngleKind) -> (left: Double, right: Double) {
        guard let sample = recognizer?.sample else { return (.nan, .nan) }
        let k = recognizedSlot(angle)
        return (sample[k], sample[k + 1])
    }

    /// Where a recogniser sample holds `angle` on the left (the right follows).
    private func recognizedSlot(_ angle: AngleKind) -> Int {
        ExerciseRecognizer.index(angle) * 2 + (depthCheck.trusted != true ? ExerciseRecognizer.flatAngleBase : 0)
    }

    /// The exercise recognised so far, with no exercise given.
    private var recognizedExercise: ExerciseDefinition? { recognizedIndex.map { configuration.library[$0] } }

    /// Repetitions the movement completed (no exercise given): counted, when the movement is what counts.
    private mutating func completeMovement(_ reps: [RepCounter.Completed]) {
        let exercise = recognizedExercise
        for rep in reps where mayCount(startingAt: rep.startSeconds) {
            if source.record(rep, from: .movement) { completeAgnostic(rep, exercise: exercise) }
        }
    }

    /// With no exercise given, counts each of the body's angles in the 10-Hz sample `i` of the ring (the depth's
    /// or the image plane's, as the ring holds them); one that proves the movement misses repetitions takes over.
    private mutating func countAngles(ofSample i: Int) {
        secondaryInvalid = false
        let exercise = recognizedExercise
        for k in secondary.indices {
            let v = ring[sample: i, slot: secondarySlots[k]]
            guard case .completed(let rep) = secondary[k].ingest(v.isNaN ? nil : v, at: ring.times[i]),
                mayCount(startingAt: rep.startSeconds)
            else { continue }
            if source.record(rep, from: .secondaryAngle(k)) { completeAgnostic(rep, exercise: exercise) }
            switchToFallbackIfAngleFails(exercise)
        }
    }

    /// The depth proved a guess with no exercise given: the angles' counters start again from the image-plane
    /// angles of the samples so far, so that they measure what the picture shows from the start.
    private mutating func recountAnglesInImagePlane() {
        guard mode.isRecognised, source.signal == .movement else { return }
        for k in secondary.indices {
            secondary[k].reset()
            source.forget(fallback: k + 1)
        }
        for j in 0..<ring.count { countAngles(ofSample: ring.index(chronological: j)) }
    }

    private mutating func switchExercise(to index: Int?, confidence: Double, state: RecognitionState, at t: Double) {
        closeSegment(at: t)
        // A recognised hold ends with its segment.
        if index != recognizedIndex, let hold = recognizedExercise?.hold {
            holdTimer.end(target: hold.seconds)
            snapshot.hold = nil
        }
        recognition.switched(to: index, confidence: confidence)
        snapshot.recognition = state
        snapshot.confidence = confidence
        if let index {
            let exercise = configuration.library[index]
            snapshot.exerciseID = exercise.id
            snapshot.exerciseName = exercise.name
            snapshot.primaryAngleKind = exercise.primaryAngle
            snapshot.targetRange = exercise.targetBand
        } else {
            snapshot.exerciseID = nil
            snapshot.exerciseName = nil
            snapshot.primaryAngleKind = nil
            snapshot.targetRange = nil
        }
        events.append(.recognized(state))
    }

    private mutating func closeSegment(at t: Double) {
        log.closeSegment(
            at: t,
            exercise: recognizedIndex.map { configuration.library[$0].id },
            confidence: recognition.confidence,
            recordingStart: firstSeconds.isNaN ? 0 : firstSeconds
        )
    }

    private mutating func countAgnostic(_ pose: Pose, valid: Bool, dt: Double, at t: Double) {
        guard agnostic != nil else { return }
        // A hold recognised is timed as a hold given is (from when it is recognised), and its timer sets the
        // overlay's angle, side and joint, as with the hold given.
        let recognizedHold = recognizedExercise?.isHold == true
        if recognizedHold, let hold = recognizedExercise { updateHold(hold, valid: valid, dt: dt, at: t) }
        let completed = agnostic?.ingest(pose, at: t, valid: valid, useDepth: hasDepth) ?? 0
        snapshot.rangeOfMotionProgress = agnostic?.progress ?? 0
        if completed > 0, let reps = agnostic?.completed {
            completeMovement(reps)
            switchToFallbackIfAngleFails(recognizedExercise)
        }
        if let index = recognizedIndex, !recognizedHold {
            let exercise = configuration.library[index]
            let (l, r) = recognizedAngle(exercise.primaryAngle)
            snapshot.primaryAngle =
                l.isNaN ? (r.isNaN ? nil : r) : (r.isNaN ? l : (exercise.side == .both ? (l + r) / 2 : Swift.max(l, r)))
            // Where the overlay draws it: as with the exercise given, a bilateral mean at the left joint, else the
            // side the value comes from.
            let side: BodySide? =
                !exercise.primaryAngle.isSided || (exercise.side == .both && !l.isNaN && !r.isNaN)
                ? nil : (r.isNaN || (!l.isNaN && l >= r) ? .left : .right)
            snapshot.side = side
            snapshot.primaryJoint = exercise.primaryAngle.vertexJoint(side: side ?? .left)
        }
    }

    private mutating func completeAgnostic(_ completed: RepCounter.Completed, exercise: ExerciseDefinition?) {
        let repetition = judgedAgnostic(
            completed,
            exercise: exercise,
            index: repetitions.count + 1,
            previousEnd: repetitions.last?.endSeconds ?? -.infinity
        )
        recordRepetition(repetition, at: completed.endSeconds)
    }

    /// A repetition counted from the movement, measured and judged as one of `exercise` (from the 10-Hz ring of
    /// angles), or only timed without one. `previousEnd`: where the repetition before it ended.
    private mutating func judgedAgnostic(
        _ completed: RepCounter.Completed,
        exercise: ExerciseDefinition?,
        index: Int,
        previousEnd: Double
    ) -> Repetition {
        judge.judgeMovement(
            completed,
            exercise: exercise,
            index: index,
            previousEnd: previousEnd,
            ring: ring,
            context: measurementContext,
            gapSeconds: gapSeconds(from: completed.startSeconds, to: completed.endSeconds)
        )
    }

    // MARK: - Summary

    /// The joints the exercise needs that were never seen in frame while a person was there.
    public var jointsNeverSeen: [Joint] {
        guard framesWithPerson > 0 else { return [] }
        return inFrame.jointsNeverSeen
    }

    /// The number of frames in which a person was selected.
    public var personFrames: Int { framesWithPerson }

    /// What happened in the session so far, as if the recording ended now: a movement the agnostic counter had
    /// too little of to find (its window needs 3 s; a squat can last 1.1 s) is looked for in what there is.
    public func summary() -> SessionSummary {
        guard !finished, endsWithMore else { return summarised() }
        var ended = self
        ended.endRecording()
        return ended.summarised()
    }

    /// Whether the end of the recording may count, name or judge more (see ``summary()``).
    private var endsWithMore: Bool {
        agnostic != nil && (agnostic?.hasMovement == false || isNamedAtItsEnd)
    }

    /// Ends the set: what its end adds (a movement too short for the counter's window, an exercise named by a last
    /// decision and the repetitions judged as it) comes as events, so that the events folded
    /// (``CoachEvent/fold(_:)``) are ``summary()``'s repetitions. Frames ingested afterwards are not coached.
    public mutating func finish() -> [CoachEvent] {
        events.removeAll(keepingCapacity: true)
        guard !finished else { return [] }
        if endsWithMore {
            let before = repetitions
            endRecording()
            // Judged again once named: the ones reported before changed in place.
            if repetitions.count >= before.count, zip(before, repetitions).contains(where: { $0 != $1 }) {
                let added = repetitions.count - before.count
                events.removeAll { if case .repCompleted = $0 { true } else { false } }
                events.append(.repetitionsRevised(Array(repetitions.dropLast(added))))
                events += repetitions.suffix(added).map(CoachEvent.repCompleted)
            }
        }
        finished = true
        return events
    }

    /// Whether the recording is named by a last decision over it when it ends: one too short for two decisions in
    /// a row that name an exercise (a 1.1-s squat gets one at most), or one that no decision named twice in a row
    /// and that one recognition window holds whole, since that decision then sees all of it and nothing follows to
    /// contradict it (see Guides.md, "Cases behind the code").
    private var isNamedAtItsEnd: Bool {
        guard recognizedIndex == nil else { return false }
        if recognition.decisions <= 1 { return true }
        guard let window = recognizer?.configuration.windowSeconds, lastSeconds - firstSeconds <= window else {
            return false
        }
        return !log.segments.contains { $0.exercise != nil }
    }

    /// The repetitions completed in the open segment before the recording was named at its end are measured and
    /// judged as the exercise named, as they would have been had it been named before them (they had no angles and
    /// a "good" that nothing had judged; see Guides.md, "Cases behind the code").
    private mutating func judgeUnnamedRepetitions(as exercise: ExerciseDefinition, from start: Double) {
        for i in repetitions.indices where repetitions[i].exercise == nil && repetitions[i].endSeconds > start {
            let old = repetitions[i]
            let completed = RepCounter.Completed(
                startSeconds: old.startSeconds,
                peakSeconds: old.startSeconds + old.tempo.toPeakSeconds + (old.tempo.atPeakSeconds ?? 0) / 2,
                endSeconds: old.endSeconds,
                peakValue: .nan,
                restValue: .nan,
                plateauStartSeconds: old.startSeconds + old.tempo.toPeakSeconds,
                plateauEndSeconds: old.endSeconds - old.tempo.fromPeakSeconds
            )
            let judged = judgedAgnostic(
                completed,
                exercise: exercise,
                index: old.index,
                previousEnd: i > 0 ? repetitions[i - 1].endSeconds : -.infinity
            )
            log.replace(i, with: judged, at: old.endSeconds)
        }
    }

    /// The end of the recording, for the agnostic counter (``PeriodicMotionCounter/finish()``).
    private mutating func endRecording() {
        if isNamedAtItsEnd {
            if let final = recognizer?.finish() { recognition.note(final, bestIndex: recognizer?.bestIndex) }
            if let (index, state) = recognition.lastNamed, case .exercise(_, let confidence) = state {
                // The decision names what it saw: the segment still open, from where the last one closed (the
                // whole recording when none did), not a moment at its end (which left the recording's only
                // segment, and its repetition, without the exercise the summary names).
                let open = log.segments.last?.endSeconds ?? (firstSeconds.isNaN ? lastSeconds : firstSeconds)
                switchExercise(to: index, confidence: confidence, state: state, at: open)
                judgeUnnamedRepetitions(as: configuration.library[index], from: open)
            }
        }
        guard (agnostic?.finish() ?? 0) > 0, let reps = agnostic?.completed else { return }
        completeMovement(reps)
    }

    private func summarised() -> SessionSummary {
        log.summary(
            from: firstSeconds.isNaN ? 0 : firstSeconds,
            to: lastSeconds.isFinite ? lastSeconds : 0,
            given: mode.exercise,
            library: configuration.library,
            open: (recognizedIndex.map { configuration.library[$0].id }, recognition.confidence),
            holds: holdTimer.holds(openTarget: (mode.exercise ?? recognizedExercise)?.hold?.seconds),
            countedBy: {
                switch source.signal {
                case .movement: .movement
                case .secondaryAngle(let k): .otherAngle(countedAngle(k))
                case .primaryAngle: mode.exercise?.isHold == true ? .hold : .angle
                }
            }(),
            safetyWarnings: safety.warnings,
            secondsWithPerson: secondsWithPerson
        )
    }
}

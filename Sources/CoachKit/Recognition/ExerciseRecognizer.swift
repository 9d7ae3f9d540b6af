public import PoseKit

/// Recognises which library exercise is being done over a sliding window, with no training data: every
/// exercise is scored against the motion signature of its definition (``ExerciseDefinition/Motion``).
///
/// Ten times a second the recognizer measures every ``AngleKind`` on both sides, the direction of the
/// eight limb segments (upper arms, forearms, thighs, shanks) in the trunk's own frame (outward /
/// forward / up: in 3-D when keypoints have depth, so independent of the camera view; else in the image,
/// where a front view cannot tell forward from backward and a side view cannot tell out from in), and
/// the height of the hips above the feet. Every `strideSeconds` (and as soon as a fresh window holds 1.1 s)
/// it summarises the last `windowSeconds`:
/// per segment, the swing (the 10–90 % range along its main axis of motion) and where the swing goes
/// (from the low end to the high end); then scores each exercise by
/// - **activity**: its segment swings (on one side for `either`, on both for `both`) and every segment it
///   does not name (`segment`, `also`, the other side for one-sided exercises) stays well below it;
/// - **direction**: the swing points where the definition says (forward, sideways, backward, scapular,
///   inward, up; `around` = the forearm sweeps while the elbow angle stays and the upper arm stays put),
///   a soft likelihood with a floor (``Scoring/Configuration/directionFloor``), since skeletons can show a limb's swing in the
///   wrong direction (a thigh swinging backward counts as forward at half weight);
/// - **reach**: how many degrees the segment turns between the two ends of its swing against the
///   definition's `reach` (log-normal, ``Scoring/Configuration/reachTolerance``, with a floor): independent of the view and of
///   where the swing starts, it separates raises that share a plane a camera cannot tell apart
///   (abduction overhead from scaption to shoulder height);
/// - **hinge**: for a thigh movement that declares it, the knee bends about as far as the thigh turns (a
///   knee lift) or stays straight (``Scoring/Configuration/hingeTolerance``, with a floor);
/// - **hips**: still or moving, as declared; **posture**: upright / horizontal;
/// - **excursion**: the primary angle's range against start → peak (a weak, wide term), and the
///   `throughout` form rules bounding other angles.
/// The confidence is best / (best + second + ``Scoring/Configuration/background``), the winner's share against the runner-up
/// and "none of these"; below `minimumConfidence` the state is `.lowConfidence`, with nobody seen for a
/// second `.noPerson`. See `Guides.md` for how well this does.
///
/// ```swift
/// var recognizer = ExerciseRecognizer(exercises: library.exercises)
/// for frame in frames {
///     if let state = recognizer.ingest(smoothedPose, at: frame.seconds) { show(state) }
/// }
/// ```
public struct ExerciseRecognizer: Sendable {
    public struct Configuration: Sendable, Hashable {
        public var windowSeconds: Double
        public var strideSeconds: Double
        /// Below this confidence the state is `.lowConfidence`.
        public var minimumConfidence: Double
        /// Measure in 3-D when keypoints have depth.
        public var useDepth: Bool
        /// The tuned numbers of the score.
        public var scoring: Scoring.Configuration

        public init(
            windowSeconds: Double = 6,
            strideSeconds: Double = 1,
            minimumConfidence: Double = 0.4,
            useDepth: Bool = true,
            scoring: Scoring.Configuration = .init()
        ) {
            precondition(
                windowSeconds > strideSeconds && strideSeconds > 0,
                "windowSeconds (\(windowSeconds)) must exceed strideSeconds (\(strideSeconds)) > 0"
            )
            self.windowSeconds = windowSeconds
            self.strideSeconds = strideSeconds
            self.minimumConfidence = minimumConfidence
            self.useDepth = useDepth
            self.scoring = scoring
        }
    }

    typealias Motion = ExerciseDefinition.Motion

    static let kinds = AngleKind.allCases
    /// Sample layout: every angle kind on both sides (`kind index × 2 + side`), then the eight segment
    /// directions (3 values each), then the view mode, then the hip height.
    static let segmentBase = kinds.count * 2
    static let segmentSlots = 8
    static let viewSlot = segmentBase + segmentSlots * 3
    static let hipsSlot = viewSlot + 1
    static let shouldersSlot = hipsSlot + 1
    /// The image position (x, y, in torso lengths) of the hands (the mean of the wrists seen), then of the
    /// shoulders' midpoint: whether the hands stay put while the body moves (`motion.hands`).
    static let handsSlot = shouldersSlot + 1
    static let shoulderPositionSlot = handsSlot + 2
    /// 1 when every wrist seen is beyond the head along the trunk (from the hips to the neck, in the picture), 0
    /// when one is not, NaN when none is seen: its window mean is the share of the time the hands are overhead.
    static let overheadSlot = shoulderPositionSlot + 2
    /// Every angle kind again, measured in the image plane (as ``sample``'s first block, without depth): what a
    /// repetition counted with no exercise given reports once the session has found the depth to be a guess.
    /// The recognizer itself does not use them.
    public static let flatAngleBase = overheadSlot + 1
    public static let featureCount = flatAngleBase + kinds.count * 2
    static let sampleSeconds = SampleGrid.seconds

    public let configuration: Configuration
    public let exercises: [ExerciseDefinition]
    /// The latest score of each exercise (same order as ``exercises``).
    public internal(set) var scores: [Double]
    public internal(set) var state: RecognitionState = .noPerson
    /// The index in ``exercises`` of the best exercise at the last decision, if any.
    public internal(set) var bestIndex: Int?
    /// The latest sample: every angle kind on both sides (`kind index × 2 + side`), NaN where unmeasured,
    /// followed by the segment directions, the view mode and the hip height.
    public internal(set) var sample: [Double]

    private let capacity: Int
    var ring: [Double]
    var ringCount = 0
    private var ringNext = 0
    private var lastSampleSeconds = -Double.infinity
    /// Which frames are samples (the session's ring takes the same ones).
    private var grid = SampleGrid()
    private var lastDecisionSeconds = -Double.infinity
    private var lastPoseSeconds = -Double.infinity
    /// Whether a decision was made on the current window since it last restarted.
    private var decidedOnWindow = false
    /// The samples a window needs before a decision (12 at 10 Hz: 1.1 s at any rate of 10 fps or more). **Fewer
    /// frames**: one sample a frame (``SampleGrid``), so the first decision waits longer, 1.5 s at 7.5 fps and
    /// 2.2 s at 5 fps, and the window holds more time (its capacity is in samples).
    private var minimumSamples: Int { min(capacity, 12) }
    var scratch: [Double]
    var low: [Double]
    var high: [Double]
    var mean: [Double]
    /// Per segment slot: the swing (chord of unit directions) and the mean direction at its lower and
    /// its higher end (3 + 3 values: outward, forward, up).
    var swing: [Double]
    var swingEnds: [Double]
    /// Per segment slot: the mean forward component of its direction over the window.
    var forwardMean: [Double]
    /// Per hinge (elbow left/right, knee left/right): the 10–90 % range of the angle between the
    /// directions of the segments it joins (in the same reconstructed body frame as the swings, so a
    /// forearm pointing at the camera keeps its angle to the upper arm), degrees.
    var hingeRange: [Double]
    /// The window's hand travel (``measuredHandTravel()``), once per decision.
    var handTravel = Double.nan
    var viewMode = 0
    var referenceLength: [Double]
    var torsoReference = 0.0
    /// The scalar features whose window range and mean a score reads (``summarisedFeatures(of:)``); the others
    /// are not summarised.
    let summarised: [Int]

    public init(exercises: [ExerciseDefinition], configuration: Configuration = .init()) {
        self.exercises = exercises
        self.configuration = configuration
        capacity = max(10, Int((configuration.windowSeconds / Self.sampleSeconds).rounded()))
        ring = Array(repeating: .nan, count: capacity * Self.featureCount)
        scores = Array(repeating: 0, count: exercises.count)
        sample = Array(repeating: .nan, count: Self.featureCount)
        scratch = Array(repeating: 0, count: capacity)
        low = Array(repeating: .nan, count: Self.featureCount)
        high = Array(repeating: .nan, count: Self.featureCount)
        mean = Array(repeating: .nan, count: Self.featureCount)
        swing = Array(repeating: 0, count: Self.segmentSlots)
        swingEnds = Array(repeating: .nan, count: Self.segmentSlots * 6)
        forwardMean = Array(repeating: .nan, count: Self.segmentSlots)
        hingeRange = [.nan, .nan, .nan, .nan]
        referenceLength = Array(repeating: 0, count: Self.segmentSlots)
        summarised = Self.summarisedFeatures(of: exercises)
    }

    /// The scalar features a score reads the window's range or mean of: the trunk's lean and the elbow (every
    /// exercise), each exercise's primary angle, its `throughout` rules' angles and its hold's conditions (both
    /// sides), and the hips, shoulders, hands and overhead slots. Summarising only these keeps a decision's cost
    /// to what the library needs (the scores are the same).
    static func summarisedFeatures(of exercises: [ExerciseDefinition]) -> [Int] {
        var kinds: Set<AngleKind> = [.trunkLean, .elbowFlexion]
        for d in exercises {
            kinds.insert(d.primaryAngle)
            for rule in d.formRules where rule.at == .throughout { kinds.insert(rule.angle) }
            for condition in d.hold?.conditions ?? [] { kinds.insert(condition.angle) }
        }
        let angles = kinds.flatMap { [index($0) * 2, index($0) * 2 + 1] }
        return (angles + Array(hipsSlot..<flatAngleBase)).sorted()
    }

    /// Feeds the selected, smoothed pose (or `nil` when nobody is seen).
    ///
    /// - Returns: The state at each decision (every `strideSeconds`, and as soon as a fresh window holds
    ///   its 12 samples), `nil` in between.
    /// - Parameter steady: `false` while the person walks or is partly out of frame: the window restarts,
    ///   so that walking in is not taken for an exercise.
    public mutating func ingest(_ pose: Pose?, at seconds: Double, steady: Bool = true) -> RecognitionState? {
        if seconds < lastSampleSeconds { reset() }
        if pose != nil, !steady {
            ringCount = 0
            decidedOnWindow = false
            ringNext = 0
        }
        if let pose, steady {
            lastPoseSeconds = seconds
            if grid.isDue(at: seconds) {
                grid.take(at: seconds)
                lastSampleSeconds = seconds
                measure(pose)
                let base = ringNext * Self.featureCount
                for f in 0..<Self.featureCount { ring[base + f] = sample[f] }
                ringNext = (ringNext + 1) % capacity
                ringCount = min(ringCount + 1, capacity)
            }
        }
        // Every stride, and as soon as a fresh window first holds enough samples (so that a short clip
        // gets its first decision at 1.1 s rather than at the next stride, 2 s).
        let firstFull = !decidedOnWindow && ringCount >= minimumSamples
        guard seconds - lastDecisionSeconds >= configuration.strideSeconds || firstFull else { return nil }
        lastDecisionSeconds = seconds
        if seconds - lastPoseSeconds > 1 {
            ringCount = 0
            decidedOnWindow = false
            ringNext = 0
            bestIndex = nil
            state = .noPerson
            return state
        }
        guard ringCount >= minimumSamples else {
            decidedOnWindow = false
            state = .lowConfidence
            return state
        }
        decidedOnWindow = true
        decide()
        return state
    }

    /// The recording ended: a decision over the window as it is, when samples came after the last decision
    /// (a clip too short for its first, 1.1 s, needs at least 0.8 s); `nil` when there is nothing new to decide.
    public mutating func finish() -> RecognitionState? {
        guard ringCount >= 8, lastSampleSeconds > lastDecisionSeconds else { return nil }
        lastDecisionSeconds = lastSampleSeconds
        decidedOnWindow = true
        decide()
        return state
    }

    /// Forgets the window.
    public mutating func reset() {
        ringCount = 0
        decidedOnWindow = false
        ringNext = 0
        lastSampleSeconds = -.infinity
        grid.reset()
        lastDecisionSeconds = -.infinity
        lastPoseSeconds = -.infinity
        state = .noPerson
        bestIndex = nil
    }
}

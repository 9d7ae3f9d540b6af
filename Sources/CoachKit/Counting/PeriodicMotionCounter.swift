public import PoseKit

/// Counts repetitions of whatever periodic movement dominates, with no exercise given (like Create ML's
/// `HumanBodyActionCounter`).
///
/// Each frame, 13 joints are expressed relative to the root and divided by the torso length (x, y and,
/// when every frame has it, z); these features are sampled on a 10-Hz grid of capture time, each sample
/// interpolated between the frames around it, so the windows, clips and periods counted in samples are the
/// same stretches of time at any frame rate (a busy server's 7.5 fps as a camera's 30); across a gap of more
/// than ``longestInterpolation`` nothing is invented, the grid starts again at the next frame. The projection's
/// own ``RepCounter`` counts samples (``RepCounter/Configuration/countsSamples``: frames live, 10-Hz samples in
/// a replay), as it always did: with capture times its replays changed full-rate counts. Every two seconds (every second until the first one), the principal component of these trajectories over the
/// last `windowSeconds` (two typical repetitions when they are slower; until the first repetition, up to
/// `maximumSeconds`) is found by power iteration; the pose is projected on it and the projection is
/// counted by a ``RepCounter`` (median filter + adaptive hysteresis, the rest side being the side the
/// signal spends most time on). When the principal component first appears or changes to a different
/// movement, the buffered window is replayed so that the first repetitions are not lost; repetitions
/// already counted are not counted twice. Allocation-free after `init`.
///
/// ```swift
/// var counter = PeriodicMotionCounter()
/// for frame in frames {
///     if case .completed(let rep) = counter.ingest(pose, at: frame.seconds, valid: true) { … }
/// }
/// ```
public struct PeriodicMotionCounter: Sendable {
    public struct Configuration: Sendable, Hashable {
        /// The smallest excursion counted, in torso lengths.
        public var minimumRange: Double
        public var minimumSeconds: Double
        public var maximumSeconds: Double
        /// The window the principal component is taken over.
        public var windowSeconds: Double
        /// The joints whose movement is counted (root-relative); the default is the whole body.
        public var joints: [Joint]

        public init(
            minimumRange: Double = 0.25,
            minimumSeconds: Double = 0.5,
            maximumSeconds: Double = 15,
            windowSeconds: Double = 8,
            joints: [Joint] = PeriodicMotionCounter.bodyJoints
        ) {
            precondition(!joints.isEmpty, "joints must not be empty")
            self.joints = joints
            self.minimumRange = minimumRange
            self.minimumSeconds = minimumSeconds
            self.maximumSeconds = maximumSeconds
            self.windowSeconds = windowSeconds
        }
    }

    /// The whole-body joint set.
    public static let bodyJoints: [Joint] = [
        .leftWrist, .rightWrist, .leftElbow, .rightElbow, .leftShoulder, .rightShoulder, .neck,
        .leftHip, .rightHip, .leftKnee, .rightKnee, .leftAnkle, .rightAnkle,
    ]
    let joints: [Joint]
    let dimension: Int
    static let sampleSeconds = 0.1

    public let configuration: Configuration
    public private(set) var count = 0

    var counter: RepCounter
    var direction = 0.0
    // Feature ring at 10 Hz.
    var ring: [Double]
    var ringTimes: [Double]
    /// Whether the signal was invalid just before each sample (a replay does not bridge it).
    var ringBreaks: [Bool]
    var breakPending = true
    /// The ring's length: the longest repetition allowed (`maximumSeconds`) and a second more.
    let capacity: Int
    /// The usual window's length (`windowSeconds`).
    let windowSamples: Int
    /// The window of an update, oldest first (copied from the ring), with its times and breaks.
    var window: [Double]
    var windowTimes: [Double]
    var windowBreaks: [Bool]
    var ringCount = 0
    var ringNext = 0
    /// The previous valid frame (−∞ after an invalid one: nothing to interpolate from) and its features.
    private var lastFrameSeconds = -Double.infinity
    private var lastFeature: [Double]
    /// The grid of samples: `gridStart + k × sampleSeconds`, the next one `nextSample`.
    private var gridStart = 0.0
    private var nextSample = 0
    private var samplesSinceUpdate = 0
    // Current features, held for missing joints.
    var feature: [Double]
    var mean: [Double]
    /// The clip the counted signal is measured with (``project(_:offset:)``): the window's when the movement
    /// was found or changed, and from then on only wider. A position the counter has seen keeps its value: the
    /// half-second rest between raises held 12 s, taken whole while the window held the first rest, was clipped
    /// to half its depth once the window held only that half second, and the counter never saw it come back.
    var countedLow: [Double]
    var countedHigh: [Double]
    var component: [Double]
    var scratch: [Double]
    var product: [Double]
    var active: [Int]
    // Robust clipping: each dimension is limited to median ± 3 robust deviations over the window, so
    // tracking glitches (a joint jumping for a few frames) cannot become the dominant "movement". The median
    // absolute deviation is zero when more than half the window is one position (a raise held 5 s at the top,
    // or long rests between brief repetitions): then the limit also reaches every position taken for 1.6 s, or
    // the clip would flatten the repetitions themselves.
    var center: [Double]
    var spread: [Double]
    var sortScratch: [Double]
    var clipped: [Double]
    var covariance: [Double]
    var hasComponent = false
    /// The leading principal component of the last update (warm start of the next).
    var first: [Double]
    var hasFirst = false
    /// The chosen component in the packed space, and the window's projection on a candidate.
    var packedChoice: [Double]
    var series: [Double]
    /// Which principal component was chosen at the last update (0 = the leading one).
    public internal(set) var lastChoice = 0
    /// How many leading principal components are candidates.
    static let componentCount = 3
    /// A candidate component must carry at least this share of the leading one's variance.
    static let minimumEigenvalueShare = 0.1
    var torso = 0.0
    private var lastCountedEnd = -Double.infinity

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
        joints = configuration.joints.filter { $0 != .root }
        dimension = joints.count * 3
        windowSamples = max(20, Int((configuration.windowSeconds / Self.sampleSeconds).rounded()))
        let longest = max(configuration.windowSeconds, configuration.maximumSeconds + 1)
        capacity = max(windowSamples, Int((longest / Self.sampleSeconds).rounded()))
        ring = Array(repeating: 0, count: capacity * dimension)
        ringTimes = Array(repeating: 0, count: capacity)
        ringBreaks = Array(repeating: true, count: capacity)
        window = Array(repeating: 0, count: capacity * dimension)
        windowTimes = Array(repeating: 0, count: capacity)
        windowBreaks = Array(repeating: true, count: capacity)
        feature = Array(repeating: 0, count: dimension)
        lastFeature = Array(repeating: 0, count: dimension)
        mean = Array(repeating: 0, count: dimension)
        countedLow = Array(repeating: -.infinity, count: dimension)
        countedHigh = Array(repeating: .infinity, count: dimension)
        component = Array(repeating: 0, count: dimension)
        scratch = Array(repeating: 0, count: dimension)
        product = Array(repeating: 0, count: 2 * dimension)
        active = Array(repeating: 0, count: dimension)
        center = Array(repeating: 0, count: dimension)
        spread = Array(repeating: .infinity, count: dimension)
        sortScratch = Array(repeating: 0, count: capacity)
        clipped = Array(repeating: 0, count: capacity * dimension)
        completed.reserveCapacity(32)
        covariance = Array(repeating: 0, count: dimension * dimension)
        first = Array(repeating: 0, count: dimension)
        packedChoice = Array(repeating: 0, count: dimension)
        series = Array(repeating: 0, count: capacity)
        counter = RepCounter(configuration: Self.counterConfiguration(configuration))
    }

    static func counterConfiguration(_ c: Configuration, direction: Double = 1) -> RepCounter.Configuration {
        RepCounter.Configuration(
            direction: direction,
            minimumRange: c.minimumRange,
            minimumSeconds: c.minimumSeconds,
            maximumSeconds: c.maximumSeconds,
            windowSeconds: c.windowSeconds,
            countsSamples: true
        )
    }

    /// The projection of the current pose on the dominant movement (torso lengths), when known.
    public var signal: Double? { hasComponent ? counter.lastValue : nil }

    /// Progress of the current excursion, 0…1.
    public var progress: Double { hasComponent ? counter.progress : 0 }

    /// The repetitions completed by the last ``ingest(_:at:valid:)`` (usually none or one; several when
    /// the window was replayed), oldest first.
    public private(set) var completed: [RepCounter.Completed] = []

    /// Feeds one pose. `valid == false` (walking, out of frame) drops a repetition under way. With
    /// `useDepth == false` the keypoints' z is ignored (a video pose estimator's guessed depth).
    ///
    /// - Returns: The number of repetitions completed by this pose (see ``completed``).
    @discardableResult
    public mutating func ingest(_ pose: Pose?, at seconds: Double, valid: Bool, useDepth: Bool = true) -> Int {
        if !completed.isEmpty { completed.removeAll(keepingCapacity: true) }
        guard valid, let pose, updateFeature(pose, useDepth: useDepth) else {
            _ = counter.ingest(nil, at: seconds, valid: false)
            breakPending = true
            lastFrameSeconds = -.infinity
            return 0
        }
        sample(at: seconds)
        guard hasComponent else { return completed.count }
        if case .completed(let rep) = counter.ingest(project(feature), at: seconds) {
            accept(rep)
        }
        return completed.count
    }

    /// The longest time between two frames that samples are interpolated across: a frame rate of 3 fps.
    static let longestInterpolation = 0.35

    /// Stores the samples of the 10-Hz grid up to this frame (the features in `feature`): each interpolated
    /// linearly between the frames around it, so any frame rate gives the same samples, 0.1 s apart, that the
    /// window, the clip and the periodicity assume. The grid starts at the first frame, and again after an invalid
    /// frame, a frame captured before the last one, or a gap longer than ``longestInterpolation`` (which the
    /// ring holds as a gap in the samples' times, as when the caller holds frames back: a replay bridges it, up
    /// to ``longestBridge``, only when the movement continues where it was).
    private mutating func sample(at seconds: Double) {
        let gap = seconds - lastFrameSeconds
        if !(gap >= 0 && gap <= Self.longestInterpolation) {
            gridStart = seconds
            nextSample = 0
        }
        while true {
            let t = gridStart + Double(nextSample) * Self.sampleSeconds
            guard t <= seconds + 1e-6 else { break }
            if t < seconds - 1e-6 {
                // Between the last frame and this one.
                let w = (t - lastFrameSeconds) / gap
                for d in 0..<dimension { scratch[d] = lastFeature[d] + w * (feature[d] - lastFeature[d]) }
                swap(&scratch, &feature)
                store(at: t)
                swap(&scratch, &feature)
            } else {
                store(at: seconds)  // this frame's own time, not the grid's rounding of it
            }
            nextSample += 1
            samplesSinceUpdate += 1
            if ringCount >= min(windowSamples, 30), samplesSinceUpdate >= (hasComponent ? 20 : 10) {
                samplesSinceUpdate = 0
                updateComponent()
            }
        }
        lastFrameSeconds = seconds
        for d in 0..<dimension { lastFeature[d] = feature[d] }
    }

    /// Whether the movement has been found (the first principal component, after 3 s).
    public var hasMovement: Bool { hasComponent }

    /// The recording ended before the movement was found: finds it over the samples there are (at least
    /// 0.8 s) and counts the repetitions in them, into ``completed``. Nothing once the movement is known.
    ///
    /// - Returns: The number of repetitions completed.
    @discardableResult
    public mutating func finish() -> Int {
        if !completed.isEmpty { completed.removeAll(keepingCapacity: true) }
        guard !hasComponent, ringCount >= 8 else { return 0 }
        updateComponent()
        return completed.count
    }

    /// The longest stretch without samples that a replay bridges (the caller holds a gap for at most about 1 s).
    static let longestBridge = 1.5

    /// Whether `pose`, seen again after a gap in the samples, continues what the counter was doing before it
    /// (``RepCounter/continues(with:)`` on its projection); true while there is no movement yet.
    public func continues(with pose: Pose, useDepth: Bool = true) -> Bool {
        guard hasComponent, torso > 0 else { return true }
        let root = pose[.root]
        let neck = pose[.neck]
        guard root.confidence > 0, neck.confidence > 0 else { return counter.continues(with: nil) }
        let depth = useDepth && root.z != nil && neck.z != nil
        let scale = 1 / torso
        var sum = 0.0
        for (index, joint) in joints.enumerated() {
            let k = pose[joint]
            for axis in 0..<3 {
                let d = index * 3 + axis
                var v = feature[d]  // held for a joint not seen, as in ``ingest(_:at:valid:useDepth:)``
                if k.confidence > 0 {
                    switch axis {
                    case 0: v = (k.x - root.x) * scale
                    case 1: v = (k.y - root.y) * scale
                    default: v = (depth && k.z != nil) ? (k.z! - root.z!) * scale : 0
                    }
                }
                sum += (countedClip(v, d) - mean[d]) * component[d]
            }
        }
        return counter.continues(with: sum)
    }

    mutating func accept(_ rep: RepCounter.Completed) {
        // A repetition overlapping one already counted (after a replay) is the same one.
        guard rep.startSeconds >= lastCountedEnd - 0.05 else { return }
        lastCountedEnd = rep.endSeconds
        count += 1
        completed.append(rep)
    }
}

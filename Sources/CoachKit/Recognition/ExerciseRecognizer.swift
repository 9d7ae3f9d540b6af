public import PoseKit
import RealModule

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
///   a soft likelihood with a floor (``directionFloor``), since skeletons can show a limb's swing in the
///   wrong direction (a thigh swinging backward counts as forward at half weight);
/// - **reach**: how many degrees the segment turns between the two ends of its swing against the
///   definition's `reach` (log-normal, ``reachTolerance``, with a floor): independent of the view and of
///   where the swing starts, it separates raises that share a plane a camera cannot tell apart
///   (abduction overhead from scaption to shoulder height);
/// - **hinge**: for a thigh movement that declares it, the knee bends about as far as the thigh turns (a
///   knee lift) or stays straight (``hingeTolerance``, with a floor);
/// - **hips**: still or moving, as declared; **posture**: upright / horizontal;
/// - **excursion**: the primary angle's range against start → peak (a weak, wide term), and the
///   `throughout` form rules bounding other angles.
/// The confidence is best / (best + second + ``background``), the winner's share against the runner-up
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

        public init(
            windowSeconds: Double = 6,
            strideSeconds: Double = 1,
            minimumConfidence: Double = 0.4,
            useDepth: Bool = true
        ) {
            precondition(
                windowSeconds > strideSeconds && strideSeconds > 0,
                "windowSeconds (\(windowSeconds)) must exceed strideSeconds (\(strideSeconds)) > 0"
            )
            self.windowSeconds = windowSeconds
            self.strideSeconds = strideSeconds
            self.minimumConfidence = minimumConfidence
            self.useDepth = useDepth
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
    static let sampleSeconds = 0.1
    /// The direction factor never drops below this: the chance that a skeleton shows a limb's swing in the
    /// wrong direction (2-D ambiguity, distorted or mislabelled joints), so that one wrong heading does not
    /// veto an exercise the rest of the evidence supports.
    static let directionFloor = 0.1
    /// The heading factor is exp(−(1 − cos Δ) / this): 0.5 gives 0.77 at 30° off (the scapular plane
    /// against the frontal one; about what a depth estimate from one camera can tell apart), 0.14 at 90°.
    static let headingTolerance = 0.5
    /// The score of "none of these" in the confidence (winner / (winner + runner-up + background)).
    static let background = 0.05
    /// A thigh swinging backward counts as forward, times this.
    static let reversedThighSense = 0.5
    /// How far the turned angle may be from the definition's `reach`: a log-normal tolerance (0.25 ≈ a
    /// factor of 1.28 at one standard deviation), with a floor for the same reason as the direction's.
    static let reachTolerance = 0.25
    static let reachFloor = 0.15
    /// The knee's bend against the thigh's swing (both as chords): a straight-leg raise keeps it below
    /// 0.5, a knee lift above; beyond that the fit falls as exp(−excess / this), to a floor for the same
    /// reason as the direction's.
    static let hingeTolerance = 0.15
    static let hingeFloor = 0.1
    /// `motion.hands`: anchored hands travel at most this much (against the shoulders' travel) for full
    /// credit, moving hands at least `movingHands`; beyond, the fit falls as exp(−excess / tolerance) (twice
    /// the tolerance for moving hands) to the floor, for the same reason as the direction's.
    static let anchoredHands = 0.5
    static let movingHands = 1.5
    static let handsTolerance = 0.3
    static let handsFloor = 0.1
    /// The share of the window with the hands beyond the head that, with anchored hands, is hanging from a bar
    /// (at the top of a pull-up the hands are at the chin, below the head).
    static let hangingOverhead = 0.4
    /// Below this share (where the hands are seen) nobody hangs from them: a squat's arms raised forward to
    /// balance, anchored as they move with nothing, made a pull-up of a 1.1-s squat (see Guides.md, "Cases behind
    /// the code").
    static let hangingOverheadAtLeast = 0.2

    public let configuration: Configuration
    public let exercises: [ExerciseDefinition]
    /// The latest score of each exercise (same order as ``exercises``).
    public private(set) var scores: [Double]
    public private(set) var state: RecognitionState = .noPerson
    /// The index in ``exercises`` of the best exercise at the last decision, if any.
    public private(set) var bestIndex: Int?
    /// The latest sample: every angle kind on both sides (`kind index × 2 + side`), NaN where unmeasured,
    /// followed by the segment directions, the view mode and the hip height.
    public private(set) var sample: [Double]

    private let capacity: Int
    private var ring: [Double]
    private var ringCount = 0
    private var ringNext = 0
    private var lastSampleSeconds = -Double.infinity
    private var lastDecisionSeconds = -Double.infinity
    private var lastPoseSeconds = -Double.infinity
    /// Whether a decision was made on the current window since it last restarted.
    private var decidedOnWindow = false
    /// The samples a window needs before a decision (12 at 10 Hz: 1.1 s).
    private var minimumSamples: Int { min(capacity, 12) }
    private var scratch: [Double]
    private var low: [Double]
    private var high: [Double]
    private var mean: [Double]
    /// Per segment slot: the swing (chord of unit directions) and the mean direction at its lower and
    /// its higher end (3 + 3 values: outward, forward, up).
    private var swing: [Double]
    private var swingEnds: [Double]
    /// Per segment slot: the mean forward component of its direction over the window.
    private var forwardMean: [Double]
    /// Per hinge (elbow left/right, knee left/right): the 10–90 % range of the angle between the
    /// directions of the segments it joins (in the same reconstructed body frame as the swings, so a
    /// forearm pointing at the camera keeps its angle to the upper arm), degrees.
    private var hingeRange: [Double]
    /// The window's hand travel (``measuredHandTravel()``), once per decision.
    private var handTravel = Double.nan
    private var viewMode = 0
    private var referenceLength: [Double]
    private var torsoReference = 0.0
    /// The scalar features whose window range and mean a score reads (``summarisedFeatures(of:)``); the others
    /// are not summarised.
    private let summarised: [Int]

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
            if seconds - lastSampleSeconds >= Self.sampleSeconds * 0.95 {
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
        lastDecisionSeconds = -.infinity
        lastPoseSeconds = -.infinity
        state = .noPerson
        bestIndex = nil
    }

    // MARK: - Measuring

    /// The segment slot: upper arm 0/1, forearm 2/3, thigh 4/5, shank 6/7 (left/right); `nil` for the
    /// midline "segments" (trunk, shoulders, hips).
    static func slot(_ segment: Motion.Segment, side: Int) -> Int? {
        switch segment {
        case .upperArm: side
        case .forearm: 2 + side
        case .thigh: 4 + side
        case .shank: 6 + side
        case .trunk, .shoulders, .hips: nil
        }
    }

    private static let segmentJoints: [(Joint, Joint)] = [
        (.leftShoulder, .leftElbow), (.rightShoulder, .rightElbow),
        (.leftElbow, .leftWrist), (.rightElbow, .rightWrist),
        (.leftHip, .leftKnee), (.rightHip, .rightKnee),
        (.leftKnee, .leftAnkle), (.rightKnee, .rightAnkle),
    ]

    /// A segment seen at least this share of the longest length it had recently lies in the image plane (no
    /// hidden component): keypoint noise of a pixel or two shortens a 60-px forearm by a few percent, and the
    /// hidden component, sqrt(1 − (length / longest)²), read a 3 % shortening as a quarter of the segment pointing
    /// out of the picture. Every segment of a person standing still in a side view, without depth, then swung
    /// 20–25° in the recognizer's eyes, and curls or hip extensions held 8 s were named shoulder presses.
    static let hiddenDeadband = 0.95

    private mutating func measure(_ pose: Pose) {
        for (k, kind) in Self.kinds.enumerated() {
            sample[k * 2] = kind.measure(pose, side: .left, useDepth: configuration.useDepth) ?? .nan
            sample[k * 2 + 1] =
                kind.isSided
                ? (kind.measure(pose, side: .right, useDepth: configuration.useDepth) ?? .nan) : sample[k * 2]
        }
        for i in Self.segmentBase..<Self.featureCount { sample[i] = .nan }
        // Measured again only where depth was used (the same numbers without it).
        let measuredWithDepth =
            configuration.useDepth && pose[.leftShoulder].z != nil && pose[.rightShoulder].z != nil
            && pose[.leftHip].z != nil
        for (k, kind) in Self.kinds.enumerated() {
            let base = Self.flatAngleBase + k * 2
            guard measuredWithDepth else {
                sample[base] = sample[k * 2]
                sample[base + 1] = sample[k * 2 + 1]
                continue
            }
            sample[base] = kind.measure(pose, side: .left, useDepth: false) ?? .nan
            sample[base + 1] = kind.isSided ? (kind.measure(pose, side: .right, useDepth: false) ?? .nan) : sample[base]
        }
        let ls = pose[.leftShoulder]
        let rs = pose[.rightShoulder]
        let neck = pose[.neck]
        let root = pose[.root]
        guard ls.confidence > 0, rs.confidence > 0, neck.confidence > 0, root.confidence > 0 else { return }
        // Hip height in the image (a steady camera), in the longest torso length seen recently: it
        // changes when the whole body lowers or rises, not when a limb moves.
        let torso2D = ((neck.x - root.x) * (neck.x - root.x) + (neck.y - root.y) * (neck.y - root.y)).squareRoot()
        torsoReference = max(torso2D, torsoReference * 0.998)
        if torsoReference > 1e-6 { sample[Self.hipsSlot] = -root.y / torsoReference }
        // Shoulder height below the head, in torso lengths: it drops in a shrug.
        let head = pose[.nose].confidence > 0 ? pose[.nose] : pose[.head]
        if head.confidence > 0, torsoReference > 1e-6 {
            sample[Self.shouldersSlot] = ((ls.y + rs.y) / 2 - head.y) / torsoReference
        }
        if torsoReference > 1e-6 {
            sample[Self.shoulderPositionSlot] = (ls.x + rs.x) / 2 / torsoReference
            sample[Self.shoulderPositionSlot + 1] = (ls.y + rs.y) / 2 / torsoReference
            let lw = pose[.leftWrist]
            let rw = pose[.rightWrist]
            let seen = (lw.confidence > 0 ? 1.0 : 0) + (rw.confidence > 0 ? 1.0 : 0)
            let axisX = neck.x - root.x
            let axisY = neck.y - root.y
            if seen > 0, head.confidence > 0 {
                // Along the trunk, from the neck: the head against each wrist seen.
                let headReach = (head.x - neck.x) * axisX + (head.y - neck.y) * axisY
                let above = { (w: Keypoint) in (w.x - neck.x) * axisX + (w.y - neck.y) * axisY > headReach }
                let overhead = (lw.confidence <= 0 || above(lw)) && (rw.confidence <= 0 || above(rw))
                sample[Self.overheadSlot] = overhead ? 1 : 0
            }
            if seen > 0 {
                sample[Self.handsSlot] =
                    ((lw.confidence > 0 ? lw.x : 0) + (rw.confidence > 0 ? rw.x : 0)) / seen / torsoReference
                sample[Self.handsSlot + 1] =
                    ((lw.confidence > 0 ? lw.y : 0) + (rw.confidence > 0 ? rw.y : 0)) / seen / torsoReference
            }
        }

        let depth = configuration.useDepth && ls.z != nil && rs.z != nil && neck.z != nil && root.z != nil
        var u = Measurer.P(neck.x - root.x, neck.y - root.y, depth ? neck.z! - root.z! : 0)
        let un = u.length
        guard un > 1e-6 else { return }
        u = Measurer.P(u.x / un, u.y / un, u.z / un)
        var l = Measurer.P(ls.x - rs.x, ls.y - rs.y, depth ? ls.z! - rs.z! : 0)
        let widthRaw = l.length
        let along = l.dot(u)
        l = Measurer.P(l.x - along * u.x, l.y - along * u.y, l.z - along * u.z)
        let ln = l.length
        var f = Measurer.P(0, 0, 0)
        var mode: Int
        if depth {
            guard ln > 1e-6 else { return }
            l = Measurer.P(l.x / ln, l.y / ln, l.z / ln)
            f = l.cross(u)  // forward (x right, y down, z away from the camera)
            mode = 0
        } else if widthRaw / un >= 0.4, ln > 1e-6 {
            l = Measurer.P(l.x / ln, l.y / ln, 0)
            mode = 1  // front-ish: forward is the hidden axis
        } else {
            // Side view: the image perpendicular to the trunk is forward or backward; the facing direction
            // comes from the nose (or toes) relative to the neck (or ankle).
            var facing = 1.0
            let nose = pose[.nose]
            if nose.confidence > 0 {
                facing = nose.x >= neck.x ? 1 : -1
            } else if pose[.leftFootIndex].confidence > 0, pose[.leftAnkle].confidence > 0 {
                facing = pose[.leftFootIndex].x >= pose[.leftAnkle].x ? 1 : -1
            }
            let px = -u.y
            let py = u.x
            let sign = (px >= 0 ? 1.0 : -1.0) * facing
            f = Measurer.P(px * sign, py * sign, 0)
            mode = 2  // side: out/in is the hidden axis
        }
        sample[Self.viewSlot] = Double(mode)
        for (slot, (a, b)) in Self.segmentJoints.enumerated() {
            let pa = pose[a]
            let pb = pose[b]
            guard pa.confidence > 0, pb.confidence > 0 else { continue }
            let outward = slot % 2 == 0 ? 1.0 : -1.0
            let base = Self.segmentBase + slot * 3
            if mode == 0 {
                guard let za = pa.z, let zb = pb.z else { continue }
                let v = Measurer.P(pb.x - pa.x, pb.y - pa.y, zb - za)
                let n = v.length
                guard n > 1e-6 else { continue }
                sample[base] = v.dot(l) * outward / n
                sample[base + 1] = v.dot(f) / n
                sample[base + 2] = v.dot(u) / n
            } else {
                let v = Measurer.P(pb.x - pa.x, pb.y - pa.y, 0)
                let n = v.length
                guard n > 1e-6 else { continue }
                // The axis the camera cannot see, from the segment's foreshortening against the longest
                // length seen recently.
                let reference = max(n, referenceLength[slot] * 0.998)
                referenceLength[slot] = reference
                let ratio = min(1, n / (reference * Self.hiddenDeadband))
                let hidden = (1 - ratio * ratio).squareRoot()
                sample[base + 2] = v.dot(u) / reference
                if mode == 1 {
                    sample[base] = v.dot(l) * outward / reference
                    sample[base + 1] = hidden
                } else {
                    sample[base] = hidden
                    sample[base + 1] = v.dot(f) / reference
                }
            }
        }
    }

    // MARK: - Summarising the window

    private mutating func decide() {
        let n = ringCount
        // Robust range (10th–90th percentile) and mean of every scalar feature the scores read over the window.
        ring.withUnsafeBufferPointer { ring in
            scratch.withUnsafeMutableBufferPointer { scratch in
                for f in summarised {
                    var m = 0
                    var sum = 0.0
                    for i in 0..<n {
                        let v = ring[i * Self.featureCount + f]
                        if v.isNaN { continue }
                        scratch[m] = v
                        m += 1
                        sum += v
                    }
                    guard m >= max(3, n / 3) else {
                        low[f] = .nan
                        high[f] = .nan
                        mean[f] = .nan
                        continue
                    }
                    (low[f], high[f]) = tenthAndNinetiethPercentiles(
                        UnsafeMutableBufferPointer(rebasing: scratch[0..<m])
                    )
                    mean[f] = sum / Double(m)
                }
            }
        }
        // The view mode most samples had.
        var modes = (0, 0, 0)
        for i in 0..<n {
            switch ring[i * Self.featureCount + Self.viewSlot] {
            case 0: modes.0 += 1
            case 1: modes.1 += 1
            case 2: modes.2 += 1
            default: break
            }
        }
        viewMode = modes.0 >= modes.1 && modes.0 >= modes.2 ? 0 : (modes.1 >= modes.2 ? 1 : 2)
        handTravel = measuredHandTravel()
        for slot in 0..<Self.segmentSlots { summariseSegment(slot, count: n) }
        for hinge in 0..<4 { summariseHinge(hinge, count: n) }

        var best = -1
        var bestScore = 0.0
        var second = 0.0
        for (index, exercise) in exercises.enumerated() {
            let s = score(exercise)
            scores[index] = s
            if s > bestScore {
                second = bestScore
                bestScore = s
                best = index
            } else if s > second {
                second = s
            }
        }
        // The winner's share against the runner-up and a background "none of these" hypothesis.
        let confidence = bestScore / (bestScore + second + Self.background)
        if best >= 0, confidence >= configuration.minimumConfidence {
            bestIndex = best
            state = .exercise(id: exercises[best].id, confidence: min(1, confidence))
        } else {
            bestIndex = nil
            state = .lowConfidence
        }
    }

    /// The range of the angle between the directions of the two segments a hinge joins over the window:
    /// hinge 0/1 the elbow (upper arm, forearm), 2/3 the knee (thigh, shank), left/right.
    private mutating func summariseHinge(_ hinge: Int, count n: Int) {
        hingeRange[hinge] = .nan
        let upper = Self.segmentBase + (hinge < 2 ? hinge : 2 + hinge) * 3
        let fore = upper + 6
        var m = 0
        for i in 0..<n {
            let b = i * Self.featureCount
            let ux = ring[b + upper]
            let uy = ring[b + upper + 1]
            let uz = ring[b + upper + 2]
            let fx = ring[b + fore]
            let fy = ring[b + fore + 1]
            let fz = ring[b + fore + 2]
            guard !ux.isNaN, !uy.isNaN, !uz.isNaN, !fx.isNaN, !fy.isNaN, !fz.isNaN else { continue }
            let nu = (ux * ux + uy * uy + uz * uz).squareRoot()
            let nf = (fx * fx + fy * fy + fz * fz).squareRoot()
            guard nu > 1e-6, nf > 1e-6 else { continue }
            // The cosine is monotonic in the angle: percentiles of the cosines, two acos at the end.
            scratch[m] = min(1, max(-1, (ux * fx + uy * fy + uz * fz) / (nu * nf)))
            m += 1
        }
        guard m >= max(3, n / 3) else { return }
        let (lo, hi) = tenthAndNinetiethPercentiles(&scratch, count: m)
        hingeRange[hinge] = (Double.acos(lo) - Double.acos(hi)) * 180 / .pi
    }

    /// The swing of one segment: its main axis of motion (power iteration on the 3 × 3 covariance of its
    /// directions), the 10–90 % range along it, and the mean direction at each end (lower end first).
    private mutating func summariseSegment(_ slot: Int, count n: Int) {
        let base = Self.segmentBase + slot * 3
        swing[slot] = 0
        for i in 0..<6 { swingEnds[slot * 6 + i] = .nan }
        forwardMean[slot] = .nan
        var m = 0
        var sx = 0.0
        var sy = 0.0
        var sz = 0.0
        for i in 0..<n {
            let k = i * Self.featureCount + base
            guard !ring[k].isNaN, !ring[k + 1].isNaN, !ring[k + 2].isNaN else { continue }
            m += 1
            sx += ring[k]
            sy += ring[k + 1]
            sz += ring[k + 2]
        }
        guard m >= max(5, n / 3) else { return }
        let mx = sx / Double(m)
        let my = sy / Double(m)
        let mz = sz / Double(m)
        forwardMean[slot] = my
        var cxx = 0.0
        var cxy = 0.0
        var cxz = 0.0
        var cyy = 0.0
        var cyz = 0.0
        var czz = 0.0
        for i in 0..<n {
            let k = i * Self.featureCount + base
            guard !ring[k].isNaN, !ring[k + 1].isNaN, !ring[k + 2].isNaN else { continue }
            let x = ring[k] - mx
            let y = ring[k + 1] - my
            let z = ring[k + 2] - mz
            cxx += x * x
            cxy += x * y
            cxz += x * z
            cyy += y * y
            cyz += y * z
            czz += z * z
        }
        // Start from the axis with the largest variance.
        var ax = cxx >= cyy && cxx >= czz ? 1.0 : 0.0
        var ay = ax == 0 && cyy >= czz ? 1.0 : 0.0
        var az = ax == 0 && ay == 0 ? 1.0 : 0.0
        for _ in 0..<12 {
            let nx = cxx * ax + cxy * ay + cxz * az
            let ny = cxy * ax + cyy * ay + cyz * az
            let nz = cxz * ax + cyz * ay + czz * az
            let norm = (nx * nx + ny * ny + nz * nz).squareRoot()
            guard norm > 1e-12 else {
                // Perfectly still: seen, no swing, both ends at the mean direction.
                for i in 0..<2 {
                    swingEnds[slot * 6 + i * 3] = mx
                    swingEnds[slot * 6 + i * 3 + 1] = my
                    swingEnds[slot * 6 + i * 3 + 2] = mz
                }
                return
            }
            ax = nx / norm
            ay = ny / norm
            az = nz / norm
        }
        var j = 0
        for i in 0..<n {
            let k = i * Self.featureCount + base
            guard !ring[k].isNaN, !ring[k + 1].isNaN, !ring[k + 2].isNaN else { continue }
            scratch[j] = (ring[k] - mx) * ax + (ring[k + 1] - my) * ay + (ring[k + 2] - mz) * az
            j += 1
        }
        let (lo, hi) = tenthAndNinetiethPercentiles(&scratch, count: m)
        swing[slot] = hi - lo
        // The mean direction at each end of the swing.
        var low = (0.0, 0.0, 0.0, 0.0)
        var high = (0.0, 0.0, 0.0, 0.0)
        for i in 0..<n {
            let k = i * Self.featureCount + base
            guard !ring[k].isNaN, !ring[k + 1].isNaN, !ring[k + 2].isNaN else { continue }
            let p = (ring[k] - mx) * ax + (ring[k + 1] - my) * ay + (ring[k + 2] - mz) * az
            if p <= lo {
                low = (low.0 + ring[k], low.1 + ring[k + 1], low.2 + ring[k + 2], low.3 + 1)
            } else if p >= hi {
                high = (high.0 + ring[k], high.1 + ring[k + 1], high.2 + ring[k + 2], high.3 + 1)
            }
        }
        guard low.3 > 0, high.3 > 0 else { return }
        var first = (low.0 / low.3, low.1 / low.3, low.2 / low.3)
        var second = (high.0 / high.3, high.1 / high.3, high.2 / high.3)
        if first.2 > second.2 { swap(&first, &second) }
        swingEnds[slot * 6] = first.0
        swingEnds[slot * 6 + 1] = first.1
        swingEnds[slot * 6 + 2] = first.2
        swingEnds[slot * 6 + 3] = second.0
        swingEnds[slot * 6 + 4] = second.1
        swingEnds[slot * 6 + 5] = second.2
    }

    // MARK: - Scoring

    private func range(_ kind: AngleKind, _ side: Int) -> Double {
        let f = Self.index(kind) * 2 + side
        return high[f] - low[f]
    }

    static func index(_ kind: AngleKind) -> Int {
        switch kind {
        case .kneeFlexion: 0
        case .hipFlexion: 1
        case .hipAbduction: 2
        case .shoulderFlexion: 3
        case .shoulderAbduction: 4
        case .shoulderScaption: 5
        case .shoulderExtension: 6
        case .shoulderRotation: 7
        case .elbowFlexion: 8
        case .anklePlantarFlexion: 9
        case .trunkLean: 10
        case .bodyLine: 11
        case .kneeWidthRatio: 12
        case .headShoulderRatio: 13
        case .upperArmInclination: 14
        }
    }

    /// A range of degrees as the chord between unit directions that far apart (comparable to a swing).
    private static func chord(_ degrees: Double) -> Double {
        degrees.isFinite ? 2 * Double.sin(min(180, max(0, degrees)) * .pi / 360) : 0
    }

    /// How much a "segment" moves over the window, on the chord scale of the limb swings (0…2).
    private func amplitude(_ segment: Motion.Segment, side: Int) -> Double {
        if let slot = Self.slot(segment, side: side) { return swing[slot] }
        switch segment {
        case .trunk: return Self.chord(range(.trunkLean, 0))
        case .shoulders:
            let r = high[Self.shouldersSlot] - low[Self.shouldersSlot]
            return r.isFinite ? 4 * r : 0
        default:
            let r = high[Self.hipsSlot] - low[Self.hipsSlot]
            return r.isFinite ? 1.5 * r : 0
        }
    }

    /// The horizontal heading (outward, forward) a direction sends the segment's far end toward, unit
    /// length; `nil` where the heading does not matter.
    private static func heading(_ direction: Motion.Direction) -> (Double, Double)? {
        switch direction {
        case .forward: (0, 1)
        case .backward: (0, -1)
        case .sideways: (1, 0)
        case .scapular: (0.87, 0.5)
        case .inward: (-1, 0)
        case .up, .around: nil
        }
    }

    /// How well a swing's heading matches: the cosine between the expected heading and the observed one,
    /// taken as 2 × (higher end) − (lower end) in the horizontal plane of the trunk (the raised end, pushed
    /// away from where the swing started, so that a rest position held slightly out does not dominate).
    private func headingCosine(slot: Int, expected e: (Double, Double), reversed: Bool) -> Double {
        let b = slot * 6
        let lo = reversed ? 3 : 0
        let hi = reversed ? 0 : 3
        let ho = 2 * swingEnds[b + hi] - swingEnds[b + lo]
        let hf = 2 * swingEnds[b + hi + 1] - swingEnds[b + lo + 1]
        let norm = (ho * ho + hf * hf).squareRoot()
        guard norm > 0.15 else { return 0.3 }  // no clear heading (e.g. a raise straight overhead)
        // In 2-D the hidden axis is only a magnitude, from foreshortening, and noisy: it counts half.
        switch viewMode {
        case 1:
            let h = 0.5 * abs(hf)
            return (ho * e.0 + h * abs(e.1)) / max(0.15, (ho * ho + h * h).squareRoot())
        case 2:
            let h = 0.5 * abs(ho)
            return (h * abs(e.0) + hf * e.1) / max(0.15, (h * h + hf * hf).squareRoot())
        default: return (ho * e.0 + hf * e.1) / norm
        }
    }

    private static let limbSegments: [Motion.Segment] = [.upperArm, .forearm, .thigh, .shank]

    private func closeness(_ observed: Double, expected: Double) -> Double {
        guard observed.isFinite, observed > 0, expected > 0 else { return 0 }
        let l = Double.log(observed / expected)
        return Double.exp(-(l * l) / (2 * 0.6 * 0.6))
    }

    /// Why an exercise scored what it did at the last decision: each factor, and the swing of every
    /// segment (for tuning and for `ptcoach evaluate-reps --explain`).
    package func explanation(of index: Int) -> String {
        var text = ""
        _ = score(exercises[index], explain: &text)
        return text
    }

    /// The swings of the last decision: per segment slot (upper arm, forearm, thigh, shank; left, right)
    /// the swing and its direction (outward, forward, up), plus the hip-height range and the view mode.
    package var swingSummary: String {
        let names = ["uaL", "uaR", "faL", "faR", "thL", "thR", "shL", "shR"]
        var parts: [String] = []
        for slot in 0..<Self.segmentSlots {
            let d = (0..<6).map {
                swingEnds[slot * 6 + $0].isFinite ? Int((swingEnds[slot * 6 + $0] * 10).rounded()) : 0
            }
            parts.append(
                "\(names[slot]) \(swing[slot].isFinite ? Int((swing[slot] * 100).rounded()) : 0) [\(d[0]),\(d[1]),\(d[2])→\(d[3]),\(d[4]),\(d[5])]"
            )
        }
        let hips = high[Self.hipsSlot] - low[Self.hipsSlot]
        let percent = { (x: Double) in x.isFinite ? String(Int((x * 100).rounded())) : "-" }
        return parts.joined(separator: " ")
            + " hips \(percent(hips)) trunk \(percent(amplitude(.trunk, side: 0))) view \(viewMode)"
    }

    private func score(_ d: ExerciseDefinition) -> Double {
        var ignored = ""
        return score(d, explain: &ignored, explaining: false)
    }

    private func score(_ d: ExerciseDefinition, explain: inout String, explaining: Bool = true) -> Double {
        // Posture.
        let trunk = mean[Self.index(.trunkLean) * 2]
        var postureFactor = 1.0
        if trunk.isFinite {
            switch d.posture {
            case .upright, .hanging: if trunk > 40 { postureFactor = 0.15 }
            case .horizontal: if trunk < 45 { postureFactor = 0.15 }
            case .seated:
                // Upright trunk and at least one thigh pointing forward most of the window; both thighs
                // hanging (standing) all but rule it out.
                let thighForward = max(forwardMean[4], forwardMean[5])
                if thighForward < 0.25 {
                    postureFactor = 0.03
                } else if trunk > 40 || !(thighForward > 0.5) {
                    postureFactor = 0.15
                }
            case .any:
                // Less specific: when an upright and an any-posture exercise explain the motion equally
                // (squat vs sit-to-stand), the specific one wins.
                postureFactor = 0.9
            }
        }
        // Hanging from a bar: the hands beyond the head much of the time, and staying put. Nothing done standing,
        // sitting or lying looks like that (a patient holding on to a chair holds it lower).
        if d.posture != .hanging, mean[Self.overheadSlot] >= Self.hangingOverhead,
            handTravel <= Self.anchoredHands
        {
            postureFactor = min(postureFactor, 0.15)
        }
        // And hanging needs the hands overhead some of the time, where they are seen.
        if d.posture == .hanging, mean[Self.overheadSlot] < Self.hangingOverheadAtLeast {
            postureFactor = min(postureFactor, 0.15)
        }
        let hipsRange = high[Self.hipsSlot] - low[Self.hipsSlot]

        if let hold = d.hold {
            // Nothing swings, the hips stay, and every condition holds.
            var most = amplitude(.trunk, side: 0)
            for slot in 0..<Self.segmentSlots { most = max(most, swing[slot]) }
            guard most < 0.35, !(hipsRange > 0.15) else { return 0 }
            var satisfied = 1.0
            for condition in hold.conditions {
                // As the session checks it, on the window's mean angles.
                let k = Self.index(condition.angle) * 2
                if !condition.isMet(on: d.side, left: mean[k], right: mean[k + 1]) { satisfied = 0 }
            }
            return 0.8 * satisfied * postureFactor
        }
        guard let rep = d.repetition else { return 0 }
        let motion = d.motion
        let segment = motion.segment
        let sided = Self.slot(segment, side: 0) != nil

        // Activity: the declared segment swings, on the declared side(s).
        let a0 = amplitude(segment, side: 0)
        let a1 = amplitude(segment, side: 1)
        var side: Int
        switch d.side {
        case .left: side = 0
        case .right: side = 1
        case .both, .either: side = a1 > a0 ? 1 : 0
        }
        // A side that could not be measured (hidden in a side view) neither confirms nor rules out `both`.
        let seen0 = !sided || swingEnds[Self.slot(segment, side: 0)! * 6].isFinite
        let seen1 = !sided || swingEnds[Self.slot(segment, side: 1)! * 6].isFinite
        // Seen from the side in the image plane, the far arm is behind the trunk: its keypoints are the pose
        // estimator's guesses, often a fraction of the near arm's swing (a push-up's far upper arm 0.47 against
        // 1.12). Like an unseen side, it neither confirms nor rules out `both`: the near one tells. (The legs are
        // side by side, not behind the body.)
        let hiddenBehindTrunk = viewMode == 2 && (segment == .upperArm || segment == .forearm)
        let bothSeen = seen0 && seen1 && !hiddenBehindTrunk
        let main = d.side == .both && sided && bothSeen ? min(a0, a1) : (side == 0 ? a0 : a1)
        guard main > 0.12 else { return 0 }
        var activity = min(1, (main / 0.3) * (main / 0.3))
        if d.side == .both, sided, bothSeen {
            let q = min(a0, a1) / max(a0, a1)
            if q < 0.6 { activity *= Double.exp(-(0.6 - q) / 0.15) }
        }
        // Everything the definition does not name stays well below it.
        var other = 0.0
        for limb in Self.limbSegments where !motion.also.contains(limb) {
            for s in 0..<2 {
                if limb == segment, d.side == .both || s == side { continue }
                other = max(other, amplitude(limb, side: s))
            }
        }
        if segment != .trunk, !motion.also.contains(.trunk) { other = max(other, amplitude(.trunk, side: 0)) }
        let ratio = other / main
        if ratio > 0.6 { activity *= Double.exp(-(ratio - 0.6) / 0.3) }
        // Segments that may move too should not move far more than the declared one (then the movement
        // is theirs: a forearm sweeping around a still upper arm is not an arm raise).
        var companion = 0.0
        for limb in motion.also {
            for s in 0..<2 where Self.slot(limb, side: s) != nil {
                companion = max(companion, amplitude(limb, side: s))
            }
        }
        let lead = companion / main
        if lead > 1.3 { activity *= Double.exp(-(lead - 1.3) / 0.3) }
        if motion.direction == .around, let upper = Self.slot(.upperArm, side: side) {
            // A sweep around the upper arm's own axis: the upper arm itself stays where it is.
            let still = swing[upper] / main
            if still > 0.4 { activity *= Double.exp(-(still - 0.4) / 0.15) }
        }

        // Hips.
        var hipsFactor = 1.0
        if hipsRange.isFinite {
            switch motion.hips {
            case .still: if hipsRange > 0.2 { hipsFactor = Double.exp(-(hipsRange - 0.2) / 0.1) }
            case .move: if hipsRange < 0.15 { hipsFactor = max(0.05, (hipsRange / 0.15) * (hipsRange / 0.15)) }
            }
        }

        // Hands: how far they travel in the picture against the shoulders' own travel (10–90 % ranges, in
        // torso lengths; the shoulders' at least 0.1, so that a body standing still cannot make any hand
        // movement look large).
        var handsFactor = 1.0
        if let hands = motion.hands {
            let travel = handTravel
            if travel.isFinite {
                switch hands {
                case .anchored:
                    if travel > Self.anchoredHands {
                        handsFactor = Double.exp(-(travel - Self.anchoredHands) / Self.handsTolerance)
                    }
                case .move:
                    if travel < Self.movingHands {
                        handsFactor = Double.exp(-(Self.movingHands - travel) / (2 * Self.handsTolerance))
                    }
                }
                handsFactor = max(Self.handsFloor, handsFactor)
            }
        }

        // Direction of the swing, and how far it turns.
        var directionFactor = 1.0
        var reachFactor = 1.0
        var hingeFactor = 1.0
        var bend = Double.nan
        if let slot = Self.slot(segment, side: side) {
            if segment == .forearm {
                // A forearm either folds at the elbow (the elbow angle changes as much as the forearm
                // swings) or sweeps around the upper arm (the elbow angle stays).
                // The elbow angle between the reconstructed directions, except from the side, where the
                // camera sees an arm moving forward square-on and the image-plane angle is the better one
                // (the reconstructed out/in axis is only a magnitude there).
                let elbow = viewMode == 2 ? range(.elbowFlexion, side) : hingeRange[side]
                let bend = Self.chord(elbow) / max(1e-6, swing[slot])
                if motion.direction == .around {
                    if bend > 0.5 { directionFactor *= Double.exp(-(bend - 0.5) / 0.3) }
                } else if bend < 0.5 {
                    directionFactor *= Double.exp(-(0.5 - bend) / 0.3)
                }
            }
            if segment == .thigh || segment == .upperArm, let hinge = motion.hinge {
                // The knee, as a physical therapist tells a straight-leg raise (the shank turns with the
                // thigh) from a knee lift (the knee bends about as far as the thigh comes up); the elbow, as
                // they tell a straight-arm raise from a press. From the side the image-plane angle is the
                // better one, as for the forearm above.
                let knee = segment == .thigh
                let joint =
                    viewMode == 2
                    ? range(knee ? .kneeFlexion : .elbowFlexion, side) : hingeRange[(knee ? 2 : 0) + side]
                bend = Self.chord(joint) / max(1e-6, swing[slot])
                var fit = 1.0
                switch hinge {
                case .straight: if bend > 0.5 { fit = Double.exp(-(bend - 0.5) / Self.hingeTolerance) }
                case .bends: if bend < 0.5 { fit = Double.exp(-(0.5 - bend) / Self.hingeTolerance) }
                }
                hingeFactor = Self.hingeFloor + (1 - Self.hingeFloor) * fit
            }
            if let e = Self.heading(motion.direction), swingEnds[slot * 6].isFinite {
                var cosine = headingCosine(slot: slot, expected: e, reversed: false)
                if swingEnds[slot * 6 + 5] - swingEnds[slot * 6 + 2] < 0.3 * swing[slot] {
                    // A level swing: which end is the start is unknown.
                    cosine = max(cosine, headingCosine(slot: slot, expected: e, reversed: true))
                }
                var sense = 1.0
                if segment == .thigh, cosine < 0 {
                    // A lifted knee seen going backward: the plane is right, the sense is not trusted
                    // (distorted or mislabelled skeletons); no library exercise swings a thigh backward.
                    cosine = -cosine
                    sense = Self.reversedThighSense
                }
                directionFactor *=
                    Self.directionFloor + (1 - Self.directionFloor) * sense
                    * Double.exp(-(1 - cosine) / Self.headingTolerance)
            }
            // How far the segment turns against the definition's reach.
            let turned = turnedDegrees(slot: slot)
            var expectedTurn = Double.nan
            if let reach = motion.reach {
                expectedTurn = reach
            } else if Self.measuresTurn(of: segment, d.primaryAngle) {
                expectedTurn = abs(rep.peak - rep.start)
            }
            if turned.isFinite, expectedTurn > 0 {
                let l = Double.log(max(1, turned) / expectedTurn)
                reachFactor =
                    Self.reachFloor + (1 - Self.reachFloor)
                    * Double.exp(-(l * l) / (2 * Self.reachTolerance * Self.reachTolerance))
            }
        }

        // Excursion of the primary angle (weak: 2-D angles and distorted skeletons mislead it).
        let expected = abs(rep.peak - rep.start)
        let primary = d.primaryAngle
        let pr = primary.isSided ? range(primary, side) : range(primary, 0)
        let excursion = pr.isFinite ? 0.4 + 0.6 * closeness(pr, expected: expected) : 0.6

        // Bounds from `throughout` form rules on other angles: only a tie-breaker (at most halves the
        // score), since a badly done exercise is still that exercise.
        var rules = 1.0
        for rule in d.formRules where rule.at == .throughout && rule.angle != primary {
            let k = Self.index(rule.angle) * 2 + (rule.angle.isSided ? side : 0)
            if let max = rule.max, high[k].isFinite, high[k] > max + 25 {
                rules *= Double.exp(-(high[k] - max - 25) / 25)
            }
            if let min = rule.min, low[k].isFinite, low[k] < min - 25 { rules *= Double.exp(-(min - 25 - low[k]) / 25) }
        }
        rules = 0.5 + 0.5 * rules
        if explaining {
            func f(_ x: Double) -> String { x.isFinite ? String(Int((x * 100).rounded())) : "-" }
            explain =
                "activity \(f(activity)) (main \(f(main)) other \(f(other))) posture \(f(postureFactor)) hips \(f(hipsFactor)) "
                + "hands \(f(handsFactor)) (travel \(f(handTravel))) direction \(f(directionFactor)) "
                + "hinge \(f(hingeFactor)) (bend \(f(bend))) reach \(f(reachFactor)) "
                + "(turned \(Self.slot(segment, side: side).map { f(turnedDegrees(slot: $0) / 100) } ?? "-")°) "
                + "excursion \(f(excursion)) rules \(f(rules))"
        }
        return activity * postureFactor * hipsFactor * handsFactor * directionFactor * hingeFactor * reachFactor
            * excursion * rules
    }

    /// How far the hands travel in the picture over the window against the shoulders' midpoint (both as the
    /// length of their 10–90 % x and y ranges, the shoulders' at least 0.1 torso lengths); NaN when the
    /// hands were not seen in enough samples. About 0.05–0.5 for pull-ups and push-ups (hands on the bar or
    /// the floor), about 1 where the hands go along with the body, 3–5 in jumping jacks.
    private func measuredHandTravel() -> Double {
        func travel(_ slot: Int) -> Double {
            let dx = high[slot] - low[slot]
            let dy = high[slot + 1] - low[slot + 1]
            return (dx * dx + dy * dy).squareRoot()
        }
        let hands = travel(Self.handsSlot)
        let shoulders = travel(Self.shoulderPositionSlot)
        guard hands.isFinite, shoulders.isFinite else { return .nan }
        return hands / max(shoulders, 0.1)
    }

    /// Whether the primary angle is the moving segment's own turn (then |peak − start| is the default
    /// reach): the upper arm's against the trunk, the thigh's, the forearm's about the elbow, the
    /// shank's about the knee. A squat's knee angle is not its thigh's turn (the shank tilts too), so
    /// there the reach is only used when declared.
    static func measuresTurn(of segment: Motion.Segment, _ primary: AngleKind) -> Bool {
        switch (segment, primary) {
        case (.upperArm, .shoulderFlexion), (.upperArm, .shoulderAbduction), (.upperArm, .shoulderScaption),
            (.upperArm, .shoulderExtension), (.thigh, .hipFlexion), (.thigh, .hipAbduction),
            (.forearm, .elbowFlexion), (.forearm, .shoulderRotation), (.shank, .kneeFlexion):
            true
        default: false
        }
    }

    /// The angle in degrees between a segment's mean directions at the two ends of its swing (NaN when
    /// unknown): how far it turns, wherever the swing starts.
    private func turnedDegrees(slot: Int) -> Double {
        let b = slot * 6
        let a = (swingEnds[b], swingEnds[b + 1], swingEnds[b + 2])
        let c = (swingEnds[b + 3], swingEnds[b + 4], swingEnds[b + 5])
        let na = (a.0 * a.0 + a.1 * a.1 + a.2 * a.2).squareRoot()
        let nc = (c.0 * c.0 + c.1 * c.1 + c.2 * c.2).squareRoot()
        guard na > 1e-6, nc > 1e-6 else { return .nan }
        let cosine = (a.0 * c.0 + a.1 * c.1 + a.2 * c.2) / (na * nc)
        return Double.acos(min(1, max(-1, cosine))) * 180 / .pi
    }
}

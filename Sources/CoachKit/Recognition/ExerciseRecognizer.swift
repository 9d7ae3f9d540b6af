public import PoseKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Recognises which library exercise is being done over a sliding window, with no training data: the
/// scores come from the definitions themselves.
///
/// Ten times a second the recognizer measures every ``AngleKind`` on both sides, plus the plane the
/// upper arm and the thigh move in (forward vs sideways, from depth when there is one). Every
/// `strideSeconds` it scores each exercise on the last `windowSeconds`:
/// - the primary angle must move about as much as the definition's start → peak excursion (log-normal
///   closeness), on one side for `either`, on both for `both`;
/// - the body posture must match (`upright` / `horizontal`);
/// - for shoulder and hip movements, the plane of motion must match the angle's name (abduction:
///   sideways, flexion: forward, extension: backward, scaption: 30° forward);
/// - joints the exercise does not involve should not move much, and its `throughout` form rules bound
///   the other angles;
/// - holds score when every condition holds and nothing moves.
/// See `Guides.md` for the weights and for how well this does.
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
            minimumConfidence: Double = 0.3,
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

    static let kinds = AngleKind.allCases
    static let armPlane = kinds.count * 2
    static let thighPlane = armPlane + 2
    static let featureCount = thighPlane + 2
    static let sampleSeconds = 0.1

    public let configuration: Configuration
    public let exercises: [ExerciseDefinition]
    /// The latest score of each exercise (same order as ``exercises``).
    public private(set) var scores: [Double]
    public private(set) var state: RecognitionState = .noPerson
    /// The index in ``exercises`` of the best exercise at the last decision, if any.
    public private(set) var bestIndex: Int?
    /// The latest sample: every angle kind on both sides (`kind index × 2 + side`), NaN where unmeasured.
    public private(set) var sample: [Double]

    private let capacity: Int
    private var ring: [Double]
    private var ringCount = 0
    private var ringNext = 0
    private var lastSampleSeconds = -Double.infinity
    private var lastDecisionSeconds = -Double.infinity
    private var lastPoseSeconds = -Double.infinity
    private var scratch: [Double]
    private var low: [Double]
    private var high: [Double]
    private var mean: [Double]
    private var referenceLength: (Double, Double, Double, Double) = (0, 0, 0, 0)

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
    }

    /// Feeds the selected, smoothed pose (or `nil` when nobody is seen).
    ///
    /// - Returns: The state at each decision (every `strideSeconds`), `nil` in between.
    /// - Parameter steady: `false` while the person walks or is partly out of frame: the window restarts,
    ///   so that walking in is not taken for an exercise.
    public mutating func ingest(_ pose: Pose?, at seconds: Double, steady: Bool = true) -> RecognitionState? {
        if seconds < lastSampleSeconds { reset() }
        if pose != nil, !steady {
            ringCount = 0
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
        guard seconds - lastDecisionSeconds >= configuration.strideSeconds else { return nil }
        lastDecisionSeconds = seconds
        if seconds - lastPoseSeconds > 1 {
            ringCount = 0
            ringNext = 0
            bestIndex = nil
            state = .noPerson
            return state
        }
        guard ringCount >= min(capacity, 20) else {
            state = .lowConfidence
            return state
        }
        decide()
        return state
    }

    /// Forgets the window.
    public mutating func reset() {
        ringCount = 0
        ringNext = 0
        lastSampleSeconds = -.infinity
        lastDecisionSeconds = -.infinity
        lastPoseSeconds = -.infinity
        state = .noPerson
        bestIndex = nil
    }

    // MARK: - Measuring

    private mutating func measure(_ pose: Pose) {
        for (k, kind) in Self.kinds.enumerated() {
            sample[k * 2] = kind.measure(pose, side: .left, useDepth: configuration.useDepth) ?? .nan
            sample[k * 2 + 1] =
                kind.isSided
                ? (kind.measure(pose, side: .right, useDepth: configuration.useDepth) ?? .nan) : sample[k * 2]
        }
        sample[Self.armPlane] = plane(pose, from: .leftShoulder, to: .leftElbow, slot: 0)
        sample[Self.armPlane + 1] = plane(pose, from: .rightShoulder, to: .rightElbow, slot: 1)
        sample[Self.thighPlane] = plane(pose, from: .leftHip, to: .leftKnee, slot: 2)
        sample[Self.thighPlane + 1] = plane(pose, from: .rightHip, to: .rightKnee, slot: 3)
    }

    /// The plane a limb segment moves in, in degrees: 0 = sideways (frontal plane), +90 = forward
    /// (sagittal, in front), −90 = backward; NaN when the segment hangs down (< 30° elevation) or
    /// cannot be measured.
    private mutating func plane(_ pose: Pose, from a: Joint, to b: Joint, slot: Int) -> Double {
        let ls = pose[.leftShoulder]
        let rs = pose[.rightShoulder]
        let neck = pose[.neck]
        let root = pose[.root]
        let pa = pose[a]
        let pb = pose[b]
        guard ls.confidence > 0, rs.confidence > 0, neck.confidence > 0, root.confidence > 0, pa.confidence > 0,
            pb.confidence > 0
        else { return .nan }
        let depth =
            configuration.useDepth && ls.z != nil && rs.z != nil && neck.z != nil && root.z != nil && pa.z != nil
            && pb.z != nil
        var ux = neck.x - root.x
        var uy = neck.y - root.y
        var uz = depth ? neck.z! - root.z! : 0
        let un = (ux * ux + uy * uy + uz * uz).squareRoot()
        guard un > 1e-6 else { return .nan }
        ux /= un
        uy /= un
        uz /= un
        var lx = ls.x - rs.x
        var ly = ls.y - rs.y
        var lz = depth ? ls.z! - rs.z! : 0
        let widthRaw = (lx * lx + ly * ly + lz * lz).squareRoot()
        let along = lx * ux + ly * uy + lz * uz
        lx -= along * ux
        ly -= along * uy
        lz -= along * uz
        let ln = (lx * lx + ly * ly + lz * lz).squareRoot()
        let vx = pb.x - pa.x
        let vy = pb.y - pa.y
        let vz = depth ? pb.z! - pa.z! : 0
        let length = (vx * vx + vy * vy + vz * vz).squareRoot()
        guard length > 1e-6 else { return .nan }
        let down = -(vx * ux + vy * uy + vz * uz)
        var lateral: Double
        var forward: Double
        if depth {
            guard ln > 1e-6 else { return .nan }
            lx /= ln
            ly /= ln
            lz /= ln
            // F = L × U points forward (x right, y down, z away from the camera).
            let fx = ly * uz - lz * uy
            let fy = lz * ux - lx * uz
            let fz = lx * uy - ly * ux
            lateral = abs(vx * lx + vy * ly + vz * lz)
            forward = vx * fx + vy * fy + vz * fz
        } else {
            // 2-D: the axis the camera cannot see is estimated from the segment's foreshortening
            // against the longest length seen recently.
            var reference: Double
            switch slot {
            case 0: reference = referenceLength.0
            case 1: reference = referenceLength.1
            case 2: reference = referenceLength.2
            default: reference = referenceLength.3
            }
            reference = max(length, reference * 0.999)
            switch slot {
            case 0: referenceLength.0 = reference
            case 1: referenceLength.1 = reference
            case 2: referenceLength.2 = reference
            default: referenceLength.3 = reference
            }
            let hidden = (max(0, reference * reference - length * length)).squareRoot()
            if widthRaw / un >= 0.4, ln > 1e-6 {
                lateral = abs((vx * lx + vy * ly) / ln)
                forward = hidden  // unsigned: a front view cannot tell forward from backward
            } else {
                // Side view: image x perpendicular to the trunk is forward or backward; the facing
                // direction comes from the nose (or toes) relative to the neck (or ankle).
                var facing = 1.0
                let nose = pose[.nose]
                if nose.confidence > 0 {
                    facing = nose.x >= neck.x ? 1 : -1
                } else if pose[.leftFootIndex].confidence > 0, pose[.leftAnkle].confidence > 0 {
                    facing = pose[.leftFootIndex].x >= pose[.leftAnkle].x ? 1 : -1
                }
                let px = -uy  // image perpendicular to the trunk
                let py = ux
                forward = (vx * px + vy * py) * (px >= 0 ? 1 : -1) * facing
                lateral = hidden
            }
        }
        let elevation = atan2((lateral * lateral + forward * forward).squareRoot(), down) * 180 / .pi
        guard elevation >= 30 else { return .nan }
        return atan2(forward, lateral) * 180 / .pi
    }

    // MARK: - Deciding

    private mutating func decide() {
        let n = ringCount
        // Robust range (10th–90th percentile) and mean of every feature over the window.
        for f in 0..<Self.featureCount {
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
            var lo = 0.0
            var hi = 0.0
            scratch.withUnsafeMutableBufferPointer { buffer in
                let part = UnsafeMutableBufferPointer(rebasing: buffer[0..<m])
                lo = quickselect(part, m / 10)
                hi = quickselect(part, m - 1 - m / 10)
            }
            low[f] = lo
            high[f] = hi
            mean[f] = sum / Double(m)
        }
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
        let confidence = bestScore * bestScore / (bestScore + second + 1e-9)
        if best >= 0, confidence >= configuration.minimumConfidence {
            bestIndex = best
            state = .exercise(id: exercises[best].id, confidence: min(1, confidence))
        } else {
            bestIndex = nil
            state = .lowConfidence
        }
    }

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
        }
    }

    /// Groups of angles that move together; an exercise "explains" the groups of its angles.
    private static func group(_ kind: AngleKind) -> Int {
        switch kind {
        case .kneeFlexion: 0
        case .hipFlexion, .hipAbduction, .bodyLine: 1
        case .shoulderFlexion, .shoulderAbduction, .shoulderScaption, .shoulderExtension: 2
        case .elbowFlexion: 3
        case .trunkLean: 4
        default: -1
        }
    }

    private static let groupRepresentative: [AngleKind] = [
        .kneeFlexion, .hipFlexion, .shoulderFlexion, .elbowFlexion, .trunkLean,
    ]

    private static func expectedPlane(_ kind: AngleKind) -> Double? {
        switch kind {
        case .shoulderAbduction, .hipAbduction: 0
        case .shoulderScaption: 30
        case .shoulderFlexion, .hipFlexion: 90
        case .shoulderExtension: -90
        default: nil
        }
    }

    private func closeness(_ observed: Double, expected: Double, minimum: Double) -> Double {
        guard observed.isFinite, observed >= minimum * 0.7, expected > 0 else { return 0 }
        let l = log(observed / expected)
        return exp(-(l * l) / (2 * 0.6 * 0.6))
    }

    private func score(_ d: ExerciseDefinition) -> Double {
        // Posture.
        let trunk = mean[Self.index(.trunkLean) * 2]
        var postureFactor = 1.0
        if trunk.isFinite {
            switch d.posture {
            case .upright: if trunk > 40 { postureFactor = 0.15 }
            case .horizontal: if trunk < 45 { postureFactor = 0.15 }
            case .any: break
            }
        }
        // Unexplained movement.
        var explained = 0  // bit mask of groups
        for angle in d.angles where Self.group(angle) >= 0 { explained |= 1 << Self.group(angle) }
        var quiet = 1.0
        var totalMotion = 0.0
        for (g, kind) in Self.groupRepresentative.enumerated() {
            var r = 0.0
            for side in 0..<2 where range(kind, side).isFinite { r = max(r, range(kind, side)) }
            totalMotion = max(totalMotion, r)
            if explained & (1 << g) == 0, r > 25 { quiet *= exp(-(r - 25) / 30) }
        }

        if let hold = d.hold {
            guard totalMotion < 20 else { return 0 }
            var satisfied = 1.0
            for condition in hold.conditions {
                let k = Self.index(condition.angle) * 2
                let l = mean[k]
                let r = mean[k + 1]
                let inBand = { (v: Double) in v.isFinite && v >= condition.min && v <= condition.max }
                if !(inBand(l) || inBand(r)) { satisfied = 0 }
            }
            return 0.8 * satisfied * postureFactor
        }
        guard let rep = d.repetition else { return 0 }
        let expected = abs(rep.peak - rep.start)
        let primary = d.primaryAngle
        let rl = range(primary, 0)
        let rr = range(primary, 1)
        var motion: Double
        var side = 0
        switch d.side {
        case .left:
            motion = closeness(rl, expected: expected, minimum: rep.minimumRange)
        case .right:
            motion = closeness(rr, expected: expected, minimum: rep.minimumRange)
            side = 1
        case .either:
            side = (rr.isFinite && (!rl.isFinite || rr > rl)) ? 1 : 0
            let main = side == 0 ? rl : rr
            let other = side == 0 ? rr : rl
            motion = closeness(main, expected: expected, minimum: rep.minimumRange)
            if primary.isSided, other.isFinite, main > 0 {
                let q = other / main
                if q > 0.5 { motion *= max(0.4, 1 - (q - 0.5)) }
            }
        case .both:
            if rl.isFinite, rr.isFinite {
                motion = closeness(min(rl, rr), expected: expected, minimum: rep.minimumRange)
                side = rr > rl ? 1 : 0
            } else {
                let r = rl.isFinite ? rl : rr
                motion = 0.8 * closeness(r, expected: expected, minimum: rep.minimumRange)
                side = rl.isFinite ? 0 : 1
            }
        }
        guard motion > 0 else { return 0 }
        // Plane of motion.
        var planeFactor = 1.0
        if let expectedPlane = Self.expectedPlane(primary) {
            let isArm = Self.group(primary) == 2
            let f = (isArm ? Self.armPlane : Self.thighPlane) + side
            let observed = mean[f]
            if observed.isFinite {
                let delta = observed - expectedPlane
                planeFactor = exp(-(delta * delta) / (2 * 35 * 35))
            } else {
                planeFactor = 0.6
            }
        }
        // Bounds from `throughout` form rules on other angles.
        var rules = 1.0
        for rule in d.formRules where rule.at == .throughout && rule.angle != primary {
            let k = Self.index(rule.angle) * 2 + (rule.angle.isSided ? side : 0)
            if let max = rule.max, high[k].isFinite, high[k] > max + 25 { rules *= exp(-(high[k] - max - 25) / 25) }
            if let min = rule.min, low[k].isFinite, low[k] < min - 25 { rules *= exp(-(min - 25 - low[k]) / 25) }
        }
        return motion * postureFactor * quiet * planeFactor * rules
    }
}

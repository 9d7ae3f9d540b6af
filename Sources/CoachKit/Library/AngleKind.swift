public import PoseKit
import RealModule

/// A body measurement an exercise definition can name: a joint angle in the clinical neutral-zero
/// convention (`clinical.md`), or a ratio.
///
/// Angles are measured in 3-D when every keypoint involved has a depth (`z`), else in the image plane.
/// Sided measurements take a ``BodySide``; midline ones ignore it.
///
/// ```swift
/// let flexion = AngleKind.kneeFlexion.measure(pose, side: .left)   // 0 when the knee is straight
/// ```
public enum AngleKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// 180° − inside angle hip–knee–ankle.
    case kneeFlexion
    /// Trunk vs thigh: 180° − inside angle shoulder–hip–knee.
    case hipFlexion
    /// Thigh vs the trunk midline (neck → root), front view.
    case hipAbduction
    /// Humerus vs trunk line (shoulder → hip), side view.
    case shoulderFlexion
    /// Humerus vs trunk line, front view.
    case shoulderAbduction
    /// Humerus vs trunk line, in the scapular plane (30° forward of the frontal plane).
    case shoulderScaption
    /// Humerus vs trunk line with the arm behind the body, side view.
    case shoulderExtension
    /// External rotation: forearm vs the forward direction with the elbow bent, 0 = forearm forward.
    case shoulderRotation
    /// 180° − inside angle shoulder–elbow–wrist.
    case elbowFlexion
    /// Plantar flexion: inside angle knee–ankle–toes − 90°.
    case anklePlantarFlexion
    /// Trunk (root → neck) vs the vertical: 0 upright, 90 lying.
    case trunkLean
    /// 180° − inside angle shoulder–hip–ankle: 0 when shoulders, hips and ankles are in one line.
    case bodyLine
    /// Distance between the knees / distance between the ankles (image x); below ~0.8 the knees cave in.
    case kneeWidthRatio
    /// Height of the head above the shoulder line / shoulder width; it drops when the shoulders shrug.
    case headShoulderRatio
    /// Humerus (shoulder → elbow) vs the vertical, in the image plane, signed (positive with the elbow to the
    /// image right of the shoulder). Unlike ``shoulderFlexion`` it does not follow the trunk: a curl swung up
    /// with the body shows here. Its range over a repetition says how still the upper arm stays.
    case upperArmInclination

    /// Whether the measurement belongs to one side of the body.
    public var isSided: Bool {
        switch self {
        case .trunkLean, .kneeWidthRatio, .headShoulderRatio: false
        default: true
        }
    }

    /// Whether the value is in degrees (else a unitless ratio).
    public var isDegrees: Bool { self != .kneeWidthRatio && self != .headShoulderRatio }

    /// Whether repetitions may be counted on it: a joint angle in degrees. Not the ratios, and not
    /// ``upperArmInclination``, which only says how still the upper arm stays (``shoulderFlexion`` counts
    /// the same movement against the trunk).
    public var countsRepetitions: Bool { isDegrees && self != .upperArmInclination }

    /// The values the joint can take in anyone, with a margin for measurement (degrees), where a value outside says
    /// the keypoints were guessed or swapped rather than the joint measured; `nil` where the measurement itself
    /// bounds it (a shoulder's angle to the trunk, 0–180°) or it is no joint angle. Knee and elbow flexion reach
    /// about 150° actively and 160° passively (AAOS norms), with up to about 10–15° of hyperextension; the ankle
    /// about 50° of plantar flexion and 30° of dorsiflexion.
    public var anatomicalRange: ClosedRange<Double>? {
        switch self {
        case .kneeFlexion, .elbowFlexion: -20...165
        case .anklePlantarFlexion: -45...75
        default: nil
        }
    }

    /// Short unit for reports: "°" or "" (ratio).
    public var unit: String { isDegrees ? "°" : "" }

    /// A readable name ("knee flexion").
    public var displayName: String { rawValue.camelCaseWords }

    /// The joints this measurement needs on `side` (the midline ones for midline measurements).
    public func joints(side: BodySide) -> [Joint] {
        let l = side == .left
        let hip: Joint = l ? .leftHip : .rightHip
        let knee: Joint = l ? .leftKnee : .rightKnee
        let ankle: Joint = l ? .leftAnkle : .rightAnkle
        let shoulder: Joint = l ? .leftShoulder : .rightShoulder
        let elbow: Joint = l ? .leftElbow : .rightElbow
        let wrist: Joint = l ? .leftWrist : .rightWrist
        switch self {
        case .kneeFlexion: return [hip, knee, ankle]
        case .hipFlexion: return [shoulder, hip, knee]
        case .hipAbduction: return [.neck, .root, hip, knee]
        case .shoulderFlexion, .shoulderAbduction, .shoulderScaption, .shoulderExtension: return [shoulder, elbow, hip]
        case .shoulderRotation: return [.leftShoulder, .rightShoulder, .neck, .root, elbow, wrist]
        case .elbowFlexion: return [shoulder, elbow, wrist]
        case .anklePlantarFlexion: return [knee, ankle]
        case .trunkLean: return [.neck, .root]
        case .bodyLine: return [shoulder, hip, ankle]
        case .kneeWidthRatio: return [.leftKnee, .rightKnee, .leftAnkle, .rightAnkle]
        case .headShoulderRatio: return [.leftShoulder, .rightShoulder]
        case .upperArmInclination: return [shoulder, elbow]
        }
    }

    /// The joint where the angle is drawn (the vertex), on `side` for sided measurements.
    public func vertexJoint(side: BodySide) -> Joint {
        let l = side == .left
        switch self {
        case .kneeFlexion: return l ? .leftKnee : .rightKnee
        case .hipFlexion, .hipAbduction, .bodyLine: return l ? .leftHip : .rightHip
        case .shoulderFlexion, .shoulderAbduction, .shoulderScaption, .shoulderExtension, .shoulderRotation,
            .upperArmInclination:
            return l ? .leftShoulder : .rightShoulder
        case .elbowFlexion: return l ? .leftElbow : .rightElbow
        case .anklePlantarFlexion: return l ? .leftAnkle : .rightAnkle
        case .trunkLean: return .root
        case .kneeWidthRatio: return l ? .leftKnee : .rightKnee
        case .headShoulderRatio: return .neck
        }
    }

    /// The measurement on `pose` (clinical degrees or a ratio), or `nil` when a joint it needs is missing.
    ///
    /// - Parameters:
    ///   - side: The side for sided measurements (ignored for midline ones).
    ///   - useDepth: Measure in 3-D when every keypoint involved has a `z`.
    ///   - minimumConfidence: Keypoints below this confidence count as missing.
    @inlinable
    public func measure(_ pose: Pose, side: BodySide, useDepth: Bool = true, minimumConfidence: Double = 0.1) -> Double?
    {
        var m = Measurer(pose: pose, useDepth: useDepth, minimumConfidence: minimumConfidence)
        return m.measure(self, side: side)
    }
}

/// Internal geometry helper: fetches keypoints as 3-D points and remembers whether all had depth.
@usableFromInline
struct Measurer {
    @usableFromInline let pose: Pose
    @usableFromInline let useDepth: Bool
    @usableFromInline let minimumConfidence: Double

    @usableFromInline
    init(pose: Pose, useDepth: Bool, minimumConfidence: Double) {
        self.pose = pose
        self.useDepth = useDepth
        self.minimumConfidence = minimumConfidence
    }

    @usableFromInline
    struct P {
        @usableFromInline var x, y, z: Double
        @usableFromInline init(_ x: Double, _ y: Double, _ z: Double) {
            self.x = x
            self.y = y
            self.z = z
        }
        @usableFromInline static func - (a: P, b: P) -> P { P(a.x - b.x, a.y - b.y, a.z - b.z) }
        @usableFromInline static func + (a: P, b: P) -> P { P(a.x + b.x, a.y + b.y, a.z + b.z) }
        @usableFromInline func dot(_ o: P) -> Double { x * o.x + y * o.y + z * o.z }
        @usableFromInline var length: Double { dot(self).squareRoot() }
        @usableFromInline func cross(_ o: P) -> P { P(y * o.z - z * o.y, z * o.x - x * o.z, x * o.y - y * o.x) }
    }

    /// Angle in degrees between two vectors, `nil` if one has no length.
    @usableFromInline
    static func angle(_ u: P, _ v: P) -> Double? {
        let lengths = u.length * v.length
        guard lengths > 1e-9 else { return nil }
        return Double.acos(max(-1, min(1, u.dot(v) / lengths))) * 180 / .pi
    }

    @usableFromInline
    func point(_ joint: Joint) -> P? {
        let k = pose[joint]
        guard k.confidence >= minimumConfidence, k.confidence > 0 else { return nil }
        return P(k.x, k.y, 0)
    }

    @usableFromInline
    func keypoint(_ joint: Joint) -> Keypoint? {
        let k = pose[joint]
        return k.confidence >= minimumConfidence && k.confidence > 0 ? k : nil
    }

    /// Inside angle at b between a and c, using depth when all three have it.
    @usableFromInline
    func inside(_ a: Joint, _ b: Joint, _ c: Joint) -> Double? {
        guard let ka = keypoint(a), let kb = keypoint(b), let kc = keypoint(c) else { return nil }
        let depth = useDepth && ka.z != nil && kb.z != nil && kc.z != nil
        let pa = P(ka.x, ka.y, depth ? ka.z! : 0)
        let pb = P(kb.x, kb.y, depth ? kb.z! : 0)
        let pc = P(kc.x, kc.y, depth ? kc.z! : 0)
        return Self.angle(pa - pb, pc - pb)
    }

    /// The shortest shoulder line, against the upper arm, from which the outward axis is measured: square-on
    /// it is about 1.3 upper arms long, at 45° about 0.9, from the side under 0.3.
    @usableFromInline
    static let seenShoulderLineFraction = 0.5

    /// Length of the segment a→b, using depth when both have it.
    @usableFromInline
    func length(_ a: Joint, _ b: Joint) -> Double? {
        guard let ka = keypoint(a), let kb = keypoint(b) else { return nil }
        let depth = useDepth && ka.z != nil && kb.z != nil
        return (P(kb.x, kb.y, depth ? kb.z! : 0) - P(ka.x, ka.y, depth ? ka.z! : 0)).length
    }

    /// Angle between segments a→b and c→d, using depth when all four have it.
    @usableFromInline
    func between(_ a: Joint, _ b: Joint, _ c: Joint, _ d: Joint) -> Double? {
        guard let ka = keypoint(a), let kb = keypoint(b), let kc = keypoint(c), let kd = keypoint(d) else { return nil }
        let depth = useDepth && ka.z != nil && kb.z != nil && kc.z != nil && kd.z != nil
        let u = P(kb.x - ka.x, kb.y - ka.y, depth ? kb.z! - ka.z! : 0)
        let v = P(kd.x - kc.x, kd.y - kc.y, depth ? kd.z! - kc.z! : 0)
        return Self.angle(u, v)
    }

    @usableFromInline
    mutating func measure(_ kind: AngleKind, side: BodySide) -> Double? {
        let l = side == .left
        switch kind {
        case .kneeFlexion:
            return inside(l ? .leftHip : .rightHip, l ? .leftKnee : .rightKnee, l ? .leftAnkle : .rightAnkle).map {
                180 - $0
            }
        case .hipFlexion:
            return inside(l ? .leftShoulder : .rightShoulder, l ? .leftHip : .rightHip, l ? .leftKnee : .rightKnee)
                .map { 180 - $0 }
        case .hipAbduction:
            return between(.neck, .root, l ? .leftHip : .rightHip, l ? .leftKnee : .rightKnee)
        case .shoulderFlexion, .shoulderAbduction, .shoulderScaption, .shoulderExtension:
            return inside(l ? .leftElbow : .rightElbow, l ? .leftShoulder : .rightShoulder, l ? .leftHip : .rightHip)
        case .elbowFlexion:
            return inside(
                l ? .leftShoulder : .rightShoulder,
                l ? .leftElbow : .rightElbow,
                l ? .leftWrist : .rightWrist
            )
            .map { 180 - $0 }
        case .shoulderRotation:
            // Forearm vs the outward lateral axis (this side's shoulder minus the other's): 90° when the
            // forearm points forward (neutral), 0° when it points straight out (90° external rotation).
            let own: Joint = l ? .leftShoulder : .rightShoulder
            // The outward axis must be seen: in a side view without depth the shoulders nearly coincide, and the
            // few pixels between them turned keypoint noise into rotations of tens of degrees (a knee bend held
            // in a side view was counted 15 times as shoulder rotations).
            guard let shoulders = length(l ? .rightShoulder : .leftShoulder, own),
                let upperArm = length(own, l ? .leftElbow : .rightElbow),
                shoulders >= Self.seenShoulderLineFraction * upperArm
            else { return nil }
            guard
                let outward = between(
                    l ? .rightShoulder : .leftShoulder,
                    own,
                    l ? .leftElbow : .rightElbow,
                    l ? .leftWrist : .rightWrist
                )
            else { return nil }
            return 90 - outward
        case .anklePlantarFlexion:
            let toe: Joint
            if keypoint(l ? .leftFootIndex : .rightFootIndex) != nil {
                toe = l ? .leftFootIndex : .rightFootIndex
            } else {
                toe = l ? .leftToes : .rightToes
            }
            return inside(l ? .leftKnee : .rightKnee, l ? .leftAnkle : .rightAnkle, toe).map { $0 - 90 }
        case .trunkLean:
            guard let neck = keypoint(.neck), let root = keypoint(.root) else { return nil }
            return Self.angle(P(neck.x - root.x, neck.y - root.y, 0), P(0, -1, 0))
        case .bodyLine:
            return inside(l ? .leftShoulder : .rightShoulder, l ? .leftHip : .rightHip, l ? .leftAnkle : .rightAnkle)
                .map { 180 - $0 }
        case .kneeWidthRatio:
            guard let lk = point(.leftKnee), let rk = point(.rightKnee), let la = point(.leftAnkle),
                let ra = point(.rightAnkle)
            else { return nil }
            let ankles = abs(la.x - ra.x)
            guard ankles > 1e-6 else { return nil }
            return abs(lk.x - rk.x) / ankles
        case .headShoulderRatio:
            guard let ls = point(.leftShoulder), let rs = point(.rightShoulder) else { return nil }
            let head = point(.nose) ?? point(.head) ?? point(.leftEar) ?? point(.rightEar)
            guard let head else { return nil }
            let width = (ls - rs).length
            guard width > 1e-6 else { return nil }
            return ((ls.y + rs.y) / 2 - head.y) / width
        case .upperArmInclination:
            guard let shoulder = point(l ? .leftShoulder : .rightShoulder),
                let elbow = point(l ? .leftElbow : .rightElbow)
            else { return nil }
            let down = elbow - shoulder
            guard down.x * down.x + down.y * down.y > 1e-12 else { return nil }
            return Double.atan2(y: down.x, x: down.y) * 180 / .pi
        }
    }
}

extension String {
    /// A camelCase name as lower-case words ("kneeFlexion" → "knee flexion").
    var camelCaseWords: String {
        var words = ""
        for character in self {
            if character.isUppercase { words.append(" ") }
            words.append(character.lowercased())
        }
        return words
    }
}

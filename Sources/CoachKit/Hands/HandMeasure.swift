public import PoseKit
import RealModule

/// A measurement of one hand a hand exercise can name (`Resources/Exercises/hands/SCHEMA.md`): flexion in the
/// clinical convention (``HandAngles``), distances in hand lengths (wrist to the middle finger's MCP), or an
/// angle in the picture.
///
/// ```swift
/// let angles = HandAngles(hand)
/// HandMeasure.fingerFlexion.value(hand, angles: angles)   // 241: the four fingers' mean MCP + PIP + DIP
/// HandMeasure.thumbGap.value(hand, angles: angles)        // 0.08: the thumb touches a finger
/// ```
public enum HandMeasure: String, Sendable, Hashable, Codable, CaseIterable {
    /// The mean over the index, middle, ring and little fingers of MCP + PIP + DIP flexion (degrees): about 15
    /// in an open hand, 200–260 in a fist.
    case fingerFlexion
    /// The mean PIP flexion of the four fingers (degrees): every tendon-glide position bends it.
    case pipFlexion
    /// One finger's MCP + PIP + DIP flexion (the thumb's MP + IP), degrees.
    case thumbFlexion, indexFlexion, middleFlexion, ringFlexion, littleFlexion
    /// The thumb tip's distance to the nearest fingertip (hand lengths): the clinical opposition distance.
    case thumbOpposition
    /// The thumb tip's distance to the nearest keypoint of the four fingers, base to tip (hand lengths, 3-D with
    /// depth): small
    /// whenever the thumb touches a finger anywhere (the Kapandji positions along the index and little finger).
    case thumbGap
    /// The angle between the index and little fingers (MCP → tip), in the picture (degrees): the spread of a hand
    /// facing the camera.
    case fingerSpread
    /// The hand's direction (wrist → middle MCP) against straight up in the picture, signed (degrees, + toward
    /// the picture's right): wrist flexion and extension seen from the side with the forearm upright.
    case handInclination

    /// Whether the value is in degrees (else hand lengths).
    public var isDegrees: Bool { self != .thumbOpposition && self != .thumbGap }

    /// "°" or " hand lengths".
    public var unit: String { isDegrees ? "°" : " hand lengths" }

    /// A readable name ("finger flexion").
    public var displayName: String { rawValue.camelCaseWords }

    /// The finger one measure is of (`indexFlexion` → index), else `nil`.
    public var finger: Finger? {
        switch self {
        case .thumbFlexion: .thumb
        case .indexFlexion: .index
        case .middleFlexion: .middle
        case .ringFlexion: .ring
        case .littleFlexion: .little
        default: nil
        }
    }

    /// The per-finger flexion measure of `finger`.
    public static func flexion(of finger: Finger) -> HandMeasure {
        switch finger {
        case .thumb: .thumbFlexion
        case .index: .indexFlexion
        case .middle: .middleFlexion
        case .ring: .ringFlexion
        case .little: .littleFlexion
        }
    }

    /// The four fingers (not the thumb).
    static let fingers: [Finger] = [.index, .middle, .ring, .little]

    /// The measurement of `hand` (whose angles are `angles`), or `nil` when a keypoint it needs was not seen.
    public func value(_ hand: HandPose, angles: HandAngles) -> Double? {
        switch self {
        case .fingerFlexion:
            let totals = Self.fingers.compactMap { angles.totalFlexion(of: $0) }
            return totals.count == Self.fingers.count ? totals.reduce(0, +) / Double(totals.count) : nil
        case .pipFlexion:
            let pips = Self.fingers.compactMap { angles.flexion(at: $0.joints[1]) }
            return pips.count == Self.fingers.count ? pips.reduce(0, +) / Double(pips.count) : nil
        case .thumbFlexion, .indexFlexion, .middleFlexion, .ringFlexion, .littleFlexion:
            return finger.flatMap { angles.totalFlexion(of: $0) }
        case .thumbOpposition:
            return angles.thumbOpposition.values.min()
        case .thumbGap:
            return Self.thumbTouch(hand, fingertipsOnly: false)?.distance
        case .fingerSpread:
            let joints: [HandJoint] = [.indexMCP, .indexTip, .littleMCP, .littleTip]
            guard joints.allSatisfy({ hand[$0].confidence > 0 }) else { return nil }
            let index = hand[.indexTip].point - hand[.indexMCP].point
            let little = hand[.littleTip].point - hand[.littleMCP].point
            let lengths = index.length * little.length
            guard lengths > 1e-9 else { return nil }
            let cosine = (index.x * little.x + index.y * little.y) / lengths
            return Double.acos(max(-1, min(1, cosine))) * 180 / .pi
        case .handInclination:
            guard hand[.wrist].confidence > 0, hand[.middleMCP].confidence > 0 else { return nil }
            let direction = hand[.middleMCP].point - hand[.wrist].point
            guard direction.length > 1e-9 else { return nil }
            return Double.atan2(y: direction.x, x: -direction.y) * 180 / .pi
        }
    }

    /// The thumb tip's distance (hand lengths) to the nearest point of the four fingers (their keypoints from the
    /// MCP to the tip, or only the tips) and the finger it belongs to; `nil` when keypoints are missing.
    ///
    /// With depth (`z` on the keypoints, as `ptcoach poses --hands` writes it) the distances are 3-D, as
    /// ``HandAngles/thumbOpposition``'s: a thumb passing in front of a finger is not a touch.
    public static func thumbTouch(_ hand: HandPose, fingertipsOnly: Bool) -> (distance: Double, finger: Finger)? {
        let depth = hand.keypoints.allSatisfy { $0.confidence == 0 || $0.z != nil }
        func point(_ joint: HandJoint) -> Vector3 {
            Vector3(hand[joint].x, hand[joint].y, depth ? hand[joint].z ?? 0 : 0)
        }
        guard hand[.wrist].confidence > 0, hand[.middleMCP].confidence > 0, hand[.thumbTip].confidence > 0
        else { return nil }
        let length = (point(.middleMCP) - point(.wrist)).length
        guard length > 1e-9 else { return nil }
        let tip = point(.thumbTip)
        var best: (distance: Double, finger: Finger)?
        for finger in fingers {
            for joint in fingertipsOnly ? [finger.tip] : finger.joints where hand[joint].confidence > 0 {
                let distance = (point(joint) - tip).length / length
                if distance < best?.distance ?? .infinity { best = (distance, finger) }
            }
        }
        return best
    }

    /// Wrist to the middle finger's MCP in the picture (pixels), the unit of the distances; `nil` when not seen.
    static func handLength(_ hand: HandPose) -> Double? {
        guard hand[.wrist].confidence > 0, hand[.middleMCP].confidence > 0 else { return nil }
        let length = (hand[.middleMCP].point - hand[.wrist].point).length
        return length > 1e-9 ? length : nil
    }
}

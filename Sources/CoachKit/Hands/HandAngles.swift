public import PoseKit
import RealModule

/// The clinical (neutral-zero) angles of one hand, measured from its keypoints as a goniometer would: flexion
/// at each finger's MCP, PIP and DIP joint and at the thumb's MP and IP joints, and the thumb tip's distance to
/// each fingertip (opposition).
///
/// A straight joint reads 0°; flexion is positive. With depth (`z` on every keypoint used, as
/// `ptcoach poses --hands` writes it), each finger is measured in its own flexion plane: the plane through its
/// metacarpal (wrist → MCP) square to the palm. Sideways spread at the MCP (abduction) is left out, and a
/// finger bent backwards (hyperextension) reads negative. Without depth, each angle is the inside angle in the
/// image (``Basis/image``): unsigned, and right only when the camera sees the finger's side, because flexion
/// toward or away from the camera does not show in the picture (``HandView``). See `Guides.md`, "Hands".
///
/// ```swift
/// let angles = HandAngles(hand)
/// angles.flexion(at: .indexPIP)          // 92.4
/// angles.totalFlexion(of: .index)        // MCP + PIP + DIP
/// angles.thumbOpposition[.little]        // 0.21 hand lengths from thumb tip to little fingertip
/// ```
public struct HandAngles: Sendable, Hashable {
    /// What the angles were measured in.
    public enum Basis: String, Sendable, Hashable {
        /// 3-D (x, y and depth): each finger in its flexion plane, signed.
        case depth
        /// The image plane only: unsigned inside angles, valid for fingers seen from the side.
        case image
    }

    /// The joints whose flexion is measured: the fingers' MCP, PIP and DIP, the thumb's MP and IP.
    public static let joints: [HandJoint] = Finger.allCases.flatMap { flexingJoints(of: $0) }

    /// The joints of `finger` that flex: MCP, PIP, DIP; for the thumb MP and IP (its CMC moves in more ways
    /// than a hinge, and is not measured).
    public static func flexingJoints(of finger: Finger) -> [HandJoint] {
        finger == .thumb ? [.thumbMP, .thumbIP] : Array(finger.joints.prefix(3))
    }

    /// How the angles were measured.
    public let basis: Basis
    /// Which way the palm faces the camera, from the keypoints in the image.
    public let view: HandView
    /// Flexion in degrees at each of ``joints`` that could be measured (its keypoints and those around it seen).
    public let flexion: [HandJoint: Double]
    /// The thumb tip's distance to each other fingertip, in hand lengths (wrist to the middle finger's MCP).
    public let thumbOpposition: [Finger: Double]

    /// Measures `hand`.
    ///
    /// - Parameter useDepth: measure in 3-D when every keypoint has `z` (the default); `false` measures in the
    ///   image plane whatever the keypoints carry.
    public init(_ hand: HandPose, useDepth: Bool = true) {
        let seen = HandJoint.allCases.map { hand[$0].confidence > 0 }
        let hasDepth = useDepth && HandJoint.allCases.allSatisfy { hand[$0].confidence == 0 || hand[$0].z != nil }
        let points = HandJoint.allCases.map { joint -> Vector3 in
            let keypoint = hand[joint]
            return Vector3(keypoint.x, keypoint.y, hasDepth ? keypoint.z ?? 0 : 0)
        }
        func point(_ joint: HandJoint) -> Vector3? { seen[joint.rawValue] ? points[joint.rawValue] : nil }

        var flexion: [HandJoint: Double] = [:]
        let palmar = hasDepth ? Self.palmarDirection(point, chirality: hand.chirality) : nil
        for finger in Finger.allCases {
            // The chain wrist → MCP → PIP → DIP → tip (the thumb's CMC → MP → IP → tip): each joint inside it
            // flexes between the segment before it and the segment after it.
            let chain: [HandJoint] = finger == .thumb ? finger.joints : [.wrist] + finger.joints
            for i in 1..<chain.count - 1 {
                guard let proximal = point(chain[i - 1]), let vertex = point(chain[i]), let distal = point(chain[i + 1])
                else { continue }
                let u = vertex - proximal
                let v = distal - vertex
                if finger != .thumb, let palmar, let wrist = point(.wrist), let base = point(finger.joints[0]),
                    let angle = Self.signedFlexion(u, v, metacarpal: base - wrist, palmar: palmar)
                {
                    flexion[chain[i]] = angle
                } else if let angle = Vector3.angle(between: u, and: v) {
                    flexion[chain[i]] = angle
                }
            }
        }

        var opposition: [Finger: Double] = [:]
        if let wrist = point(.wrist), let middle = point(.middleMCP), let thumb = point(.thumbTip) {
            let handLength = (middle - wrist).length
            if handLength > 1e-9 {
                for finger in Finger.allCases where finger != .thumb {
                    if let tip = point(finger.tip) { opposition[finger] = (tip - thumb).length / handLength }
                }
            }
        }

        self.basis = hasDepth ? .depth : .image
        self.view = HandView(hand)
        self.flexion = flexion
        self.thumbOpposition = opposition
    }

    /// Flexion in degrees at `joint`, or `nil` when it could not be measured (or is not one of ``joints``).
    public func flexion(at joint: HandJoint) -> Double? { flexion[joint] }

    /// The sum of `finger`'s joint flexions (MCP + PIP + DIP; the thumb's MP + IP), or `nil` unless all were
    /// measured: the flexion half of the total active motion (``TotalActiveMotion``).
    public func totalFlexion(of finger: Finger) -> Double? {
        var total = 0.0
        for joint in Self.flexingJoints(of: finger) {
            guard let angle = flexion[joint] else { return nil }
            total += angle
        }
        return total
    }

    // MARK: - Geometry

    /// The unit vector out of the palm (the side the fingers curl to), from the wrist and the index and little
    /// MCPs; `nil` when they are not seen, lie on a line, or the side of the hand is unknown (the normal's sign
    /// depends on it).
    private static func palmarDirection(_ point: (HandJoint) -> Vector3?, chirality: Chirality) -> Vector3? {
        guard chirality != .unknown, let wrist = point(.wrist), let index = point(.indexMCP),
            let little = point(.littleMCP)
        else { return nil }
        // Image axes (x right, y down, z away from the camera) are right-handed: for a right hand this cross
        // product points out of the palm, for a left hand (its mirror image) into it.
        let normal = (index - wrist).cross(little - wrist)
        guard normal.length > 1e-9 else { return nil }
        return (chirality == .right ? normal : normal * -1).normalized
    }

    /// The flexion from segment `u` to segment `v` in the finger's flexion plane (spanned by its metacarpal and
    /// the palmar direction): positive toward the palm, negative backwards; `nil` for a degenerate geometry.
    private static func signedFlexion(_ u: Vector3, _ v: Vector3, metacarpal: Vector3, palmar: Vector3) -> Double? {
        // The hinge axis: square to the metacarpal and to the palm's normal; flexion turns about it.
        let axis = metacarpal.cross(palmar)
        guard axis.length > 1e-9 else { return nil }
        let a = axis.normalized
        let p = u - a * u.dot(a)
        let q = v - a * v.dot(a)
        guard p.length > 1e-9, q.length > 1e-9 else { return nil }
        let degrees = Double.atan2(y: p.cross(q).dot(a), x: p.dot(q)) * 180 / .pi
        // A joint bends backwards 90° at most: past that the segments have turned further forward than 180°
        // (a curl the model overdoes), which reads as flexion over 180°, not as a joint bent right back.
        return degrees < -90 ? degrees + 360 : degrees
    }
}

/// Which way a hand faces the camera, judged from the picture alone: how wide the knuckles (index to little
/// MCP) look against the palm's length (wrist to middle MCP).
///
/// Fingers flex toward the palm: seen ``facing`` (palm or back to the camera) they bend toward or away from
/// the camera, which a 2-D picture does not show; seen from the ``side`` they bend across the picture, which it
/// shows square-on. A hand facing the camera shows its knuckles about 0.65 palm lengths wide (0.65–0.71 on the
/// real fist video); turned 40° they read 0.5, turned 70° 0.25.
public enum HandView: String, Sendable, Hashable {
    /// Palm or back toward the camera (knuckles at least 0.5 palm lengths wide in the picture).
    case facing
    /// Thumb or little-finger side toward the camera (knuckles under 0.25 palm lengths wide).
    case side
    /// In between.
    case oblique
    /// The wrist, the middle MCP or the index and little MCPs were not seen.
    case unknown

    public init(_ hand: HandPose) {
        guard let ratio = Self.knuckleRatio(hand) else {
            self = .unknown
            return
        }
        self = ratio >= 0.5 ? .facing : ratio < 0.25 ? .side : .oblique
    }

    /// How wide the knuckles (index to little MCP) look in the picture against the palm's length (wrist to
    /// middle MCP): about 0.65 facing the camera, toward 0 seen from the side; `nil` when one was not seen.
    public static func knuckleRatio(_ hand: HandPose) -> Double? {
        let wrist = hand[.wrist]
        let middle = hand[.middleMCP]
        let index = hand[.indexMCP]
        let little = hand[.littleMCP]
        guard wrist.confidence > 0, middle.confidence > 0, index.confidence > 0, little.confidence > 0 else {
            return nil
        }
        let palm = (middle.point - wrist.point).length
        guard palm > 1e-9 else { return nil }
        return (index.point - little.point).length / palm
    }
}

/// A 3-D vector for the hand's geometry (image pixels and depth, or metres).
struct Vector3: Sendable, Hashable {
    var x: Double
    var y: Double
    var z: Double

    init(_ x: Double, _ y: Double, _ z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    static func + (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x + b.x, a.y + b.y, a.z + b.z) }
    static func - (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x - b.x, a.y - b.y, a.z - b.z) }
    static func * (a: Vector3, s: Double) -> Vector3 { Vector3(a.x * s, a.y * s, a.z * s) }

    func dot(_ b: Vector3) -> Double { x * b.x + y * b.y + z * b.z }
    func cross(_ b: Vector3) -> Vector3 { Vector3(y * b.z - z * b.y, z * b.x - x * b.z, x * b.y - y * b.x) }
    var length: Double { dot(self).squareRoot() }
    var normalized: Vector3 { self * (1 / length) }

    /// The angle in degrees (0–180) between two vectors; `nil` if one has no length.
    static func angle(between u: Vector3, and v: Vector3) -> Double? {
        let lengths = u.length * v.length
        guard lengths > 1e-9 else { return nil }
        return Double.acos(max(-1, min(1, u.dot(v) / lengths))) * 180 / .pi
    }
}

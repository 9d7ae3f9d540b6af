public import CoachKit
import Foundation
public import PoseKit

/// A kinematic hand with known joint angles, seen by a virtual camera: the ground truth for the hand angle code.
///
/// The hand is built in its own frame, in metres: the wrist at the origin, the fingers along +y, the palm's
/// side (where the fingers curl) +z, the thumb's side +x for a right hand (a left hand is its mirror image).
/// Each finger's MCP, PIP and DIP and the thumb's MP and IP are hinges that turn by the given flexion toward
/// the palm (negative: backwards). Bone lengths are an adult hand's (palm 9 cm to the middle MCP).
///
/// The camera sits 50 cm in front of the wrist (focal length 600 px, 640x480: the palm is 112 px long).
/// `viewDegrees` turns the hand about its long axis: 0° shows the palm, 90° the thumb's side. The keypoints come
/// out as `ptcoach poses --hands` writes them: pixels, `z` the depth from the wrist in the pixel scale of x (at
/// the wrist's depth), with Gaussian noise. `perspective: false` projects at the wrist's scale throughout
/// (scaled orthographic), the camera the angle code assumes; `true` is the real camera, whose perspective of a
/// hand this near bends the measured angles by a few degrees.
///
/// ```swift
/// var hand = SyntheticHand(chirality: .right)
/// hand.flexion[.indexPIP] = 60
/// var rng = SplitMix64(seed: 1)
/// let pose = hand.pose(viewDegrees: 0, noise: 1.5, depthNoise: 3, using: &rng)
/// ```
public struct SyntheticHand: Sendable {
    public var chirality: Chirality
    /// Flexion in degrees at the fingers' MCP, PIP, DIP and the thumb's MP and IP; 0 when not given. At
    /// `thumbCMC`, opposition: the thumb metacarpal swung toward the index metacarpal and the palm.
    public var flexion: [HandJoint: Double]

    public init(chirality: Chirality = .right, flexion: [HandJoint: Double] = [:]) {
        precondition(chirality != .unknown, "a synthetic hand is a left or a right one")
        self.chirality = chirality
        self.flexion = flexion
    }

    /// The MCP of each finger in the hand's frame (right hand), and its phalanges' lengths, in metres.
    private static let fingers: [Finger: (base: (Double, Double), bones: [Double])] = [
        .index: ((0.030, 0.090), [0.040, 0.024, 0.019]),
        .middle: ((0.010, 0.093), [0.045, 0.028, 0.020]),
        .ring: ((-0.010, 0.088), [0.042, 0.027, 0.020]),
        .little: ((-0.028, 0.078), [0.033, 0.019, 0.018]),
    ]

    /// The 21 keypoints in the hand's frame, metres.
    public func points() -> [HandJoint: (x: Double, y: Double, z: Double)] {
        var points: [HandJoint: V] = [.wrist: V(0, 0, 0)]
        let palmar = V(0, 0, 1)
        for (finger, geometry) in Self.fingers {
            let base = V(geometry.base.0, geometry.base.1, 0)
            let joints = finger.joints
            points[joints[0]] = base
            // Each hinge turns toward the palm about the axis square to the metacarpal and the palm's normal.
            var direction = base.normalized
            var position = base
            var bend = 0.0
            let straight = direction
            for (index, length) in geometry.bones.enumerated() {
                bend += (flexion[joints[index]] ?? 0) * .pi / 180
                direction = straight * cos(bend) + palmar * sin(bend)
                position = position + direction * length
                points[joints[index + 1]] = position
            }
        }
        // The thumb: its metacarpal from the CMC out toward the index side, its MP and IP bending across the palm.
        let cmc = V(0.025, 0.025, 0.005)
        // Opposition at the CMC (`flexion[.thumbCMC]`, 0 unless given) swings the metacarpal toward the index
        // metacarpal and out of the palm, as the thumb does on its way across to the fingers.
        let neutral = V(0.7, 0.7, 0.15).normalized
        let aim = V(0.3, 0.9, 0).normalized + palmar * 0.3
        let toward = (aim - neutral * neutral.dot(aim)).normalized
        let swing = (flexion[.thumbCMC] ?? 0) * .pi / 180
        let metacarpal = (neutral * cos(swing) + toward * sin(swing)).normalized
        let across = (V(-1, 0, 0.5) - metacarpal * V(-1, 0, 0.5).dot(metacarpal)).normalized
        points[.thumbCMC] = cmc
        var position = cmc + metacarpal * 0.040
        points[.thumbMP] = position
        var bend = 0.0
        for (joint, next, length) in [(HandJoint.thumbMP, HandJoint.thumbIP, 0.032), (.thumbIP, .thumbTip, 0.025)] {
            bend += (flexion[joint] ?? 0) * .pi / 180
            position = position + (metacarpal * cos(bend) + across * sin(bend)) * length
            points[next] = position
        }
        let mirror = chirality == .left ? -1.0 : 1.0
        return points.mapValues { (x: $0.x * mirror, y: $0.y, z: $0.z) }
    }

    /// The hand as a camera sees it, turned `viewDegrees` about its long axis (0: palm to the camera, 90: the
    /// thumb's side for a right hand), fingers up; `noise` and `depthNoise` are the standard deviations in pixels
    /// of the Gaussian noise on x, y and on z.
    public func pose(
        viewDegrees: Double,
        noise: Double = 0,
        depthNoise: Double = 0,
        perspective: Bool = true,
        using generator: inout SplitMix64
    ) -> HandPose {
        let phi = viewDegrees * .pi / 180
        // The hand's axes in camera coordinates (x right, y down, z away from the camera): fingers up, the palm's
        // normal turned from facing the camera (-z) toward the image's left, and x completing a right-handed set.
        let fingers = V(0, -1, 0)
        let palm = V(-sin(phi), 0, -cos(phi))
        let side = fingers.cross(palm)
        let wrist = V(0, 0.08, 0.5)
        let focal = 600.0
        var hand = HandPose(chirality: chirality)
        let points = points()
        for joint in HandJoint.allCases {
            guard let p = points[joint] else { continue }
            // A left hand's points are mirrored in its frame, which is mirrored back by the same axes: its palm
            // faces the camera at 0° too, its thumb on the image's left.
            let camera = wrist + side * p.x + fingers * p.y + palm * p.z
            let scale = focal / (perspective ? camera.z : wrist.z)
            hand[joint] = Keypoint(
                x: 320 + scale * camera.x + noise * generator.gaussian(),
                y: 240 + scale * camera.y + noise * generator.gaussian(),
                z: focal * (camera.z - wrist.z) / wrist.z + depthNoise * generator.gaussian(),
                confidence: 1
            )
        }
        return hand
    }
}

/// A small 3-D vector for the generator.
private struct V {
    var x, y, z: Double
    init(_ x: Double, _ y: Double, _ z: Double) { (self.x, self.y, self.z) = (x, y, z) }
    static func + (a: V, b: V) -> V { V(a.x + b.x, a.y + b.y, a.z + b.z) }
    static func - (a: V, b: V) -> V { V(a.x - b.x, a.y - b.y, a.z - b.z) }
    static func * (a: V, s: Double) -> V { V(a.x * s, a.y * s, a.z * s) }
    func dot(_ b: V) -> Double { x * b.x + y * b.y + z * b.z }
    func cross(_ b: V) -> V { V(y * b.z - z * b.y, z * b.x - x * b.z, x * b.y - y * b.x) }
    var normalized: V { self * (1 / dot(self).squareRoot()) }
}

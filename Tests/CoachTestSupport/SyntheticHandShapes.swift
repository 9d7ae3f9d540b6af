public import CoachKit
import Foundation
public import PoseKit

/// Generated hand shapes for the hand classifiers: an open hand, a fist and a thumb opposition (the thumb tip
/// brought to a fingertip), each with the joint angles varied per recording, seen from varied views, sizes and
/// places in the picture, with noise.
///
/// ```swift
/// var rng = SplitMix64(seed: 7)
/// let frames = SyntheticHandShape.fist.frames(count: 30, chirality: .left, using: &rng)
/// ```
public enum SyntheticHandShape: String, CaseIterable, Sendable {
    case open, fist, pinch

    /// A hand of this shape, its angles varied by up to `jitter` degrees.
    public func hand(chirality: Chirality, jitter: Double = 10, using generator: inout SplitMix64) -> SyntheticHand {
        func vary(_ degrees: Double) -> Double { degrees + jitter * (2 * generator.uniform() - 1) }
        var flexion: [HandJoint: Double] = [:]
        switch self {
        case .open:
            for joint in HandAngles.joints { flexion[joint] = max(-5, vary(5)) }
        case .fist:
            for finger in [Finger.index, .middle, .ring, .little] {
                let joints = finger.joints
                flexion[joints[0]] = vary(85)
                flexion[joints[1]] = vary(95)
                flexion[joints[2]] = vary(60)
            }
            flexion[.thumbMP] = vary(45)
            flexion[.thumbIP] = vary(40)
        case .pinch:
            // Thumb opposition as the Kapandji sequence starts it: the thumb swung across toward the fingers and
            // bent, the fingers straight but for a little curl of the one it reaches for.
            for joint in HandAngles.joints { flexion[joint] = max(-5, vary(5)) }
            flexion[.thumbCMC] = vary(30)
            flexion[.thumbMP] = vary(40)
            flexion[.thumbIP] = vary(25)
            let target = [Finger.index, .middle, .ring, .little][Int(generator.next() % 4)]
            for joint in target.joints.prefix(3) { flexion[joint] = max(0, vary(15)) }
        }
        return SyntheticHand(chirality: chirality, flexion: flexion)
    }

    /// A still recording of this shape (`count` frames at 30 fps): one hand with its own angles, view (palm to
    /// the camera up to 60° turned), size (0.6–1.6 times), place and image rotation (±20°), with 1 px noise.
    public func frames(count: Int, chirality: Chirality, using generator: inout SplitMix64) -> [HandFrame] {
        let hand = hand(chirality: chirality, using: &generator)
        let view = 60 * generator.uniform()
        let scale = 0.6 + generator.uniform()
        let dx = 200 * (2 * generator.uniform() - 1)
        let dy = 100 * (2 * generator.uniform() - 1)
        let turn = (40 * generator.uniform() - 20) * .pi / 180
        return (0..<count).map { i in
            let pose = hand.pose(viewDegrees: view, noise: 1, depthNoise: 2, using: &generator)
            return HandFrame(seconds: Double(i) / 30, hands: [pose.placed(scale: scale, turn: turn, dx: dx, dy: dy)])
        }
    }
}

extension HandPose {
    /// The hand scaled about the picture's centre (320, 240), turned by `turn` radians in the picture and moved;
    /// depth scales with it.
    public func placed(scale: Double, turn: Double, dx: Double, dy: Double) -> HandPose {
        var copy = self
        let (c, s) = (cos(turn), sin(turn))
        for joint in HandJoint.allCases where self[joint].confidence > 0 {
            let k = self[joint]
            let x = k.x - 320
            let y = k.y - 240
            copy[joint] = Keypoint(
                x: 320 + scale * (c * x - s * y) + dx,
                y: 240 + scale * (s * x + c * y) + dy,
                z: k.z.map { $0 * scale },
                confidence: k.confidence
            )
        }
        return copy
    }

    /// The hand in a mirrored picture `width` wide, as a hand model would report it: x flipped and the side
    /// swapped.
    public func mirrored(width: Double) -> HandPose {
        var copy = self
        for joint in HandJoint.allCases where self[joint].confidence > 0 {
            let k = self[joint]
            copy[joint] = Keypoint(x: width - k.x, y: k.y, z: k.z, confidence: k.confidence)
        }
        copy.chirality = chirality == .left ? .right : chirality == .right ? .left : .unknown
        return copy
    }
}

/// Generated hand movements for the hand-action classifier: making a fist and opening the hand, bringing the
/// thumb to a fingertip and back, and bending the wrist forward and back seen from the side (the hand turning in
/// the picture about the wrist, the forearm upright).
public enum SyntheticHandMovement: String, CaseIterable, Sendable {
    case fistOpen = "fist-open"
    case opposition
    case wristFlexion = "wrist-flexion"

    /// One movement (`seconds` long at `fps`), from an open hand and back, with a varied view, size, place, lean
    /// in the picture (±25°) and noise (1–4 px).
    public func clip(
        seconds: Double,
        fps: Double = 30,
        chirality: Chirality,
        using generator: inout SplitMix64
    ) -> HandSequence {
        let open = SyntheticHandShape.open.hand(chirality: chirality, using: &generator)
        let end = (self == .fistOpen ? SyntheticHandShape.fist : .pinch).hand(chirality: chirality, using: &generator)
        let view = self == .wristFlexion ? 60 + 30 * generator.uniform() : 50 * generator.uniform()
        let scale = 0.5 + generator.uniform()
        let dx = 150 * (2 * generator.uniform() - 1)
        let reach = (40 + 30 * generator.uniform()) * .pi / 180
        // The hand's lean in the picture and the model's jitter vary; only a wrist movement turns it over time.
        let lean = (50 * generator.uniform() - 25) * .pi / 180
        let noise = 1 + 3 * generator.uniform()
        let count = Int(seconds * fps)
        var hands: [HandPose?] = []
        var times: [Double] = []
        for i in 0..<count {
            // 0 → 1 → 0 with a hold at the far end.
            let phase = min(1, 1.4 * (0.5 - 0.5 * cos(Double(i) / Double(max(1, count - 1)) * 2 * .pi)))
            var turn = 0.0
            var hand = open
            switch self {
            case .fistOpen, .opposition:
                for joint in HandAngles.joints {
                    let a = open.flexion[joint] ?? 0
                    hand.flexion[joint] = a + phase * ((end.flexion[joint] ?? 0) - a)
                }
            case .wristFlexion:
                // Flexed one way, then the other, through upright.
                turn = reach * sin(Double(i) / Double(max(1, count - 1)) * 2 * .pi)
            }
            let pose = hand.pose(viewDegrees: view, noise: noise, depthNoise: 2 * noise, using: &generator)
            hands.append(pose.placed(scale: scale, turn: lean + turn, dx: dx, dy: 0))
            times.append(Double(i) / fps)
        }
        return HandSequence(seconds: times, hands: hands, name: rawValue)
    }
}

public import PoseKit
import RealModule

/// Wrist flexion and extension measured on the body pose, for when the hand model has no hand: the hand's
/// direction (the body wrist → the middle of its index and pinky keypoints, or → the thumb when one of those was
/// not seen) against the forearm (elbow → wrist), in the picture. MediaPipe's 33-point body model has the three
/// hand keypoints (`leftIndex`, `leftPinky`, `leftThumb`, …); a model without them gives `nil`.
///
/// The angle is signed as ``HandMeasure/handInclination`` is (positive when the hand turns toward the picture's
/// right of the forearm, with the forearm pointing up), so that with the forearm upright, as the exercise's set-up
/// asks, both give the same degrees and one repetition counter takes either.
///
/// A body model that found no person often still gives a "pose" squeezed into a corner of the hand, its elbow a few
/// pixels from its wrist: a forearm shorter than ``minimumForearm`` of the picture's longer side is not measured.
///
/// ```swift
/// if let degrees = BodyWrist.inclination(in: pose, side: .either, picture: 640) { counter.ingest(degrees, at: t) }
/// ```
public enum BodyWrist {
    /// A keypoint below this confidence is not used.
    public static let minimumConfidence = 0.5
    /// The hand keypoints are at least this many forearm lengths from the wrist (closer, the direction is noise).
    public static let minimumHandLength = 0.1
    /// The forearm (elbow → wrist) is at least this fraction of the picture's longer side.
    public static let minimumForearm = 0.1

    /// The hand against the forearm (degrees), on `side` (`.either`: the side seen best), or `nil` when the
    /// elbow, the wrist or the hand keypoints were not seen, or the forearm is implausibly short.
    ///
    /// - Parameter picture: the picture's longer side, in the keypoints' pixels.
    public static func inclination(in pose: Pose, side: HandExerciseDefinition.HandSide, picture: Double) -> Double? {
        let sides: [BodySide] =
            switch side {
            case .left: [.left]
            case .right: [.right]
            case .either: [.left, .right]
            }
        let measured = sides.compactMap { measure(pose, side: $0, shortest: minimumForearm * picture) }
        return measured.max { $0.confidence < $1.confidence }?.degrees
    }

    private static func measure(
        _ pose: Pose,
        side: BodySide,
        shortest: Double
    ) -> (degrees: Double, confidence: Double)? {
        let left = side == .left
        let elbow = pose[left ? .leftElbow : .rightElbow]
        let wrist = pose[left ? .leftWrist : .rightWrist]
        guard elbow.confidence >= minimumConfidence, wrist.confidence >= minimumConfidence else { return nil }
        let seen = { (joint: Joint) -> Keypoint? in
            let k = pose[joint]
            return k.confidence >= minimumConfidence ? k : nil
        }
        let index = seen(left ? .leftIndex : .rightIndex)
        let pinky = seen(left ? .leftPinky : .rightPinky)
        let thumb = seen(left ? .leftThumb : .rightThumb)
        let tip: Vector2
        let used: [Keypoint]
        if let index, let pinky {
            tip = Vector2(x: (index.x + pinky.x) / 2, y: (index.y + pinky.y) / 2)
            used = [index, pinky]
        } else if let thumb {
            tip = thumb.point
            used = [thumb]
        } else {
            return nil
        }
        let forearm = wrist.point - elbow.point
        let hand = tip - wrist.point
        guard forearm.length >= max(shortest, 1e-9), hand.length >= minimumHandLength * forearm.length else {
            return nil
        }
        var degrees = (direction(hand) - direction(forearm))
        if degrees > 180 { degrees -= 360 }
        if degrees <= -180 { degrees += 360 }
        let confidence = ([elbow, wrist] + used).map(\.confidence).min() ?? 0
        return (degrees, confidence)
    }

    /// A direction's angle from straight up in the picture, positive toward the right (``HandMeasure/handInclination``).
    private static func direction(_ v: Vector2) -> Double {
        Double.atan2(y: v.x, x: -v.y) * 180 / .pi
    }
}

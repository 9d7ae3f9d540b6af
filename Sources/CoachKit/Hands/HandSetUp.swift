public import PoseKit

/// What keeps a hand exercise from being measured in one frame, and which hand to coach when it can be.
///
/// In order: no hand; more than two hands (someone else's in the picture); the prescribed hand missing; two hands
/// crossing (their outlines overlap, so either may be mistaken for the other); the coached hand partly out of the
/// picture. A frame with any of these is not measured: the repetition counter sees a gap, so noise from it is
/// never counted.
///
/// ```swift
/// let check = HandSetUp.check(frame.hands, width: 640, height: 480, side: .either, near: lastWrist)
/// if let issue = check.issue { say(issue.cue) } else { measure(frame.hands[check.index!]) }
/// ```
public enum HandSetUp {
    public enum Issue: String, Sendable, Hashable, Codable, CaseIterable {
        case noHand, tooManyHands, wrongHand, handsCrossed, outOfFrame

        /// What the coach says.
        public func cue(side: HandExerciseDefinition.HandSide = .either) -> String {
            switch self {
            case .noHand: "Hold your hand up to the camera, all of it in the picture"
            case .tooManyHands: "Only your own hands in the picture, please"
            case .wrongHand: "Show your \(side.rawValue) hand to the camera"
            case .handsCrossed: "Keep your hands apart: they cross in the picture"
            case .outOfFrame: "Move your hand into the middle of the picture: part of it is out of view"
            }
        }
    }

    /// The share of the smaller hand's outline the two must overlap by to count as crossed.
    public static let crossedOverlap = 0.25
    /// How far outside the picture (a share of its size) a keypoint may lie before the hand is out of frame:
    /// the model places hidden keypoints outside the picture, which is what gives it away.
    public static let frameMargin = 0.0

    /// The hand to coach (an index in `hands`) and the issue that stops it, if any.
    ///
    /// - Parameters:
    ///   - side: the prescribed hand; `either` coaches the one nearest `near` (the last coached wrist), else the
    ///     larger in the picture (the nearer to the camera).
    public static func check(
        _ hands: [HandPose],
        width: Double,
        height: Double,
        side: HandExerciseDefinition.HandSide,
        near: Vector2? = nil
    ) -> (index: Int?, issue: Issue?) {
        guard !hands.isEmpty else { return (nil, .noHand) }
        guard hands.count <= 2 else { return (nil, .tooManyHands) }
        var candidates = Array(hands.indices)
        switch side {
        case .left: candidates = candidates.filter { hands[$0].chirality != .right }
        case .right: candidates = candidates.filter { hands[$0].chirality != .left }
        case .either: break
        }
        guard !candidates.isEmpty else { return (nil, .wrongHand) }
        if hands.count == 2, overlap(hands[0], hands[1]) > crossedOverlap { return (nil, .handsCrossed) }
        let index: Int
        if candidates.count == 1 {
            index = candidates[0]
        } else if let near {
            index = candidates.min { distance(hands[$0], near) < distance(hands[$1], near) }!
        } else {
            index = candidates.max {
                (HandMeasure.handLength(hands[$0]) ?? 0) < (HandMeasure.handLength(hands[$1]) ?? 0)
            }!
        }
        let hand = hands[index]
        let dx = width * frameMargin
        let dy = height * frameMargin
        let out = hand.keypoints.contains { k in
            k.confidence > 0 && (k.x < -dx || k.y < -dy || k.x > width + dx || k.y > height + dy)
        }
        return (index, out ? .outOfFrame : nil)
    }

    /// The overlap of two hands' outlines (bounding boxes), as a share of the smaller one's area.
    static func overlap(_ a: HandPose, _ b: HandPose) -> Double {
        guard let boxA = box(a), let boxB = box(b) else { return 0 }
        let w = min(boxA.maxX, boxB.maxX) - max(boxA.minX, boxB.minX)
        let h = min(boxA.maxY, boxB.maxY) - max(boxA.minY, boxB.minY)
        guard w > 0, h > 0 else { return 0 }
        let smaller = min(boxA.area, boxB.area)
        return smaller > 0 ? w * h / smaller : 0
    }

    private struct Box {
        var minX: Double, minY: Double, maxX: Double, maxY: Double
        var area: Double { (maxX - minX) * (maxY - minY) }
    }

    private static func box(_ hand: HandPose) -> Box? {
        let seen = hand.keypoints.filter { $0.confidence > 0 }
        guard let first = seen.first else { return nil }
        var box = Box(minX: first.x, minY: first.y, maxX: first.x, maxY: first.y)
        for k in seen {
            box.minX = min(box.minX, k.x)
            box.minY = min(box.minY, k.y)
            box.maxX = max(box.maxX, k.x)
            box.maxY = max(box.maxY, k.y)
        }
        return box
    }

    private static func distance(_ hand: HandPose, _ point: Vector2) -> Double {
        hand[.wrist].confidence > 0 ? (hand[.wrist].point - point).length : .infinity
    }
}

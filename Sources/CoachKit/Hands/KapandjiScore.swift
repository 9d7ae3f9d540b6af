public import PoseKit

/// The Kapandji thumb-opposition score (1–10): the furthest of ten positions along the index and little fingers
/// and the palm that the thumb tip reaches, in Kapandji's order.
///
/// 1 the index's proximal phalanx (between its MCP and PIP), 2 its middle phalanx, 3 the index tip, 4 the middle
/// tip, 5 the ring tip, 6 the little tip, 7 the little finger's DIP, 8 its PIP, 9 its MCP, 10 the palm beyond the
/// little finger's MCP (a third of the way from it to the wrist). Each position is a point from the keypoints; the
/// thumb reaches the position nearest its tip when that is within ``touchDistance`` hand lengths (wrist to middle MCP)
/// in the picture, for ``framesNeeded`` frames in a row. A 2-D picture cannot tell a touch from the thumb passing in
/// front: the score is only as good as a palm-facing view.
///
/// ```swift
/// var score = KapandjiScore()
/// for hand in hands { score.ingest(hand) }
/// score.score      // 8
/// ```
public struct KapandjiScore: Sendable, Hashable {
    /// The thumb tip within this many hand lengths of a position reaches it.
    public static let touchDistance = 0.2
    /// Frames in a row at a position before it counts (one frame of tracking noise is not a reach).
    public static let framesNeeded = 3

    /// The highest position reached so far (1–10), `nil` before any.
    public private(set) var score: Int?
    private var lastLevel: Int?
    private var run = 0

    public init() {}

    /// The position the thumb tip reaches in `hand` (the nearest within ``touchDistance``), or `nil` for none (or
    /// keypoints missing).
    public static func level(_ hand: HandPose) -> Int? {
        guard let length = HandMeasure.handLength(hand), hand[.thumbTip].confidence > 0 else { return nil }
        let joints: [HandJoint] = [
            .indexMCP, .indexPIP, .indexDIP, .indexTip, .middleTip, .ringTip, .littleTip, .littleDIP, .littlePIP,
            .littleMCP, .wrist,
        ]
        guard joints.allSatisfy({ hand[$0].confidence > 0 }) else { return nil }
        func p(_ joint: HandJoint) -> Vector2 { hand[joint].point }
        func mid(_ a: Vector2, _ b: Vector2, _ t: Double = 0.5) -> Vector2 {
            Vector2(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
        }
        let positions: [Vector2] = [
            mid(p(.indexMCP), p(.indexPIP)), mid(p(.indexPIP), p(.indexDIP)), p(.indexTip), p(.middleTip),
            p(.ringTip), p(.littleTip), p(.littleDIP), p(.littlePIP), p(.littleMCP),
            mid(p(.littleMCP), p(.wrist), 1.0 / 3),
        ]
        let tip = p(.thumbTip)
        let distances = positions.map { ($0 - tip).length / length }
        guard let nearest = distances.indices.min(by: { distances[$0] < distances[$1] }),
            distances[nearest] <= touchDistance
        else { return nil }
        return nearest + 1
    }

    /// Adds one frame's hand.
    public mutating func ingest(_ hand: HandPose) {
        let level = Self.level(hand)
        run = level != nil && level == lastLevel ? run + 1 : 1
        lastLevel = level
        if let level, run >= Self.framesNeeded, level > (score ?? 0) { score = level }
    }
}

import PoseKit

/// Whether a joint is seen and in the picture, the rule every set-up check and every measured angle applies.
///
/// An angle's end joint (a wrist, an ankle) may lie a little outside the picture (a pose estimator extrapolates
/// it) and still be measured when the angle's vertex is in the picture and at least half the limb between them
/// is: the angle only needs the direction of the limb from the vertex, which the visible part shows.
///
/// ```swift
/// let visibility = JointVisibility(minimumJointConfidence: 0.2, frameWidth: 1280, frameHeight: 720)
/// visibility.isSeen(pose[.leftWrist], vertex: pose[.leftElbow])
/// ```
struct JointVisibility: Sendable, Hashable {
    /// Joints below this confidence are not seen.
    var minimumJointConfidence = 0.2
    /// The image size; `nil` when not known (then every joint is in the picture).
    var frameWidth: Double?
    var frameHeight: Double?
    /// Joints closer than this fraction of the frame size to its edge are out of frame.
    var edgeMarginFraction = 0.005

    /// The share of a limb (from its vertex to its end) that must lie in the picture for an end joint
    /// outside it to be measured: the direction of the visible half is the limb's direction.
    static let minimumVisibleLimbFraction = 0.5

    /// Whether a joint of an angle is seen and in the picture, or (an end joint) a little outside it with the
    /// angle's `vertex` in it and at least half the limb between them (`.missing` for a vertex or a midline joint).
    func isSeen(_ k: Keypoint, vertex: Keypoint) -> Bool {
        let c = minimumJointConfidence
        guard k.confidence >= c else { return false }
        if isInside(k) { return true }
        return vertex.confidence >= c && isInside(vertex)
            && insideFraction(from: vertex, to: k) >= Self.minimumVisibleLimbFraction
    }

    /// Whether a keypoint lies in the picture, away from its edge (true when the frame size is not known).
    func isInside(_ k: Keypoint) -> Bool {
        guard let w = frameWidth, let h = frameHeight else { return true }
        let m = edgeMarginFraction
        return k.x >= w * m && k.x <= w * (1 - m) && k.y >= h * m && k.y <= h * (1 - m)
    }

    /// The share of the segment from `a` (in the picture) to `b` that lies in the picture.
    func insideFraction(from a: Keypoint, to b: Keypoint) -> Double {
        guard let w = frameWidth, let h = frameHeight else { return 1 }
        let m = edgeMarginFraction
        var fraction = 1.0
        func clip(_ from: Double, _ to: Double, _ low: Double, _ high: Double) {
            if to < low, from > to { fraction = Swift.min(fraction, (from - low) / (from - to)) }
            if to > high, to > from { fraction = Swift.min(fraction, (high - from) / (to - from)) }
        }
        clip(a.x, b.x, w * m, w * (1 - m))
        clip(a.y, b.y, h * m, h * (1 - m))
        return Swift.max(0, fraction)
    }
}

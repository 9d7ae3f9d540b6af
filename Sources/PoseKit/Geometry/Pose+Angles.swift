public import RealModule

extension Pose {
    /// The inside angle in degrees at `vertex` between the segments to `a` and `b` (0–180), in the image
    /// plane, or `nil` when one of the three joints is missing.
    ///
    /// A straight knee reads 180°; clinical knee flexion is `180 − angle` (see ``clinicalFlexion(at:from:to:)``).
    ///
    /// ```swift
    /// pose.angle(at: .leftKnee, from: .leftHip, to: .leftAnkle)   // 175 when standing
    /// ```
    @inlinable
    public func angle(at vertex: Joint, from a: Joint, to b: Joint, minimumConfidence: Double = 0.01) -> Double? {
        let v = self[vertex]
        let p = self[a]
        let q = self[b]
        guard v.confidence >= minimumConfidence, p.confidence >= minimumConfidence, q.confidence >= minimumConfidence,
            v.confidence > 0, p.confidence > 0, q.confidence > 0
        else { return nil }
        return Geometry.angle(at: v.point, from: p.point, to: q.point)
    }

    /// Clinical flexion (neutral-zero) at a hinge joint: `180° − inside angle`, so a straight joint reads 0°.
    @inlinable
    public func clinicalFlexion(at vertex: Joint, from a: Joint, to b: Joint) -> Double? {
        angle(at: vertex, from: a, to: b).map { 180 - $0 }
    }

    /// The angle in degrees between segment `from → to` and the image vertical pointing down (0 = hanging
    /// straight down, 90 = horizontal, 180 = straight up), or `nil` when a joint is missing.
    @inlinable
    public func angleFromVertical(from a: Joint, to b: Joint) -> Double? {
        let p = self[a]
        let q = self[b]
        guard p.confidence > 0, q.confidence > 0 else { return nil }
        return Geometry.angle(between: q.point - p.point, and: Vector2(x: 0, y: 1))
    }
}

/// Plane geometry on image points.
public enum Geometry {
    /// The angle in degrees (0–180) at `vertex` between the rays to `a` and `b`; `nil` if a ray has no length.
    @inlinable
    public static func angle(at vertex: Vector2, from a: Vector2, to b: Vector2) -> Double? {
        angle(between: a - vertex, and: b - vertex)
    }

    /// The angle in degrees (0–180) between two vectors; `nil` if one has no length.
    @inlinable
    public static func angle(between u: Vector2, and v: Vector2) -> Double? {
        let lengths = u.length * v.length
        guard lengths > 1e-9 else { return nil }
        let cosine = max(-1, min(1, u.dot(v) / lengths))
        return Double.acos(cosine) * 180 / .pi
    }
}

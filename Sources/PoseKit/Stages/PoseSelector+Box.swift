extension PoseSelector {
    /// The bounding box of a pose's seen joints, for prominence and for continuing a track.
    struct Box {
        var minX = Double.infinity
        var minY = Double.infinity
        var maxX = -Double.infinity
        var maxY = -Double.infinity
        /// How many joints are seen (confidence at or above the threshold, finite coordinates).
        var joints = 0

        /// The box of the joints seen with at least `threshold` confidence, or `nil` when none is.
        init?(_ pose: Pose, threshold: Double) {
            pose.keypoints.withUnsafeBufferPointer { keypoints in
                for keypoint in keypoints where keypoint.confidence >= threshold {
                    guard keypoint.x.isFinite, keypoint.y.isFinite else { continue }
                    minX = min(minX, keypoint.x)
                    minY = min(minY, keypoint.y)
                    maxX = max(maxX, keypoint.x)
                    maxY = max(maxY, keypoint.y)
                    joints += 1
                }
            }
            guard joints > 0 else { return nil }
        }

        var area: Double { (maxX - minX) * (maxY - minY) }
        var centre: Vector2 { Vector2(x: (minX + maxX) / 2, y: (minY + maxY) / 2) }
        /// The longer side, at least one pixel.
        var size: Double { max(1, maxX - minX, maxY - minY) }

        /// The area both boxes cover as a share of the smaller box (each side at least one pixel), 0...1.
        func overlap(with other: Box) -> Double {
            let width = min(maxX, other.maxX) - max(minX, other.minX)
            let height = min(maxY, other.maxY) - max(minY, other.minY)
            guard width > 0, height > 0 else { return 0 }
            let own = max(1, maxX - minX) * max(1, maxY - minY)
            let others = max(1, other.maxX - other.minX) * max(1, other.maxY - other.minY)
            return min(1, width * height / min(own, others))
        }
    }
}

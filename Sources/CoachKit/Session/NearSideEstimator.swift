import PoseKit

/// Which side of a bilateral exercise is measured when the person does not face the camera: the better seen side
/// (the smoothed mean confidence of the primary angle's joints), else, with measured depth, the nearer one.
/// Allocation-free.
///
/// ```swift
/// var near = NearSideEstimator(primaryAngle: .kneeFlexion)
/// let side = near.ingest(pose, torso: walking.torso, depthTrusted: false)
/// ```
struct NearSideEstimator: Sendable {
    struct Configuration: Sendable, Hashable {
        /// The weight of each frame in the smoothed confidences and depth difference: about ten frames' memory, so
        /// that one frame's dip in confidence does not change the side.
        var smoothing = 0.1
        /// How much better seen (mean confidence) one side must be to be the measured one; closer than this, the
        /// depth decides (when it is measured), else the left.
        var confidenceMargin = 0.05
    }

    let configuration: Configuration
    /// The primary angle's joints on the left and the right.
    private let joints: (left: [Joint], right: [Joint])
    /// How well each side's primary-angle joints are seen (smoothed mean confidence).
    private var confidence = (left: 0.0, right: 0.0)
    /// Smoothed mean depth of the left primary-angle joints minus the right ones, in torso lengths (positive: the
    /// left side is farther from the camera), when keypoints have depth.
    private var depthDifference = 0.0
    /// The side measured, as of the latest frame.
    private(set) var side = BodySide.left

    init(primaryAngle: AngleKind?, configuration: Configuration = .init()) {
        self.configuration = configuration
        joints = (primaryAngle?.joints(side: .left) ?? [], primaryAngle?.joints(side: .right) ?? [])
    }

    /// Follows one pose; `torso`: its torso length in the image (0 when not known); `depthTrusted`: whether the depth
    /// is known to be measured (``DepthJitterCheck``). Returns the side measured.
    @discardableResult
    mutating func ingest(_ pose: Pose, torso: Double, depthTrusted: Bool) -> BodySide {
        var l = 0.0
        var r = 0.0
        var lz = 0.0
        var rz = 0.0
        var depth = true
        for joint in joints.left {
            let k = pose[joint]
            l += k.confidence
            if let z = k.z { lz += z } else { depth = false }
        }
        for joint in joints.right {
            let k = pose[joint]
            r += k.confidence
            if let z = k.z { rz += z } else { depth = false }
        }
        let n = Double(max(1, joints.left.count))
        let w = configuration.smoothing
        confidence.left += w * (l / n - confidence.left)
        confidence.right += w * (r / n - confidence.right)
        if depth, torso > 0 { depthDifference += w * ((lz - rz) / n / torso - depthDifference) }
        side = nearSide(depthTrusted: depthTrusted)
        return side
    }

    /// The better seen side, else (equal confidences) the nearer one by depth.
    private func nearSide(depthTrusted: Bool) -> BodySide {
        if abs(confidence.right - confidence.left) > configuration.confidenceMargin {
            return confidence.right > confidence.left ? .right : .left
        }
        // Depth decides only when it is measured: a video pose estimator's guessed z flips the near side
        // from frame to frame, and a signal that alternates sides counts phantom repetitions (2 in one descent
        // of an oblique squat before the depth verdict; see Guides.md, "Cases behind the code").
        guard depthTrusted else { return .left }
        return depthDifference > 0 ? .right : .left
    }
}

/// Keeps only the given joints of a pose; the others become missing (Create ML's `JointsSelector`).
///
/// Use it to make a classifier or a rule see only the joints an exercise is about, so that noise in
/// the rest of the body (hands, face) does not matter.
///
/// ```swift
/// let legs = JointsSelector(joints: [.leftHip, .leftKnee, .leftAnkle, .rightHip, .rightKnee, .rightAnkle])
/// let legsOnly = legs.select(pose)
/// ```
public struct JointsSelector: Sendable, Hashable {
    /// The joints kept, in the order given (duplicates removed).
    public let joints: [Joint]
    /// For each `Joint.rawValue`, whether the joint is kept.
    private let kept: [Bool]

    public init(joints: [Joint]) {
        var kept = Array(repeating: false, count: Joint.count)
        var unique: [Joint] = []
        for joint in joints where !kept[joint.rawValue] {
            kept[joint.rawValue] = true
            unique.append(joint)
        }
        self.joints = unique
        self.kept = kept
    }

    /// Whether `joint` is kept.
    public func contains(_ joint: Joint) -> Bool { kept[joint.rawValue] }

    /// `pose` with every joint outside ``joints`` set to missing (world keypoints too).
    public func select(_ pose: Pose) -> Pose {
        var selected = pose
        select(in: &selected)
        return selected
    }

    /// Sets every joint outside ``joints`` to missing, in place (no allocation when `pose` is not shared).
    public func select(in pose: inout Pose) {
        for index in 0..<Joint.count where !kept[index] {
            // Writing only what changes leaves a shared pose unshared when there is nothing to clear.
            if pose.keypoints[index] != .missing { pose.keypoints[index] = .missing }
            if let world = pose.worldKeypoints, world[index] != .missing { pose.worldKeypoints![index] = .missing }
        }
    }
}

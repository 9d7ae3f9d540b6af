import PoseKit

/// Whether the joints an exercise needs are in the picture, frame by frame, and which were never seen.
///
/// A frame is in frame when the always-needed joints and one complete side are seen (a side view hides the far
/// limbs) for an exercise done on both sides or either, or all of them otherwise. With no exercise given, the
/// neck and shoulders (a pull-up or push-up filmed close shows no hips). An angle's end joint just past the edge
/// (a wrist below the picture in a push-up) still counts when its vertex and most of the limb are in the picture
/// (``JointVisibility``). Allocation-free after `init`.
///
/// ```swift
/// var check = InFrameCheck(exercise: squat, visibility: .init())
/// let inFrame = check.ingest(pose)
/// ```
struct InFrameCheck: Sendable {
    /// Which alternative a required joint belongs to.
    enum Alternative: Sendable, Hashable {
        /// Needed in every frame.
        case always
        /// One of the left side's joints (this side complete, or the right one, is enough).
        case left
        case right
    }

    let visibility: JointVisibility
    /// The joints needed.
    let joints: [Joint]
    /// For each joint, the alternative it belongs to.
    let alternatives: [Alternative]
    /// For each joint that ends the primary angle (a wrist, an ankle), the index in `joints` of the angle's vertex
    /// on its side (the elbow, the knee); `nil` for a vertex or a midline joint.
    let anchors: [Int?]
    /// For each joint, the frames it was seen in.
    private var seenFrames: [Int]
    /// The frames in which everything needed was seen.
    private(set) var completeFrames = 0
    /// The body parts of the joints needed that were not seen in the latest frame (empty when it was in frame): those
    /// needed always, and of the side that missed less when either side will do.
    private(set) var missingParts = BodyParts()

    /// The check for `exercise`: its own required joints, or with none given, the neck and shoulders.
    init(exercise: ExerciseDefinition?, visibility: JointVisibility) {
        self.visibility = visibility
        // With no exercise given, the upper body: a pull-up or push-up filmed close shows no hips, and the
        // movement is still followed (the hips a pose estimator guesses past the edge anchor it). An exercise
        // given needs its own primary angle's joints instead.
        let joints = exercise?.requiredJoints ?? [.neck, .leftShoulder, .rightShoulder]
        self.joints = joints
        seenFrames = Array(repeating: 0, count: joints.count)
        let sidedAlternatives = exercise.map { ($0.side == .both || $0.side == .either) } ?? true
        alternatives = joints.map { joint in
            guard sidedAlternatives else { return .always }
            return joint.isLeft ? .left : joint.isRight ? .right : .always
        }
        anchors = joints.map { joint in
            guard let angle = exercise?.primaryAngle, joint.isLeft || joint.isRight else { return nil }
            let vertex = angle.vertexJoint(side: joint.isLeft ? .left : .right)
            guard vertex != joint, angle.joints(side: joint.isLeft ? .left : .right).contains(joint) else { return nil }
            return joints.firstIndex(of: vertex)
        }
    }

    /// Whether the pose shows what is needed.
    mutating func ingest(_ pose: Pose) -> Bool {
        var always = true
        var left = true
        var right = true
        var hasLeft = false
        var hasRight = false
        var missingAlways = BodyParts()
        var missingLeft = BodyParts()
        var missingRight = BodyParts()
        for (index, joint) in joints.enumerated() {
            let alternative = alternatives[index]
            if alternative == .left { hasLeft = true }
            if alternative == .right { hasRight = true }
            let seen = visibility.isSeen(pose[joint], vertex: anchors[index].map { pose[joints[$0]] } ?? .missing)
            if seen {
                seenFrames[index] += 1
            } else {
                switch alternative {
                case .left:
                    left = false
                    missingLeft.insert(BodyParts(joint))
                case .right:
                    right = false
                    missingRight.insert(BodyParts(joint))
                case .always:
                    always = false
                    missingAlways.insert(BodyParts(joint))
                }
            }
        }
        let sides = (!hasLeft && !hasRight) || (hasLeft && left) || (hasRight && right)
        let ok = always && sides
        if ok {
            completeFrames += 1
            missingParts = []
        } else {
            var side = BodyParts()
            if !sides {
                // The side that misses less (the only one with joints needed, when one has none).
                side = !hasRight || (hasLeft && missingLeft.count <= missingRight.count) ? missingLeft : missingRight
            }
            missingParts = missingAlways.union(side)
        }
        return ok
    }

    /// The joints needed that were never seen, when no frame showed everything needed (none otherwise). With two
    /// alternative sides, those of the side that was seen more.
    var jointsNeverSeen: [Joint] {
        guard completeFrames == 0 else { return [] }
        let never = zip(joints, seenFrames).compactMap { $1 == 0 ? $0 : nil }
        let leftMissing = never.filter { $0.isLeft }.count
        let rightMissing = never.filter { $0.isRight }.count
        if leftMissing > 0, rightMissing > 0 {
            return never.filter { leftMissing <= rightMissing ? !$0.isRight : !$0.isLeft }
        }
        return never
    }
}

public import PoseKit

/// A line drawn between two joints of the skeleton wireframe.
///
/// ```swift
/// let shin = Bone(.leftKnee, .leftAnkle)
/// OverlayRenderer(configuration: .init(bones: Bone.standard + [shin]))
/// ```
public struct Bone: Sendable, Hashable {
    public var from: Joint
    public var to: Joint

    public init(_ from: Joint, _ to: Joint) {
        self.from = from
        self.to = to
    }

    /// Bones for every skeleton layout PoseKit reads (Vision, BlazePose, COCO, OpenPose, Kinect);
    /// a bone whose joints are not both seen is skipped, so the extra ones cost nothing.
    public static let standard: [Bone] = {
        var bones: [Bone] = [
            // Head.
            Bone(.nose, .leftEye), Bone(.leftEye, .leftEar), Bone(.nose, .rightEye), Bone(.rightEye, .rightEar),
            // Torso.
            Bone(.leftShoulder, .rightShoulder), Bone(.leftHip, .rightHip),
            Bone(.leftShoulder, .leftHip), Bone(.rightShoulder, .rightHip),
            // Kinect spine.
            Bone(.root, .spineMid), Bone(.spineMid, .spineShoulder), Bone(.spineShoulder, .head),
        ]
        for side in [BodySide.left, .right] {
            func j(_ joint: Joint) -> Joint { side == .left ? joint : joint.mirrored }
            bones += [
                Bone(j(.leftShoulder), j(.leftElbow)), Bone(j(.leftElbow), j(.leftWrist)),
                Bone(j(.leftWrist), j(.leftIndex)), Bone(j(.leftWrist), j(.leftHand)),
                Bone(j(.leftHand), j(.leftHandTip)),
                Bone(j(.leftHip), j(.leftKnee)), Bone(j(.leftKnee), j(.leftAnkle)),
                Bone(j(.leftAnkle), j(.leftHeel)), Bone(j(.leftHeel), j(.leftFootIndex)),
                Bone(j(.leftAnkle), j(.leftFootIndex)), Bone(j(.leftAnkle), j(.leftFoot)),
            ]
        }
        return bones
    }()
}

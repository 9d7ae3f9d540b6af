/// The order in which a model or a dataset lists its keypoints, mapped onto ``Joint``.
///
/// ```swift
/// let pose = SkeletonLayout.blazePose33.pose(from: landmarks)   // 33 MediaPipe landmarks
/// ```
public struct SkeletonLayout: Sendable, Hashable {
    /// A short name (`"blazePose33"`).
    public var name: String
    /// For each index of the source, the joint it is, or `nil` for a point with no counterpart.
    public var joints: [Joint?]

    public init(name: String, joints: [Joint?]) {
        self.name = name
        self.joints = joints
    }

    /// Builds a pose from keypoints listed in this layout's order, deriving `neck` and `root`.
    ///
    /// - Precondition: `keypoints.count == joints.count`.
    public func pose(from keypoints: [Keypoint]) -> Pose {
        precondition(keypoints.count == joints.count, "\(name) has \(joints.count) points, got \(keypoints.count)")
        var pose = Pose()
        for (index, joint) in joints.enumerated() {
            guard let joint else { continue }
            pose[joint] = keypoints[index]
        }
        pose.deriveMidpoints()
        return pose
    }

    /// The keypoints of `pose` in this layout's order (missing for unmapped indices).
    public func keypoints(of pose: Pose) -> [Keypoint] {
        joints.map { $0.map { pose[$0] } ?? .missing }
    }

    // MARK: - Layouts

    /// MediaPipe BlazePose: 33 landmarks.
    public static let blazePose33 = SkeletonLayout(
        name: "blazePose33",
        joints: [
            .nose, .leftEyeInner, .leftEye, .leftEyeOuter, .rightEyeInner, .rightEye, .rightEyeOuter,
            .leftEar, .rightEar, .mouthLeft, .mouthRight,
            .leftShoulder, .rightShoulder, .leftElbow, .rightElbow, .leftWrist, .rightWrist,
            .leftPinky, .rightPinky, .leftIndex, .rightIndex, .leftThumb, .rightThumb,
            .leftHip, .rightHip, .leftKnee, .rightKnee, .leftAnkle, .rightAnkle,
            .leftHeel, .rightHeel, .leftFootIndex, .rightFootIndex,
        ]
    )

    /// COCO-17 (MoveNet, YOLO-pose, most 2-D datasets).
    public static let coco17 = SkeletonLayout(
        name: "coco17",
        joints: [
            .nose, .leftEye, .rightEye, .leftEar, .rightEar,
            .leftShoulder, .rightShoulder, .leftElbow, .rightElbow, .leftWrist, .rightWrist,
            .leftHip, .rightHip, .leftKnee, .rightKnee, .leftAnkle, .rightAnkle,
        ]
    )

    /// OpenPose COCO-18 (COCO-17 plus a neck, in OpenPose's order).
    public static let openPose18 = SkeletonLayout(
        name: "openPose18",
        joints: [
            .nose, .neck, .rightShoulder, .rightElbow, .rightWrist, .leftShoulder, .leftElbow, .leftWrist,
            .rightHip, .rightKnee, .rightAnkle, .leftHip, .leftKnee, .leftAnkle,
            .rightEye, .leftEye, .rightEar, .leftEar,
        ]
    )

    /// Microsoft Kinect v2: 25 joints.
    ///
    /// Kinect's own "Neck" sits about 7 cm above the shoulders, so it is dropped; Vision's `neck` (the
    /// midpoint of the shoulders) is derived from SpineShoulder by ``Pose/deriveMidpoints()``.
    public static let kinectV2 = SkeletonLayout(
        name: "kinectV2",
        joints: [
            .root, .spineMid, nil, .head, .leftShoulder, .leftElbow, .leftWrist, .leftHand,
            .rightShoulder, .rightElbow, .rightWrist, .rightHand, .leftHip, .leftKnee, .leftAnkle, .leftFoot,
            .rightHip, .rightKnee, .rightAnkle, .rightFoot, .spineShoulder, .leftHandTip, .leftThumb,
            .rightHandTip, .rightThumb,
        ]
    )

    /// Every built-in layout.
    public static let all: [SkeletonLayout] = [.blazePose33, .coco17, .openPose18, .kinectV2]
}

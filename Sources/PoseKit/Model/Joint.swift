/// A body joint, named as Apple Vision's `VNHumanBodyPoseObservation.JointName` (lower camel case).
///
/// The first 19 cases are Vision's joints; the others are the extra keypoints of BlazePose and of
/// Kinect-style skeletons that appear in pose-track files (`pose-track.md`). A ``Pose`` stores one
/// ``Keypoint`` per case, indexed by `rawValue`, so lookups cost an array access.
///
/// ```swift
/// let knee = pose[.leftKnee]
/// Joint(name: "leftKnee") == .leftKnee
/// ```
public enum Joint: Int, CaseIterable, Sendable, Hashable, Codable, CustomStringConvertible {
    // Vision's 19.
    case nose, leftEye, rightEye, leftEar, rightEar, neck
    case leftShoulder, rightShoulder, leftElbow, rightElbow, leftWrist, rightWrist
    case root, leftHip, rightHip, leftKnee, rightKnee, leftAnkle, rightAnkle
    // BlazePose / MediaPipe extras.
    case leftHeel, rightHeel, leftFootIndex, rightFootIndex
    case leftPinky, rightPinky, leftIndex, rightIndex, leftThumb, rightThumb
    case leftEyeInner, leftEyeOuter, rightEyeInner, rightEyeOuter, mouthLeft, mouthRight
    // Kinect-style extras.
    case spineMid, spineShoulder, head, headTop, leftCollar, rightCollar
    case leftHand, rightHand, leftHandTip, rightHandTip, leftFoot, rightFoot, leftToes, rightToes

    /// The number of joints a ``Pose`` stores.
    public static let count = Joint.allCases.count

    /// Vision's 19 joints, in Vision's order.
    public static let vision: [Joint] = Array(allCases.prefix(19))

    /// The name used in pose-track files (`"leftKnee"`).
    public var name: String { Self.names[rawValue] }

    public var description: String { name }

    /// The joint with this pose-track name, or `nil` for a name outside the list.
    public init?(name: String) {
        guard let joint = Self.byName[name] else { return nil }
        self = joint
    }

    /// The same joint on the other side of the body (`leftKnee` ↔ `rightKnee`); itself for midline joints.
    public var mirrored: Joint { Self.mirror[rawValue] }

    /// Whether the joint is on the person's left side.
    public var isLeft: Bool { name.hasPrefix("left") || self == .mouthLeft }
    /// Whether the joint is on the person's right side.
    public var isRight: Bool { name.hasPrefix("right") || self == .mouthRight }

    private static let names: [String] = [
        "nose", "leftEye", "rightEye", "leftEar", "rightEar", "neck",
        "leftShoulder", "rightShoulder", "leftElbow", "rightElbow", "leftWrist", "rightWrist",
        "root", "leftHip", "rightHip", "leftKnee", "rightKnee", "leftAnkle", "rightAnkle",
        "leftHeel", "rightHeel", "leftFootIndex", "rightFootIndex",
        "leftPinky", "rightPinky", "leftIndex", "rightIndex", "leftThumb", "rightThumb",
        "leftEyeInner", "leftEyeOuter", "rightEyeInner", "rightEyeOuter", "mouthLeft", "mouthRight",
        "spineMid", "spineShoulder", "head", "headTop", "leftCollar", "rightCollar",
        "leftHand", "rightHand", "leftHandTip", "rightHandTip", "leftFoot", "rightFoot", "leftToes", "rightToes",
    ]

    private static let byName: [String: Joint] = {
        precondition(names.count == allCases.count, "Joint.names (\(names.count)) must list every case")
        return Dictionary(uniqueKeysWithValues: allCases.map { (names[$0.rawValue], $0) })
    }()

    private static let mirror: [Joint] = allCases.map { joint in
        let name = names[joint.rawValue]
        let swapped: String
        if name.hasPrefix("left") {
            swapped = "right" + name.dropFirst(4)
        } else if name.hasPrefix("right") {
            swapped = "left" + name.dropFirst(5)
        } else if name == "mouthLeft" {
            swapped = "mouthRight"
        } else if name == "mouthRight" {
            swapped = "mouthLeft"
        } else {
            swapped = name
        }
        return byName[swapped] ?? joint
    }
}

/// Left or right side of the body (the person's own side).
public enum BodySide: String, Sendable, Hashable, Codable, CaseIterable {
    case left, right

    /// The other side.
    public var opposite: BodySide { self == .left ? .right : .left }
}

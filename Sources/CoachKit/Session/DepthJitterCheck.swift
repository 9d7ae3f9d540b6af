public import PoseKit

/// Tells measured depth (a depth camera, motion capture) from guessed depth (a video pose estimator's z)
/// by how much the depth jitters from frame to frame compared with the image coordinates.
///
/// For twelve limb joints seen with confidence ≥ 0.5 in three consecutive frames, it sums the absolute
/// second differences of x, y and of z. After `frames` poses with depth in which at least
/// `minimumJoints` of them gave a second difference, the depth is trusted when its mean jitter is at most
/// `ratio` × that of x and y. Poses with fewer (someone half in the picture, walking in, a skeleton
/// the estimator lost) neither count toward the verdict nor are needed for it: the first frames of a
/// recording decide nothing when they show little of the person. **Fewer frames** (a busy live server): the verdict
/// still waits for `frames` poses (1 s at 30 fps, 6 s at 5 fps), and until then the session measures in the image
/// plane as it does before any verdict; frames further apart move more between them, in the image and in depth
/// alike, so the ratio compares the same two jitters. Measured on the first 30 frames of the recordings
/// here: Kinect (UI-PRMD s01–s03, KIMORE) 0.36–2.2; MediaPipe's z from the 83 videos and KERAAL's
/// BlazePose z 2.9–35. The verdict is made once and kept. Allocation-free after `init`.
///
/// ```swift
/// var check = DepthJitterCheck()
/// for pose in poses { check.ingest(pose) }
/// let useDepth = check.trusted ?? true
/// ```
public struct DepthJitterCheck: Sendable {
    /// Poses with depth before the verdict.
    public let frames: Int
    /// The largest depth-to-image jitter ratio of trusted depth.
    public let ratio: Double
    /// The joints (of twelve) a pose must show in three consecutive frames to count toward the verdict.
    public let minimumJoints: Int

    private static let joints: [Joint] = [
        .leftShoulder, .rightShoulder, .leftElbow, .rightElbow, .leftWrist, .rightWrist, .leftHip, .rightHip,
        .leftKnee, .rightKnee, .leftAnkle, .rightAnkle,
    ]
    /// A joint's position in one frame.
    private struct Position: Sendable, Hashable {
        var x, y, z: Double
    }
    /// The last two frames' position of each joint (`nil` when not seen).
    private var previous: [Position?]
    private var older: [Position?]
    private var seen = 0
    private var jitterImage = 0.0
    private var jitterDepth = 0.0
    private var samples = 0

    /// Whether the depth is trusted; `nil` before the verdict.
    public private(set) var trusted: Bool?

    /// Joints below this confidence are left out of the jitter: a joint the estimator barely sees jitters in x and
    /// y as much as in z, and would hide the difference (dbbbf0f).
    static let minimumJointConfidence = 0.5

    public init(frames: Int = 30, ratio: Double = 2.5, minimumJoints: Int = 4) {
        self.frames = frames
        self.ratio = ratio
        self.minimumJoints = minimumJoints
        previous = Array(repeating: nil, count: Self.joints.count)
        older = Array(repeating: nil, count: Self.joints.count)
    }

    /// Adds one pose (ignored when it has no depth, or once the verdict is made).
    public mutating func ingest(_ pose: Pose) {
        guard trusted == nil else { return }
        var contributing = 0
        for (j, joint) in Self.joints.enumerated() {
            let k = pose[joint]
            guard k.confidence >= Self.minimumJointConfidence, let z = k.z else {
                older[j] = previous[j]
                previous[j] = nil
                continue
            }
            if let o = older[j], let p = previous[j] {
                jitterImage += abs(k.x - 2 * p.x + o.x) + abs(k.y - 2 * p.y + o.y)
                jitterDepth += abs(z - 2 * p.z + o.z)
                samples += 1
                contributing += 1
            }
            older[j] = previous[j]
            previous[j] = Position(x: k.x, y: k.y, z: z)
        }
        if contributing >= minimumJoints { seen += 1 }
        guard seen >= frames, samples > 0 else { return }
        // x and y are two coordinates: the image jitter per coordinate is half the sum.
        let image = jitterImage / 2
        trusted = image > 0 ? jitterDepth <= ratio * image : jitterDepth == 0
    }
}

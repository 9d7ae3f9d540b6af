/// One person's keypoints in one frame.
///
/// Stores a ``Keypoint`` for every ``Joint`` (missing ones have confidence 0), so access by joint is an
/// array index. `worldKeypoints`, when the estimator provides them (MediaPipe), are hip-centred 3-D
/// coordinates in metres, indexed the same way.
///
/// ```swift
/// var pose = Pose()
/// pose[.leftKnee] = Keypoint(x: 320, y: 300, confidence: 0.9)
/// let degrees = pose.angle(at: .leftKnee, from: .leftHip, to: .leftAnkle)
/// ```
public struct Pose: Sendable, Hashable {
    /// One keypoint per ``Joint``, indexed by `Joint.rawValue`.
    public var keypoints: [Keypoint]
    /// Hip-centred 3-D keypoints in metres (x right, y down, z toward the camera is negative), when known.
    public var worldKeypoints: [Keypoint]?

    /// A pose with every joint missing.
    public init() {
        keypoints = Array(repeating: .missing, count: Joint.count)
        worldKeypoints = nil
    }

    /// A pose from keypoints keyed by joint; joints not given are missing.
    public init(_ joints: [Joint: Keypoint]) {
        self.init()
        for (joint, keypoint) in joints { keypoints[joint.rawValue] = keypoint }
    }

    @inlinable
    public subscript(joint: Joint) -> Keypoint {
        get { keypoints[joint.rawValue] }
        set { keypoints[joint.rawValue] = newValue }
    }

    /// The joints seen with confidence above zero.
    public var visibleJoints: [Joint] { Joint.allCases.filter { self[$0].confidence > 0 } }

    /// Fills `neck` (midpoint of the shoulders) and `root` (midpoint of the hips) when they are absent,
    /// as Vision defines them. A Kinect `spineShoulder` serves as the neck when there is one.
    public mutating func deriveMidpoints() {
        if keypoints[Joint.neck.rawValue].confidence == 0, keypoints[Joint.spineShoulder.rawValue].confidence > 0 {
            keypoints[Joint.neck.rawValue] = keypoints[Joint.spineShoulder.rawValue]
        }
        Self.deriveMidpoint(in: &keypoints, .neck, between: .leftShoulder, and: .rightShoulder)
        Self.deriveMidpoint(in: &keypoints, .root, between: .leftHip, and: .rightHip)
        if var world = worldKeypoints {
            Self.deriveMidpoint(in: &world, .neck, between: .leftShoulder, and: .rightShoulder)
            Self.deriveMidpoint(in: &world, .root, between: .leftHip, and: .rightHip)
            worldKeypoints = world
        }
    }

    private static func deriveMidpoint(in keypoints: inout [Keypoint], _ joint: Joint, between a: Joint, and b: Joint) {
        guard keypoints[joint.rawValue].confidence == 0 else { return }
        let p = keypoints[a.rawValue]
        let q = keypoints[b.rawValue]
        guard p.confidence > 0, q.confidence > 0 else { return }
        let z: Double? = if let pz = p.z, let qz = q.z { (pz + qz) / 2 } else { nil }
        keypoints[joint.rawValue] = Keypoint(
            x: (p.x + q.x) / 2,
            y: (p.y + q.y) / 2,
            z: z,
            confidence: min(p.confidence, q.confidence)
        )
    }

    /// The bounding box of the keypoints seen with at least `threshold` confidence, or `nil` if none.
    public func boundingBox(threshold: Double = 0.1) -> (minX: Double, minY: Double, maxX: Double, maxY: Double)? {
        var minX = Double.infinity
        var minY = Double.infinity
        var maxX = -Double.infinity
        var maxY = -Double.infinity
        for keypoint in keypoints where keypoint.confidence >= threshold && keypoint.confidence > 0 {
            minX = min(minX, keypoint.x)
            minY = min(minY, keypoint.y)
            maxX = max(maxX, keypoint.x)
            maxY = max(maxY, keypoint.y)
        }
        return minX.isFinite ? (minX, minY, maxX, maxY) : nil
    }

    /// This pose with left and right exchanged (for a mirrored camera, or to fix a side swap).
    public func swappingSides() -> Pose {
        var swapped = self
        for joint in Joint.allCases {
            swapped.keypoints[joint.rawValue] = keypoints[joint.mirrored.rawValue]
            if let world = worldKeypoints { swapped.worldKeypoints?[joint.rawValue] = world[joint.mirrored.rawValue] }
        }
        return swapped
    }
}

/// Everything the estimator saw at one instant: every person in the frame.
public struct PoseFrame: Sendable, Hashable {
    /// Seconds since the start of the recording.
    public var seconds: Double
    /// One pose per person seen; empty when nobody was seen.
    public var poses: [Pose]

    public init(seconds: Double, poses: [Pose]) {
        self.seconds = seconds
        self.poses = poses
    }
}

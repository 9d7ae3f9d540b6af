/// One hand's 21 keypoints in one frame: the counterpart of Vision's `VNHumanHandPoseObservation`.
///
/// Keypoints are in pixels of the image (as ``Pose``'s), one per ``HandJoint``, indexed by `rawValue`.
/// `worldKeypoints`, when the estimator gives them (MediaPipe), are 3-D in metres, centred on the hand.
///
/// ```swift
/// var hand = HandPose(chirality: .right)
/// hand[.thumbTip] = Keypoint(x: 320, y: 240, confidence: 1)
/// let pinch = hand[.thumbTip].point - hand[.indexTip].point
/// ```
public struct HandPose: Sendable, Hashable {
    /// One keypoint per ``HandJoint``, indexed by `HandJoint.rawValue`.
    public var keypoints: [Keypoint]
    /// Which hand it is (the person's own side).
    public var chirality: Chirality
    /// 3-D keypoints in metres centred on the hand (x right, y down, z toward the camera negative), when known.
    public var worldKeypoints: [Keypoint]?

    /// A hand with every keypoint missing.
    public init(chirality: Chirality = .unknown) {
        keypoints = Array(repeating: .missing, count: HandJoint.count)
        self.chirality = chirality
        worldKeypoints = nil
    }

    /// A hand from its 21 keypoints in ``HandJoint`` order.
    ///
    /// - Precondition: `keypoints.count == HandJoint.count`.
    public init(keypoints: [Keypoint], chirality: Chirality, worldKeypoints: [Keypoint]? = nil) {
        precondition(
            keypoints.count == HandJoint.count,
            "a hand has \(HandJoint.count) keypoints, got \(keypoints.count)"
        )
        precondition(
            worldKeypoints.map { $0.count == HandJoint.count } ?? true,
            "a hand has \(HandJoint.count) world keypoints, got \(worldKeypoints?.count ?? 0)"
        )
        self.keypoints = keypoints
        self.chirality = chirality
        self.worldKeypoints = worldKeypoints
    }

    @inlinable
    public subscript(joint: HandJoint) -> Keypoint {
        get { keypoints[joint.rawValue] }
        set { keypoints[joint.rawValue] = newValue }
    }
}

/// Every hand the estimator saw at one instant.
public struct HandFrame: Sendable, Hashable {
    /// Seconds since the start of the recording.
    public var seconds: Double
    /// One entry per hand seen; empty when no hand was seen.
    public var hands: [HandPose]

    public init(seconds: Double, hands: [HandPose]) {
        self.seconds = seconds
        self.hands = hands
    }
}

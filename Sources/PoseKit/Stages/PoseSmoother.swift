/// Smooths every joint of one person's pose over time with One-Euro filters, and bridges short gaps.
///
/// - A joint seen with at least `minimumConfidence` is filtered (x, y, and z when present) and keeps
///   its confidence.
/// - A joint that is missing or below `minimumConfidence` keeps its last smoothed position for up to
///   `maximumGapSeconds` after it was last seen, with its confidence decayed linearly from the last
///   value down to half of it at the end of the gap. Longer gaps drop the joint (confidence 0) and
///   restart its filters, so a joint that comes back does not glide in from a stale position.
/// - A frame with no pose at all (`nil`) is a gap for every joint: the held pose is returned while
///   any joint is still within its gap, then `nil`.
///
/// `worldKeypoints` are passed through unsmoothed. Time going backwards resets the smoother.
///
/// The smoother keeps its output in a buffer it reuses: when the caller does not hold on to the
/// previous output, a frame costs no allocation.
///
/// ```swift
/// var smoother = PoseSmoother()
/// for frame in frames {
///     if let pose = smoother.ingest(selector.ingest(frame), at: frame.seconds) { draw(pose) }
/// }
/// ```
public struct PoseSmoother: Sendable {
    /// The smoother's tuning.
    public struct Configuration: Sendable, Hashable {
        /// One-Euro cutoff in hertz at rest, for pixel coordinates.
        public var minCutoff: Double
        /// One-Euro speed coefficient, in hertz per pixel per second.
        public var beta: Double
        /// One-Euro cutoff in hertz for the speed estimate.
        public var derivativeCutoff: Double
        /// Joints below this confidence count as not seen in this frame.
        public var minimumConfidence: Double
        /// How long a joint that is no longer seen is held at its last position.
        public var maximumGapSeconds: Double

        public init(
            minCutoff: Double = 1.0,
            beta: Double = 0.02,
            derivativeCutoff: Double = 1.0,
            minimumConfidence: Double = 0.3,
            maximumGapSeconds: Double = 0.3
        ) {
            precondition(
                minimumConfidence >= 0 && minimumConfidence <= 1,
                "minimumConfidence (\(minimumConfidence)) must be in [0, 1]"
            )
            precondition(
                maximumGapSeconds >= 0 && maximumGapSeconds.isFinite,
                "maximumGapSeconds (\(maximumGapSeconds)) must be zero or a positive number of seconds"
            )
            self.minCutoff = minCutoff
            self.beta = beta
            self.derivativeCutoff = derivativeCutoff
            self.minimumConfidence = minimumConfidence
            self.maximumGapSeconds = maximumGapSeconds
        }

        var filter: OneEuroFilter.Configuration {
            OneEuroFilter.Configuration(minCutoff: minCutoff, beta: beta, derivativeCutoff: derivativeCutoff)
        }
    }

    public let configuration: Configuration

    private struct JointState: Sendable {
        var x: OneEuroFilter
        var y: OneEuroFilter
        var z: OneEuroFilter
        /// When the joint was last seen; `-infinity` when it is not held.
        var lastSeen = -Double.infinity
        /// Confidence when last seen.
        var lastConfidence = 0.0

        mutating func drop() {
            x.reset()
            y.reset()
            z.reset()
            lastSeen = -Double.infinity
            lastConfidence = 0
        }
    }

    private var joints: [JointState]
    /// The reused output; each joint holds its last smoothed keypoint.
    private var output = Pose()
    private var lastSeconds = -Double.infinity

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
        let filter = OneEuroFilter(configuration: configuration.filter)
        joints = Array(repeating: JointState(x: filter, y: filter, z: filter), count: Joint.count)
    }

    /// Smooths `pose` observed at `seconds`.
    ///
    /// - Returns: The smoothed pose, the held pose while a missing person is within the gap, or `nil`
    ///   when nothing is left to show.
    public mutating func ingest(_ pose: Pose?, at seconds: Double) -> Pose? {
        if seconds < lastSeconds { reset() }
        lastSeconds = seconds
        let minimumConfidence = max(configuration.minimumConfidence, Double.leastNonzeroMagnitude)
        let maximumGap = configuration.maximumGapSeconds
        var anyJoint = false
        output.worldKeypoints = pose?.worldKeypoints
        // One uniqueness check per buffer and frame instead of one per field access.
        joints.withUnsafeMutableBufferPointer { joints in
            output.keypoints.withUnsafeMutableBufferPointer { output in
                for index in 0..<Joint.count {
                    let input = pose?.keypoints[index] ?? .missing
                    if input.confidence >= minimumConfidence, input.x.isFinite, input.y.isFinite {
                        let x = joints[index].x.ingest(input.x, at: seconds)
                        let y = joints[index].y.ingest(input.y, at: seconds)
                        var z: Double? = nil
                        if let inputZ = input.z, inputZ.isFinite {
                            z = joints[index].z.ingest(inputZ, at: seconds)
                        } else {
                            joints[index].z.reset()
                        }
                        joints[index].lastSeen = seconds
                        joints[index].lastConfidence = input.confidence
                        output[index] = Keypoint(x: x, y: y, z: z, confidence: input.confidence)
                        anyJoint = true
                        continue
                    }
                    let lastSeen = joints[index].lastSeen
                    guard lastSeen > -Double.infinity else { continue }  // not held: output is already missing
                    let gap = seconds - lastSeen
                    if gap <= maximumGap {
                        let fraction = maximumGap > 0 ? gap / maximumGap : 0
                        output[index].confidence = joints[index].lastConfidence * (1 - 0.5 * fraction)
                        anyJoint = true
                    } else {
                        joints[index].drop()
                        output[index] = .missing
                    }
                }
            }
        }
        return anyJoint ? output : nil
    }

    /// Forgets all history.
    public mutating func reset() {
        for index in 0..<Joint.count {
            joints[index].drop()
            output.keypoints[index] = .missing
        }
        output.worldKeypoints = nil
        lastSeconds = -Double.infinity
    }
}

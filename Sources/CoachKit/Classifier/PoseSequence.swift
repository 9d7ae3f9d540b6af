public import PoseKit

/// One recording reduced to what the classifier reads: the times and, for each frame, the keypoints of
/// the most prominent person at the joints in ``PoseSequence/trackedJoints``.
///
/// Building one from ``PoseFrame``s keeps memory small (a long recording is a few arrays of numbers);
/// the person in each frame is the one with the largest bounding box of visible keypoints.
///
/// ```swift
/// let (header, frames) = try PoseTrackReader.readAll(path: "squat.jsonl")
/// let sequence = PoseSequence(frames: frames, name: "squat.jsonl")
/// let prediction = classifier.predict(sequence)
/// ```
public struct PoseSequence: Sendable, Hashable {
    /// The joints kept, in this order: the candidates for the classifier's features.
    public static let trackedJoints: [Joint] = [
        .nose, .head, .neck, .root,
        .leftShoulder, .rightShoulder, .leftElbow, .rightElbow, .leftWrist, .rightWrist,
        .leftHip, .rightHip, .leftKnee, .rightKnee, .leftAnkle, .rightAnkle,
    ]

    /// The index of `joint` in ``trackedJoints``, or `nil`.
    public static func trackedIndex(of joint: Joint) -> Int? { trackedIndexByJoint[joint.rawValue] }

    private static let trackedIndexByJoint: [Int?] = {
        var table = [Int?](repeating: nil, count: Joint.count)
        for (index, joint) in trackedJoints.enumerated() { table[joint.rawValue] = index }
        return table
    }()

    /// A name for messages and reports (usually the file path).
    public var name: String
    /// Free-form facts about the recording (the pose-track header's labels: `subject`, `view`, …).
    public var metadata: [String: String]
    /// Seconds of each frame.
    public private(set) var seconds: [Double]
    /// `x` of tracked joint `j` in frame `f` at `f * trackedJoints.count + j` (pixels).
    public private(set) var x: [Double]
    /// `y`, laid out like ``x``.
    public private(set) var y: [Double]
    /// Whether the joint was seen (confidence above zero), laid out like ``x``.
    public private(set) var visible: [Bool]
    /// Whether a person was seen in the frame.
    public private(set) var hasPerson: [Bool]

    /// The number of frames.
    public var count: Int { seconds.count }

    /// Reduces `frames` to the most prominent person's tracked joints.
    public init(frames: [PoseFrame], name: String = "", metadata: [String: String] = [:]) {
        self.name = name
        self.metadata = metadata
        let stride = Self.trackedJoints.count
        seconds = []
        x = []
        y = []
        visible = []
        hasPerson = []
        seconds.reserveCapacity(frames.count)
        x.reserveCapacity(frames.count * stride)
        y.reserveCapacity(frames.count * stride)
        visible.reserveCapacity(frames.count * stride)
        for frame in frames {
            seconds.append(frame.seconds)
            guard let pose = Self.prominentPose(in: frame) else {
                hasPerson.append(false)
                x.append(contentsOf: repeatElement(0, count: stride))
                y.append(contentsOf: repeatElement(0, count: stride))
                visible.append(contentsOf: repeatElement(false, count: stride))
                continue
            }
            hasPerson.append(true)
            for joint in Self.trackedJoints {
                let keypoint = pose[joint]
                let seen = keypoint.confidence > 0 && keypoint.x.isFinite && keypoint.y.isFinite
                x.append(seen ? keypoint.x : 0)
                y.append(seen ? keypoint.y : 0)
                visible.append(seen)
            }
        }
    }

    /// The pose with the largest bounding box, or `nil` when nobody was seen.
    static func prominentPose(in frame: PoseFrame) -> Pose? {
        var best: Pose?
        var bestArea = -1.0
        for pose in frame.poses {
            guard let box = pose.boundingBox(threshold: 0) else { continue }
            let area = (box.maxX - box.minX) * (box.maxY - box.minY)
            if area > bestArea {
                bestArea = area
                best = pose
            }
        }
        return best
    }

    /// A copy with each frame transformed: for tests of invariance (mirroring, moving, scaling).
    ///
    /// - Parameters:
    ///   - swapSides: exchange left and right joints (what a pose estimator reports on a mirrored video).
    ///   - transform: applied to every visible point.
    public func transformed(swapSides: Bool = false, _ transform: (Double, Double) -> (Double, Double)) -> PoseSequence
    {
        var copy = self
        let stride = Self.trackedJoints.count
        let source = swapSides ? Self.trackedJoints.map { Self.trackedIndex(of: $0.mirrored)! } : Array(0..<stride)
        for frame in 0..<count {
            for j in 0..<stride {
                let from = frame * stride + source[j]
                let to = frame * stride + j
                copy.visible[to] = visible[from]
                if visible[from] {
                    let (nx, ny) = transform(x[from], y[from])
                    copy.x[to] = nx
                    copy.y[to] = ny
                } else {
                    copy.x[to] = 0
                    copy.y[to] = 0
                }
            }
        }
        return copy
    }
}

/// The port through which the classifier gets its recordings: a pose-track reader today, a video
/// pipeline (decode + pose estimation) tomorrow.
///
/// ```swift
/// struct PoseTrackSource: PoseSequenceSource {
///     func sequence(at path: String) throws -> PoseSequence {
///         let (header, frames) = try PoseTrackReader.readAll(path: path)
///         return PoseSequence(frames: frames, name: path)
///     }
/// }
/// ```
public protocol PoseSequenceSource {
    /// The recording at `path`.
    ///
    /// - Throws: an error whose description is one line naming the file (and line) and the problem.
    func sequence(at path: String) throws -> PoseSequence
}

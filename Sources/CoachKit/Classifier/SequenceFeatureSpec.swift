public import PoseKit

/// What the classifier measures in a recording, saved in the model so that `predict` computes exactly
/// the features `train` did.
///
/// The spec lists the joints the training set has (so OpenPose-18 without heels, Kinect without a nose
/// and MediaPipe-17 all work), the joint used as origin, the length used as scale and the number of time
/// bins of the coarse temporal profile. ``vector(for:)`` turns a ``PoseSequence`` into one fixed-length
/// vector that does not change when the person moves, changes size, or is mirrored (see
/// `SequenceFeatureSpec+Extraction.swift`).
///
/// ```swift
/// let spec = try SequenceFeatureSpec.fitted(to: trainingSequences, timeBins: 8)
/// let features = spec.vector(for: sequence)   // spec.featureCount numbers, NaN where unknown
/// ```
public struct SequenceFeatureSpec: Sendable, Hashable {
    /// The version of the feature definitions; a model saved with another version is refused.
    public static let currentVersion = 1

    /// The length that sets the scale of a recording.
    public enum ScaleReference: String, Sendable, Hashable {
        /// Neck to root (hip centre): the torso length.
        case torso
        /// Left to right shoulder.
        case shoulders
    }

    /// The tracked joints the features use, in ``PoseSequence/trackedJoints`` order.
    public var joints: [Joint]
    /// The joint every position is measured from (`root`, or `neck` when hips are missing).
    public var origin: Joint
    public var scale: ScaleReference
    /// The number of time bins of the temporal profile of each per-frame feature.
    public var timeBins: Int

    public init(joints: [Joint], origin: Joint, scale: ScaleReference, timeBins: Int) {
        precondition(timeBins >= 1, "timeBins (\(timeBins)) must be at least 1")
        self.joints = PoseSequence.trackedJoints.filter(joints.contains)
        self.origin = origin
        self.scale = scale
        self.timeBins = timeBins
    }

    /// The spec for a training set: the joints seen in at least `minimumCoverage` of the frames of an
    /// average recording. A left/right pair counts as seen by its better-seen side in each recording, and
    /// is kept or dropped as a pair: in side views the far arm is mostly hidden, and the features use the
    /// more-moving side first, so a pair must not be dropped because the far side is hidden (which side
    /// is far changes between recordings; taking the better side keeps the rule mirror-invariant).
    ///
    /// The default coverage, 0.8, keeps a joint only when it is seen in most frames: a joint missing in a
    /// third of them (Pose Trainer's bicep curls cut the legs off at the knees: knees seen in 69% of the
    /// frames, ankles in 32%) is mostly the recording's median, and its channels add noise, not signal.
    ///
    /// - Throws: ``CoachKitError`` (`.unusableTrainingSet`) when neither hips nor shoulders are seen.
    public static func fitted(
        to sequences: [PoseSequence],
        timeBins: Int,
        minimumCoverage: Double = 0.8
    ) throws(CoachKitError) -> SequenceFeatureSpec {
        let tracked = PoseSequence.trackedJoints
        var coverage = [Double](repeating: 0, count: tracked.count)
        var files = 0
        for sequence in sequences where sequence.count > 0 {
            files += 1
            var seen = [Int](repeating: 0, count: tracked.count)
            for frame in 0..<sequence.count {
                for j in 0..<tracked.count where sequence.visible[frame * tracked.count + j] { seen[j] += 1 }
            }
            for (j, joint) in tracked.enumerated() {
                let mirror = PoseSequence.trackedIndex(of: joint.mirrored) ?? j
                coverage[j] += Double(max(seen[j], seen[mirror])) / Double(sequence.count)
            }
        }
        guard files > 0 else {
            throw CoachKitError(.unusableTrainingSet, "the training recordings have no frames")
        }
        var available = Set<Joint>()
        for (j, joint) in tracked.enumerated() where coverage[j] / Double(files) >= minimumCoverage {
            available.insert(joint)
        }
        // Left/right joints come in pairs (equal coverage above), so mirrored recordings give the same features.
        available = available.filter { available.contains($0.mirrored) }
        let origin: Joint
        if available.contains(.root) {
            origin = .root
        } else if available.contains(.neck) {
            origin = .neck
        } else {
            throw CoachKitError(
                .unusableTrainingSet,
                "the training recordings show neither hips nor shoulders in most frames; the classifier needs "
                    + "them to place and scale the body"
            )
        }
        let scale: ScaleReference
        if available.contains(.root), available.contains(.neck) {
            scale = .torso
        } else if available.contains(.leftShoulder) {
            scale = .shoulders
        } else {
            throw CoachKitError(
                .unusableTrainingSet,
                "the training recordings show neither a torso (neck and hips) nor both shoulders in most frames"
            )
        }
        return SequenceFeatureSpec(joints: Array(available), origin: origin, scale: scale, timeBins: timeBins)
    }
}

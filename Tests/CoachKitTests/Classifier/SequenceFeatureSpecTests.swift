import CoachKit
import PoseKit
import Testing

struct SequenceFeatureSpecTests {
    /// The synthetic arm raise seen from one side: the far (right) arm hidden in every frame.
    static func sideView(_ motion: SyntheticMotion, variant: Int, hideLeft: Bool = false) -> PoseSequence {
        let hidden: [Joint] = hideLeft ? [.leftElbow, .leftWrist] : [.rightElbow, .rightWrist]
        let frames = motion.frames(variant: variant).map { frame in
            PoseFrame(
                seconds: frame.seconds,
                poses: frame.poses.map { pose in
                    var copy = pose
                    for joint in hidden { copy[joint] = Keypoint(x: 0, y: 0, confidence: 0) }
                    return copy
                }
            )
        }
        return PoseSequence(frames: frames, name: "\(motion.rawValue)-side-\(variant)")
    }

    @Test func armsStayWhenOnlyTheNearSideIsSeen() throws {
        // Half the recordings show the left arm, half the right: each side is seen in half the frames
        // overall, but in every recording one arm is fully visible.
        let sequences = (0..<6).map { Self.sideView(.armRaise, variant: $0, hideLeft: $0 % 2 == 0) }
        let spec = try SequenceFeatureSpec.fitted(to: sequences, timeBins: 4)
        for joint in [Joint.leftElbow, .rightElbow, .leftWrist, .rightWrist] {
            #expect(spec.joints.contains(joint), "\(joint.name) dropped")
        }
    }

    @Test func jointsNeverSeenAreDropped() throws {
        let sequences = (0..<4).map { variant in
            let frames = SyntheticMotion.squat.frames(variant: variant).map { frame in
                PoseFrame(
                    seconds: frame.seconds,
                    poses: frame.poses.map { pose in
                        var copy = pose
                        for joint in [Joint.leftAnkle, .rightAnkle] {
                            copy[joint] = Keypoint(x: 0, y: 0, confidence: 0)
                        }
                        return copy
                    }
                )
            }
            return PoseSequence(frames: frames)
        }
        let spec = try SequenceFeatureSpec.fitted(to: sequences, timeBins: 4)
        #expect(!spec.joints.contains(.leftAnkle))
        #expect(!spec.joints.contains(.rightAnkle))
        #expect(spec.joints.contains(.leftKnee))
    }

    @Test func formVectorIgnoresPositionScaleAndMirroring() throws {
        let (sequences, _) = ActionClassifierTests.trainingSet()
        let spec = try SequenceFeatureSpec.fitted(to: sequences, timeBins: 4)
        for motion in SyntheticMotion.allCases {
            let original = motion.sequence(variant: 11)
            let copy = original.transformed(swapSides: true) { x, y in ((640 - x) * 0.7 - 30, y * 0.7 + 12) }
            let a = spec.formVector(for: original)
            let b = spec.formVector(for: copy)
            try #require(a.count == spec.formFeatureCount)
            try #require(a.count == b.count)
            for k in a.indices {
                #expect(abs(a[k] - b[k]) <= 1e-6 * max(1, abs(a[k])), "form feature \(k): \(a[k]) vs \(b[k])")
            }
        }
    }

    @Test func formVectorSeesTheRaisedArm() throws {
        let (sequences, _) = ActionClassifierTests.trainingSet()
        let spec = try SequenceFeatureSpec.fitted(to: sequences, timeBins: 4)
        let raise = spec.formVector(for: SyntheticMotion.armRaise.sequence(variant: 5))
        let squat = spec.formVector(for: SyntheticMotion.squat.sequence(variant: 5))
        // The first feature group is the moving side's elbow angle, then upper arm against trunk: its
        // range (third statistic) is large in an arm raise (about 135°) and small in a squat.
        let upperArmRange = 3 + 2
        #expect(raise[upperArmRange] > 90)
        #expect(squat[upperArmRange] < 30)
    }
}

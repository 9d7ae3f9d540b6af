import PoseKit
import Testing

struct JointsSelectorTests {
    @Test func keepsOnlyTheGivenJoints() {
        var pose = SyntheticPerson().pose()
        pose.worldKeypoints = Array(repeating: Keypoint(x: 1, y: 2, z: 3, confidence: 1), count: Joint.count)
        let legs: [Joint] = [.leftHip, .leftKnee, .leftAnkle, .leftKnee]
        let selector = JointsSelector(joints: legs)
        #expect(selector.joints == [.leftHip, .leftKnee, .leftAnkle])
        let selected = selector.select(pose)
        for joint in Joint.allCases {
            if selector.contains(joint) {
                #expect(selected[joint] == pose[joint])
                #expect(selected.worldKeypoints?[joint.rawValue] == pose.worldKeypoints?[joint.rawValue])
            } else {
                #expect(selected[joint] == .missing)
                #expect(selected.worldKeypoints?[joint.rawValue] == .missing)
            }
        }
        #expect(selected.visibleJoints == [.leftHip, .leftKnee, .leftAnkle])
    }

    @Test func selectingInPlaceMatchesSelect() {
        let pose = SyntheticPerson().pose()
        let selector = JointsSelector(joints: [.nose, .rightWrist])
        var inPlace = pose
        selector.select(in: &inPlace)
        #expect(inPlace == selector.select(pose))
    }
}

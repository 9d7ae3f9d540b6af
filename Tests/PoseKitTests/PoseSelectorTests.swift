import Foundation
import PoseKit
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct PoseSelectorTests {
    /// The patient at the centre raising and lowering both arms (one rep every 3 s), 30 fps.
    private static func patient(at seconds: Double) -> SyntheticPerson {
        let phase = (seconds.truncatingRemainder(dividingBy: 3)) / 3
        let arm = 90 * (1 - abs(2 * phase - 1))  // 0 → 90 → 0
        return SyntheticPerson(centerX: 320, top: 80, height: 300, armDegrees: arm)
    }

    @Test func choosesTheLargestPersonAtTheStart() throws {
        var generator = SeededGenerator(seed: 1)
        let small = SyntheticPerson(centerX: 150, height: 200).pose(noise: 1, using: &generator)
        let large = SyntheticPerson(centerX: 450, height: 380).pose(noise: 1, using: &generator)
        var selector = PoseSelector()
        let result = selector.ingest(PoseFrame(seconds: 0, poses: [small, large]))
        let selected = try #require(result)
        #expect(selector.trackedIndex == 1)
        #expect(selected == large)
    }

    @Test func breaksASizeTieByNearnessToTheCentre() throws {
        let left = SyntheticPerson(centerX: 100, height: 300).pose()
        let central = SyntheticPerson(centerX: 330, height: 295).pose()
        var selector = PoseSelector(configuration: .init(frameCenter: Vector2(x: 320, y: 240)))
        let result = selector.ingest(PoseFrame(seconds: 0, poses: [left, central]))
        _ = try #require(result)
        #expect(selector.trackedIndex == 1)
    }

    @Test func ignoresPosesWithTooFewConfidentJoints() {
        var faint = SyntheticPerson(height: 400).pose()
        for joint in Joint.allCases where joint != .nose && joint != .neck { faint[joint].confidence = 0.1 }
        var selector = PoseSelector()
        #expect(selector.ingest(PoseFrame(seconds: 0, poses: [faint])) == nil)
        #expect(selector.trackedIndex == nil)
    }

    @Test func biggerBystanderWalkingInDoesNotTakeOver() {
        // Given the patient tracked alone for 1 s, when a bigger bystander walks in from the right and
        // passes right beside (overlapping) them for 4 s, listed in a random order, the patient stays selected.
        var generator = SeededGenerator(seed: 2)
        var selector = PoseSelector()
        var selectedPatient = 0
        var frames = 0
        for i in 0..<150 {
            let t = Double(i) / 30
            let patient = Self.patient(at: t).pose(noise: 2, using: &generator)
            var poses = [patient]
            if t >= 1 {
                let walked = min(1, (t - 1) / 2)
                let bystander = SyntheticPerson(centerX: 700 - 330 * walked, top: 20, height: 440, armDegrees: 20)
                poses.append(bystander.pose(noise: 2, using: &generator))
                if Bool.random(using: &generator) { poses.reverse() }
            }
            frames += 1
            guard let selected = selector.ingest(PoseFrame(seconds: t, poses: poses)) else { continue }
            if abs(selected[.root].x - 320) < 20, selector.trackedIndex.map({ poses[$0] == patient }) == true {
                selectedPatient += 1
            }
        }
        #expect(selectedPatient == frames)
    }

    @Test func shortOcclusionReturnsNilThenResumesTheSamePerson() throws {
        var generator = SeededGenerator(seed: 3)
        var selector = PoseSelector(configuration: .init(lostAfterSeconds: 1))
        let bystander = SyntheticPerson(centerX: 520, top: 20, height: 440)
        var results: [Double?] = []  // root x of the selection
        for i in 0..<90 {
            let t = Double(i) / 30
            var poses = t >= 0.5 ? [bystander.pose(noise: 2, using: &generator)] : []
            let occluded = t >= 1 && t < 1.5
            if !occluded { poses.insert(Self.patient(at: t).pose(noise: 2, using: &generator), at: 0) }
            results.append(selector.ingest(PoseFrame(seconds: t, poses: poses))?[.root].x)
        }
        // The bystander is bigger but came later; while hidden the bystander is not chosen.
        for (i, rootX) in results.enumerated() {
            let t = Double(i) / 30
            if t >= 1 && t < 1.5 {
                #expect(rootX == nil, "t=\(t): nothing should be selected while the patient is hidden")
            } else {
                let x = try #require(rootX, "t=\(t): the patient should be selected")
                #expect(abs(x - 320) < 20, "t=\(t): selected root x \(x) is not the patient's")
            }
        }
    }

    @Test func reacquiresTheProminentPersonAfterTheTimeout() {
        var generator = SeededGenerator(seed: 4)
        var selector = PoseSelector(configuration: .init(lostAfterSeconds: 1, frameCenter: Vector2(x: 320, y: 240)))
        let other = SyntheticPerson(centerX: 520, top: 40, height: 300)
        var firstOtherSelection: Double?
        for i in 0..<120 {
            let t = Double(i) / 30
            var poses = [other.pose(noise: 2, using: &generator)]
            if t < 1 { poses.append(Self.patient(at: t).pose(noise: 2, using: &generator)) }  // patient leaves at 1 s
            if let selected = selector.ingest(PoseFrame(seconds: t, poses: poses)), abs(selected[.root].x - 520) < 20,
                firstOtherSelection == nil
            {
                firstOtherSelection = t
            }
        }
        // The patient is equally large and nearer the centre at the start, so the other person is only
        // chosen once the patient has been gone for more than lostAfterSeconds.
        #expect(
            firstOtherSelection.map { $0 > 1.9 && $0 < 2.1 } == true,
            "re-acquired at \(String(describing: firstOtherSelection))"
        )
    }

    @Test(arguments: [1.0, 0.15])
    func fixesASingleFrameSideSwap(sideSpread: Double) throws {
        // Given a person in a front view (1.0) or nearly side-on (0.15) moving their arms, when the estimator
        // exchanges left and right in frame 40, the selector returns the pose with sides restored.
        var generator = SeededGenerator(seed: 5)
        var selector = PoseSelector()
        for i in 0..<60 {
            let t = Double(i) / 30
            var person = Self.patient(at: t)
            person.sideSpread = sideSpread
            let truth = person.pose(noise: 1.5, using: &generator)
            let observed = i == 40 ? truth.swappingSides() : truth
            let result = selector.ingest(PoseFrame(seconds: t, poses: [observed]))
            let selected = try #require(result)
            #expect(selected == truth, "frame \(i): sides are not as the person's own")
            #expect(selector.lastFrameSwappedSides == (i == 40))
        }
        #expect(selector.swapCount == 1)
    }

    @Test func staysConsistentWhenTheEstimatorKeepsTheSwap() throws {
        // A swap that persists is kept consistent with the first frames: every frame after it is fixed.
        var generator = SeededGenerator(seed: 6)
        var selector = PoseSelector()
        for i in 0..<40 {
            let t = Double(i) / 30
            let truth = Self.patient(at: t).pose(noise: 1.5, using: &generator)
            let observed = i >= 20 ? truth.swappingSides() : truth
            let result = selector.ingest(PoseFrame(seconds: t, poses: [observed]))
            let selected = try #require(result)
            #expect(selected == truth, "frame \(i)")
        }
        #expect(selector.swapCount == 20)
    }

    @Test(arguments: [1.0, 0.1])
    func noisyPoseIsNeverSwapped(sideSpread: Double) {
        var generator = SeededGenerator(seed: 7)
        var selector = PoseSelector()
        for i in 0..<300 {
            let t = Double(i) / 30
            var person = Self.patient(at: t)
            person.sideSpread = sideSpread
            _ = selector.ingest(PoseFrame(seconds: t, poses: [person.pose(noise: 3, using: &generator)]))
        }
        #expect(selector.swapCount == 0)
    }

    @Test func timeGoingBackwardsStartsOver() throws {
        var selector = PoseSelector()
        let a = SyntheticPerson(centerX: 200, height: 300).pose()
        let b = SyntheticPerson(centerX: 450, height: 350).pose()
        _ = selector.ingest(PoseFrame(seconds: 5, poses: [a]))
        let result = selector.ingest(PoseFrame(seconds: 0, poses: [a, b]))
        let selected = try #require(result)
        #expect(selected == b)
    }
}

extension PoseSelectorTests {
    @Test func keepsTrackingThroughAPartlyHiddenFrame() throws {
        // Given a tracked person, when a frame shows only their legs (4 joints), it is still selected,
        // and the next full frame matches as usual.
        var generator = SeededGenerator(seed: 8)
        var selector = PoseSelector()
        for i in 0..<10 {
            _ = selector.ingest(
                PoseFrame(seconds: Double(i) / 30, poses: [Self.patient(at: 0).pose(noise: 1, using: &generator)])
            )
        }
        var legs = Self.patient(at: 0).pose(noise: 1, using: &generator)
        for joint in Joint.allCases where ![.leftKnee, .rightKnee, .leftAnkle, .rightAnkle].contains(joint) {
            legs[joint] = .missing
        }
        let partial = selector.ingest(PoseFrame(seconds: 10.0 / 30, poses: [legs]))
        #expect(partial == legs)
        let full = selector.ingest(
            PoseFrame(seconds: 11.0 / 30, poses: [Self.patient(at: 0).pose(noise: 1, using: &generator)])
        )
        #expect(full != nil)
    }

    @Test func aFewJointsAreNotEnoughToAcquireSomeone() {
        var legs = SyntheticPerson().pose()
        for joint in Joint.allCases where ![.leftKnee, .rightKnee, .leftAnkle, .rightAnkle].contains(joint) {
            legs[joint] = .missing
        }
        var selector = PoseSelector()
        let result = selector.ingest(PoseFrame(seconds: 0, poses: [legs]))
        #expect(result == nil)
    }
}

/// Continuing a track after a jump (rule 3) and exchanging sides part by part (rule 5).
extension PoseSelectorTests {
    /// A close-up person (440 px tall in a 640×480 picture) whose skeleton jumps down by half the picture
    /// (240 px) every 15 frames and back 15 frames later, as the estimator's skeleton does at a pull-up's top.
    private static func jumping(at frame: Int) -> SyntheticPerson {
        let down = (frame / 15) % 2 == 1
        return SyntheticPerson(centerX: 320, top: down ? 260 : 20, height: 440, armDegrees: 30)
    }

    @Test func keepsOnePersonWhoseSkeletonJumpsHalfThePicture() throws {
        var generator = SeededGenerator(seed: 9)
        var selector = PoseSelector(configuration: .init(frameCenter: Vector2(x: 320, y: 240)))
        for i in 0..<90 {
            let truth = Self.jumping(at: i).pose(noise: 1.5, using: &generator)
            let result = selector.ingest(PoseFrame(seconds: Double(i) / 30, poses: [truth]))
            let selected = try #require(result, "frame \(i): the one person in the picture was dropped")
            #expect(selected == truth, "frame \(i): sides or joints changed")
            #expect(selector.lastFrameContinued == (i > 0 && i % 15 == 0), "frame \(i)")
        }
        #expect(selector.continuationCount == 5)
        #expect(selector.swapCount == 0)
    }

    @Test func withoutContinuationTheJumpingPersonIsLost() {
        // The same clip with continuation turned off loses the person for a second after each jump: the
        // rule above is what keeps them.
        var generator = SeededGenerator(seed: 9)
        var selector = PoseSelector(configuration: .init(continuationSeconds: 0))
        var selected = 0
        for i in 0..<90 {
            let pose = Self.jumping(at: i).pose(noise: 1.5, using: &generator)
            if selector.ingest(PoseFrame(seconds: Double(i) / 30, poses: [pose])) != nil { selected += 1 }
        }
        #expect(selected < 60, "selected \(selected) of 90 frames")
    }

    @Test func aPersonSeenBesideThePatientCannotContinueTheTrack() throws {
        // Given the patient tracked and a bystander of the same size standing half overlapped, both seen
        // for 0.7 s, when the patient steps out of the picture, the bystander alone is not selected although their box
        // overlaps the patient's (they were seen as someone else), until the track is lost after 1 s.
        var generator = SeededGenerator(seed: 10)
        var selector = PoseSelector(configuration: .init(lostAfterSeconds: 1))
        let bystander = SyntheticPerson(centerX: 420, top: 70, height: 300, armDegrees: 10)
        for i in 0..<60 {
            let t = Double(i) / 30
            var poses = t >= 0.3 ? [bystander.pose(noise: 1.5, using: &generator)] : []
            if t < 1 { poses.append(Self.patient(at: t).pose(noise: 1.5, using: &generator)) }
            let selected = selector.ingest(PoseFrame(seconds: t, poses: poses))
            if t < 1 {
                let pose = try #require(selected, "t=\(t): the patient should be selected")
                #expect(abs(pose[.root].x - 320) < 15, "t=\(t): root x \(pose[.root].x) is not the patient's")
            } else {
                #expect(selected == nil, "t=\(t): the bystander took over")
            }
        }
        #expect(selector.continuationCount == 0)
    }

    @Test func anUnknownPoseFarFromTheTrackDoesNotContinueIt() {
        // A person appearing elsewhere in the picture in the frame the patient leaves is not the patient.
        var generator = SeededGenerator(seed: 11)
        var selector = PoseSelector()
        for i in 0..<20 {
            let t = Double(i) / 30
            let pose =
                i < 10
                ? Self.patient(at: t).pose(noise: 1.5, using: &generator)
                : SyntheticPerson(centerX: 560, top: 60, height: 320).pose(noise: 1.5, using: &generator)
            let selected = selector.ingest(PoseFrame(seconds: t, poses: [pose]))
            #expect((selected != nil) == (i < 10), "frame \(i)")
        }
    }

    @Test func twoPosesThatCouldBothContinueTheTrackGiveNobody() {
        // After a jump, two unknown poses both overlapping the tracked box: neither clearly continues it.
        var generator = SeededGenerator(seed: 12)
        var selector = PoseSelector()
        for i in 0..<10 {
            _ = selector.ingest(
                PoseFrame(seconds: Double(i) / 30, poses: [Self.jumping(at: 0).pose(noise: 1, using: &generator)])
            )
        }
        let a = SyntheticPerson(centerX: 280, top: 200, height: 440).pose(noise: 1, using: &generator)
        let b = SyntheticPerson(centerX: 360, top: 190, height: 430).pose(noise: 1, using: &generator)
        #expect(selector.ingest(PoseFrame(seconds: 10.0 / 30, poses: [a, b])) == nil)
    }

    @Test(arguments: [0, 1])
    func fixesAStretchOfSwappedLegsOrArms(part: Int) throws {
        // Given a person raising the arms (front view), when the estimator exchanges only the legs (or only
        // the arms below the shoulders) for frames 20–34, the selector returns the person's own joints in
        // every frame, and exchanges nothing else.
        var generator = SeededGenerator(seed: 13)
        var selector = PoseSelector()
        let legs: [Joint] = [.leftKnee, .leftAnkle]
        let arms: [Joint] = [.leftElbow, .leftWrist]
        for i in 0..<50 {
            let t = Double(i) / 30
            let truth = Self.patient(at: t).pose(noise: 1.5, using: &generator)
            var observed = truth
            if i >= 20 && i < 35 {
                for joint in part == 0 ? legs : arms {
                    observed[joint] = truth[joint.mirrored]
                    observed[joint.mirrored] = truth[joint]
                }
            }
            let result = selector.ingest(PoseFrame(seconds: t, poses: [observed]))
            let selected = try #require(result)
            #expect(selected == truth, "frame \(i): the joints are not the person's own")
        }
        #expect(selector.swapCount == 15)
    }

    @Test func aGenuineTurnIsNotUndone() throws {
        // A person turning from facing the camera to facing away in 1.5 s: left and right cross over in the
        // picture smoothly, and the selector keeps what the estimator says in every frame.
        var generator = SeededGenerator(seed: 14)
        var selector = PoseSelector()
        for i in 0..<75 {
            let turn = min(1, max(0, Double(i - 15) / 45))
            var person = Self.patient(at: Double(i) / 30)
            person.sideSpread = cos(turn * Double.pi)
            if abs(person.sideSpread) < 0.05 { person.sideSpread = person.sideSpread < 0 ? -0.05 : 0.05 }
            let observed = person.pose(noise: 1.5, using: &generator)
            let result = selector.ingest(PoseFrame(seconds: Double(i) / 30, poses: [observed]))
            let selected = try #require(result, "frame \(i)")
            #expect(selected == observed, "frame \(i): sides exchanged during a real turn")
        }
        #expect(selector.swapCount == 0)
    }

    @Test func sidesAfterAJumpFollowTheShape() throws {
        // When the skeleton jumps and the estimator exchanges left and right in the same frame, the shape
        // (each pose centred on its box) shows the swap, and the sides are kept as before the jump.
        var generator = SeededGenerator(seed: 15)
        var selector = PoseSelector()
        for i in 0..<20 {
            var person = Self.jumping(at: 0)
            person.armDegrees = 90
            let truth = person.pose(noise: 1, using: &generator)
            let result = selector.ingest(PoseFrame(seconds: Double(i) / 30, poses: [truth]))
            #expect(result == truth, "frame \(i)")
        }
        var jumped = Self.jumping(at: 15)
        jumped.armDegrees = 90
        let truth = jumped.pose(noise: 1, using: &generator)
        var observed = truth
        for joint in [Joint.leftElbow, .leftWrist] {
            observed[joint] = truth[joint.mirrored]
            observed[joint.mirrored] = truth[joint]
        }
        let result = selector.ingest(PoseFrame(seconds: 20.0 / 30, poses: [observed]))
        let selected = try #require(result)
        #expect(selector.lastFrameContinued)
        #expect(selected == truth)
    }
}

/// A real recording with the estimator's faults put in.
extension PoseSelectorTests {
    /// `pose` with the left/right keypoints of `joints` (left ones given) exchanged.
    private static func exchanging(_ joints: [Joint], in pose: Pose) -> Pose {
        var result = pose
        for joint in joints {
            result[joint] = pose[joint.mirrored]
            result[joint.mirrored] = pose[joint]
            if let world = pose.worldKeypoints {
                result.worldKeypoints?[joint.rawValue] = world[joint.mirrored.rawValue]
                result.worldKeypoints?[joint.mirrored.rawValue] = world[joint.rawValue]
            }
        }
        return result
    }

    @Test func realRecordingWithSwappedPartsAndAJumpComesBackWhole() throws {
        // UI-PRMD s01 (m09) from the front (Kinect, 640×480, the person about 340 px tall).
        // Put in: the legs exchanged for frames 100–139, the arms for 170–179, the whole skeleton moved down
        // by a third of the picture (160 px) for frames 200–259, and its sides exchanged for 230–239. The
        // selector returns every frame, with the recording's own sides; the moved stretch stays moved.
        // (m09 because its legs are apart: in m08_s01_front the ankles are 13 px apart and the distorted
        // limbs move as much between frames, so a leg swap starting at frame 100 there goes unnoticed.)
        let path = SharedData.root + "/pose-tracks/ui-prmd/m09_s01_front.jsonl"
        try #require(
            FileManager.default.fileExists(atPath: path),
            "missing \(path): this test needs ../shared/data beside the repository (see its DATA.md)"
        )
        let (_, frames) = try PoseTrackReader.readAll(path: path)
        try #require(frames.count >= 300, "\(path) has \(frames.count) frames, expected at least 300")
        let legs: [Joint] = [.leftKnee, .leftAnkle, .leftToes, .leftFoot, .leftHeel, .leftFootIndex]
        let arms: [Joint] = [.leftElbow, .leftWrist, .leftHand, .leftHandTip, .leftThumb]
        var selector = PoseSelector()
        for (i, frame) in frames.prefix(300).enumerated() {
            var expected = try #require(frame.poses.first, "frame \(i) has no pose")
            if (200..<260).contains(i) {
                for index in expected.keypoints.indices where expected.keypoints[index].confidence > 0 {
                    expected.keypoints[index].y += 160
                }
            }
            var observed = expected
            if (100..<140).contains(i) { observed = Self.exchanging(legs, in: observed) }
            if (170..<180).contains(i) { observed = Self.exchanging(arms, in: observed) }
            if (230..<240).contains(i) { observed = observed.swappingSides() }
            let result = selector.ingest(PoseFrame(seconds: frame.seconds, poses: [observed]))
            let selected = try #require(result, "frame \(i) was dropped")
            let differing = Joint.allCases.filter { selected[$0] != expected[$0] }
            #expect(differing.isEmpty, "frame \(i): \(differing) are not the recording's own")
        }
        #expect(selector.continuationCount == 2)
        #expect(selector.swapCount == 40 + 10 + 10)
    }
}

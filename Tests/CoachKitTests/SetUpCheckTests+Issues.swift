import Foundation
import PoseKit
import Testing

@testable import CoachKit

/// ``SetUpCheck`` itself: the one ``SetUpIssue`` it finds, with its reason, and its sentence.
extension SetUpCheckTests {
    /// A push-up seen from the side in a 1000 × 1000 picture (torso 200 px, shoulders 10 px apart): everything seen
    /// unless `missing`.
    static func pushUp(missing: Set<Joint> = []) -> Pose {
        let k = { (x: Double, y: Double) in Keypoint(x: x, y: y, confidence: 0.9) }
        var pose = Pose([
            .nose: k(260, 470), .neck: k(300, 500), .root: k(500, 500),
            .leftShoulder: k(300, 495), .rightShoulder: k(300, 505),
            .leftElbow: k(300, 600), .rightElbow: k(300, 610),
            .leftWrist: k(300, 700), .rightWrist: k(300, 710),
            .leftHip: k(500, 495), .rightHip: k(500, 505),
            .leftKnee: k(650, 500), .rightKnee: k(650, 510),
            .leftAnkle: k(800, 505), .rightAnkle: k(800, 515),
        ])
        for joint in missing { pose[joint] = .missing }
        return pose
    }

    static func check(_ exercise: ExerciseDefinition?) -> SetUpCheck {
        SetUpCheck(
            exercise: exercise,
            library: [],
            configuration: .init(visibility: JointVisibility(frameWidth: 1000, frameHeight: 1000))
        )
    }

    /// Runs `pose` through both steps at `t`.
    static func frame(
        _ setUp: inout SetUpCheck,
        _ pose: Pose,
        at t: Double,
        repetitions: Int = 0
    ) -> SetUpCheck.Check {
        let look = setUp.look(at: pose, at: t)
        let check = setUp.check(pose, look, at: t, recognizedIndex: nil)
        // Counted after the frame's check: the line it takes back is this frame's guidance.
        guard let taken = setUp.counted(repetitions) else { return check }
        var both = check
        both.guidance = taken
        return both
    }

    @Test func eachIssueIsSaidInOneSentence() {
        #expect(SetUpIssue.notSeen.sentence == "Step into the camera view")
        #expect(
            SetUpIssue.jointsOutOfPicture([.head, BodyParts(.leftAnkle)]).sentence
                == "Step back so that your whole body is in the picture"
        )
        #expect(SetUpIssue.walking.sentence == "Stand still in your start position")
        #expect(SetUpIssue.needsView(.side).sentence == "Turn sideways to the camera so I can measure the movement")
        #expect(SetUpIssue.needsView(.front).sentence == "Face the camera so I can measure the movement")
        #expect(
            SetUpIssue.formJointsOutOfPicture([BodyParts(.leftKnee), BodyParts(.leftAnkle)]).sentence
                == "Step back so that your knees and feet are in the picture, so I can check your form"
        )
        #expect(
            SetUpIssue.formJointsOutOfPicture(.head).sentence
                == "Step back so that your head is in the picture, so I can check your form"
        )
        // The parts out of the picture that the sentence does not name change nothing said.
        #expect(SetUpIssue.jointsOutOfPicture(.head).isSaidAs(.jointsOutOfPicture(BodyParts(.leftWrist))))
        #expect(!SetUpIssue.formJointsOutOfPicture(.head).isSaidAs(.formJointsOutOfPicture(BodyParts(.leftWrist))))
    }

    /// ``SetUpCheck/lastFrameValid`` follows the latest frame: measurable with the exercise's joints in the picture,
    /// not with its wrists out of it, nor with nobody seen.
    @Test func theLatestFrameIsMeasurableOnlyWithTheExercisesJointsInThePicture() throws {
        let pushUp = try ExerciseLibrary.bundled().exercise(id: "push-up")
        var setUp = Self.check(pushUp)
        #expect(!setUp.lastFrameValid)
        let seen = Self.frame(&setUp, Self.pushUp(), at: 0)
        #expect(seen.valid && setUp.lastFrameValid)
        let wristsOut = Self.frame(&setUp, Self.pushUp(missing: [.leftWrist, .rightWrist]), at: 0.1)
        #expect(!wristsOut.valid && !setUp.lastFrameValid)
        _ = Self.frame(&setUp, Self.pushUp(), at: 0.2)
        #expect(setUp.lastFrameValid)
        _ = setUp.ingestNobody(at: 0.3)
        #expect(!setUp.lastFrameValid)
    }

    @Test func aFormRulesJointsOutOfThePictureForASecondAreTheIssueWithTheirParts() throws {
        let pushUp = try ExerciseLibrary.bundled().exercise(id: "push-up")
        var setUp = Self.check(pushUp)
        let feetOut = Self.pushUp(missing: [.leftAnkle, .rightAnkle])
        var guidance: [(t: Double, issue: SetUpIssue?)] = []
        for i in 0..<45 {
            let t = Double(i) / 30
            let check = Self.frame(&setUp, feetOut, at: t)
            #expect(check.valid, "the push-up's own joints are in the picture at \(t) s")
            if let change = check.guidance { guidance.append((t, change.issue)) }
        }
        // Said once, a second after the feet left the picture, and naming them.
        #expect(guidance.count == 1)
        #expect(abs((guidance.first?.t ?? 0) - 1) < 1e-9)
        #expect(guidance.first?.issue == .formJointsOutOfPicture(BodyParts(.leftAnkle)))
        #expect(setUp.shown == .formJointsOutOfPicture(BodyParts(.leftAnkle)))
        // Back in the picture: the guidance is cleared.
        let back = Self.frame(&setUp, Self.pushUp(), at: 1.5)
        #expect(back.guidance == SetUpCheck.Guidance(issue: nil))
    }

    @Test func theExercisesOwnJointsOutOfThePictureComeFirstAndAChangeOfPartsSaysNothingNew() throws {
        let pushUp = try ExerciseLibrary.bundled().exercise(id: "push-up")
        var setUp = Self.check(pushUp)
        // Both wrists out (and the feet): not in frame, whatever the form rules miss; said once the stretch is no
        // glitch of the pose estimator (0.3 s).
        var said: [(t: Double, issue: SetUpIssue?)] = []
        for i in 0..<15 {
            let t = Double(i) / 30
            let check = Self.frame(&setUp, Self.pushUp(missing: [.leftWrist, .rightWrist, .leftAnkle]), at: t)
            #expect(!check.valid)
            if let change = check.guidance { said.append((t, change.issue)) }
        }
        #expect(said.count == 1)
        #expect((said.first?.t ?? 0) >= 0.3 - 1e-9)
        #expect(said.first?.issue == .jointsOutOfPicture(BodyParts(.leftWrist)))
        // The elbows go too: the same sentence, nothing new to say; the reason shown is kept up to date.
        let more = Self.frame(
            &setUp,
            Self.pushUp(missing: [.leftWrist, .rightWrist, .leftElbow, .rightElbow]),
            at: 0.5
        )
        #expect(more.guidance == nil)
        #expect(setUp.shown == .jointsOutOfPicture([BodyParts(.leftWrist), BodyParts(.leftElbow)]))
    }

    @Test func theWrongViewIsTheIssueWithTheViewNeededAndNobodySeenAfterASecond() throws {
        let pushUp = try ExerciseLibrary.bundled().exercise(id: "push-up")
        #expect(pushUp.view == .side)
        var setUp = Self.check(pushUp)
        // Nobody from the start: said at once.
        #expect(setUp.ingestNobody(at: 0).guidance?.issue == .notSeen)
        // Facing the camera (shoulders wide): the push-up needs a side view.
        var front = Self.pushUp()
        front[.leftShoulder] = Keypoint(x: 300, y: 420, confidence: 0.9)
        front[.rightShoulder] = Keypoint(x: 300, y: 580, confidence: 0.9)
        // Said once the view has been the front one for a second, not at once (a turn while getting into position).
        var said: [(t: Double, issue: SetUpIssue?)] = []
        for i in 0..<40 {
            let t = 0.1 + Double(i) / 30
            let check = Self.frame(&setUp, front, at: t)
            #expect(setUp.view == .front)
            #expect(!check.rangeMeasurable)
            if let change = check.guidance { said.append((t, change.issue)) }
        }
        #expect(said.map(\.issue) == [nil, .needsView(.side)])
        #expect(abs((said.last?.t ?? 0) - 1.1) < 1e-9)
        // Gone again: not said until a second after the person was last seen.
        let last = 0.1 + 39.0 / 30
        #expect(setUp.ingestNobody(at: last + 0.5).guidance == nil)
        #expect(setUp.ingestNobody(at: last + 1.0).guidance?.issue == .notSeen)
    }
}

import Foundation
import PoseKit
import Testing

@testable import CoachKit

/// Set-up guidance is said only when it is true of the picture (issue 27): a view the person is already in, a joint
/// hidden in the picture, or a body on the floor moving in it, is no set-up issue.
extension SetUpCheckTests {
    /// A person hanging from a bar in a 1000 × 1000 picture (torso 200 px): seen from behind, shoulders 120 px apart
    /// (0.6 of the torso, a frontal-plane view); `turned` narrows them to 20 px, as a swing does for a frame.
    static func hanging(turned: Bool) -> Pose {
        let k = { (x: Double, y: Double) in Keypoint(x: x, y: y, confidence: 0.9) }
        let half = turned ? 10.0 : 60.0
        return Pose([
            .nose: k(500, 260), .neck: k(500, 300), .root: k(500, 500),
            .leftShoulder: k(500 + half, 300), .rightShoulder: k(500 - half, 300),
            .leftElbow: k(590, 200), .rightElbow: k(410, 200),
            .leftWrist: k(580, 100), .rightWrist: k(420, 100),
            .leftHip: k(530, 500), .rightHip: k(470, 500),
            .leftKnee: k(530, 650), .rightKnee: k(470, 650),
            .leftAnkle: k(530, 800), .rightAnkle: k(470, 800),
        ])
    }

    /// A squat seen from the side (shoulders 10 px apart): the near leg seen, the far knee and ankle hidden behind
    /// it (confidence 0.1, inside the picture); `turned` widens the shoulders to the front view's for a frame.
    static func sideSquat(turned: Bool) -> Pose {
        let k = { (x: Double, y: Double, c: Double) in Keypoint(x: x, y: y, confidence: c) }
        let half = turned ? 60.0 : 5.0
        return Pose([
            .nose: k(520, 260, 0.9), .neck: k(500, 300, 0.9), .root: k(500, 500, 0.9),
            .leftShoulder: k(500, 300 - half, 0.9), .rightShoulder: k(500, 300 + half, 0.9),
            .leftElbow: k(520, 400, 0.9), .rightElbow: k(522, 402, 0.1),
            .leftWrist: k(540, 480, 0.9), .rightWrist: k(542, 482, 0.1),
            .leftHip: k(500, 495, 0.9), .rightHip: k(500, 505, 0.9),
            .leftKnee: k(560, 650, 0.9), .rightKnee: k(562, 652, 0.1),
            .leftAnkle: k(500, 800, 0.9), .rightAnkle: k(502, 802, 0.1),
        ])
    }

    @Test func aRearViewOfAHangingPullUpIsNeverAskedToFaceTheCamera() throws {
        let pullUp = try ExerciseLibrary.bundled().exercise(id: "pull-up")
        #expect(pullUp.view == .front)
        var setUp = Self.check(pullUp)
        var said: [SetUpIssue] = []
        var turnedFrames = 0
        for i in 0..<150 {
            // Every tenth frame the shoulders read as a side view (a swing, an arm across the body).
            let turned = i % 10 == 5
            let check = Self.frame(&setUp, Self.hanging(turned: turned), at: Double(i) / 30)
            if turned, setUp.view == .side { turnedFrames += 1 }
            if let issue = check.guidance?.issue { said.append(issue) }
        }
        #expect(turnedFrames == 15, "the single frames did read as a side view")
        #expect(setUp.settledView == .front)
        #expect(said.isEmpty, "said \(said.map(\.sentence))")
    }

    @Test func aPullUpSeenFromTheSideForASecondIsAskedToFaceTheCameraOnce() throws {
        let pullUp = try ExerciseLibrary.bundled().exercise(id: "pull-up")
        var setUp = Self.check(pullUp)
        var said: [(t: Double, issue: SetUpIssue?)] = []
        for i in 0..<90 {
            let t = Double(i) / 30
            if let change = Self.frame(&setUp, Self.hanging(turned: true), at: t).guidance {
                said.append((t, change.issue))
            }
        }
        #expect(said.count == 1)
        #expect(said.first?.issue == .needsView(.front))
        #expect((said.first?.t ?? 0) >= 1 - 1e-9)
    }

    @Test func oncePullUpsAreCountedFromTheSideTheyAreNotAskedToFaceTheCamera() throws {
        // Asked before the set, as above; once a repetition is counted in the side view, that view measures the
        // primary angle: the line is taken back in that frame and not said again, for three seconds more and
        // across a second repetition. What the side view cannot judge, the summary says.
        let pullUp = try ExerciseLibrary.bundled().exercise(id: "pull-up")
        var setUp = Self.check(pullUp)
        var said: [(t: Double, issue: SetUpIssue?)] = []
        for i in 0..<180 {
            let t = Double(i) / 30
            let repetitions = t < 2 ? 0 : t < 4 ? 1 : 2
            if let change = Self.frame(&setUp, Self.hanging(turned: true), at: t, repetitions: repetitions).guidance {
                said.append((t, change.issue))
            }
        }
        #expect(said.map(\.issue) == [.needsView(.front), nil], "said \(said)")
        #expect(abs((said.last?.t ?? 0) - 2) < 1e-9, "taken back in the frame the repetition is counted")
    }

    @Test func aRepetitionCountedFromTheFrontDoesNotSilenceTheSideView() throws {
        // Counted while facing the camera, then turned sideways for two seconds with nothing counted: the side
        // view has not shown it measures the movement, and the person is asked to face the camera again.
        let pullUp = try ExerciseLibrary.bundled().exercise(id: "pull-up")
        var setUp = Self.check(pullUp)
        var said: [SetUpIssue?] = []
        for i in 0..<240 {
            let t = Double(i) / 30
            let pose = Self.hanging(turned: t >= 3)
            if let change = Self.frame(&setUp, pose, at: t, repetitions: t < 2 ? 0 : 1).guidance {
                said.append(change.issue)
            }
        }
        #expect(setUp.settledView == .side)
        #expect(said == [.needsView(.front)])
    }

    @Test(arguments: [false, true])
    func aSideSquatWithTheKneesInViewIsNeverAskedToStepBack(dropped: Bool) throws {
        // `dropped`: the far knee and ankle not found at all, as the pose smoother gives a joint hidden for long.
        let squat = try ExerciseLibrary.bundled().exercise(id: "squat")
        #expect(squat.formRules.contains { $0.view == .front }, "the knees-out rule needs a front view")
        var setUp = Self.check(squat)
        var said: [SetUpIssue] = []
        for i in 0..<150 {
            // Every fifteenth frame the shoulders read as a front view.
            var pose = Self.sideSquat(turned: i % 15 == 0)
            if dropped { for joint in [Joint.rightKnee, .rightAnkle] { pose[joint] = .missing } }
            let check = Self.frame(&setUp, pose, at: Double(i) / 30)
            #expect(check.valid)
            if let issue = check.guidance?.issue { said.append(issue) }
        }
        #expect(setUp.settledView == .side)
        #expect(said.isEmpty, "said \(said.map(\.sentence))")
    }

    @Test func aFormRulesJointBeyondThePicturesEdgeIsStillAskedFor() throws {
        let pushUp = try ExerciseLibrary.bundled().exercise(id: "push-up")
        var setUp = Self.check(pushUp)
        var feetOut = Self.pushUp()
        // The pose estimator's guess of the feet, beyond the right edge, with some confidence.
        feetOut[.leftAnkle] = Keypoint(x: 1100, y: 505, confidence: 0.15)
        feetOut[.rightAnkle] = Keypoint(x: 1100, y: 515, confidence: 0.15)
        var said: [SetUpIssue] = []
        for i in 0..<45 {
            if let issue = Self.frame(&setUp, feetOut, at: Double(i) / 30).guidance?.issue { said.append(issue) }
        }
        #expect(said == [.formJointsOutOfPicture(BodyParts(.leftAnkle))])
        // The same feet hidden inside the picture: not out of it.
        var hidden = Self.pushUp()
        hidden[.leftAnkle].confidence = 0.15
        hidden[.rightAnkle].confidence = 0.15
        var fresh = Self.check(pushUp)
        for i in 0..<45 { #expect(Self.frame(&fresh, hidden, at: Double(i) / 30).guidance == nil) }
    }

    @Test func aPushUpMovingInThePictureIsNeverWalking() {
        // From the side (the body horizontal) and from the front (the torso foreshortened to 30 px, the feet behind
        // the hips): the hips and feet sway 60 px across the picture once a second.
        var front = Pose([
            .neck: Keypoint(x: 500, y: 500, confidence: 0.9), .root: Keypoint(x: 500, y: 470, confidence: 0.9),
            .leftAnkle: Keypoint(x: 490, y: 440, confidence: 0.9),
            .rightAnkle: Keypoint(x: 510, y: 440, confidence: 0.9),
        ])
        for (name, pose) in [("side", Self.pushUp()), ("front", front)] {
            var walking = WalkingDetector(configuration: .init())
            var moved = pose
            for i in 0..<90 {
                let t = Double(i) / 30
                let dx = 60 * sin(2 * .pi * t)
                for joint in [Joint.root, .leftAnkle, .rightAnkle] { moved[joint].x = pose[joint].x + dx }
                let isWalking = walking.ingest(moved, at: t)
                #expect(!isWalking, "the \(name) push-up is walking at \(t) s")
            }
        }
        // Upright, the same sway is walking.
        var standing = WalkingDetector(configuration: .init())
        front[.root] = Keypoint(x: 500, y: 700, confidence: 0.9)
        front[.leftAnkle] = Keypoint(x: 490, y: 1000, confidence: 0.9)
        front[.rightAnkle] = Keypoint(x: 510, y: 1000, confidence: 0.9)
        var walked = false
        for i in 0..<90 {
            let t = Double(i) / 30
            var moved = front
            for joint in [Joint.root, .leftAnkle, .rightAnkle] {
                moved[joint].x = front[joint].x + 200 * sin(2 * .pi * t)
            }
            walked = standing.ingest(moved, at: t) || walked
        }
        #expect(walked)
    }

    @Test(arguments: [false, true])
    func theExercisesOwnJointsHiddenInThePictureAreNotAskedToStepBack(beyondTheEdge: Bool) throws {
        // Both wrists of a push-up seen with a confidence of 0.1: inside the picture (hidden under the body), the
        // person is told what is not seen; below its bottom edge, asked to step back.
        let pushUp = try ExerciseLibrary.bundled().exercise(id: "push-up")
        var setUp = Self.check(pushUp)
        var pose = Self.pushUp()
        for joint in [Joint.leftWrist, .rightWrist] {
            let k = pose[joint]
            pose[joint] = Keypoint(x: k.x, y: beyondTheEdge ? 1_100 : k.y, confidence: 0.1)
        }
        var said: [SetUpIssue?] = []
        for i in 0..<30 {
            let check = Self.frame(&setUp, pose, at: Double(i) / 30)
            #expect(!check.valid)
            if let change = check.guidance { said.append(change.issue) }
        }
        let wrist = BodyParts(.leftWrist)
        #expect(said == [beyondTheEdge ? .jointsOutOfPicture(wrist) : .jointsUnclear(wrist)])
        #expect(SetUpIssue.jointsUnclear(wrist).sentence == "I cannot see your \(wrist.names) clearly")
    }
}

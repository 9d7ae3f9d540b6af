import Foundation
import PoseKit
import Testing

@testable import CoachKit

/// The set-up state machines the session composes: ``WalkingDetector``, ``ViewEstimator``, ``InFrameCheck`` and
/// ``JointVisibility``.
struct SetUpCheckTests {
    /// A standing person seen from the front in a 1000 × 1000 picture: torso 200 px, shoulders `shoulderWidth` px
    /// apart, hips `hipWidth` px, the feet at `feetX`, everything shifted by `x`.
    static func standing(
        x: Double = 0,
        feetX: Double? = nil,
        shoulderWidth: Double = 140,
        hipWidth: Double = 90
    ) -> Pose {
        let k = { (px: Double, py: Double) in Keypoint(x: px + x, y: py, confidence: 0.9) }
        let feet = feetX.map { $0 - x } ?? 500
        return Pose([
            .neck: k(500, 300), .root: k(500, 500),
            .leftShoulder: k(500 + shoulderWidth / 2, 300), .rightShoulder: k(500 - shoulderWidth / 2, 300),
            .leftHip: k(500 + hipWidth / 2, 500), .rightHip: k(500 - hipWidth / 2, 500),
            .leftKnee: k(545, 650), .rightKnee: k(455, 650),
            .leftAnkle: k(feet + 45, 800), .rightAnkle: k(feet - 45, 800),
        ])
    }

    @Test func walkingIsMovingFeetAndRootAndLastsASecondAfter() {
        var detector = WalkingDetector(configuration: .init())
        // Still for 2 s: not walking; the torso is measured.
        for i in 0..<60 {
            let walking = detector.ingest(Self.standing(), at: Double(i) / 30)
            #expect(!walking)
        }
        #expect(abs(detector.torso - 200) < 1e-9)
        // Walking at 1.5 torso lengths per second for a second: caught.
        var walked = false
        for i in 60..<90 {
            let t = Double(i) / 30
            walked = detector.ingest(Self.standing(x: 300 * (t - 2)), at: t) || walked
        }
        #expect(walked)
        // Stopped: still walking within a second of the movement, not after.
        let result2 = detector.ingest(Self.standing(x: 300), at: 3.2)
        #expect(result2)
        var lastWalking = 0.0
        for i in 97..<180 {
            let t = Double(i) / 30
            if detector.ingest(Self.standing(x: 300), at: t) { lastWalking = t }
        }
        // The last second's movement fell below the limit at about 3.5 s; a second later, not walking.
        #expect(lastWalking > 3.2 && lastWalking < 5)
    }

    @Test(arguments: [30.0, 15, 7.5, 5])
    func walkingIsCaughtAtEveryFrameRate(fps: Double) {
        // Still for 3 s, then walking at 1.5 torso lengths a second for 2 s. At 5 fps the trail's oldest sample is
        // 2 s old, past the 1.5 s compared: walking was never caught there.
        var detector = WalkingDetector(configuration: .init())
        var caughtAt: Double?
        for i in 0..<Int(5 * fps) {
            let t = Double(i) / fps
            let walking = detector.ingest(Self.standing(x: 300 * Swift.max(0, t - 3)), at: t)
            if t < 3 { #expect(!walking, "\(fps) fps: walking at \(t) s while still") }
            if walking, caughtAt == nil { caughtAt = t }
        }
        #expect(caughtAt != nil, "\(fps) fps: walking never caught")
        if let caughtAt { #expect(caughtAt < 4.2, "\(fps) fps: caught at \(caughtAt) s") }
    }

    @Test func hipsMovingOverStillFeetAreNoWalk() {
        // A squat or a hinge: the root moves, the feet stay.
        var detector = WalkingDetector(configuration: .init())
        for i in 0..<120 {
            let t = Double(i) / 30
            let result3 = detector.ingest(Self.standing(x: 150 * sin(t * 3), feetX: 500), at: t)
            #expect(!result3)
        }
    }

    @Test func aPoseWithoutRootOrNeckSaysNotWalking() {
        var detector = WalkingDetector(configuration: .init())
        var pose = Self.standing()
        pose[.root] = .missing
        let result4 = detector.ingest(pose, at: 0)
        #expect(!result4)
        #expect(detector.torso == 0)
    }

    @Test func viewFromShoulderWidthAndSquareOnFromSmoothedWidths() {
        var estimator = ViewEstimator()
        #expect(estimator.view == .unknown)
        let result5 = estimator.ingest(Self.standing(), torso: 0)
        #expect(result5 == .unknown)
        let result6 = estimator.ingest(Self.standing(shoulderWidth: 140), torso: 200)
        #expect(result6 == .front)
        #expect(estimator.facesCameraSquarely)
        let result7 = estimator.ingest(Self.standing(shoulderWidth: 40), torso: 200)
        #expect(result7 == .side)
        #expect(!estimator.facesCameraSquarely)
        // Up to about 30° off the side (0.35 of the torso length) is a side view; beyond, oblique.
        let side30 = estimator.ingest(Self.standing(shoulderWidth: 70), torso: 200)
        #expect(side30 == .side)
        let result8 = estimator.ingest(Self.standing(shoulderWidth: 80), torso: 200)
        #expect(result8 == .oblique)
        // Front in this frame after a second oblique: the smoothed hips are still narrow.
        var turning = ViewEstimator()
        for _ in 0..<30 { _ = turning.ingest(Self.standing(shoulderWidth: 80, hipWidth: 40), torso: 200) }
        let result9 = turning.ingest(Self.standing(shoulderWidth: 140, hipWidth: 90), torso: 200)
        #expect(result9 == .front)
        #expect(!turning.facesCameraSquarely)
    }

    @Test func anEndJointJustOutsideThePictureIsSeenWhenMostOfTheLimbIsIn() {
        let visibility = JointVisibility(frameWidth: 1000, frameHeight: 1000)
        let knee = Keypoint(x: 500, y: 900, confidence: 0.9)
        // The ankle 20 px below the picture, the shin 120 px long: 5/6 of it in the picture.
        let ankle = Keypoint(x: 500, y: 1020, confidence: 0.9)
        #expect(!visibility.isInside(ankle))
        #expect(visibility.isSeen(ankle, vertex: knee))
        #expect(!visibility.isSeen(ankle, vertex: .missing))
        // Mostly outside: not seen.
        #expect(!visibility.isSeen(Keypoint(x: 500, y: 1300, confidence: 0.9), vertex: knee))
        // Not confident enough.
        #expect(!visibility.isSeen(Keypoint(x: 500, y: 500, confidence: 0.1), vertex: knee))
        // Without a frame size, everything confident is in the picture.
        #expect(JointVisibility().isSeen(Keypoint(x: -50, y: 5000, confidence: 0.9), vertex: .missing))
    }

    @Test func inFrameNeedsOneCompleteSideAndNamesTheJointsNeverSeen() throws {
        let squat = try ExerciseLibrary.bundled().exercise(id: "squat")
        #expect(squat.side == .both)
        var check = InFrameCheck(exercise: squat, visibility: .init(frameWidth: 1000, frameHeight: 1000))
        #expect(check.alternatives.contains(.left) && check.alternatives.contains(.right))
        // The right leg hidden (a side view): the left one is enough.
        var pose = Self.standing()
        pose[.rightKnee] = .missing
        pose[.rightAnkle] = .missing
        // The left ankle is missing too before any complete frame: nothing complete, and the joints never seen are
        // those of the side seen more.
        var noAnkles = pose
        noAnkles[.leftAnkle] = .missing
        let result10 = check.ingest(noAnkles)
        #expect(!result10)
        #expect(check.jointsNeverSeen == [.leftAnkle])
        let result11 = check.ingest(pose)
        #expect(result11)
        #expect(check.completeFrames == 1)
        #expect(check.jointsNeverSeen.isEmpty)
    }

    @Test func withNoExerciseTheNeckAndShouldersAreNeeded() {
        var check = InFrameCheck(exercise: nil, visibility: .init())
        #expect(check.joints == [.neck, .leftShoulder, .rightShoulder])
        var pose = Pose()
        pose[.neck] = Keypoint(x: 1, y: 1, confidence: 0.9)
        pose[.leftShoulder] = Keypoint(x: 1, y: 1, confidence: 0.9)
        // One shoulder is one side: enough.
        let result12 = check.ingest(pose)
        #expect(result12)
        pose[.neck] = .missing
        let result13 = check.ingest(pose)
        #expect(!result13)
    }
}

import CoachKit
import Foundation
import PoseKit
import Testing

/// Wrist flexion and extension measured on the body pose (its wrist, index, pinky and thumb keypoints against the
/// forearm), for the frames in which the hand model finds no hand.
struct BodyWristTests {
    /// A side view of a forearm from the elbow at (200, 400), `forearmDegrees` from upright (positive toward the
    /// picture's right), 200 px long, the hand `wristDegrees` further on from it (60 px to the knuckles).
    static func arm(
        forearmDegrees: Double,
        wristDegrees: Double,
        side: BodySide = .right,
        confidence: Double = 0.9,
        forearm length: Double = 200
    ) -> Pose {
        func point(from origin: (Double, Double), degrees: Double, length: Double) -> (Double, Double) {
            let r = degrees * .pi / 180
            return (origin.0 + sin(r) * length, origin.1 - cos(r) * length)
        }
        let elbow = (200.0, 400.0)
        let wrist = point(from: elbow, degrees: forearmDegrees, length: length)
        let hand = forearmDegrees + wristDegrees
        let knuckles = point(from: wrist, degrees: hand, length: 60)
        // Index and pinky either side of the hand's line, the thumb nearer the wrist.
        let index = point(from: knuckles, degrees: hand + 90, length: 12)
        let pinky = point(from: knuckles, degrees: hand - 90, length: 12)
        let thumb = point(from: wrist, degrees: hand + 30, length: 35)
        let left = side == .left
        var joints: [Joint: Keypoint] = [:]
        for (joint, p) in [
            (left ? Joint.leftElbow : .rightElbow, elbow), (left ? .leftWrist : .rightWrist, wrist),
            (left ? .leftIndex : .rightIndex, index), (left ? .leftPinky : .rightPinky, pinky),
            (left ? .leftThumb : .rightThumb, thumb),
        ] {
            joints[joint] = Keypoint(x: p.0, y: p.1, confidence: confidence)
        }
        return Pose(joints)
    }

    @Test(
        "The hand against the forearm, whatever the forearm's tilt, signed as the hand inclination",
        arguments: [(0.0, 40.0), (0, -30), (30, 60), (30, -30), (-20, 70), (150, -45)]
    )
    func measured(forearm: Double, wrist: Double) throws {
        let pose = Self.arm(forearmDegrees: forearm, wristDegrees: wrist)
        let degrees = try #require(BodyWrist.inclination(in: pose, side: .either, picture: 640))
        #expect(abs(degrees - wrist) < 0.5, "\(degrees) for \(wrist)")
    }

    @Test("With the forearm upright it reads as the hand model's hand inclination")
    func sameAsHandInclination() throws {
        let pose = Self.arm(forearmDegrees: 0, wristDegrees: 35, side: .left)
        let degrees = try #require(BodyWrist.inclination(in: pose, side: .left, picture: 640))
        var hand = HandPose(chirality: .left)
        hand[.wrist] = pose[.leftWrist]
        hand[.middleMCP] = Keypoint(
            x: (pose[.leftIndex].x + pose[.leftPinky].x) / 2,
            y: (pose[.leftIndex].y + pose[.leftPinky].y) / 2,
            confidence: 0.9
        )
        let inclination = try #require(HandMeasure.handInclination.value(hand, angles: HandAngles(hand)))
        #expect(abs(degrees - inclination) < 0.5)
    }

    @Test("Not measured: a keypoint unseen, the wrong side, or a forearm squeezed into a few pixels")
    func notMeasured() {
        #expect(
            BodyWrist.inclination(
                in: Self.arm(forearmDegrees: 0, wristDegrees: 30, confidence: 0.3),
                side: .either,
                picture: 640
            ) == nil
        )
        #expect(
            BodyWrist.inclination(in: Self.arm(forearmDegrees: 0, wristDegrees: 30), side: .left, picture: 640) == nil
        )
        // A body model that found no person: its elbow 15 px from its wrist in a 368-px picture.
        let squeezed = Self.arm(forearmDegrees: 0, wristDegrees: 30, forearm: 15)
        #expect(BodyWrist.inclination(in: squeezed, side: .either, picture: 368) == nil)
        // Without index and pinky, the thumb gives the hand's direction (roughly: it sits off the hand's line).
        var thumbOnly = Self.arm(forearmDegrees: 0, wristDegrees: 30)
        thumbOnly[.rightIndex] = Keypoint(x: 0, y: 0, confidence: 0)
        #expect(BodyWrist.inclination(in: thumbOnly, side: .either, picture: 640) != nil)
    }

    @Test("Wrist flexion and extension is counted on the body pose when the hand model finds no hand")
    func countedOnTheBody() throws {
        let wrist = try #require(
            try HandExerciseLibrary.bundled().exercises.first { $0.id == "wrist-flexion-extension" }
        )
        var session = HandCoachingSession(exercise: wrist, width: 640, height: 480)
        // Five repetitions, 2 s each, from extended (−30°) to flexed (+45°), the forearm tilted 25° as on the
        // real video; the hand model finds the hand in one frame of four.
        let fps = 30.0
        for k in 0..<Int(11 * fps) {
            let t = Double(k) / fps
            let phase = max(0, t - 0.5).truncatingRemainder(dividingBy: 2) / 2
            let degrees = -30 + 75 * (1 - cos(2 * .pi * phase)) / 2
            let body = Self.arm(forearmDegrees: 25, wristDegrees: t < 10.5 ? degrees : -30)
            _ = session.ingest(HandFrame(seconds: t, hands: []), body: body)
        }
        let summary = session.summary()
        #expect(summary.reps == 5)
        #expect(summary.framesOnBody == summary.framesMeasured)
        #expect(summary.repetitions.allSatisfy { $0.peak > 40 && $0.rest < -25 })
        #expect(summary.text(file: "arm").contains("on the body pose"))
    }
}

import Foundation
import PoseKit
import Testing

@testable import CoachKit

/// With no exercise given, the overlay's angle and side once an exercise is recognised: as with the exercise given.
struct RecognisedOverlayTests {
    @Test func theOverlaysSideIsHeldOnceRecognisedAsWithTheExerciseGiven() throws {
        // A curl of both arms, six times, the right elbow 2° more or less than the left every other frame: the
        // larger of the two per frame swapped the side shown frame by frame. Recognised, the side is the one whose
        // repetitions count, and stays.
        var frames = SyntheticCurl.good.frames(reps: 6)
        var rightLarger = 0
        for f in frames.indices {
            // The right elbow at the left's angle, 2° more or less every other frame.
            var pose = frames[f].poses[0]
            let rest = AngleKind.elbowFlexion.measure(pose, side: .left, useDepth: false) ?? 0
            let shoulder = pose[.rightShoulder]
            let elbow = pose[.rightElbow]
            let upper = (elbow.x - shoulder.x, elbow.y - shoulder.y)
            let length = (upper.0 * upper.0 + upper.1 * upper.1).squareRoot() * 0.9
            // The angle from the upper arm's line on, as the left's (flexion 0° is the arm straight).
            let direction = atan2(upper.0, upper.1) + (rest + (f % 2 == 0 ? 2 : -2)) * .pi / 180
            pose[.rightWrist] = Keypoint(
                x: elbow.x + length * sin(direction),
                y: elbow.y + length * cos(direction),
                confidence: 0.9
            )
            frames[f].poses[0] = pose
            let right = AngleKind.elbowFlexion.measure(pose, side: .right, useDepth: false) ?? 0
            let left = AngleKind.elbowFlexion.measure(pose, side: .left, useDepth: false) ?? 0
            if right > left { rightLarger += 1 }
        }
        #expect(rightLarger > frames.count / 3, "the right elbow read larger in \(rightLarger) frames")
        let library = try ExerciseLibrary.bundled()
        var session = CoachingSession(configuration: .init(exercise: nil, library: library.exercises))
        var sides: [(t: Double, side: BodySide?)] = []
        for frame in frames {
            _ = session.ingest(frame)
            guard session.snapshot.exerciseID != nil, !session.repetitions.isEmpty else { continue }
            if sides.last.map({ $0.side != session.snapshot.side }) ?? true {
                sides.append((frame.seconds, session.snapshot.side))
            }
        }
        #expect(session.snapshot.exerciseID == "bicep-curl")
        #expect(session.repetitions.count >= 5)
        // One side from the first repetition to the end (the movement's repetitions, judged each on its own, are
        // not all of one side here: an arm 2° apart from the other is either).
        #expect(sides.count == 1, "the side shown changed at \(sides.prefix(8).map { ($0.t, $0.side) })")
    }
}

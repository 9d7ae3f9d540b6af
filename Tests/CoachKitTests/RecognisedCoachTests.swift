import CoachTestSupport
import PoseKit
import Testing

@testable import CoachKit

/// ``RecognisedCoach``: with no exercise given, the exercise recognised from the recogniser's decisions and the
/// movement counted whatever it is.
struct RecognisedCoachTests {
    /// Feeds `frames` (every one steady and valid) and returns the repetitions the movement completed.
    static func run(_ frames: [PoseFrame], _ coach: inout RecognisedCoach) -> [RepCounter.Completed] {
        var reps: [RepCounter.Completed] = []
        for frame in frames {
            guard let pose = frame.poses.first else { continue }
            if let decision = coach.observe(pose, at: frame.seconds, steady: true),
                case .switchExercise(let index, let confidence) = coach.decide(decision)
            {
                coach.switched(to: index, confidence: confidence)
            }
            if let completed = coach.countMovement(pose, at: frame.seconds, valid: true, useDepth: false) {
                reps += completed
            }
        }
        return reps
    }

    @Test func aSetOfSquatsIsRecognisedAndItsMovementCounted() throws {
        let library = try ExerciseLibrary.bundled().exercises
        var coach = RecognisedCoach(library: library, configuration: .init())
        #expect(coach.recognizedIndex == nil && !coach.hasMovement)
        let reps = Self.run(SyntheticExercise(kind: .squat).frames(reps: 8), &coach)
        #expect(coach.recognizedIndex.map { library[$0].id } == "squat")
        #expect(coach.confidence > 0)
        #expect(coach.hasMovement)
        #expect((6...8).contains(reps.count), "the movement's repetitions: \(reps.count) of 8")
        // No new decision at the end of a set recognised twice over: it stays the exercise recognised.
        coach.finishRecognition()
        #expect(coach.recognizedIndex.map { library[$0].id } == "squat")
    }

    @Test func standingStillHasNoRepetitions() throws {
        let library = try ExerciseLibrary.bundled().exercises
        var coach = RecognisedCoach(library: library, configuration: .init())
        let reps = Self.run(SyntheticExercise(kind: .standStill).frames(reps: 4), &coach)
        #expect(reps.isEmpty)
        #expect(coach.finishMovement() == nil)
    }
}

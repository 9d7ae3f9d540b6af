import CoachTestSupport
import PoseKit
import Testing

@testable import CoachKit

/// The learner's own repetition finder, for demonstrations where the movement counter finds none.
extension ExerciseLearnerTests {
    /// The poses as ``ExerciseLearner`` keeps them: selected and smoothed by a session with no exercise.
    static func samples(_ frames: [PoseFrame]) -> [ExerciseLearner.Sample] {
        var session = CoachingSession(configuration: .analysis(exercise: nil, library: [], width: 640, height: 480))
        var samples: [ExerciseLearner.Sample] = []
        for frame in frames {
            _ = session.ingest(frame)
            if let pose = session.snapshot.pose {
                samples.append(.init(seconds: frame.seconds, pose: pose, view: session.view))
            }
        }
        return samples
    }

    @Test func eachAngleCountedOnItsOwnFindsTheRepetitionsOfTheAngleThatMoves() throws {
        // Given three curls, the poses as the session would keep them
        let frames = SyntheticExercise(kind: .bicepCurl).frames(reps: 3)
        let samples = Self.samples(frames)
        // When every angle is counted as a definition would count it
        let reps = ExerciseLearner().angleRepetitions(
            frames,
            samples: samples,
            useDepth: false,
            width: 640,
            height: 480
        )
        // Then the elbow's three repetitions are found, each one curl long (2.4 s, counted between its crossings)
        #expect(reps.count == 3)
        for rep in reps { #expect(rep.end - rep.start > 0.8 && rep.end - rep.start < 3, "\(rep)") }
    }

    @Test func nothingIsFoundWhereNothingMoves() {
        let frames = SyntheticExercise(kind: .standStill).frames(reps: 3)
        let samples = Self.samples(frames)
        #expect(
            ExerciseLearner().angleRepetitions(frames, samples: samples, useDepth: false, width: 640, height: 480)
                .isEmpty
        )
    }
}

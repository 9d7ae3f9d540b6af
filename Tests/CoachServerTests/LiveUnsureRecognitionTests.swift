import CoachKit
import PoseKit
import Testing

@testable import CoachServer

/// The live state says "I can't tell which exercise this is: pick it" while the exercise recognised is below the
/// fitted confidence, and nothing of the kind for an exercise named confidently or given.
struct LiveUnsureRecognitionTests {
    static func unsure(confidence: Double, exercise: String? = "squat") -> String? {
        var snapshot = CoachSnapshot()
        snapshot.exerciseID = exercise
        snapshot.exerciseName = exercise.map { _ in "Squat" }
        snapshot.confidence = confidence
        snapshot.recognition = exercise.map { .exercise(id: $0, confidence: confidence) } ?? .lowConfidence
        return LiveState(snapshot, prescribedReps: nil).unsure
    }

    @Test func belowTheThresholdTheStateSaysItCannotTell() {
        let threshold = RecognitionConfidence.fitted.namedAtLeast
        #expect(Self.unsure(confidence: threshold - 0.1) == RecognitionConfidence.unsureSentence)
        #expect(Self.unsure(confidence: threshold) == nil)
        #expect(Self.unsure(confidence: 1) == nil, "an exercise given")
        #expect(Self.unsure(confidence: 0.2, exercise: nil) == nil, "nothing recognised")
    }
}

import CoachKit
import CoachPipeline
import CoachTestSupport
import PoseKit
import Testing

/// The pipeline's two faces, the synchronous stepper and the `AsyncSequence`, coach the same way.
struct BodyPipelineTests {
    /// Frames from memory, as a pose-track file gives them.
    struct Frames: PoseFrameSource {
        var frames: [PoseFrame]
        var index = 0
        var width: Double { SyntheticExercise.width }
        var height: Double { SyntheticExercise.height }
        var fps: Double { 30 }

        mutating func next() throws -> PoseFrame? {
            guard index < frames.count else { return nil }
            defer { index += 1 }
            return frames[index]
        }
    }

    static func configuration(exercise id: String?) throws -> CoachingSession.Configuration {
        let library = try ExerciseLibrary.bundled()
        return .analysis(
            exercise: try id.map { try library.exercise(id: $0) },
            library: library.exercises,
            width: SyntheticExercise.width,
            height: SyntheticExercise.height
        )
    }

    @Test(arguments: ["squat", nil] as [String?])
    func theEventsEndWithTheSummaryTheStepperGives(exercise: String?) async throws {
        let frames = SyntheticExercise(kind: .squat).frames(reps: 5)
        let configuration = try Self.configuration(exercise: exercise)
        var source = Frames(frames: frames)
        var stepped = 0
        let expected = try BodyPipeline.run(source: &source, configuration: configuration, name: "squats") { _ in
            stepped += 1
        }
        var seen = 0
        var counted = 0
        var summary: SessionSummary?
        let events = BodyPipeline.events(from: Frames(frames: frames), configuration: configuration, name: "s")
        for try await event in events {
            switch event {
            case .frame(let snapshot, let events):
                #expect(summary == nil, "a frame after the summary")
                #expect(snapshot.seconds == frames[seen].seconds)
                seen += 1
                counted += events.count { if case .repCompleted = $0 { true } else { false } }
            case .finished(let finished):
                summary = finished
            }
        }
        #expect(stepped == frames.count)
        #expect(seen == frames.count)
        let got = try #require(summary)
        #expect(try got.jsonText(file: "x") == expected.jsonText(file: "x"))
        #expect(expected.reps > 0, "the synthetic squats were counted")
        #expect(counted >= expected.reps, "every repetition of the summary was announced by an event")
    }

    @Test func anEmptySourceIsAnAnalysisErrorNamingTheRecording() throws {
        var source = Frames(frames: [])
        let configuration = try Self.configuration(exercise: "squat")
        let error = #expect(throws: AnalysisError.self) {
            try BodyPipeline.run(source: &source, configuration: configuration, name: "empty")
        }
        #expect(error?.message.contains("empty") == true)
        #expect(error?.exitCode == 1)
    }
}

import CoachTestSupport
import PoseKit
import Testing

@testable import CoachKit

/// ``ExerciseReplay``: the frames kept for the exercise recognised, and its session given it.
struct ExerciseReplayTests {
    static let configuration = CoachingSession.Configuration(
        frameWidth: SyntheticExercise.width,
        frameHeight: SyntheticExercise.height,
        emitsPoseEvents: false
    )

    /// The repetitions a session given `exercise` counts over `frames`, as the replay's own session is configured.
    static func givenRepetitions(_ frames: [PoseFrame], _ exercise: ExerciseDefinition) -> [Repetition] {
        var given = configuration
        given.exercise = exercise
        var session = CoachingSession(configuration: given)
        var events: [CoachEvent] = []
        for frame in frames { events += session.ingest(frame) }
        return CoachEvent.fold(events)
    }

    /// Recognised after 35 s, the exercise's session replays the last 20 s only, and counts what a session given
    /// the exercise counts over those frames.
    @Test func startsOverTheFramesOfTheLastReplaySeconds() throws {
        let squat = try ExerciseLibrary.bundled().exercise(id: "squat")
        let frames = SyntheticExercise(kind: .squat).frames(reps: 12)
        let end = try #require(frames.last).seconds
        #expect(end > ExerciseReplay.Configuration.replaySeconds + 10)
        var replay = ExerciseReplay()
        for frame in frames { replay.ingest(frame, pose: nil) }
        #expect(replay.repetitions.isEmpty && replay.exerciseID == nil && replay.overlay == nil)

        replay.start(squat, configuration: Self.configuration, at: end)

        let from = try #require(replay.replayedFrom)
        #expect(from >= end - ExerciseReplay.Configuration.replaySeconds)
        #expect(from - (end - ExerciseReplay.Configuration.replaySeconds) < 0.1)
        #expect(replay.exerciseID == "squat" && replay.recognizedAt == end)
        let expected = Self.givenRepetitions(frames.filter { $0.seconds >= from }, squat)
        #expect(expected.count >= 5, "the last 20 s hold about seven squats")
        #expect(replay.repetitions == expected)
        #expect(replay.overlay != nil)
    }

    /// Started with the first frame, the session follows the movement's selected and smoothed poses instead of
    /// selecting and smoothing the frames again, and counts what a session given the exercise counts over them all.
    @Test func followsTheMovementsPosesWhenStartedFromTheFirstFrame() throws {
        let squat = try ExerciseLibrary.bundled().exercise(id: "squat")
        let frames = SyntheticExercise(kind: .squat).frames(reps: 4)
        var frontEnd = PoseFrontEnd(selector: Self.configuration.selector, smoother: Self.configuration.smoother)
        var replay = ExerciseReplay()
        replay.ingest(frames[0], pose: frontEnd.ingest(frames[0]))
        replay.start(squat, configuration: Self.configuration, at: frames[0].seconds)
        for frame in frames.dropFirst() { replay.ingest(frame, pose: frontEnd.ingest(frame)) }
        #expect(replay.repetitions.count == 4)
        #expect(replay.repetitions == Self.givenRepetitions(frames, squat))
    }

    /// No exercise, or a hold (timed as given already): no session, and its repetitions are gone.
    @Test func noExerciseOrAHoldEndsTheSession() throws {
        let library = try ExerciseLibrary.bundled()
        let frames = SyntheticExercise(kind: .squat).frames(reps: 3)
        var replay = ExerciseReplay()
        for frame in frames { replay.ingest(frame, pose: nil) }
        replay.start(try library.exercise(id: "squat"), configuration: Self.configuration, at: 10)
        #expect(!replay.repetitions.isEmpty)
        let hold = try #require(library.exercises.first { $0.isHold })
        replay.start(hold, configuration: Self.configuration, at: 11)
        #expect(replay.repetitions.isEmpty && replay.exerciseID == nil && replay.overlay == nil)
        replay.start(nil, configuration: Self.configuration, at: 12)
        #expect(replay.repetitions.isEmpty && replay.exerciseID == nil)
    }

    /// Repetitions the replay counted, or the movement's noted, are to be adopted once: taken, the flag clears.
    @Test func pendingRepetitionsAreTakenOnce() throws {
        let squat = try ExerciseLibrary.bundled().exercise(id: "squat")
        var replay = ExerciseReplay()
        var taken = [replay.takePending()]
        for frame in SyntheticExercise(kind: .squat).frames(reps: 3) { replay.ingest(frame, pose: nil) }
        replay.start(squat, configuration: Self.configuration, at: 10)
        taken += [replay.takePending(), replay.takePending()]
        replay.notePending()
        taken.append(replay.takePending())
        #expect(taken == [false, true, false, true])
        let shown = try #require(replay.repetitions.first)
        replay.keep(provisional: shown)
        #expect(replay.provisional == shown)
    }
}

import CoachTestSupport
import PoseKit
import Testing

@testable import CoachKit

/// ``RepetitionCounting``: the repetitions that count, from the primary angle, the image plane or a fallback signal,
/// emitted with the statistics they are judged on.
struct RepetitionCountingTests {
    /// What a run of frames emitted.
    struct Run {
        var completed: [(rep: RepCounter.Completed, side: BodySide?, statistics: RepetitionJudge.Statistics)] = []
        var counted: [RepCounter.Completed] = []
        var spans: [SessionLog.Span] = []
        var meter: AngleMeter
        var imagePlane: AngleMeter?
    }

    /// Feeds `frames` (every one valid, seen from the left) to `counting`, measuring them with a meter of the exercise's angles, and
    /// keeps what it emitted as a session's log would.
    static func run(
        _ frames: [PoseFrame],
        _ counting: inout RepetitionCounting,
        exercise: ExerciseDefinition,
        depthUnjudged: Bool = false
    ) -> Run {
        let meter = AngleMeter(
            configuration: .init(
                angles: exercise.angles,
                direction: exercise.repetition?.direction ?? 1,
                counters: counting.counterCount
            )
        )
        var run = Run(meter: meter, imagePlane: depthUnjudged ? meter : nil)
        var presence = PresenceTracker(configuration: .init())
        let visibility = JointVisibility()
        for frame in frames {
            guard let pose = frame.poses.first else { continue }
            _ = presence.ingest(valid: true, walking: false, bodyX: 320, torso: 100, at: frame.seconds)
            run.meter.measure(pose, useDepth: false)
            run.meter.see(pose, visibility: visibility)
            run.imagePlane?.measure(pose, useDepth: false)
            run.imagePlane?.see(pose, visibility: visibility)
            let input = RepetitionCounting.Frame(
                pose: pose,
                seconds: frame.seconds,
                valid: true,
                hasDepth: depthUnjudged,
                depthUnjudged: depthUnjudged,
                measuredSide: .left
            )
            let events = counting.ingest(
                input,
                angles: &run.meter,
                imagePlane: &run.imagePlane,
                presence: presence,
                counted: run.spans
            )
            for event in events { run.note(event) }
        }
        return run
    }

    @Test func eachSquatIsCompletedOnceWithTheKneesRangeAsItsStatistics() throws {
        let squat = try ExerciseLibrary.bundled().exercise(id: "squat")
        var counting = RepetitionCounting(exercise: squat)
        let run = Self.run(SyntheticExercise(kind: .squat).frames(reps: 3), &counting, exercise: squat)
        #expect(run.completed.count == 3)
        #expect(run.counted.isEmpty, "the primary angle counts: no fallback repetition is counted")
        #expect(counting.angleReps == 3)
        #expect(counting.countedBy == .angle)
        #expect(counting.workingCounter != nil)
        for (rep, _, statistics) in run.completed {
            let knee = try #require(statistics[AngleSlot(angle: 0, side: .left)].range)
            // The counted slot (the side measured) holds the counter's rest and peak.
            #expect(knee.high >= rep.peakValue - 1e-9)
            #expect(knee.low <= rep.restValue + 1e-9)
            #expect(knee.high - knee.low > 45, "a squat's knee range: \(knee)")
        }
        let starts = run.completed.map(\.rep.startSeconds)
        #expect(starts == starts.sorted() && Set(starts).count == 3)
    }

    /// While the depth is not judged, the image-plane counters follow the primary angle beside the 3-D ones; when the
    /// depth proves a guess, their repetitions replace those counted, judged on their own statistics.
    @Test func aDepthFoundAGuessRecountsTheImagePlanesRepetitions() throws {
        let squat = try ExerciseLibrary.bundled().exercise(id: "squat")
        var counting = RepetitionCounting(exercise: squat)
        let run = Self.run(
            SyntheticExercise(kind: .squat).frames(reps: 2),
            &counting,
            exercise: squat,
            depthUnjudged: true
        )
        #expect(run.completed.count == 2)
        let recount = counting.takeDepthVerdict(measured: false, counted: run.spans, measuredSide: nil)
        guard case .recounting = recount.first else {
            Issue.record("the recount begins by withdrawing what was counted: \(recount)")
            return
        }
        let recounted = recount.dropFirst().compactMap { event -> RepCounter.Completed? in
            if case .completed(let rep, _, _) = event { rep } else { nil }
        }
        #expect(recounted == run.completed.map(\.rep), "the same squats, counted in the image plane")
        #expect(counting.angleReps == 2)
        // Once judged, nothing is recounted again.
        #expect(counting.takeDepthVerdict(measured: false, counted: [], measuredSide: nil).isEmpty)
    }

    /// A depth found measured changes nothing.
    @Test func aDepthFoundMeasuredKeepsTheRepetitionsCounted() throws {
        let squat = try ExerciseLibrary.bundled().exercise(id: "squat")
        var counting = RepetitionCounting(exercise: squat)
        let run = Self.run(
            SyntheticExercise(kind: .squat).frames(reps: 2),
            &counting,
            exercise: squat,
            depthUnjudged: true
        )
        #expect(counting.takeDepthVerdict(measured: true, counted: run.spans, measuredSide: nil).isEmpty)
        #expect(counting.angleReps == 2)
    }

    /// With no exercise given, the movement counts: its repetitions that may count are emitted as counted, once the
    /// person has settled.
    @Test func withNoExerciseTheMovementsRepetitionsCount() {
        var counting = RepetitionCounting(exercise: nil)
        #expect(counting.counterCount == 0)
        #expect(counting.countedBy == .movement)
        var presence = PresenceTracker(configuration: .init(bridges: false))
        // Out of frame for a second, then in position from 1 s: settled at 1.5 s.
        for i in 0..<30 {
            _ = presence.ingest(valid: i >= 10, walking: false, bodyX: 320, torso: 100, at: Double(i) / 10)
        }
        let reps = [
            RepCounter.Completed(
                startSeconds: 2,
                peakSeconds: 2.5,
                endSeconds: 3,
                peakValue: 1,
                restValue: 0,
                plateauStartSeconds: 2.5,
                plateauEndSeconds: 2.5
            ),
            RepCounter.Completed(
                startSeconds: 0,
                peakSeconds: 0.2,
                endSeconds: 0.4,
                peakValue: 1,
                restValue: 0,
                plateauStartSeconds: 0.2,
                plateauEndSeconds: 0.2
            ),
        ]
        let events = counting.ingest(movement: reps, presence: presence, counted: [], movementKnown: true)
        let counted = events.compactMap { if case .counted(let rep) = $0 { rep } else { nil } }
        #expect(counted == [reps[0]], "the one that started before the person settled does not count")
    }
}

extension RepetitionCountingTests.Run {
    /// Keeps an event as a session's log would.
    mutating func note(_ event: RepetitionCounting.Event) {
        switch event {
        case .completed(let rep, let side, let statistics):
            completed.append((rep, side, statistics))
            spans.append(SessionLog.Span(start: rep.startSeconds, end: rep.endSeconds))
        case .counted(let rep):
            counted.append(rep)
            spans.append(SessionLog.Span(start: rep.startSeconds, end: rep.endSeconds))
        case .replaced(let reps):
            completed.removeAll()
            counted = reps
            spans = reps.map { SessionLog.Span(start: $0.startSeconds, end: $0.endSeconds) }
        case .recounting:
            completed.removeAll()
            counted.removeAll()
            spans.removeAll()
        }
    }
}

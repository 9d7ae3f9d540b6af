import PoseKit
import Testing

@testable import CoachKit

/// The state machines behind counting and judging: ``AngleSampleRing``, ``CountingSource``, ``RepetitionJudge``
/// and ``SessionLog``.
struct CountingAndJudgingTests {
    /// A repetition of `seconds` starting at `start`, peak in the middle.
    static func completed(_ start: Double, _ seconds: Double = 1) -> RepCounter.Completed {
        RepCounter.Completed(
            startSeconds: start,
            peakSeconds: start + seconds / 2,
            endSeconds: start + seconds,
            peakValue: 90,
            restValue: 0
        )
    }

    static let frontWithDepth = MeasurementContext(
        hasDepth: true,
        view: .front,
        facesCameraSquarely: true,
        measuredSide: .left,
        depthTrusted: true
    )

    /// A squat's repetition (1 s to 3 s) judged from the side without depth, from the left knee's statistics
    /// (170° down to `kneeAtPeak`) and the left trunk lean's (5° up to `trunkLean`, at the peak).
    static func judgeSquatFromTheSide(
        kneeAtPeak: Double,
        trunkLean: Double,
        index: Int = 1,
        gapSeconds: Double = 0
    ) throws -> Repetition {
        let squat = try ExerciseLibrary.bundled().exercise(id: "squat")
        var judge = RepetitionJudge(exercise: squat)
        var statistics = RepetitionJudge.Statistics(slots: squat.angles.count * 2)
        let knee = AngleSlot(angle: try #require(squat.angles.firstIndex(of: .kneeFlexion)), side: .left)
        let trunk = AngleSlot(angle: try #require(squat.angles.firstIndex(of: .trunkLean)), side: .left)
        statistics[knee] = .init(low: kneeAtPeak, high: 170, atPeak: kneeAtPeak)
        statistics[trunk] = .init(low: 5, high: trunkLean, atPeak: trunkLean)
        let side = MeasurementContext(
            hasDepth: false,
            view: .side,
            facesCameraSquarely: false,
            measuredSide: .left,
            depthTrusted: false
        )
        return judge.judge(
            completed(1, 2),
            side: nil,
            exercise: squat,
            statistics: statistics,
            context: side,
            recounting: false,
            index: index,
            breaches: [],
            gapSeconds: gapSeconds
        )
    }

    @Test func theRingKeepsTheLastSamplesAndSwapsInTheImagePlane() {
        var ring = AngleSampleRing(capacity: 3)
        let knee = ExerciseRecognizer.index(.kneeFlexion) * 2
        for (n, t) in [0.0, 0.05, 0.1, 0.2, 0.3].enumerated() where ring.isDue(at: t) {
            let i = ring.beginSample(at: t)
            ring[sample: i, slot: knee] = Double(n)
            ring[sample: i, slot: ExerciseRecognizer.flatAngleBase + knee] = Double(10 * n)
        }
        // 0.05 s was too soon: four samples taken, three kept, the oldest first in time order.
        #expect(ring.count == 3)
        #expect((0..<3).map { ring.times[ring.index(chronological: $0)] } == [0.1, 0.2, 0.3])
        let newest = ring.index(chronological: 2)
        #expect(ring.angle(.kneeFlexion, sample: newest, imagePlane: false).left == 4)
        #expect(ring.angle(.kneeFlexion, sample: newest, imagePlane: true).left == 40)
        ring.useImagePlaneAngles(ofSample: newest)
        #expect(ring.angle(.kneeFlexion, sample: newest, imagePlane: false).left == 40)
    }

    @Test func aFallbackThatCountsTwoMissedRepetitionsTakesOver() {
        var source = CountingSource(configuration: .init(movementOnly: false), otherAngles: 2)
        #expect(source.signal == .primaryAngle)
        #expect(source.fallbackReps.count == 3)
        // The movement finds three repetitions the angle (none counted) missed.
        for k in 0..<2 {
            let counts = source.record(Self.completed(Double(3 * k)), from: .movement)
            #expect(!counts)
        }
        let switched = source.ingest(angleReps: 0, counted: [], movementKnown: true)
        #expect(switched == .movement)
        let movementCounts = source.record(Self.completed(6), from: .movement)
        let angleCounts = source.record(Self.completed(6), from: .secondaryAngle(1))
        #expect(movementCounts && !angleCounts)
        #expect(source.fallbackReps[2].count == 1)
        source.forget(fallback: 2)
        #expect(source.fallbackReps[2].isEmpty)
        source.forget()
        #expect(source.fallbackReps[0].isEmpty)
    }

    @Test func withNoExerciseGivenTheMovementCountsUntilItIsKnown() {
        var source = CountingSource(configuration: .init(movementOnly: true), otherAngles: 1)
        #expect(source.signal == .movement)
        for k in 0..<6 { _ = source.record(Self.completed(Double(3 * k)), from: .secondaryAngle(0)) }
        let unknown = source.ingest(angleReps: 0, counted: [], movementKnown: false)
        #expect(unknown == nil)
        let known = source.ingest(angleReps: 0, counted: [], movementKnown: true)
        #expect(known == .secondaryAngle(0))
    }

    @Test func irregularRestlessOrOverlappingSignalsAreTold() {
        let metronome = (0..<5).map { Self.completed(Double(3 * $0)) }
        #expect(CountingSource.irregularity(metronome) < 1e-9)
        // Each repetition counted twice, half a second apart.
        let starts: [Double] = [0, 0.5, 6, 6.5, 12, 12.5]
        let doubled = starts.map { Self.completed($0) }
        #expect(CountingSource.irregularity(doubled) > 0.3)
        // Three sets of five at 3 s, 12 s of rest between them: as regular as the metronome.
        let sets = [0.0, 27, 54].flatMap { set in (0..<5).map { Self.completed(set + Double(3 * $0)) } }
        #expect(CountingSource.irregularity(sets) < 1e-9)
        #expect(CountingSource.restsBetween(metronome))
        // Two seconds active, a tenth of a second at rest: the rests of an opposite excursion.
        #expect(!CountingSource.restsBetween([Self.completed(0, 2), Self.completed(2.1, 2)]))
    }

    @Test func aMovementWithNoExerciseIsTimedNotJudged() {
        var judge = RepetitionJudge(exercise: nil)
        let repetition = judge.judgeMovement(
            Self.completed(2),
            exercise: nil,
            index: 1,
            previousEnd: -.infinity,
            ring: AngleSampleRing(capacity: 0),
            context: Self.frontWithDepth,
            gapSeconds: 0
        )
        #expect(repetition.exercise == nil && repetition.angles.isEmpty)
        // Nothing checked: "not checked", never "good".
        #expect(repetition.verdict == .notChecked)
        #expect(repetition.uncheckedReason == RepetitionJudge.unrecognisedReason)
    }

    @Test func aSquatSeenFromTheSideWithoutDepthIsJudgedOnItsNearSide() throws {
        // The left knee from 170° to 80° (clear of the depth rule's 70°), the left trunk lean 5–20°.
        let repetition = try Self.judgeSquatFromTheSide(kneeAtPeak: 80, trunkLean: 20, index: 4, gapSeconds: 0.5)
        #expect(repetition.index == 4 && repetition.gapSeconds == 0.5)
        #expect(repetition.measurementReliable)
        #expect(repetition.symmetry == nil)
        // The front-view rule is not judged from the side; the others are.
        #expect(repetition.uncheckedRules == ["knees-out"])
        #expect(repetition.uncheckedReason == "knees-out needs a front view")
        #expect(repetition.angles.first?.angle == .kneeFlexion && repetition.angles.first?.side == .left)
    }

    @Test func theLogWithdrawsRepetitionsAndTheirCuesAndClosesSegments() {
        var log = SessionLog()
        var judge = RepetitionJudge(exercise: nil)
        for k in 0..<2 {
            let repetition = judge.judgeMovement(
                Self.completed(Double(2 * k)),
                exercise: nil,
                index: k + 1,
                previousEnd: -.infinity,
                ring: AngleSampleRing(capacity: 0),
                context: Self.frontWithDepth,
                gapSeconds: 0
            )
            log.record(repetition, at: repetition.endSeconds)
        }
        log.log(Cue(kind: .encouragement, text: "Rep 1", seconds: 1))
        log.log(Cue(kind: .setup, text: "Step back", seconds: 1.5))
        log.closeSegment(at: 5, exercise: nil, confidence: 0, recordingStart: 0)
        #expect(log.segments.count == 1 && log.segments[0].reps == 2)
        // Nothing since the last segment closed: no empty segment.
        log.closeSegment(at: 5.001, exercise: nil, confidence: 0, recordingStart: 0)
        #expect(log.segments.count == 1)
        log.withdrawRepetitions()
        #expect(log.repetitions.isEmpty)
        #expect(log.cues.map(\.text) == ["Step back"])
        #expect(log.withdrawnCues.map(\.text) == ["Rep 1"])
        let summary = log.summary(
            from: 0,
            to: 10,
            given: nil,
            library: [],
            open: (nil, 0),
            holds: [],
            countedBy: .movement,
            safetyWarnings: [],
            secondsWithPerson: 9
        )
        #expect(summary.reps == 0 && summary.exerciseSource == .none)
        #expect(summary.segments.map(\.endSeconds) == [5, 10])
        #expect(summary.durationSeconds == 10 && summary.secondsWithPerson == 9)
    }
}

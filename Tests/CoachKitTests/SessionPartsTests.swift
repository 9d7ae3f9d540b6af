import CoachTestSupport
import PoseKit
import Testing

@testable import CoachKit

/// The state machines the session composes for safety, holds and recognition: ``SafetyMonitor``, ``HoldTimer``
/// and ``RecognitionTracker``.
struct SessionPartsTests {
    /// One crossing is one warning, with its peak and duration, however the angle wavers about the limit and
    /// whichever sides cross; it ends once every side has been back within the limit for the release time (frame
    /// times), and the next crossing warns again.
    @Test func aSafetyCrossingIsOneWarningWithItsPeakAndDuration() throws {
        let exercise = try ExerciseLibrary.bundled().exercise(id: "standing-hip-abduction")
        var safety = SafetyMonitor(exercise: exercise)
        let limit = try #require(exercise.safetyLimits.first)
        #expect(limit.max == 55)
        #expect(safety.slots.count == (limit.angle.isSided ? 2 : 1))
        let release = safety.configuration.releaseSeconds
        #expect(safety.ingest(slot: 0, value: 30, at: 0) == .within)
        guard case .breached(let warning) = safety.ingest(slot: 0, value: 60, at: 1) else {
            Issue.record("no warning")
            return
        }
        #expect(warning.value == 60 && warning.limit == 55 && warning.text == limit.warning)
        // Wavering about the limit, the other side crossing too, a frame not measured: the same crossing.
        #expect(safety.ingest(slot: 0, value: 62, at: 1.1) == .beyond)
        #expect(safety.ingest(slot: 0, value: 54, at: 1.15) == .beyond)
        #expect(safety.ingest(slot: 0, value: 57, at: 1.2) == .beyond)
        if safety.slots.count == 2 { #expect(safety.ingest(slot: 1, value: 56, at: 1.2) == .beyond) }
        #expect(safety.ingest(slot: 0, value: nil, at: 1.3) == .beyond)
        // Back within for the release time: over.
        #expect(safety.ingest(slot: 0, value: 50, at: 1.2 + release) == .within)
        #expect(safety.warnings.count == 1)
        #expect(safety.warnings.first?.peak == 62)
        #expect(abs((safety.warnings.first?.durationSeconds ?? 0) - 0.2) < 1e-9)
        #expect(safety.pendingBreaches.map(\.value) == [62], "the repetition keeps the crossing's peak")
        // The next crossing warns again.
        if case .breached = safety.ingest(slot: 0, value: 58, at: 3) {} else { Issue.record("no second warning") }
        #expect(safety.warnings.count == 2)
        #expect(safety.pendingBreaches.map(\.seconds) == [1, 3])
        safety.clearBreaches()
        #expect(safety.pendingBreaches.isEmpty)
        #expect(safety.ingest(slot: 0, value: 59, at: 3.1) == .beyond)
        #expect(safety.pendingBreaches.isEmpty, "a crossing under way is the repetition's that had it")
        #expect(safety.warnings.count == 2)
        #expect(safety.warnings.last?.peak == 59)
        #expect(SafetyMonitor(exercise: nil).slots.isEmpty)
    }

    /// Squats whose knees waver about a prescribed limit at each bottom: one warning, one spoken cue and one safety
    /// warning in the summary per squat, not one per flicker (the report said "3 safety warnings" for one crossing
    /// of 0.2 s).
    @Test func aWaveringCrossingIsWarnedSpokenAndCountedOnce() throws {
        // Each bottom held 0.8 s about 141°, with 3 px of keypoint noise: the smoothed knee crosses 140° on and off.
        let frames = SyntheticExercise(kind: .squat, holdSeconds: 0.8, noisePixels: 3, peakDegrees: 141)
            .frames(reps: 3)
        var session = CoachingSession(
            configuration: .init(
                exercise: try CoachingSessionTests.prescribedSquat(),
                frameWidth: SyntheticExercise.width,
                frameHeight: SyntheticExercise.height,
                emitsPoseEvents: false
            )
        )
        var events: [CoachEvent] = []
        var raw = 0
        var wasBeyond = false
        for frame in frames {
            events += session.ingest(frame)
            // Crossings of the smoothed knee angle, frame by frame, as the old monitor warned them.
            let beyond = (session.snapshot.primaryAngle ?? 0) > 140
            if beyond, !wasBeyond { raw += 1 }
            wasBeyond = beyond
        }
        let warnings = events.compactMap { if case .warning(let w) = $0 { w } else { nil } }
        let spoken = events.compactMap { if case .cue(let c) = $0, c.kind == .safety { c } else { nil } }
        let summary = session.summary()
        #expect(session.repetitions.count == 3)
        #expect(raw > 3, "the knee wavers about the limit: \(raw) crossings of the smoothed angle")
        #expect(warnings.count == 3, "\(warnings.map(\.seconds)); \(raw) raw crossings")
        #expect(spoken.count == warnings.count)
        #expect(summary.safetyWarnings.count == warnings.count)
        #expect(summary.safetyWarnings.allSatisfy { ($0.peak ?? 0) > 140 && ($0.durationSeconds ?? -1) >= 0 })
        #expect(session.repetitions.allSatisfy { $0.safetyBreaches.count == 1 })
    }

    @Test func aHoldIsTimedThroughShortBreaksAndKeptFromASecond() throws {
        var timer = HoldTimer()
        var seconds: [Int] = []
        var reached: [Double] = []
        let dt = 0.1
        var t = 0.0
        // Held 2.5 s, a 0.3-s break, held 1 s more, then let go.
        func frame(_ holding: Bool) -> HoldTimer.Event? {
            t += dt
            let event = timer.ingest(holding: holding, dt: dt, at: t, target: 3)
            if case .held(let progress, let reachedTarget) = event {
                if let progress { seconds.append(Int(progress.heldSeconds)) }
                if reachedTarget { reached.append(t) }
            }
            return event
        }
        for _ in 0..<25 { _ = frame(true) }
        #expect(timer.isTiming)
        for _ in 0..<3 { #expect(frame(false) == nil) }
        for _ in 0..<10 { _ = frame(true) }
        #expect(seconds == [0, 1, 2, 3])
        #expect(reached.count == 1)
        #expect(timer.holds(openTarget: 3).count == 1)
        #expect(timer.holds.isEmpty)
        var released: HoldProgress?
        for _ in 0..<10 {
            if case .released(let progress) = frame(false) { released = progress }
        }
        #expect(released == HoldProgress(heldSeconds: 0, targetSeconds: 3, holding: false))
        #expect(!timer.isTiming && timer.heldSeconds == 0)
        let hold = try #require(timer.holds.first)
        #expect(timer.holds.count == 1)
        #expect(hold.completed)
        #expect(abs(hold.heldSeconds - 3.5) < 1e-9)
        // A hold shorter than a second is not kept.
        _ = timer.ingest(holding: true, dt: dt, at: 10, target: 3)
        timer.end(target: 3)
        #expect(timer.holds.count == 1)
    }

    /// A hold at a repetition's peak is reached once per repetition (its cue said once): again for the same start,
    /// it is not; a new hold (a later start) is.
    @Test func aHoldAtThePeakIsReachedOncePerStart() {
        var timer = HoldTimer()
        let reached = [1.0, 1.0, 1.0, 4.5, 4.5].map { timer.reachesPeakHold(since: $0) }
        #expect(reached == [true, false, false, true, false])
    }

    @Test func aHoldFoundLateIsTimedFromWhereItBegan() {
        var timer = HoldTimer()
        _ = timer.ingest(holding: true, startingAt: 4, dt: 0.1, at: 10, target: 30)
        #expect(abs(timer.heldSeconds - 6.1) < 1e-9)
    }

    @Test func anExerciseTakesOverAfterTwoDecisionsAndIsDroppedAfterFourWithout() {
        var tracker = RecognitionTracker()
        let squat = RecognitionState.exercise(id: "squat", confidence: 0.8)
        let result4 = tracker.ingest(.lowConfidence, bestIndex: nil)
        #expect(result4 == .nothingRecognised)
        let result5 = tracker.ingest(squat, bestIndex: 3)
        #expect(result5 == nil)
        #expect(tracker.decisions == 1)
        let result6 = tracker.ingest(squat, bestIndex: 3)
        #expect(result6 == .switchExercise(to: 3, confidence: 0.8))
        tracker.switched(to: 3, confidence: 0.8)
        #expect(tracker.recognizedIndex == 3)
        let result7 = tracker.ingest(.exercise(id: "squat", confidence: 0.9), bestIndex: 3)
        #expect(result7 == .sameExercise(confidence: 0.9))
        #expect(tracker.confidence == 0.9)
        #expect(tracker.lastNamed?.index == 3)
        // Nothing named: the first decision resets the candidate to none, three more drop the exercise.
        let result8 = tracker.ingest(.lowConfidence, bestIndex: 3)
        #expect(result8 == nil)
        #expect(tracker.lastNamed == nil)
        let result9 = tracker.ingest(.noPerson, bestIndex: 3)
        #expect(result9 == nil)
        let result10 = tracker.ingest(.noPerson, bestIndex: 3)
        #expect(result10 == nil)
        let result11 = tracker.ingest(.noPerson, bestIndex: 3)
        #expect(result11 == .switchExercise(to: nil, confidence: 0))
        tracker.switched(to: nil, confidence: 0)
        #expect(tracker.recognizedIndex == nil)
        // A last decision only names.
        tracker.note(squat, bestIndex: 3)
        #expect(tracker.lastNamed?.index == 3)
        #expect(tracker.decisions == 3)
    }
}

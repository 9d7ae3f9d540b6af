import PoseKit
import Testing

@testable import CoachKit

/// The state machines the session composes for safety, holds and recognition: ``SafetyMonitor``, ``HoldTimer``
/// and ``RecognitionTracker``.
struct SessionPartsTests {
    @Test func aSafetyLimitWarnsOncePerCrossingAndKeepsItForTheRepetition() throws {
        let exercise = try ExerciseLibrary.bundled().exercise(id: "standing-hip-abduction")
        var safety = SafetyMonitor(exercise: exercise)
        let limit = try #require(exercise.safetyLimits.first)
        #expect(limit.max == 55)
        #expect(safety.slots.count == (limit.angle.isSided ? 2 : 1))
        let slot = 0
        let result1 = safety.ingest(slot: slot, value: 30, at: 0)
        #expect(result1 == .within)
        guard case .breached(let warning) = safety.ingest(slot: slot, value: 60, at: 1) else {
            Issue.record("no warning")
            return
        }
        #expect(warning.value == 60 && warning.limit == 55 && warning.text == limit.warning)
        let result2 = safety.ingest(slot: slot, value: 62, at: 1.1)
        #expect(result2 == .beyond)
        let result3 = safety.ingest(slot: slot, value: .nan, at: 1.2)
        #expect(result3 == .within)
        if case .breached = safety.ingest(slot: slot, value: 58, at: 2) {} else { Issue.record("no second warning") }
        #expect(safety.warnings.count == 2)
        #expect(safety.pendingBreaches.map(\.seconds) == [1, 2])
        safety.clearBreaches()
        #expect(safety.pendingBreaches.isEmpty)
        #expect(safety.warnings.count == 2)
        #expect(SafetyMonitor(exercise: nil).slots.isEmpty)
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

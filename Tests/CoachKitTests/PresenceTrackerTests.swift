import Testing

@testable import CoachKit

/// ``PresenceTracker``: glitches, gaps bridged or not, and settling.
struct PresenceTrackerTests {
    static let dt = 1.0 / 30

    /// `seconds` of frames from `start`, all valid or all invalid, standing at `x`; the last frame.
    static func run(
        _ tracker: inout PresenceTracker,
        from start: Double,
        seconds: Double,
        valid: Bool,
        walking: Bool = false,
        x: Double = 500
    ) -> PresenceTracker.Frame {
        var frame = PresenceTracker.Frame(
            valid: false,
            glitch: false,
            gapOpen: false,
            returnsFromGap: false,
            settled: false
        )
        var t = start
        while t < start + seconds - 1e-9 {
            frame = tracker.ingest(valid: valid, walking: walking, bodyX: x, torso: 200, at: t)
            t += dt
        }
        return frame
    }

    @Test func aPersonInPositionFromTheFirstFrameIsSettledAtOnce() {
        var tracker = PresenceTracker(configuration: .init())
        let first = tracker.ingest(valid: true, walking: false, bodyX: 500, torso: 200, at: 2)
        #expect(first.settled)
        #expect(tracker.mayCount(startingAt: 2))
    }

    @Test func aPersonWhoWalksInSettlesForHalfASecond() {
        var tracker = PresenceTracker(configuration: .init())
        _ = Self.run(&tracker, from: 0, seconds: 1, valid: false, walking: true)
        let early = tracker.ingest(valid: true, walking: false, bodyX: 500, torso: 200, at: 1)
        #expect(!early.settled)
        #expect(!tracker.mayCount(startingAt: 1.2))
        let later = Self.run(&tracker, from: 1 + Self.dt, seconds: 0.6, valid: true)
        #expect(later.settled)
        #expect(tracker.mayCount(startingAt: 1.5))
    }

    @Test func aShortStretchIsAGlitchAndALongerOneAHeldGap() {
        var tracker = PresenceTracker(configuration: .init())
        _ = Self.run(&tracker, from: 0, seconds: 2, valid: true)
        let glitch = tracker.ingestNobody(at: 2)
        #expect(glitch.glitch && glitch.held)
        let gap = tracker.ingestNobody(at: 2.5)
        #expect(!gap.glitch && gap.gapOpen && gap.held)
        let back = tracker.ingest(valid: true, walking: false, bodyX: 510, torso: 200, at: 2.8)
        #expect(back.returnsFromGap && back.held)
        // In place, the angle continuing: decided over three frames, bridged and recorded.
        #expect(tracker.decideGapReturn(continues: true, at: 2.8) == nil)
        _ = tracker.ingest(valid: true, walking: false, bodyX: 510, torso: 200, at: 2.83)
        #expect(tracker.decideGapReturn(continues: true, at: 2.83) == nil)
        _ = tracker.ingest(valid: true, walking: false, bodyX: 510, torso: 200, at: 2.87)
        #expect(tracker.decideGapReturn(continues: false, at: 2.87) == true)
        #expect(abs(tracker.gapSeconds(from: 1, to: 3) - 0.8) < 1e-9)
        #expect(tracker.gapSeconds(from: 2.1, to: 3) == 0)
        let after = tracker.ingest(valid: true, walking: false, bodyX: 510, torso: 200, at: 2.9)
        #expect(!after.held)
    }

    @Test(arguments: [(30.0, 3), (15, 2), (5, 2)])
    func theReturnFromAGapIsDecidedOverTheSameTimeAtAnyFrameRate(fps: Double, frames: Int) {
        // 0.06 s from the first frame back: three frames at 30 fps, two (both voting) at 15 or 5 fps.
        var tracker = PresenceTracker(configuration: .init())
        _ = Self.run(&tracker, from: 0, seconds: 2, valid: true)
        _ = tracker.ingestNobody(at: 2)
        _ = tracker.ingestNobody(at: 2.5)
        var decided: Bool?
        var used = 0
        while decided == nil, used < 10 {
            let t = 2.8 + Double(used) / fps
            _ = tracker.ingest(valid: true, walking: false, bodyX: 510, torso: 200, at: t)
            decided = tracker.decideGapReturn(continues: true, at: t)
            used += 1
        }
        #expect(decided == true)
        #expect(used == frames, "\(fps) fps: decided after \(used) frames")
    }

    @Test func aGapAfterWhichThePersonIsElsewhereIsNotBridged() {
        var tracker = PresenceTracker(configuration: .init())
        _ = Self.run(&tracker, from: 0, seconds: 2, valid: true)
        _ = tracker.ingestNobody(at: 2)
        _ = tracker.ingestNobody(at: 2.5)
        // 150 px (0.75 torso) away: not in place, decided at once, and settling starts again.
        let back = tracker.ingest(valid: true, walking: false, bodyX: 650, torso: 200, at: 2.8)
        #expect(back.returnsFromGap)
        #expect(tracker.decideGapReturn(continues: true, at: 2.8) == false)
        #expect(!tracker.mayCount(startingAt: 3))
        #expect(tracker.mayCount(startingAt: 3.3))
    }

    @Test func nothingIsBridgedWhenNothingIsCounted() {
        var tracker = PresenceTracker(configuration: .init(bridges: false))
        _ = Self.run(&tracker, from: 0, seconds: 2, valid: true)
        _ = tracker.ingestNobody(at: 2)
        let interrupted = tracker.ingestNobody(at: 2.5)
        #expect(!interrupted.held)
        #expect(!tracker.mayCount(startingAt: 2.6))
    }
}

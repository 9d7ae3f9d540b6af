import CoachKit
import Testing

/// Touches as thumb opposition makes them: held a few frames on a target, counted again after letting go or, when
/// asked, on another target.
struct TouchCounterTests {
    /// Feeds `(distance, target)` at 30 fps and returns the targets of the touches counted.
    private static func touches(_ samples: [(Double, Int)], newTarget: Bool) -> [Int] {
        var counter = TouchCounter(
            configuration: .init(touchDistance: 0.2, releaseDistance: 0.3, countsNewTarget: newTarget)
        )
        var targets: [Int] = []
        for (i, sample) in samples.enumerated() {
            if case .touched(let touch) = counter.ingest(distance: sample.0, target: sample.1, at: Double(i) / 30) {
                targets.append(touch.target)
            }
        }
        #expect(counter.count == targets.count)
        return targets
    }

    private func hold(_ distance: Double, on target: Int, frames: Int) -> [(Double, Int)] {
        Array(repeating: (distance, target), count: frames)
    }

    @Test func slidingFromFingertipToFingertipCountsEachNewFinger() {
        let sweep =
            hold(0.6, on: 1, frames: 30) + hold(0.1, on: 1, frames: 15) + hold(0.15, on: 2, frames: 15)
            + hold(0.12, on: 3, frames: 15) + hold(0.1, on: 4, frames: 15) + hold(0.1, on: 4, frames: 30)
        #expect(Self.touches(sweep, newTarget: true) == [1, 2, 3, 4])
        // Without countsNewTarget the thumb never let go: one touch.
        #expect(Self.touches(sweep, newTarget: false) == [1])
    }

    @Test func lettingGoCountsTheSameFingerAgain() {
        let open = hold(0.6, on: 1, frames: 15)
        let samples = open + hold(0.1, on: 1, frames: 10) + open + hold(0.1, on: 1, frames: 10) + open
        #expect(Self.touches(samples, newTarget: false) == [1, 1])
        // A part shorter than the release time (0.25 s) is not letting go.
        let brief = open + hold(0.1, on: 1, frames: 10) + hold(0.6, on: 1, frames: 4) + hold(0.1, on: 1, frames: 10)
        #expect(Self.touches(brief, newTarget: false) == [1])
    }

    @Test func oneOrTwoFramesCloseAreNoTouch() {
        var samples: [(Double, Int)] = []
        for i in 0..<300 {
            // Tracking noise: the distance dips under the touch distance in isolated frames.
            samples.append((i % 9 == 4 ? 0.05 : 0.5 + 0.05 * Double(i % 3), i % 4 + 1))
        }
        #expect(Self.touches(samples, newTarget: true).isEmpty)
    }

    @Test func anInvalidFrameLetsGo() {
        var counter = TouchCounter(
            configuration: .init(touchDistance: 0.2, releaseDistance: 0.3, countsNewTarget: false)
        )
        var count = 0
        for i in 0..<10 {
            if case .touched = counter.ingest(distance: 0.1, target: 1, at: Double(i) / 30) { count += 1 }
        }
        _ = counter.ingest(distance: nil, target: 0, at: 0.4, valid: false)
        for i in 0..<10 {
            if case .touched = counter.ingest(distance: 0.1, target: 1, at: 0.5 + Double(i) / 30) { count += 1 }
        }
        #expect(count == 2)
    }
}

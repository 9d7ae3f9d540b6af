import CoachKit
import Foundation
import Testing

struct RepCounterTests {
    @Test func countsSineRepetitionsAndAdaptsToASmallRange() {
        // Reps reaching only 20–55° although a definition might expect 90°.
        var counter = RepCounter(configuration: .init(direction: 1, minimumRange: 15))
        var completed = 0
        for i in 0..<(30 * 20) {
            let t = Double(i) / 30
            let angle = 20 + 35 * (0.5 - 0.5 * cos(2 * .pi * t / 2))  // 10 reps of 2 s
            if case .completed = counter.ingest(angle, at: t) { completed += 1 }
        }
        #expect(completed == 10)
    }

    @Test func noiseAloneIsNotARepetition() {
        var counter = RepCounter(configuration: .init(direction: 1, minimumRange: 15))
        var rng = SplitMix64(seed: 7)
        for i in 0..<(30 * 30) {
            _ = counter.ingest(10 + 3 * rng.gaussian(), at: Double(i) / 30)
        }
        #expect(counter.count == 0)
    }

    @Test func invalidStretchDropsTheRepetitionUnderWay() {
        var counter = RepCounter(configuration: .init(direction: -1, minimumRange: 20))
        var completed = 0
        for i in 0..<(30 * 10) {
            let t = Double(i) / 30
            let angle = 90 - 80 * (0.5 - 0.5 * cos(2 * .pi * t / 2.5))  // decreasing toward the peak
            // Invalid in the middle of the third repetition.
            let valid = !(t > 5.6 && t < 6.0)
            if case .completed = counter.ingest(angle, at: t, valid: valid) { completed += 1 }
        }
        #expect(completed == 3)  // 4 reps, the one interrupted is not counted
    }
}

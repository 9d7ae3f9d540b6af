import Foundation
import Testing

@testable import CoachKit

/// The window statistics the recogniser and the movement counter compute on every decision, against plain
/// definitions (a sort, a triple loop): the faster forms must give the same numbers, to the last bit.
struct WindowStatisticsTests {
    /// A deterministic generator (the tests must not depend on the run).
    struct Lcg {
        var state: UInt64
        mutating func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
    }

    @Test func percentilesAreTheOrderStatisticsOfASort() {
        var random = Lcg(state: 7)
        // Sizes on both sides of the kept-on-the-stack path (k < 16: up to 159 values), rising, falling, with
        // repeated values and all equal.
        for count in [1, 2, 3, 9, 10, 11, 25, 60, 61, 80, 159, 160, 161, 300] {
            for shape in 0..<5 {
                var values: [Double] = (0..<count).map { i in
                    switch shape {
                    case 0: random.next() * 100 - 50
                    case 1: Double(i)
                    case 2: Double(count - i)
                    case 3: (random.next() * 4).rounded()
                    default: 3
                    }
                }
                let sorted = values.sorted()
                let k = count / 10
                let (low, high) = tenthAndNinetiethPercentiles(&values, count: count)
                #expect(low == sorted[k], "count \(count), shape \(shape)")
                #expect(high == sorted[count - 1 - k], "count \(count), shape \(shape)")
            }
        }
    }

    @Test func percentilesOfThePrefixOnly() {
        var values = [5.0, 1, 3, 2, 4, 100, -100]
        let (low, high) = tenthAndNinetiethPercentiles(&values, count: 5)
        #expect(low == 1)
        #expect(high == 5)
    }

    @Test func covarianceIsTheTripleLoopsBitForBit() {
        var random = Lcg(state: 11)
        for (n, m) in [(1, 1), (5, 3), (80, 26), (33, 7), (12, 4), (9, 13)] {
            // Some zeros, as the packed window has where a joint holds still.
            let x: [Double] = (0..<(n * m)).map { _ in
                let v = random.next()
                return v < 0.1 ? 0 : v * 2 - 1
            }
            var fast = Array(repeating: Double.nan, count: m * m)
            PeriodicMotionCounter.accumulateCovariance(of: x, rows: n, columns: m, into: &fast)
            var plain = Array(repeating: 0.0, count: m * m)
            for i in 0..<n {
                for a in 0..<m where x[i * m + a] != 0 {
                    for b in a..<m { plain[a * m + b] += x[i * m + a] * x[i * m + b] }
                }
            }
            for a in 0..<m { for b in 0..<a { plain[a * m + b] = plain[b * m + a] } }
            #expect(fast == plain, "n \(n), m \(m)")
        }
    }

    @Test func quickselectFindsEveryOrderStatistic() {
        var random = Lcg(state: 3)
        let values = (0..<97).map { _ in (random.next() * 20).rounded() }
        let sorted = values.sorted()
        for k in 0..<values.count {
            var copy = values
            let v = copy.withUnsafeMutableBufferPointer { quickselect($0, k) }
            #expect(v == sorted[k])
        }
    }

    @Test func theRecogniserSummarisesWhatItsScoresRead() {
        let library = (try? ExerciseLibrary.bundled().exercises) ?? []
        #expect(!library.isEmpty)
        let features = ExerciseRecognizer.summarisedFeatures(of: library)
        // Every primary angle, both sides, and the trunk's lean; the slots after the view.
        for exercise in library {
            #expect(features.contains(ExerciseRecognizer.index(exercise.primaryAngle) * 2 + 1), "\(exercise.id)")
        }
        #expect(features.contains(ExerciseRecognizer.index(.trunkLean) * 2))
        #expect(features.contains(ExerciseRecognizer.hipsSlot))
        #expect(features.contains(ExerciseRecognizer.overheadSlot))
        #expect(!features.contains(ExerciseRecognizer.viewSlot))
        #expect(features == features.sorted())
    }
}

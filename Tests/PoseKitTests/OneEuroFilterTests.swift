import PoseKit
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct OneEuroFilterTests {
    /// A 0.5 Hz sine of 100 px amplitude (an arm raise every 2 s) with 3 px Gaussian noise, 30 fps, 20 s.
    private static func noisySine(
        amplitude: Double = 100,
        seed: UInt64
    ) -> (t: [Double], truth: [Double], noisy: [Double]) {
        var generator = SeededGenerator(seed: seed)
        var t: [Double] = []
        var truth: [Double] = []
        var noisy: [Double] = []
        for i in 0..<600 {
            let seconds = Double(i) / 30
            let value = amplitude * sin(2 * Double.pi * 0.5 * seconds)
            t.append(seconds)
            truth.append(value)
            noisy.append(value + generator.gaussian(sigma: 3))
        }
        return (t, truth, noisy)
    }

    private static func filtered(
        _ values: [Double],
        at t: [Double],
        _ configuration: OneEuroFilter.Configuration = .init()
    ) -> [Double] {
        var filter = OneEuroFilter(configuration: configuration)
        return zip(values, t).map { filter.ingest($0, at: $1) }
    }

    private static func rms(_ a: [Double], _ b: [Double], from start: Int = 30) -> Double {
        var sum = 0.0
        for i in start..<a.count { sum += (a[i] - b[i]) * (a[i] - b[i]) }
        return (sum / Double(a.count - start)).squareRoot()
    }

    /// RMS of the second difference: frame-to-frame jitter, insensitive to a constant lag.
    private static func jitter(_ a: [Double], from start: Int = 30) -> Double {
        var sum = 0.0
        for i in max(start, 2)..<a.count {
            let d = a[i] - 2 * a[i - 1] + a[i - 2]
            sum += d * d
        }
        return (sum / Double(a.count - max(start, 2))).squareRoot()
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func reducesJitterOnANoisySineWithLittleLag(seed: UInt64) {
        let (t, truth, noisy) = Self.noisySine(seed: seed)
        let smooth = Self.filtered(noisy, at: t)
        // Jitter (second difference) at least 40% lower.
        #expect(Self.jitter(smooth) < 0.6 * Self.jitter(noisy))
        // The lag that best aligns the output with the truth, searched in 1 ms steps, is under 50 ms…
        var bestLag = 0.0
        var bestError = Double.infinity
        for step in 0..<200 {
            let lag = Double(step) / 1000
            let shifted = t.map { 100 * sin(2 * Double.pi * 0.5 * ($0 - lag)) }
            let error = Self.rms(smooth, shifted)
            if error < bestError {
                bestError = error
                bestLag = lag
            }
        }
        #expect(bestLag < 0.05, "lag \(bestLag) s")
        // …and once aligned, the output is closer to the truth than the noisy input is.
        #expect(bestError < Self.rms(noisy, truth), "aligned error \(bestError) px")
    }

    @Test func atRestNoiseIsReducedMoreThanTwofold() {
        let (t, truth, noisy) = Self.noisySine(amplitude: 0, seed: 4)
        let smooth = Self.filtered(noisy, at: t)
        #expect(Self.rms(smooth, truth) < 0.5 * Self.rms(noisy, truth))
    }

    @Test func keepsThePeakOfARepetition() {
        // Without noise, the filtered peak of a 100 px, 0.5 Hz movement is within 2% of the true peak.
        let (t, truth, _) = Self.noisySine(seed: 5)
        let smooth = Self.filtered(truth, at: t)
        let peak = smooth[60...].max() ?? 0
        #expect(peak > 98 && peak <= 100.0001)
    }

    @Test func higherBetaLagsLessInFastMovement() {
        let (t, truth, _) = Self.noisySine(seed: 6)
        let slow = Self.filtered(truth, at: t, .init(minCutoff: 1, beta: 0))
        let fast = Self.filtered(truth, at: t, .init(minCutoff: 1, beta: 0.05))
        #expect(Self.rms(fast, truth) < 0.5 * Self.rms(slow, truth))
    }

    @Test func firstSampleDuplicateTimesAndReset() {
        var filter = OneEuroFilter()
        #expect(filter.value == nil)
        let first = filter.ingest(10, at: 0)
        #expect(first == 10)
        let moved = filter.ingest(20, at: 1.0 / 30)
        #expect(moved > 10 && moved < 20)
        // A repeated or earlier timestamp, or a non-finite value, changes nothing.
        let repeated = [filter.ingest(500, at: 1.0 / 30), filter.ingest(500, at: 0), filter.ingest(.nan, at: 1)]
        #expect(repeated == [moved, moved, moved])
        filter.reset()
        #expect(filter.value == nil)
        let afterReset = filter.ingest(42, at: 5)
        #expect(afterReset == 42)
    }

    @Test func handlesIrregularFrameTimes() {
        // The same signal sampled at irregular times converges to a constant input.
        var generator = SeededGenerator(seed: 7)
        var filter = OneEuroFilter()
        var t = 0.0
        var last = filter.ingest(0, at: t)
        for _ in 0..<100 {
            t += Double.random(in: 0.01...0.08, using: &generator)
            last = filter.ingest(50, at: t)
        }
        #expect(abs(last - 50) < 0.01)
    }
}

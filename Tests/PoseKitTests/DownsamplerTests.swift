import PoseKit
import Testing

struct DownsamplerTests {
    @Test(arguments: [0.0, 0.004, 0.008])
    func from30To10FPSKeepsOneInThreeWithJitteredTimes(jitter: Double) {
        var generator = SeededGenerator(seed: 1)
        var downsampler = Downsampler(targetFPS: 10)
        var kept: [Int] = []
        for i in 0..<300 {
            let t = Double(i) / 30 + (jitter > 0 ? Double.random(in: -jitter...jitter, using: &generator) : 0)
            if downsampler.ingest(at: t) { kept.append(i) }
        }
        #expect(kept.count == 100)
        #expect(kept.first == 0)
        #expect(zip(kept, kept.dropFirst()).allSatisfy { $1 - $0 == 3 }, "kept \(kept)")
    }

    @Test func keepsTheAverageRateForANonIntegerRatio() {
        var downsampler = Downsampler(targetFPS: 12)
        var kept = 0
        for i in 0..<300 where downsampler.ingest(at: Double(i) / 30) { kept += 1 }
        #expect(abs(kept - 120) <= 1)
    }

    @Test func slowerSourceKeepsEveryFrame() {
        var downsampler = Downsampler(targetFPS: 30)
        let kept = (0..<50).filter { downsampler.ingest(at: Double($0) / 15) }
        #expect(kept.count == 50)
    }

    @Test func restartsTheGridAfterAPause() {
        var downsampler = Downsampler(targetFPS: 10)
        var kept: [Double] = []
        let times = (0..<30).map { Double($0) / 30 } + (0..<30).map { 5 + 0.0123 + Double($0) / 30 }
        for t in times where downsampler.ingest(at: t) { kept.append(t) }
        #expect(kept.count == 20)
        #expect(kept.contains(5.0123))
    }

    @Test func byFactorKeepsOneInFactor() {
        var downsampler = Downsampler(factor: 3)
        let kept = (0..<10).filter { downsampler.ingest(at: Double($0)) }
        #expect(kept == [0, 3, 6, 9])
        downsampler.reset()
        let afterReset = downsampler.ingest(at: 0)
        #expect(afterReset)
    }

    @Test func timeGoingBackwardsStartsOver() {
        var downsampler = Downsampler(targetFPS: 10)
        let first = downsampler.ingest(at: 10)
        let earlier = downsampler.ingest(at: 0)
        #expect(first && earlier)
    }
}

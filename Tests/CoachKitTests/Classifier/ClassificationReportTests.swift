import CoachKit
import Testing

struct ClassificationReportTests {
    @Test func computesPerClassAndWeightedMetrics() {
        // a: 3 true, 2 right; b: 1 true, 1 right; one a predicted as b.
        let report = ClassificationReport(truth: ["a", "a", "a", "b"], predicted: ["a", "a", "b", "b"])
        #expect(report.labels == ["a", "b"])
        #expect(report.confusion == [[2, 1], [0, 1]])
        #expect(report.accuracy == 0.75)
        #expect(report.precision(0) == 1)
        let twoThirds: Double = 2.0 / 3
        #expect(abs(report.recall(0) - twoThirds) < 1e-12)
        #expect(report.precision(1) == 0.5)
        #expect(report.recall(1) == 1)
        let f1a: Double = 0.8  // 2 · 1 · (2/3) / (1 + 2/3)
        let f1b: Double = 2.0 / 3  // 2 · 0.5 · 1 / 1.5
        let weighted: Double = (3 * f1a + f1b) / 4
        let macro: Double = (f1a + f1b) / 2
        #expect(abs(report.weightedF1 - weighted) < 1e-12)
        #expect(abs(report.macroF1 - macro) < 1e-12)
        #expect(report.text.contains("weighted F1 0.767"))
    }

    @Test func classNeverPredictedHasZeroPrecisionNotNaN() {
        let report = ClassificationReport(truth: ["a", "b"], predicted: ["a", "a"], labels: ["a", "b", "c"])
        #expect(report.labels == ["a", "b", "c"])
        #expect(report.precision(1) == 0)
        #expect(report.f1(2) == 0)
        #expect(!report.weightedF1.isNaN)
    }
}

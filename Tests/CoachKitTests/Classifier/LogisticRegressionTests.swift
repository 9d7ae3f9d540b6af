import CoachKit
import Testing

struct LogisticRegressionTests {
    /// Two overlapping classes on one feature: "bad" from 0 to 2.5, "good" from 1.5 to 3.
    static let bad: [[Double]] = [[0], [0.5], [1], [1.5], [2], [2.5]]
    static let good: [[Double]] = [[1.5], [2.5], [3], [2.2]]

    static func goodProbability(at x: Double, badCopies: Int) -> Double {
        let rows = Array(repeating: bad, count: badCopies).flatMap { $0 } + good
        let classes = Array(repeating: 0, count: bad.count * badCopies) + Array(repeating: 1, count: good.count)
        let model = LogisticRegression.fit(
            features: rows,
            classes: classes,
            classCount: 2,
            regularization: 1e-4,
            maximumIterations: 500
        )
        return model.probabilities([x])[1]
    }

    @Test func aClassRecordedThreeTimesAsOftenDoesNotOutvoteTheOther() {
        // Balanced classes: each class weighs the same in the loss, so recording every "bad" example three
        // times over moves nothing (unweighted, p(good) fell by 0.16-0.26 at these three points).
        for x in [1.5, 2.0, 2.5] {
            let once = Self.goodProbability(at: x, badCopies: 1)
            let thrice = Self.goodProbability(at: x, badCopies: 3)
            #expect(abs(once - thrice) < 0.02, "p(good | \(x)): \(once) with the bad examples once, \(thrice) thrice")
        }
    }
}

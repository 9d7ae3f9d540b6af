import Foundation
import PoseKit
import Testing

@testable import CoachKit

/// A form rule whose value is within the close-call margin of its bound gives no verdict (issue 28 item 4: a wrong
/// "good" is worse than "not checked").
struct CloseCallTests {
    static let margin = ExerciseDefinition.FormRule.CloseCallMargin.degrees

    static func range(_ angle: AngleKind, peak: Double) -> Repetition.AngleRange {
        .init(angle: angle, side: .left, min: peak - 10, max: peak, atPeak: peak)
    }

    /// (distance from the squat's depth bound, 70° of knee flexion at the peak, in close-call margins; the call)
    static let depthCases: [(Double, String)] = [
        (-1.25, "broken"), (-0.5, "tooClose"), (0, "tooClose"), (0.5, "tooClose"), (1.25, "kept"),
    ]

    @Test(arguments: depthCases)
    func aValueNearTheBoundIsTooCloseToCall(margins: Double, expected: String) throws {
        let value = 70 + margins * Self.margin
        let squat = try ExerciseLibrary.bundled().exercise(id: "squat")
        let depth = try #require(squat.formRules.first { $0.id == "depth" })
        let call = depth.call(in: [Self.range(.kneeFlexion, peak: value)])
        switch call {
        case .broken(let issue): #expect(expected == "broken" && issue.rule == "depth" && issue.value == value)
        case .tooClose: #expect(expected == "tooClose", "\(value)")
        case .kept: #expect(expected == "kept", "\(value)")
        }
        // The same rule knows nothing of another angle's range.
        #expect(depth.call(in: [Self.range(.trunkLean, peak: value)]) == .kept)
    }

    @Test func aRatioUsesHundredthsOfTheRatio() throws {
        let squat = try ExerciseLibrary.bundled().exercise(id: "squat")
        let kneesOut = try #require(squat.formRules.first { $0.id == "knees-out" })  // minimum 0.8
        let ratio = ExerciseDefinition.FormRule.CloseCallMargin.ratio
        #expect(kneesOut.call(in: [Self.range(.kneeWidthRatio, peak: 0.8 + ratio / 2)]) == .tooClose)
        #expect(kneesOut.call(in: [Self.range(.kneeWidthRatio, peak: 0.8 + 2 * ratio)]) == .kept)
        guard case .broken = kneesOut.call(in: [Self.range(.kneeWidthRatio, peak: 0.8 - 2 * ratio)]) else {
            Issue.record("knees 2 hundredths inside the bound not called broken")
            return
        }
    }

    /// A squat from the side whose depth is within the margin of 70°: not "good", "not checked" with the reason,
    /// unless another rule is clearly broken.
    @Test(arguments: [(10.0, Repetition.Verdict.notChecked), (60.0, .needsWork)])
    func aRepetitionWithACloseCallIsNotCalledGood(trunkLean: Double, verdict: Repetition.Verdict) throws {
        let repetition = try CountingAndJudgingTests.judgeSquatFromTheSide(
            kneeAtPeak: 70 + Self.margin / 2,
            trunkLean: trunkLean
        )
        #expect(repetition.verdict == verdict)
        #expect(repetition.closeCalls == ["depth"])
        #expect(repetition.uncheckedRules == ["knees-out"])
        #expect(repetition.uncheckedReason?.contains(RepetitionJudge.tooCloseReason) == true)
        #expect(repetition.issues.map(\.rule) == (verdict == .needsWork ? ["chest-up"] : []))
        // Written and read back, the close calls are kept.
        let decoded = try JSONDecoder().decode(Repetition.self, from: JSONEncoder().encode(repetition))
        #expect(decoded.closeCalls == ["depth"])
    }
}

import CoachKit
import Foundation
import Testing

/// Each factor of the recogniser's score on its own: what it gives inside its bounds, past them, and where it
/// does not apply; and that a decision's scores are the product of the factors the explanation lists.
struct ExerciseRecognizerScoringTests {
    typealias Scoring = ExerciseRecognizer.Scoring
    let c = Scoring.Configuration()

    static func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-12 }

    // MARK: - Posture

    @Test(arguments: [
        (ExerciseDefinition.Posture.upright, 10.0, 1.0),
        (.upright, 60, 0.15),
        (.hanging, 60, 0.15),
        (.horizontal, 80, 1),
        (.horizontal, 30, 0.15),
        (.any, 60, 0.9),
        (.upright, .nan, 1),
    ])
    func postureWantsTheTrunkOfItsPosture(posture: ExerciseDefinition.Posture, trunk: Double, expected: Double) {
        let factor = Scoring.posture(
            posture,
            trunkLean: trunk,
            thighForward: .nan,
            overheadShare: 0.5,
            handTravel: 2,
            c
        )
        #expect(factor.name == .posture)
        #expect(factor.value == expected, "\(posture) with the trunk at \(trunk)°")
    }

    @Test(arguments: [(0.1, 0.03), (0.3, 0.15), (0.7, 1.0)])
    func seatedWantsAThighForward(thighForward: Double, expected: Double) {
        let factor = Scoring.posture(
            .seated,
            trunkLean: 10,
            thighForward: thighForward,
            overheadShare: 0,
            handTravel: 1,
            c
        )
        #expect(factor.value == expected)
        #expect(factor.evidence["thighForward"] == thighForward)
    }

    @Test func handsOverheadAndAnchoredAreHanging() {
        // Overhead half the window, hands still: only the hanging posture fits.
        let upright = Scoring.posture(
            .upright,
            trunkLean: 5,
            thighForward: .nan,
            overheadShare: 0.5,
            handTravel: 0.3,
            c
        )
        let hanging = Scoring.posture(
            .hanging,
            trunkLean: 5,
            thighForward: .nan,
            overheadShare: 0.5,
            handTravel: 0.3,
            c
        )
        #expect(upright.value == c.wrongPosture)
        #expect(hanging.value == 1)
        // Hanging with the hands overhead a tenth of the time: nobody hangs from them.
        let low = Scoring.posture(.hanging, trunkLean: 5, thighForward: .nan, overheadShare: 0.1, handTravel: 0.3, c)
        #expect(low.value == c.wrongPosture)
    }

    // MARK: - Holds

    @Test(arguments: [(0.2, 0.1, 1.0), (0.4, 0.1, 0), (0.2, 0.2, 0), (0.2, .nan, 1)])
    func aHoldIsStill(largestSwing: Double, hips: Double, expected: Double) {
        #expect(Scoring.stillness(largestSwing: largestSwing, hipsRange: hips, c).value == expected)
    }

    @Test func aHoldScoresItsPriorWhenItsConditionsHold() {
        let factors = [
            Scoring.stillness(largestSwing: 0, hipsRange: 0, c), Scoring.holdPrior(c),
            Scoring.holdConditions(met: true),
        ]
        #expect(Scoring.product(factors) == c.holdPrior)
        #expect(Scoring.product(factors + [Scoring.holdConditions(met: false)]) == 0)
    }

    // MARK: - Activity

    @Test(arguments: [(0.1, 0.0), (0.15, 0.25), (0.3, 1), (0.9, 1)])
    func theDeclaredSegmentSwings(main: Double, expected: Double) {
        #expect(Self.close(Scoring.swing(main, c).value, expected), "swing \(main)")
    }

    @Test func bothSidesSwingAlike() {
        #expect(Scoring.bothSides(left: 0.2, right: 1, applies: false, c).value == 1)
        #expect(Scoring.bothSides(left: 0.8, right: 1, applies: true, c).value == 1)
        #expect(Self.close(Scoring.bothSides(left: 1, right: 0.45, applies: true, c).value, exp(-1)))
    }

    @Test func otherSegmentsStayWellBelow() {
        #expect(Scoring.othersStill(largestOther: 0.5, main: 1, c).value == 1)
        #expect(Self.close(Scoring.othersStill(largestOther: 0.9, main: 1, c).value, exp(-1)))
    }

    @Test func companionsDoNotOutswing() {
        #expect(Scoring.companions(largestCompanion: 1.2, main: 1, c).value == 1)
        #expect(Self.close(Scoring.companions(largestCompanion: 1.6, main: 1, c).value, exp(-1)))
    }

    @Test func aSweepAroundKeepsTheUpperArmStill() {
        #expect(Scoring.upperArmStill(upperArmSwing: nil, main: 1, c).value == 1)
        #expect(Scoring.upperArmStill(upperArmSwing: 0.3, main: 1, c).value == 1)
        #expect(Self.close(Scoring.upperArmStill(upperArmSwing: 0.7, main: 1, c).value, exp(-2)))
    }

    // MARK: - Hips and hands

    @Test(arguments: [
        (ExerciseDefinition.Motion.Hips.still, 0.1, 1.0),
        (.still, 0.3, exp(-1)),
        (.move, 0.3, 1),
        (.move, 0.075, 0.25),
        (.move, 0.01, 0.05),
        (.still, .nan, 1),
    ])
    func theHipsStayOrMove(hips: ExerciseDefinition.Motion.Hips, range: Double, expected: Double) {
        #expect(Self.close(Scoring.hips(hips, range: range, c).value, expected), "\(hips) \(range)")
    }

    @Test(arguments: [
        (ExerciseDefinition.Motion.Hands?.none, 5.0, 1.0),
        (.anchored, 0.3, 1),
        (.anchored, 0.8, exp(-1)),
        (.anchored, 5, 0.1),
        (.move, 0.9, exp(-1)),
        (.move, 2, 1),
        (.anchored, .nan, 1),
    ])
    func theHandsStayOrTravel(hands: ExerciseDefinition.Motion.Hands?, travel: Double, expected: Double) {
        #expect(Self.close(Scoring.hands(hands, travel: travel, c).value, expected), "\(String(describing: hands))")
    }

    // MARK: - Direction, hinge, reach

    @Test func theSwingHeadsWhereDeclared() {
        let right = Scoring.direction(.forward, elbowBend: nil, headingCosine: 1, thigh: false, c)
        let opposite = Scoring.direction(.forward, elbowBend: nil, headingCosine: -1, thigh: false, c)
        #expect(right.value == 1)
        #expect(Self.close(opposite.value, 0.1 + 0.9 * exp(-4)))
        #expect(opposite.evidence["cosine"] == -1)
        // A thigh seen going backward counts as forward at half weight.
        let thigh = Scoring.direction(.forward, elbowBend: nil, headingCosine: -1, thigh: true, c)
        #expect(Self.close(thigh.value, 0.1 + 0.9 * 0.5))
        // No heading to compare (straight up): no judgement.
        #expect(Scoring.direction(.up, elbowBend: nil, headingCosine: nil, thigh: false, c).value == 1)
    }

    @Test func aForearmFoldsOrSweepsAround() {
        #expect(
            Self.close(Scoring.direction(.around, elbowBend: 0.8, headingCosine: nil, thigh: false, c).value, exp(-1))
        )
        #expect(Scoring.direction(.around, elbowBend: 0.2, headingCosine: nil, thigh: false, c).value == 1)
        #expect(Self.close(Scoring.direction(.up, elbowBend: 0.2, headingCosine: nil, thigh: false, c).value, exp(-1)))
    }

    @Test func theHingeBendsOrStaysStraight() {
        #expect(Scoring.hinge(nil, bend: 2, c).value == 1)
        #expect(Scoring.hinge(.straight, bend: 0.3, c).value == 1)
        #expect(Self.close(Scoring.hinge(.straight, bend: 0.65, c).value, 0.1 + 0.9 * exp(-1)))
        #expect(Self.close(Scoring.hinge(.bends, bend: 0.35, c).value, 0.1 + 0.9 * exp(-1)))
    }

    @Test func theSegmentTurnsAsFarAsTheReach() {
        #expect(Scoring.reach(turned: 90, expected: 90, c).value == 1)
        #expect(Scoring.reach(turned: .nan, expected: 90, c).value == 1)
        #expect(Scoring.reach(turned: 60, expected: .nan, c).value == 1)
        // One tolerance off (a factor of e^0.25).
        #expect(Self.close(Scoring.reach(turned: 90 * exp(0.25), expected: 90, c).value, 0.15 + 0.85 * exp(-0.5)))
    }

    // MARK: - Excursion and rules

    @Test func theExcursionIsWeakEvidence() {
        #expect(Self.close(Scoring.excursion(range: 60, expected: 60, c).value, 1))
        #expect(Scoring.excursion(range: .nan, expected: 60, c).value == 0.6)
        #expect(Self.close(Scoring.excursion(range: 0, expected: 60, c).value, 0.4))
    }

    @Test func formRulesAtMostHalveTheScore() {
        #expect(Scoring.formRules([], c).value == 1)
        let within = Scoring.RuleReading(max: 30, min: nil, high: 50, low: 0)
        #expect(Scoring.formRules([within], c).value == 1)
        let past = Scoring.RuleReading(max: 30, min: nil, high: 80, low: 0)
        #expect(Self.close(Scoring.formRules([past], c).value, 0.5 + 0.5 * exp(-1)))
        let below = Scoring.RuleReading(max: nil, min: 100, high: 180, low: 50)
        #expect(Self.close(Scoring.formRules([below], c).value, 0.5 + 0.5 * exp(-1)))
        let unmeasured = Scoring.RuleReading(max: 30, min: nil, high: .nan, low: .nan)
        #expect(Scoring.formRules([unmeasured], c).value == 1)
        #expect(Scoring.formRules([past, past, past, past], c).value >= 0.5)
    }

    // MARK: - The whole score

    @Test(arguments: [true, false])
    func everyScoreIsTheProductOfItsFactors(depth: Bool) throws {
        // Given a decision over a synthetic squat
        let (_, recognizer) = try ExerciseRecognizerTests.recognize(depth: depth) { p in
            var limbs = ExerciseRecognizerTests.Limbs()
            let thigh = ExerciseRecognizerTests.raised(80 * p, azimuth: 90)
            let shank = ExerciseRecognizerTests.raised(-60 * p, azimuth: 90)
            limbs.thigh = (thigh, thigh)
            limbs.shank = (shank, shank)
            limbs.drop = 60 * p
            return limbs
        }
        // Then every exercise's score is exactly the product of the factors its explanation lists
        var named = 0
        for (index, exercise) in recognizer.exercises.enumerated() {
            let factors = recognizer.factors(of: exercise)
            #expect(!factors.isEmpty)
            #expect(Scoring.product(factors) == recognizer.scores[index], "\(exercise.id)")
            #expect(Set(factors.map(\.name)).count == factors.count, "\(exercise.id): a factor listed twice")
            if recognizer.scores[index] > 0 { named += 1 }
        }
        #expect(named > 0, "no exercise scored above 0")
        #expect(
            recognizer.explanation(of: 0).hasPrefix(recognizer.factors(of: recognizer.exercises[0])[0].name.rawValue)
        )
    }

    @Test func theConfigurationChangesTheScore() throws {
        // A stricter minimum swing than the whole swing: nothing that swings scores.
        var scoring = Scoring.Configuration()
        scoring.minimumSwing = 3
        let library = try ExerciseLibrary.bundled()
        var recognizer = ExerciseRecognizer(exercises: library.exercises, configuration: .init(scoring: scoring))
        var t = 0.0
        while t < 8 {
            let p = 0.5 - 0.5 * cos(2 * .pi * t / 2.5)
            var limbs = ExerciseRecognizerTests.Limbs()
            let arm = ExerciseRecognizerTests.raised(150 * p, azimuth: 0)
            limbs.upperArm = (arm, ExerciseRecognizerTests.hanging)
            _ = recognizer.ingest(ExerciseRecognizerTests.pose(limbs), at: t)
            t += 1 / 30
        }
        for (index, exercise) in recognizer.exercises.enumerated() where exercise.repetition != nil {
            #expect(recognizer.scores[index] == 0, "\(exercise.id) scored \(recognizer.scores[index])")
        }
    }
}

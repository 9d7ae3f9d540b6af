import CoachTestSupport
import Foundation
import Testing

@testable import CoachKit
@testable import PoseKit

/// Generated side-view bicep curls: the left arm curls, the right arm hangs; `swing` is how far the upper
/// arm swings forward at the top of the curl (the bicep-curl rule `upper-arm-still` allows 35° against the
/// trunk, `elbow-still` 18° of change against the vertical), `depth` the elbow flexion reached (the rule
/// `full-curl` asks for 110° at the peak).
struct SyntheticCurl {
    var swing: Double
    var depth: Double

    func frames(reps: Int = 2, variant: Int = 0) -> [PoseFrame] {
        var generator = SplitMix64(seed: UInt64(variant) &+ 101)
        func jitter(_ spread: Double) -> Double {
            (Double(generator.next() % 10_000) / 10_000 - 0.5) * 2 * spread
        }
        let framesPerRep = 40 + Int(jitter(6))
        let scale = 120 * (1 + jitter(0.15))
        let centerX = 320 + jitter(30)
        let hipY = 300 + jitter(20)
        let swing = self.swing + jitter(3)
        let depth = self.depth + jitter(4)
        var frames: [PoseFrame] = []
        let radians = Double.pi / 180
        for f in 0..<(reps * framesPerRep) {
            let phase = Double(f % framesPerRep) / Double(framesPerRep)
            let s = (1 - cos(2 * .pi * phase)) / 2  // 0 → 1 → 0 over a rep
            var points: [Joint: (Double, Double)] = [:]
            for (side, dz) in [("left", 0.03), ("right", -0.03)] {
                let upperArm = (side == "left" ? 3 + s * swing : 3) * radians
                let elbow = (side == "left" ? 10 + s * (depth - 10) : 8) * radians
                let shoulder = (dz, -1.6)
                let elbowPoint = (shoulder.0 + 0.8 * sin(upperArm), shoulder.1 + 0.8 * cos(upperArm))
                points[Joint(name: side + "Hip")!] = (dz, 0)
                points[Joint(name: side + "Knee")!] = (dz + 0.05, 1)
                points[Joint(name: side + "Ankle")!] = (dz, 2)
                points[Joint(name: side + "Shoulder")!] = shoulder
                points[Joint(name: side + "Elbow")!] = elbowPoint
                points[Joint(name: side + "Wrist")!] = (
                    elbowPoint.0 + 0.7 * sin(upperArm + elbow), elbowPoint.1 + 0.7 * cos(upperArm + elbow)
                )
            }
            points[.nose] = (0.15, -2.1)
            var pose = Pose()
            for (joint, point) in points {
                pose[joint] = Keypoint(
                    x: centerX + point.0 * scale + jitter(0.005 * scale),
                    y: hipY + point.1 * scale + jitter(0.005 * scale),
                    confidence: 0.9
                )
            }
            pose.deriveMidpoints()
            frames.append(PoseFrame(seconds: Double(f) / 30, poses: [pose]))
        }
        return frames
    }

    func sequence(variant: Int = 0) -> PoseSequence {
        PoseSequence(frames: frames(variant: variant), name: "curl-swing\(Int(swing))-depth\(Int(depth))-\(variant)")
    }

    static let good = SyntheticCurl(swing: 5, depth: 135)
    static let swinging = SyntheticCurl(swing: 60, depth: 135)
    static let halfCurl = SyntheticCurl(swing: 5, depth: 80)
}

struct RuleFeatureSpecTests {
    static func bicepRules() throws -> RuleFeatureSpec {
        try #require(RuleFeatureSpec(exercise: try ExerciseLibrary.bundled().exercise(id: "bicep-curl")))
    }

    /// Features: [primary range, then margin and share for upper-arm-still, elbow-still, no-swing, full-curl].
    static func margin(_ features: [Double], rule: Int) -> Double { features[1 + 2 * rule] }

    @Test func specComesFromTheLibraryDefinition() throws {
        let rules = try Self.bicepRules()
        #expect(rules.exerciseID == "bicep-curl")
        #expect(rules.rules.map(\.id) == ["upper-arm-still", "elbow-still", "no-swing", "full-curl"])
        #expect(rules.primaryAngle == .elbowFlexion)
        #expect(rules.direction == 1)
        #expect(rules.featureCount == 9)
        // Holds have no peak, so no rule features.
        #expect(RuleFeatureSpec(exercise: try ExerciseLibrary.bundled().exercise(id: "plank")) == nil)
    }

    @Test func swingingUpperArmBreaksUpperArmStill() throws {
        let rules = try Self.bicepRules()
        let good = rules.vector(for: SyntheticCurl.good.sequence())
        let swinging = rules.vector(for: SyntheticCurl.swinging.sequence())
        // Upper arm at 60° forward at the top: the 95th percentile is past the 35° bound; the good curl's upper arm
        // stays within about 10° of the trunk.
        #expect(Self.margin(swinging, rule: 0) > 10)
        #expect(Self.margin(good, rule: 0) < -12)
        #expect(swinging[2] > 0.1)  // a share of the frames past the bound
        #expect(good[2] == 0)
        // Its inclination changes by about 60°, past elbow-still's bound (18°); the good curl's by about 5°.
        let elbowStill = try #require(rules.rules[1].max)
        #expect(abs(Self.margin(swinging, rule: 1) - (57 - elbowStill)) < 8, "\(Self.margin(swinging, rule: 1))")
        #expect(Self.margin(good, rule: 1) < -8)
        #expect(swinging[4] == 0)  // a range has no per-frame share
        #expect(rules.brokenRules(in: swinging) == ["upper-arm-still", "elbow-still"])
        #expect(rules.brokenRules(in: good).isEmpty)
        // The curling arm (left) is measured, not the hanging one: the range is the curl's (10° → 135°).
        #expect(abs(good[0] - 125) < 15, "primary range \(good[0])")
        // Trunk upright: no-swing kept by about its 15° bound.
        #expect(Self.margin(good, rule: 2) < -10)
    }

    @Test func halfCurlBreaksFullCurlAtThePeak() throws {
        let rules = try Self.bicepRules()
        let half = rules.vector(for: SyntheticCurl.halfCurl.sequence())
        // Elbow flexion at the peak about 80°: 30° short of the rule's 110°.
        #expect(abs(Self.margin(half, rule: 3) - 30) < 8, "full-curl margin \(Self.margin(half, rule: 3))")
        #expect(rules.brokenRules(in: half) == ["full-curl"])
    }

    @Test func marginAgreesWithTheCoachsRuleCheck() throws {
        let rules = try Self.bicepRules()
        for rule in rules.rules {
            for value in stride(from: 0.0, through: 180, by: 7.5) {
                let range = Repetition.AngleRange(angle: rule.angle, side: .left, min: value, max: value, atPeak: value)
                let margin = try #require(rule.margin(in: range))
                #expect((margin > 0) == (rule.firstIssue(in: [range]) != nil), "\(rule.id) at \(value)")
            }
        }
    }

    @Test func featuresIgnorePositionScaleAndMirroring() throws {
        let rules = try Self.bicepRules()
        let sequence = SyntheticCurl.swinging.sequence(variant: 3)
        let reference = rules.vector(for: sequence)
        let moved = sequence.transformed { (2 * $0 + 50, 2 * $1 - 30) }
        let mirrored = sequence.transformed(swapSides: true) { (640 - $0, $1) }
        for other in [rules.vector(for: moved), rules.vector(for: mirrored)] {
            for (a, b) in zip(reference, other) { #expect(abs(a - b) < 1e-6, "\(reference) vs \(other)") }
        }
    }

    @Test func missingJointsGiveNaNNotACrash() throws {
        let rules = try Self.bicepRules()
        var frames = SyntheticCurl.good.frames()
        for f in frames.indices {
            for joint in [Joint.leftWrist, .rightWrist, .leftElbow, .rightElbow] {
                frames[f].poses[0][joint] = .missing
            }
        }
        let features = rules.vector(for: PoseSequence(frames: frames))
        #expect(features.count == rules.featureCount)
        #expect(features.allSatisfy { $0.isNaN })
        #expect(rules.brokenRules(in: features).isEmpty)
    }

    static func curlSet() -> (sequences: [PoseSequence], labels: [String]) {
        var sequences: [PoseSequence] = []
        var labels: [String] = []
        for variant in 0..<6 {
            sequences.append(SyntheticCurl.good.sequence(variant: variant))
            labels.append("good")
            sequences.append(
                (variant % 2 == 0 ? SyntheticCurl.swinging : SyntheticCurl.halfCurl).sequence(variant: variant)
            )
            labels.append("bad")
        }
        return (sequences, labels)
    }

    @Test(arguments: [ActionClassifier.Configuration.Method.ruleLogistic, .ruleVerdict, .ruleVote])
    func ruleModelRoundTripsAndPredictsTheSame(method: ActionClassifier.Configuration.Method) throws {
        let (sequences, labels) = Self.curlSet()
        let rules = try Self.bicepRules()
        let classifier = try ActionClassifier.train(
            sequences: sequences,
            labels: labels,
            configuration: .init(method: method, rules: rules)
        )
        #expect(classifier.model.method == method)
        let text = classifier.jsonText
        let object = try #require(try JSONValue.parse(text).objectValue)
        #expect(object["version"]?.intValue == 3)
        #expect(object["rules"]?.objectValue?["exercise"]?.stringValue == "bicep-curl")
        let loaded = try ActionClassifier(jsonText: text)
        #expect(loaded.configuration.rules == rules)
        #expect(loaded.jsonText == text)
        // The text is what the JSONValue writer of earlier versions gave for the same model, byte for byte.
        #expect(JSONValue.object(object).jsonText == text)
        for variant in 50..<54 {
            for (curl, label) in [(SyntheticCurl.good, "good"), (.swinging, "bad"), (.halfCurl, "bad")] {
                let sequence = curl.sequence(variant: variant)
                #expect(loaded.predict(sequence) == classifier.predict(sequence))
                #expect(classifier.predict(sequence).label == label, "\(sequence.name)")
            }
        }
    }

    @Test func ruleVerdictMapsBrokenRulesToTheLabelThatBreaksThemMore() throws {
        let rules = try Self.bicepRules()
        let broken = rules.vector(for: SyntheticCurl.swinging.sequence())
        let kept = rules.vector(for: SyntheticCurl.good.sequence())
        // 1 of 4 "ok" recordings broke a rule, 2 of 2 "poor" ones: "ok" is the majority, yet a recording
        // that keeps the rules is "ok" and one that breaks them is "poor".
        let verdict = RuleVerdict.fit(
            features: [kept, kept, kept, broken, broken, broken],
            classes: [0, 0, 0, 0, 1, 1],
            classCount: 2,
            rules: rules
        )
        #expect(verdict.counts == [[3, 1], [0, 2]])
        #expect(ModelSelection.argmax(verdict.probabilities(kept)) == 0)
        #expect(ModelSelection.argmax(verdict.probabilities(broken)) == 1)
        #expect(abs(verdict.probabilities(broken).reduce(0, +) - 1) < 1e-12)
    }

    @Test func ruleMethodWithoutRulesIsRefused() {
        let (sequences, labels) = Self.curlSet()
        #expect {
            try ActionClassifier.train(sequences: sequences, labels: labels, configuration: .init(method: .ruleVerdict))
        } throws: { error in
            (error as? CoachKitError)?.message.contains("needs the form rules of a library exercise") == true
        }
    }

    @Test func automaticSelectionWeighsTheRuleModelsOnlyWithRules() throws {
        let (sequences, labels) = Self.curlSet()
        let withRules = try ActionClassifier.train(
            sequences: sequences,
            labels: labels,
            configuration: .init(rules: try Self.bicepRules())
        )
        let selection = try #require(withRules.selection)
        #expect(selection.ruleLogisticCorrect != nil)
        #expect(selection.ruleVerdictCorrect == selection.total)  // the rules separate these curls exactly
        #expect(selection.ruleVoteCorrect != nil)
        // 12 recordings (at most 30): no count picks a model, but the verdict, which learns no threshold, gets
        // every one right: the rules explain the labels, and the verdict alone is chosen.
        #expect(selection.chosen == .ruleVerdict)
        #expect(withRules.model.method == .ruleVerdict)
        // One good curl that breaks a rule (a half curl labelled good): the verdict misses it, and joins the vote.
        let mixed = try ActionClassifier.train(
            sequences: sequences + [SyntheticCurl.halfCurl.sequence(variant: 40)],
            labels: labels + ["good"],
            configuration: .init(rules: try Self.bicepRules())
        )
        let mixedSelection = try #require(mixed.selection)
        #expect(mixedSelection.ruleVerdictCorrect! < mixedSelection.total)
        #expect(mixedSelection.chosen == .ruleVote)
        let without = try #require(try ActionClassifier.train(sequences: sequences, labels: labels).selection)
        #expect(without.ruleLogisticCorrect == nil && without.ruleVerdictCorrect == nil)
        #expect(without.chosen == .vote)
    }

    @Test func versionTwoModelFilesStillLoad() throws {
        let (sequences, labels) = ActionClassifierTests.trainingSet()
        let classifier = try ActionClassifier.train(
            sequences: sequences,
            labels: labels,
            configuration: .init(method: .logistic)
        )
        var object = try #require(try JSONValue.parse(classifier.jsonText).objectValue)
        object["version"] = .number(2)
        let loaded = try ActionClassifier(jsonText: JSONValue.object(object).jsonText, source: "old.json")
        #expect(loaded.configuration.rules == nil)
        for motion in SyntheticMotion.allCases {
            let sequence = motion.sequence(variant: 77)
            #expect(loaded.predict(sequence) == classifier.predict(sequence))
        }
    }

    @Test func ruleModelWithoutItsRulesBlockIsRefused() throws {
        let (sequences, labels) = Self.curlSet()
        let text = try ActionClassifier.train(
            sequences: sequences,
            labels: labels,
            configuration: .init(method: .ruleLogistic, rules: try Self.bicepRules())
        )
        .jsonText
        var object = try #require(try JSONValue.parse(text).objectValue)
        object["rules"] = nil
        #expect {
            try ActionClassifier(jsonText: JSONValue.object(object).jsonText, source: "m.json")
        } throws: { error in
            (error as? CoachKitError)?.message
                == "m.json: a rule-logistic model needs the \"rules\" block; retrain it with this ptcoach"
        }
    }

    @Test func coachsRulesFlagEveryBadPoseTrainerCurlAndNoGoodOne() throws {
        // Pose Trainer's bicep curls (OpenPose, side views). upper-arm-still and full-curl were written
        // without these clips and catch 3 of the 6 bad ones; elbow-still (18° of change against the vertical)
        // was added after measuring them (good 9–11°, bad 21–74° between the 5th and 95th percentiles), so this
        // checks the rule does what it was written for, not how well it does on clips it never saw.
        let (sequences, labels) = try PoseTrainerFormTests.load("form-pose-trainer-bicep-curl-train.csv")
        try #require(sequences.count == 9)
        let rules = try Self.bicepRules()
        var flagged: [String: [String]] = [:]
        for (sequence, label) in zip(sequences, labels) {
            let broken = rules.brokenRules(in: rules.vector(for: sequence))
            if !broken.isEmpty { flagged[String(sequence.name.split(separator: "/").last!), default: []] += broken }
            if label == "good" { #expect(broken.isEmpty, "\(sequence.name): \(broken)") }
        }
        #expect(
            flagged == [
                "bicep_bad_10.jsonl": ["full-curl"], "bicep_bad_3.jsonl": ["elbow-still"],
                "bicep_bad_4.jsonl": ["elbow-still"], "bicep_bad_5.jsonl": ["upper-arm-still", "elbow-still"],
                "bicep_bad_7.jsonl": ["upper-arm-still", "elbow-still"], "bicep_bad_8.jsonl": ["elbow-still"],
            ]
        )
    }

    @Test func frontRaiseWithRulesVotesInEveryFold() throws {
        let (sequences, labels) = try PoseTrainerFormTests.load("form-pose-trainer-front-raise-train.csv")
        try #require(sequences.count == 16)
        let rules = try #require(RuleFeatureSpec(exercise: try ExerciseLibrary.bundled().exercise(id: "front-raise")))
        let result = try CrossValidation.run(
            sequences: sequences,
            labels: labels,
            folds: Array(sequences.indices),
            configuration: .init(rules: rules)
        )
        // `scripts/evaluate-classifier.sh` gets 16/16; allow one mistake (the pipeline, not luck, is tested).
        #expect(result.report.correct >= 15, "\(result.report.text)")
        #expect(result.methods == Array(repeating: .ruleVote, count: 16))
    }
}

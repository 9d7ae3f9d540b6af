import CoachKit
import CoachTestSupport
import Foundation
import PoseKit
import Testing

/// Hand exercises end to end on generated hands (``SyntheticHand``): the library, the session's counting, the
/// per-finger cues, the set-up cues, and no repetitions from noise.
struct HandExerciseTests {
    /// The bundled hand library: a function, so that a library that fails to load fails the test that needs it
    /// with its message instead of crashing the whole run.
    private static func library() throws -> HandExerciseLibrary { try HandExerciseLibrary.bundled() }

    /// A fist closing `share` of the way (0 open, 1 full fist: MCP 85°, PIP 100°, DIP 60°); `little` scales the
    /// little finger's share (0.4: it bends less than half as far).
    private static func fist(_ share: Double, little: Double = 1, chirality: Chirality = .left) -> SyntheticHand {
        var hand = SyntheticHand(chirality: chirality)
        for finger in [Finger.index, .middle, .ring, .little] {
            let s = share * (finger == .little ? little : 1)
            let joints = finger.joints
            hand.flexion[joints[0]] = 85 * s
            hand.flexion[joints[1]] = 100 * s
            hand.flexion[joints[2]] = 60 * s
        }
        return hand
    }

    /// `cycles` fists at 30 fps (2 s each: 0.5 s open, closing, 0.5 s fist, opening), then 1 s open.
    private static func fistFrames(
        cycles: Int,
        little: Double = 1,
        noise: Double = 1,
        seed: UInt64 = 1
    ) -> [HandFrame] {
        var rng = SplitMix64(seed: seed)
        let fps = 30.0
        let total = Int(Double(cycles) * 2 * fps + fps)
        return (0..<total).map { i in
            let t = Double(i) / fps
            let phase = t.truncatingRemainder(dividingBy: 2)
            let share: Double =
                t >= Double(cycles) * 2
                ? 0 : phase < 0.5 ? 0 : phase < 1 ? (phase - 0.5) * 2 : phase < 1.5 ? 1 : (2 - phase) * 2
            let pose = fist(share, little: little).pose(viewDegrees: 0, noise: noise, depthNoise: 2, using: &rng)
            return HandFrame(seconds: t, hands: [pose])
        }
    }

    private static func run(
        _ id: String,
        _ frames: [HandFrame]
    ) throws -> (HandSessionSummary, [HandCoachingSession.Snapshot]) {
        let exercise = try #require(try library()[id])
        var session = HandCoachingSession(exercise: exercise, width: 640, height: 480)
        let snapshots = frames.map { session.ingest($0) }
        return (session.summary(), snapshots)
    }

    @Test func theLibraryHasTheHandExercisesApartFromTheBodyOnes() throws {
        let library = try Self.library()
        #expect(
            library.ids == [
                "finger-abduction", "finger-flexion", "grip-and-release", "kapandji", "tendon-glides",
                "thumb-opposition", "wrist-flexion-extension",
            ]
        )
        let body = try ExerciseLibrary.bundled()
        #expect(body.ids.allSatisfy { library[$0] == nil })
        let fist = try #require(library["finger-flexion"])
        #expect(fist.primary == .fingerFlexion && fist.repetition.direction == 1)
        #expect(fist.fingerTargets?.cue(for: .little) == "Bend your little finger further")
    }

    @Test func aBadDefinitionNamesTheField() {
        let base = """
            {"id": "x", "name": "X", "kind": "reps", "measures": ["fingerFlexion"], "primary": "fingerFlexion",
             "repetition": {"start": 0, "peak": 100}
            """
        #expect(throws: Never.self) { try HandExerciseDefinition(jsonText: base + "}", file: "x.json") }
        for (extra, field) in [
            (", \"colour\": 1", "colour"), (", \"fingers\": {\"measure\": \"flexion\", \"cue\": \"c\"}", "fingers"),
        ] {
            do {
                _ = try HandExerciseDefinition(jsonText: base + extra + "}", file: "x.json")
                Issue.record("accepted \(extra)")
            } catch {
                #expect(error.description.contains("\"\(field)\""), "\(error)")
            }
        }
        do {
            _ = try HandExerciseDefinition(
                jsonText: base.replacingOccurrences(
                    of: "\"primary\": \"fingerFlexion\"",
                    with: "\"primary\": \"wristTwist\""
                ) + "}",
                file: "x.json"
            )
            Issue.record("accepted an unknown measure")
        } catch {
            #expect(error.description.contains("primary") && error.description.contains("thumbGap"), "\(error)")
        }
    }

    @Test func fiveFistsAreFiveRepetitionsWithTheirFingersMeasured() throws {
        let (summary, _) = try Self.run("finger-flexion", Self.fistFrames(cycles: 5))
        #expect(summary.reps == 5)
        #expect(summary.repetitions.allSatisfy { $0.verdict == .good }, "\(summary.repetitions.map(\.issues))")
        for rep in summary.repetitions {
            // The generated fist bends each finger 245° (MCP + PIP + DIP).
            for finger in ["index", "middle", "ring", "little"] {
                let reach = try #require(rep.fingers[finger])
                #expect(abs(reach - 245) < 20, "rep \(rep.index) \(finger): \(reach)")
            }
        }
        let tam = try #require(summary.totalActiveMotion)
        #expect(abs(try #require(tam["index"]) - 245) < 20, "\(tam)")
        #expect(summary.basis == "depth" && summary.view == "facing")
    }

    @Test func aLittleFingerThatBendsLessGetsItsOwnCue() throws {
        let (summary, snapshots) = try Self.run("finger-flexion", Self.fistFrames(cycles: 4, little: 0.4))
        #expect(summary.reps == 4)
        #expect(summary.repetitions.allSatisfy { $0.issues == ["Bend your little finger further"] })
        let said = snapshots.compactMap(\.cue).map(\.text)
        #expect(said.first == "Bend your little finger further", "\(said)")
        #expect(summary.fingers.first { $0.finger == "little" }?.reached == false)
        #expect(summary.fingers.first { $0.finger == "index" }?.reached == true)
    }

    @Test func aHeldGripIsCheckedAgainstItsHold() throws {
        // The generated fist is held 0.5 s: grip-and-release asks 3 s.
        let (summary, _) = try Self.run("grip-and-release", Self.fistFrames(cycles: 3))
        #expect(summary.reps == 3)
        #expect(summary.repetitions.allSatisfy { $0.issues.first == "Hold the position for 3 s before letting go" })
    }

    @Test(arguments: [1.0, 3.0])
    func aStillHandWithNoiseCountsNothing(noise: Double) throws {
        var rng = SplitMix64(seed: 7)
        let frames = (0..<300).map { i in
            HandFrame(
                seconds: Double(i) / 30,
                hands: [Self.fist(0.1).pose(viewDegrees: 0, noise: noise, depthNoise: noise * 2, using: &rng)]
            )
        }
        for id in try Self.library().ids {
            #expect(try Self.run(id, frames).0.reps == 0, "\(id) counted a still hand")
        }
    }

    @Test func aHandThatComesAndGoesCountsNothing() throws {
        // Detections flickering: an open hand, then a fist in isolated frames, as a model's glitches would.
        var rng = SplitMix64(seed: 3)
        let frames = (0..<300).map { i -> HandFrame in
            let t = Double(i) / 30
            if i % 7 == 3 { return HandFrame(seconds: t, hands: []) }
            let share = i % 11 == 5 ? 1.0 : 0.0
            return HandFrame(seconds: t, hands: [Self.fist(share).pose(viewDegrees: 0, noise: 1, using: &rng)])
        }
        #expect(try Self.run("finger-flexion", frames).0.reps == 0)
    }

    @Test func setUpIssuesAreSaidAndStopTheCount() throws {
        var rng = SplitMix64(seed: 5)
        let open = Self.fist(0).pose(viewDegrees: 0, using: &rng)
        func shifted(_ hand: HandPose, dx: Double, dy: Double = 0) -> HandPose {
            var copy = hand
            copy.keypoints = hand.keypoints.map {
                Keypoint(x: $0.x + dx, y: $0.y + dy, z: $0.z, confidence: $0.confidence)
            }
            return copy
        }
        let cases: [(HandSetUp.Issue, [HandPose])] = [
            (.noHand, []),
            (.tooManyHands, [open, shifted(open, dx: -200), shifted(open, dx: 200)]),
            (.handsCrossed, [open, shifted(open, dx: 15, dy: 10)]),
            (.outOfFrame, [shifted(open, dx: 330)]),
        ]
        for (issue, hands) in cases {
            let check = HandSetUp.check(hands, width: 640, height: 480, side: .either)
            #expect(check.issue == issue, "\(issue)")
            // Nothing is counted while the issue lasts, and the cue is said after half a second.
            var frames: [HandFrame] = []
            for i in 0..<240 {
                let t = Double(i) / 30
                frames.append(HandFrame(seconds: t, hands: hands))
            }
            let (summary, snapshots) = try Self.run("finger-flexion", frames)
            #expect(summary.reps == 0)
            #expect(snapshots.compactMap(\.cue).first?.text == issue.cue(), "\(issue)")
            #expect(snapshots[5].setUp == nil && snapshots[30].setUp == issue)
        }
        // Two hands apart: the larger is coached.
        let far = SyntheticHand(chirality: .right).pose(viewDegrees: 0, using: &rng)
        let check = HandSetUp.check([shifted(far, dx: -250), open], width: 640, height: 480, side: .right)
        #expect(check.issue == nil && check.index == 0)
        #expect(HandSetUp.check([open], width: 640, height: 480, side: .right).issue == .wrongHand)
    }

    @Test func theKapandjiScoreIsTheFurthestPositionTheThumbReaches() {
        var rng = SplitMix64(seed: 9)
        let open = SyntheticHand(chirality: .right).pose(viewDegrees: 0, using: &rng)
        #expect(KapandjiScore.level(open) == nil)
        func touching(_ target: Vector2) -> HandPose {
            var hand = open
            hand[.thumbTip] = Keypoint(x: target.x, y: target.y, confidence: 1)
            return hand
        }
        #expect(KapandjiScore.level(touching(open[.indexTip].point)) == 3)
        #expect(KapandjiScore.level(touching(open[.littleTip].point)) == 6)
        #expect(KapandjiScore.level(touching(open[.littleMCP].point)) == 9)
        var score = KapandjiScore()
        for hand in [touching(open[.indexTip].point), touching(open[.indexTip].point), touching(open[.indexTip].point)]
        {
            score.ingest(hand)
        }
        // One frame at the little finger's base is not a reach; three are.
        score.ingest(touching(open[.littleMCP].point))
        score.ingest(open)
        #expect(score.score == 3)
        for _ in 0..<3 { score.ingest(touching(open[.littleMCP].point)) }
        #expect(score.score == 9)
    }
}

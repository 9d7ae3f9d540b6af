import CoachKit
import CoachTestSupport
import Foundation
import PoseKit
import Testing

// Framing, the depth verdict and per-repetition results.
extension CoachingSessionTests {
    /// Squats seen in a picture `height` pixels high (the feet stand at y = 445).
    static func runSquats(height: Double, reps: Int = 4) throws -> CoachingSession {
        var session = CoachingSession(
            configuration: .init(
                exercise: try Self.library()["squat"]!,
                frameWidth: SyntheticExercise.width,
                frameHeight: height,
                emitsPoseEvents: false
            )
        )
        for frame in SyntheticExercise(kind: .squat).frames(reps: reps) { _ = session.ingest(frame) }
        return session
    }

    @Test func anAngleEndJustOutsideThePictureIsStillMeasured() throws {
        // Ankles 15 px below a 430-px picture: the knee is in it and 80 % of the shank too, so the knee angle
        // is measured and every squat counts (a push-up's wrists below the picture, push-up_1).
        let session = try Self.runSquats(height: 430)
        #expect(session.repetitions.count == 4)
        #expect(session.snapshot.setupGuidance == nil)
    }

    @Test func anAngleEndFarOutsideThePictureIsNotMeasured() throws {
        // In a 390-px picture less than a third of the shank is visible: no direction to measure, so nothing
        // counts and the person is asked to step back.
        let session = try Self.runSquats(height: 390)
        #expect(session.repetitions.isEmpty)
        #expect(session.snapshot.setupGuidance?.contains("Step back") == true)
    }

    @Test func aBilateralExerciseSeenFromTheSideIsJudgedOnTheSideCounted() throws {
        // The far (right) leg, poorly seen, reads a straight knee throughout, as a pose estimator's guess of a
        // hidden limb can: the depth rule must not say "squat deeper" about a 95° squat of the near leg.
        var frames = SyntheticExercise(kind: .squat, noisePixels: 0, peakDegrees: 95).frames(reps: 3)
        for i in frames.indices {
            var pose = frames[i].poses[0]
            let hip = pose[.rightHip]
            pose[.rightKnee] = Keypoint(x: hip.x + 3, y: hip.y + 85, confidence: 0.4)
            pose[.rightAnkle] = Keypoint(x: hip.x + 4, y: hip.y + 165, confidence: 0.4)
            pose[.rightHip].confidence = 0.4
            frames[i].poses[0] = pose
        }
        let (session, _) = try Self.run(frames, exercise: "squat")
        #expect(session.repetitions.count == 3)
        for rep in session.repetitions {
            #expect(!rep.issues.contains { $0.rule == "depth" }, "\(rep.issues)")
            let knee = try #require(rep.angles.first)
            #expect(knee.angle == .kneeFlexion && knee.side == .left)
            // The value the rule judges is the peak the range-of-motion text reports.
            #expect(abs(knee.atPeak - (rep.peakAngle ?? 0)) < 1e-9)
        }
    }

    @Test func aOneFrameGlitchIsNotTheAngleReached() throws {
        // One frame in the rest between squats 3 and 4 throws both ankles up behind the knees, so that the
        // knees read about 145° for that frame only.
        var frames = SyntheticExercise(kind: .squat, noisePixels: 0, peakDegrees: 95).frames(reps: 4)
        let glitch = try #require(frames.firstIndex { $0.seconds >= 1 + 2 * 2.7 + 2.45 })
        for joint in [Joint.leftAnkle, .rightAnkle] {
            frames[glitch].poses[0][joint].x -= 40
            frames[glitch].poses[0][joint].y -= 140
        }
        let (session, _) = try Self.run(frames, exercise: "squat")
        #expect(session.repetitions.count == 4)
        for rep in session.repetitions {
            let knee = try #require(rep.angles.first { $0.angle == .kneeFlexion })
            #expect(knee.max < 105, "rep \(rep.index): knee flexion \(knee.min)–\(knee.max)°")
        }
    }

    /// The first second: standing still while the guessed depth of the knees swings 60 px forward and back (a 3-D
    /// knee angle of about 70°, squat_13's first "repetition"); then three real squats.
    static func phantomThenThreeSquats() -> [PoseFrame] {
        withDepth(SyntheticExercise(kind: .squat, idleBeforeSeconds: 1.2).frames(reps: 3), rigid: false).map { frame in
            var frame = frame
            if frame.seconds > 0.1, frame.seconds < 0.9 {
                let bump = 60 * sin(Double.pi * (frame.seconds - 0.1) / 0.8)
                for joint in [Joint.leftKnee, .rightKnee] { frame.poses[0][joint].z! -= bump }
            }
            return frame
        }
    }

    @Test func aPhantomRepetitionOnGuessedDepthIsReplacedByTheImagePlaneCount() throws {
        let frames = Self.phantomThenThreeSquats()
        let (session, _) = try Self.run(frames, exercise: "squat")
        #expect(session.repetitions.count == 3)
        #expect(session.repetitions.allSatisfy { $0.startSeconds > 1 })
    }

    /// Squats of `repSeconds` on a guessed depth (verdict after 30 frames, 1 s): the first one, checked to reach
    /// the maxima of `kinds` that the last one reaches (within 8°), for tests of repetitions around the verdict.
    static func firstOfQuickSquatsOnGuessedDepth(
        repSeconds: Double,
        idleBefore: Double,
        reps: Int,
        reaching kinds: [AngleKind]
    ) throws -> Repetition {
        let frames = withDepth(
            SyntheticExercise(kind: .squat, repSeconds: repSeconds, idleBeforeSeconds: idleBefore).frames(reps: reps),
            rigid: false
        )
        let (session, _) = try run(frames, exercise: "squat")
        #expect(session.repetitions.count == reps)
        let first = try #require(session.repetitions.first)
        let last = try #require(session.repetitions.last)
        for kind in kinds {
            let reached = try #require(first.angles.first { $0.angle == kind }, "\(kind) missing").max
            let then = try #require(last.angles.first { $0.angle == kind }).max
            #expect(abs(reached - then) < 8, "\(kind): first squat \(reached)°, last \(then)°")
        }
        return first
    }

    @Test func aRepetitionUnderWayAtTheDepthVerdictKeepsWhatItReachedBeforeIt() throws {
        // Quick squats on a guessed depth: the first one peaks at 0.7 s and the depth proves a guess after 30
        // frames (1 s), while it is on its way up. Its angles must still reach its peak, in the image plane the
        // counter followed (they used to start afresh at the verdict: the trunk lean's range ended near 11°,
        // and a bilateral pull-up's "target reached" sat beside "Pull a little higher").
        let first = try Self.firstOfQuickSquatsOnGuessedDepth(
            repSeconds: 1,
            idleBefore: 0.2,
            reps: 3,
            reaching: [.kneeFlexion, .hipFlexion, .trunkLean]
        )
        let knee = try #require(first.angles.first { $0.angle == .kneeFlexion })
        let peak = try #require(first.peakAngle)
        #expect(peak <= knee.max + 1e-9 && peak >= knee.min - 1e-9, "peak \(peak)° outside \(knee.min)–\(knee.max)°")
    }

    @Test func theDepthVerdictWaitsForFramesThatShowThePerson() {
        // 40 poses showing two limb joints (someone at the edge of the picture) decide nothing; the verdict
        // comes from the frames that show the person.
        let frames = Self.withDepth(SyntheticExercise(kind: .squat).frames(reps: 2), rigid: true)
        var check = DepthJitterCheck()
        for frame in frames.prefix(40) {
            var pose = frame.poses[0]
            for joint in Joint.allCases where joint != .leftShoulder && joint != .leftHip { pose[joint] = .missing }
            check.ingest(pose)
        }
        #expect(check.trusted == nil)
        for frame in frames.prefix(40) { check.ingest(frame.poses[0]) }
        #expect(check.trusted == true)
    }

    @Test func aFormJointOutOfThePictureIsAskedForWhileTheCountGoesOn() throws {
        // Shoulder abductions with the hands never seen (beyond the picture's sides): the shoulder angle counts
        // every raise, and the coach asks to step back so that the elbow rule (arms straight) can be judged.
        let frames = SyntheticExercise(kind: .shoulderAbduction).frames(reps: 6).map { frame in
            var frame = frame
            for joint in [Joint.leftWrist, .rightWrist] { frame.poses[0][joint] = .missing }
            return frame
        }
        let (session, events) = try Self.run(frames, exercise: "shoulder-abduction")
        #expect(session.repetitions.count == 6)
        let asked = events.compactMap { if case .setupGuidance(let text) = $0 { text } else { nil } }
        #expect(asked == ["Step back so that your hands are in the picture, so I can check your form"])
    }
}

extension CoachingSessionTests {
    /// Four repetitions seen from the front, 2.4 s each (`repFrames`) after a 1-s rest (`restFrames`) and 0.3 s
    /// apart: `pose(phase)` gives the pose at each phase of a repetition (0 rest, 1 peak).
    static func frontView(restFrames: Int = 30, repFrames: Int = 72, _ pose: (Double) -> Pose) -> [PoseFrame] {
        var frames: [PoseFrame] = []
        var t = 0.0
        func add(_ phase: Double) {
            // Hips 48 px apart, 0.42 of the torso: square-on to the camera (the generator's 36 px read as turned).
            var pose = pose(phase)
            pose[.leftHip].x += 6
            pose[.rightHip].x -= 6
            frames.append(PoseFrame(seconds: t, poses: [pose]))
            t += 1 / 30.0
        }
        for _ in 0..<restFrames { add(0) }
        for _ in 0..<4 {
            for i in 0..<repFrames { add(0.5 - 0.5 * cos(2 * .pi * Double(i) / Double(repFrames))) }
            for _ in 0..<9 { add(0) }
        }
        for _ in 0..<30 { add(0) }
        return frames
    }

    @Test func unevenSidesAreToldWhereTheViewMeasuresTheAngle() throws {
        // Lateral raises from the front (the view they need), the left arm to 90°, the right to 60°.
        let frames = Self.frontView {
            SyntheticExercise.body(cx: 320, view: .front, abduction: (15 + 75 * $0, 15 + 45 * $0))
        }
        let (session, _) = try Self.run(frames, exercise: "lateral-raise")
        #expect(session.repetitions.count == 4)
        for rep in session.repetitions {
            #expect(rep.measurementReliable)
            #expect(rep.issues.contains { $0.rule == "symmetry" }, "rep \(rep.index): \(rep.issues.map(\.rule))")
        }
    }

    @Test func unevenSidesAreNotToldFromAnAngleTheViewCannotMeasure() throws {
        // Squats from the front (they need a side view): the left knee goes out four times as far as the right,
        // so the two image-plane knee angles differ by about 50° at the bottom, as an occluded knee reads
        // (squat_13 behind a rack's upright: 134° against 82°, "Move both sides evenly" on a symmetric squat).
        let frames = Self.frontView { phase in
            var pose = SyntheticExercise.body(cx: 320, view: .front, knee: 5 + 90 * phase)
            pose[.leftKnee].x += 60 * phase
            pose[.rightKnee].x -= 15 * phase
            return pose
        }
        let (session, _) = try Self.run(frames, exercise: "squat")
        #expect(session.repetitions.count == 4)
        for rep in session.repetitions {
            #expect(!rep.measurementReliable)
            #expect(!rep.issues.contains { $0.rule == "symmetry" }, "rep \(rep.index): \(rep.issues.map(\.rule))")
        }
    }

    @Test func aRepetitionDoneBeforeTheDepthVerdictIsJudgedAsMeasuredInTheImagePlane() throws {
        // A 0.6-s squat done before the depth proves a guess (after 30 frames) is recounted in the image plane
        // with its whole statistics (it kept only the knee's rest and peak: "chest-up not measured in the
        // recount"), and judged by what the view measures: from the front a squat's range is not measurable
        // (it was judged as if the depth were measured: kaiakol squat_correct_004 from behind, "past the
        // target range").
        let first = try Self.firstOfQuickSquatsOnGuessedDepth(
            repSeconds: 0.6,
            idleBefore: 0.1,
            reps: 4,
            reaching: [.hipFlexion, .trunkLean]
        )
        try #require(first.endSeconds < 1)
        #expect(!first.uncheckedRules.contains("chest-up"), "\(first.uncheckedReason ?? "")")

        let front = Self.withDepth(
            Self.frontView(restFrames: 3, repFrames: 18) { phase in
                var pose = SyntheticExercise.body(cx: 320, view: .front, knee: 5 + 90 * phase)
                pose[.leftKnee].x += 40 * phase
                pose[.rightKnee].x -= 40 * phase
                return pose
            },
            rigid: false
        )
        let (fromTheFront, _) = try Self.run(front, exercise: "squat")
        let recounted = try #require(fromTheFront.repetitions.first)
        try #require(recounted.endSeconds < 1)
        #expect(!recounted.measurementReliable)
    }
}

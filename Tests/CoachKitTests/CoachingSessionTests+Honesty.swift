import CoachKit
import CoachTestSupport
import Foundation
import PoseKit
import Testing

/// What a repetition says it could not check, what happens to the cues of withdrawn repetitions, and gaps in
/// the pose bridged within a repetition.
extension CoachingSessionTests {
    // MARK: - Rules not checked

    @Test func aSideViewSquatSaysTheFrontViewRuleWasNotChecked() throws {
        let frames = SyntheticExercise(kind: .squat, noisePixels: 0, peakDegrees: 95).frames(reps: 3)
        let (session, _) = try Self.run(frames, exercise: "squat")
        #expect(session.repetitions.count == 3)
        for rep in session.repetitions {
            #expect(rep.uncheckedRules == ["knees-out"])
            #expect(rep.uncheckedReason == "knees-out needs a front view")
            // The rules checked (chest up, depth) are kept: the verdict is theirs.
            #expect(rep.verdict == .good, "\(rep.issues)")
        }
    }

    @Test func aFormRuleWhoseJointsAreOutOfThePictureIsNotCheckedAndSaysWhy() throws {
        // Shoulder abductions with the hands never seen: the elbow rule cannot be checked; the lean rule can.
        let frames = SyntheticExercise(kind: .shoulderAbduction).frames(reps: 4).map { frame in
            var frame = frame
            for joint in [Joint.leftWrist, .rightWrist] { frame.poses[0][joint] = .missing }
            return frame
        }
        let (session, _) = try Self.run(frames, exercise: "shoulder-abduction")
        #expect(session.repetitions.count == 4)
        for rep in session.repetitions {
            #expect(rep.uncheckedRules == ["elbow-straight"])
            #expect(rep.uncheckedReason == "hands out of the picture")
            #expect(rep.verdict == .good)
        }
        let json = String(decoding: try JSONEncoder().encode(session.summary()), as: UTF8.self)
        #expect(json.contains(#""uncheckedRules":["elbow-straight"]"#))
    }

    @Test func anAngleThroughAJointFarOutsideThePictureIsNotJudged() throws {
        // The hands placed far beyond the picture's sides with full confidence (a pose estimator's guess), the
        // forearms pointing up: judged, that would be "keep your elbow straight" on every repetition.
        let frames = SyntheticExercise(kind: .shoulderAbduction).frames(reps: 4).map { frame in
            var frame = frame
            for (wrist, elbow) in [(Joint.leftWrist, Joint.leftElbow), (.rightWrist, .rightElbow)] {
                let e = frame.poses[0][elbow]
                frame.poses[0][wrist] = Keypoint(x: e.x < 320 ? -1500 : 2140, y: e.y - 2000, confidence: 0.9)
            }
            return frame
        }
        let (session, _) = try Self.run(frames, exercise: "shoulder-abduction")
        #expect(session.repetitions.count == 4)
        for rep in session.repetitions {
            #expect(!rep.issues.contains { $0.rule == "elbow-straight" }, "\(rep.issues)")
            #expect(rep.uncheckedRules.contains("elbow-straight"))
        }
    }

    @Test func aRealPushUpWithTheFeetOutOfThePictureSaysTheBodyLineWasNotChecked() throws {
        // kaiakol pushup_correct_001 with the feet moved far below the picture (as a camera placed too close
        // would show it): the body-line rule, shoulders to ankles, cannot be checked; the depth rule can.
        let path = RealPushUpTests.data.appendingPathComponent("pushup_correct_001.jsonl").path
        try #require(
            FileManager.default.fileExists(atPath: path),
            "missing \(path): the real-clip tests need ../shared/data next to the repository"
        )
        let (header, frames) = try PoseTrackReader.readAll(path: path)
        let height = Double(header.height)
        let cut = frames.map { frame in
            var frame = frame
            for p in frame.poses.indices {
                for joint in [Joint.leftAnkle, .rightAnkle, .leftHeel, .rightHeel, .leftFootIndex, .rightFootIndex] {
                    frame.poses[p][joint].y += height
                }
            }
            return frame
        }
        func run(_ frames: [PoseFrame]) throws -> [Repetition] {
            var session = CoachingSession(
                configuration: .init(
                    exercise: try ExerciseLibrary.bundled().exercise(id: "push-up"),
                    frameWidth: Double(header.width),
                    frameHeight: height,
                    emitsPoseEvents: false
                )
            )
            for frame in frames { _ = session.ingest(frame) }
            return session.repetitions
        }
        let whole = try run(frames)
        let reps = try run(cut)
        #expect(reps.count == whole.count && !reps.isEmpty)
        for rep in whole { #expect(!rep.uncheckedRules.contains("body-line")) }
        for rep in reps {
            // Both rules need the ankles.
            #expect(rep.uncheckedRules == ["body-line", "knees-straight"])
            // The depth, 2° inside its bound in this clip, is too close to call (``Repetition/closeCalls``).
            #expect(rep.uncheckedReason?.hasPrefix("feet out of the picture") == true)
            #expect(!rep.issues.contains { $0.rule == "body-line" })
            #expect((rep.verdict == .good) == (rep.issues.isEmpty && rep.closeCalls == nil))
        }
    }

    @Test func aSummaryWrittenBeforeTheNewFieldsStillReads() throws {
        let frames = SyntheticExercise(kind: .squat).frames(reps: 2)
        let summary = try Self.run(frames, exercise: "squat").session.summary()
        #expect(summary.repetitions.first?.uncheckedRules.isEmpty == false)
        var object = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(summary)) as? [String: Any]
        )
        object["withdrawnCues"] = nil
        let reps = try #require(object["repetitions"] as? [[String: Any]])
        object["repetitions"] = reps.map { rep in
            var rep = rep
            for key in ["uncheckedRules", "uncheckedReason", "gapSeconds"] { rep[key] = nil }
            return rep
        }
        let old = try JSONDecoder().decode(SessionSummary.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(old.reps == 2 && old.withdrawnCues.isEmpty)
        #expect(
            old.repetitions.allSatisfy { $0.uncheckedRules.isEmpty && $0.uncheckedReason == nil && $0.gapSeconds == 0 }
        )
        // And the new fields survive a round trip.
        let again = try JSONDecoder().decode(SessionSummary.self, from: JSONEncoder().encode(summary))
        #expect(again == summary)
    }

    // MARK: - Withdrawn repetitions

    @Test func theCuesOfAWithdrawnRepetitionAreNotTheSessionsIssues() throws {
        // The phantom repetition on guessed depth (aPhantomRepetitionOnGuessedDepthIsReplacedByTheImagePlaneCount)
        // is counted and cued live, then withdrawn when the depth proves a guess.
        let frames = CoachingSessionTests.phantomThenThreeSquats()
        let (session, events) = try Self.run(frames, exercise: "squat")
        let summary = session.summary()
        #expect(summary.reps == 3)
        let firstEnd = try #require(summary.repetitions.first?.endSeconds)
        // The phantom was cued live (before any real repetition ended) ...
        let spoken = events.compactMap { if case .cue(let cue) = $0 { cue } else { nil } }
        #expect(spoken.contains { ($0.kind == .form || $0.kind == .encouragement) && $0.seconds < firstEnd })
        // ... and that cue is now listed as withdrawn, not among the session's cues.
        #expect(summary.withdrawnCues.contains { $0.seconds < firstEnd })
        #expect(!summary.cues.contains { ($0.kind == .form || $0.kind == .encouragement) && $0.seconds < firstEnd })
        // Every issue listed belongs to a repetition that exists.
        for issue in summary.formIssues {
            let rep = try #require(summary.repetitions.first { $0.index == issue.repetition })
            #expect(rep.issues.contains { $0.rule == issue.rule })
            #expect(issue.seconds >= firstEnd - 1e-9)
        }
    }

    @Test func aWithdrawnCueWaitingForItsTurnIsNotGiven() {
        var cues = CueScheduler(configuration: .init(cooldownSeconds: 4))
        #expect(cues.offer(Cue(kind: .safety, text: "Stop", seconds: 0)) != nil)
        _ = cues.offer(Cue(kind: .form, text: "Squat a little deeper", priority: 3, seconds: 1))
        cues.withdrawPending { $0.kind == .form }
        #expect(cues.ingest(at: 4.5) == nil)
    }

    // MARK: - Gaps in the pose

    /// Squat frames (5 repetitions after 1 s of rest, one every 2.7 s) changed by `edit(pose, secondsIntoRep)`
    /// during repetition `rep`, from `from` to `to` seconds into it; `nil` removes the pose.
    static func squats(rep: Int, from: Double, to: Double, _ edit: (Pose, Double) -> Pose?) -> [PoseFrame] {
        SyntheticExercise(kind: .squat, idleBeforeSeconds: 1).frames(reps: 5).map { frame in
            let index = Int((frame.seconds - 1) / 2.7)
            let inRep = (frame.seconds - 1) - 2.7 * Double(index)
            guard frame.seconds > 1, index == rep, inRep > from, inRep < to else { return frame }
            var frame = frame
            frame.poses = edit(frame.poses[0], inRep).map { [$0] } ?? []
            return frame
        }
    }

    @Test(arguments: [0.8, 1.3])
    func kneesOutOfThePictureUpToASecondInARepetitionAreBridged(seconds: Double) throws {
        let (session, _) = try Self.run(Self.kneesOutOfFrame(seconds: seconds, rep: 2), exercise: "squat")
        if seconds <= 1 {
            // Still deep after the gap: the same squat, counted, and it says so.
            #expect(session.repetitions.count == 5)
            let gaps = session.repetitions.map(\.gapSeconds)
            #expect(abs(gaps[2] - seconds) < 0.1, "\(gaps)")
            #expect(gaps.enumerated().allSatisfy { $0.offset == 2 || $0.element == 0 }, "\(gaps)")
        } else {
            // Longer than a second: dropped, as before.
            #expect(session.repetitions.count == 4)
            #expect(session.repetitions.allSatisfy { $0.gapSeconds == 0 })
        }
    }

    @Test func aPoseLostAtTheBottomOfASquatAndFoundStillLowIsTheSameSquat() throws {
        // No pose from 0.9 to 1.7 s into the squat (knee about 81° before, 62° after).
        let frames = Self.squats(rep: 2, from: 0.9, to: 1.7) { _, _ in nil }
        let (session, _) = try Self.run(frames, exercise: "squat")
        #expect(session.repetitions.count == 5)
        let rep = try #require(session.repetitions.dropFirst(2).first)
        // The selector keeps the last pose for a moment, so the gap recorded is shorter than the frames without one.
        #expect(rep.gapSeconds > 0.4 && rep.gapSeconds < 0.9, "\(rep.gapSeconds)")
        #expect(rep.startSeconds < 1 + 2 * 2.7 + 0.9 && rep.endSeconds > 1 + 2 * 2.7 + 1.7)
    }

    @Test func aPoseFoundStandingAfterTheGapDoesNotCompleteTheSquat() throws {
        // Lost from the bottom (1.2 s) until the knee is back below the lower threshold (2.0 s, 27°): the way up
        // was not seen, so the squat is dropped rather than guessed.
        let frames = Self.squats(rep: 2, from: 1.2, to: 2.0) { _, _ in nil }
        let (session, _) = try Self.run(frames, exercise: "squat")
        #expect(session.repetitions.count == 4)
    }

    /// `pose` with every joint seen moved `dx` pixels to the side.
    static func shifted(_ pose: Pose, by dx: Double) -> Pose {
        var moved = pose
        for joint in Joint.allCases where moved[joint].confidence > 0 { moved[joint].x += dx }
        return moved
    }

    /// The third squat lost at its bottom (0.9–1.5 s into it) and found 200 px to the side until 2.4 s.
    static func squatsFoundElsewhere() -> [PoseFrame] {
        squats(rep: 2, from: 0.9, to: 2.4) { pose, inRep in inRep >= 1.5 ? shifted(pose, by: 200) : nil }
    }

    /// The third squat interrupted 0.7–1.7 s into it by a walk 300 px to the right and back.
    static func squatsWithAWalk() -> [PoseFrame] {
        squats(rep: 2, from: 0.7, to: 1.7) { pose, inRep in
            let u = (inRep - 0.7) / 1.0
            return shifted(pose, by: 300 * (u < 0.5 ? 2 * u : 2 - 2 * u))
        }
    }

    @Test func aPoseFoundElsewhereAfterTheGapIsNotTheSameSquat() throws {
        // Lost for 0.6 s at the bottom, found 200 px to the side (about two torso lengths): someone else, or the
        // person moved; the squat under way is dropped.
        let frames = Self.squatsFoundElsewhere()
        let (session, _) = try Self.run(frames, exercise: "squat")
        #expect(session.repetitions.allSatisfy { $0.gapSeconds == 0 })
        #expect(
            !session.repetitions.contains { $0.startSeconds < 1 + 2 * 2.7 + 0.9 && $0.endSeconds > 1 + 2 * 2.7 + 1.5 }
        )
    }

    @Test(arguments: [1.0, 2.5])
    func walkingOutAndBackInWithinASecondIsNoRepetition(bridgeSeconds: Double) throws {
        // In the middle of squat 3 the person walks 300 px to the right (out of the picture) and back in 1 s,
        // arriving where they were: the walk ends the squat; nothing is bridged, also with a 2.5-s bridge. (The
        // person counts as walking until a second after the feet stop, by when this squat is back at rest, so the
        // angle does not continue it either; a stretch with walking is never bridged in any case. The next squat,
        // begun right after the walk, is not counted: the person has to settle first.)
        let frames = Self.squatsWithAWalk()
        var session = CoachingSession(
            configuration: .init(
                exercise: try Self.library()["squat"]!,
                frameWidth: SyntheticExercise.width,
                frameHeight: SyntheticExercise.height,
                emitsPoseEvents: false,
                bridgeSeconds: bridgeSeconds
            )
        )
        for frame in frames { _ = session.ingest(frame) }
        #expect(session.repetitions.count == 3)
        #expect(session.repetitions.allSatisfy { $0.gapSeconds == 0 })
        #expect(!session.repetitions.contains { $0.startSeconds < 1 + 2 * 2.7 + 1.7 && $0.endSeconds > 1 + 2 * 2.7 })
    }
}

// MARK: - With no exercise given

extension CoachingSessionTests {
    /// The squat frames with no pose from `from` to `to` seconds into every repetition.
    static func squatsLost(from: Double, to: Double) -> [PoseFrame] {
        SyntheticExercise(kind: .squat, idleBeforeSeconds: 1).frames(reps: 5).map { frame in
            let inRep = (frame.seconds - 1).truncatingRemainder(dividingBy: 2.7)
            guard frame.seconds > 1, inRep > from, inRep < to else { return frame }
            var frame = frame
            frame.poses = []
            return frame
        }
    }

    @Test func withNoExerciseAPoseLostInEveryRepetitionAndFoundWhereItWasIsBridged() throws {
        // Lost at the bottom of every squat and found still low (as push-up_37's head leaves the picture at every
        // top): the movement's signal continues each repetition, so all five count, each with its gap.
        let (session, _) = try Self.run(Self.squatsLost(from: 0.9, to: 1.7), exercise: nil)
        let gaps = session.repetitions.map(\.gapSeconds)
        #expect(session.repetitions.count == 5, "\(gaps)")
        #expect(gaps.allSatisfy { $0 > 0.4 && $0 < 0.9 }, "\(gaps)")
        // Found standing again (knee 14°), the way up was not seen: no squat is guessed.
        let standing = try Self.run(Self.squatsLost(from: 1.2, to: 2.15), exercise: nil).session
        #expect(standing.repetitions.isEmpty, "\(standing.repetitions.map { ($0.startSeconds, $0.endSeconds) })")
    }

    @Test func withNoExerciseAPoseFoundElsewhereOrAWalkIsNoRepetition() throws {
        let moved = Self.squatsFoundElsewhere()
        let walked = Self.squatsWithAWalk()
        for (frames, from) in [(moved, 0.9), (walked, 0.7)] {
            let session = try Self.run(frames, exercise: nil).session
            #expect(session.repetitions.allSatisfy { $0.gapSeconds == 0 })
            #expect(
                !session.repetitions.contains {
                    $0.startSeconds < 1 + 2 * 2.7 + from && $0.endSeconds > 1 + 2 * 2.7 + 1.5
                }
            )
        }
    }

    @Test(arguments: [SyntheticExercise.Kind.shoulderAbduction, .squat], [(5.0, 1.0), (10, 1), (12, 0.5)])
    func withNoExerciseRepetitionsHeldAtTheTopAreEachCounted(
        kind: SyntheticExercise.Kind,
        hold: (Double, Double)
    ) throws {
        // Six repetitions, each held 5 s at the top with 1 s of rest between: the body spends most of the
        // movement's window in one position, which the clipping of glitches took for the whole range, so the
        // rests were clipped to it and repetitions merged (5 of 6 counted). Held 10 s, longer than the 8-s window:
        // the window held the one position alone (5 of 6). Held 12 s with half a second of rest: the window held
        // too little of each rest to keep it from the clip (4 of 6).
        let (holdSeconds, restSeconds) = hold
        let frames = SyntheticExercise(kind: kind, repSeconds: 2, holdSeconds: holdSeconds, restSeconds: restSeconds)
            .frames(reps: 6)
        let session = try Self.run(frames, exercise: nil).session
        #expect(session.repetitions.count == 6, "\(session.repetitions.map { ($0.startSeconds, $0.endSeconds) })")
        // Each one lasts its hold and about half of its 2 s of movement (the thresholds cut the rest off): it
        // does not end in mid-hold.
        for rep in session.repetitions.dropFirst() {
            let seconds = rep.endSeconds - rep.startSeconds
            #expect(abs(seconds - holdSeconds - 1.5) < 1, "\(rep.startSeconds)-\(rep.endSeconds)")
        }
    }

    @Test(arguments: [
        (SyntheticExercise.Kind.bicepCurl, "bicep-curl"), (.hipExtension, "standing-hip-extension"),
    ])
    func repetitionsHeldLongInASideViewAreNamedForTheirMovement(kind: SyntheticExercise.Kind, id: String) throws {
        // Curls and hip extensions held 8 s, side view, no depth, 1.5 px of keypoint noise: in the windows of the
        // holds, the noise in each segment's length read as the segment turning out of the picture (every segment
        // "swung" 20-25°), and both were named shoulder presses.
        let frames = SyntheticExercise(kind: kind, repSeconds: 2, holdSeconds: 8, restSeconds: 1).frames(reps: 6)
        let summary = try Self.run(frames, exercise: nil).session.summary()
        #expect(summary.exercise == id, "\(summary.segments)")
    }

    @Test func squatsHeldLongWithNoExerciseGivenReportTheirWholeHold() throws {
        // Six squats held 12 s at the bottom, no exercise given, named a wall sit (a hold): the time held came from the
        // movement's signal, whose level shifts while its clip adapts, and the first read 2.8 s.
        let frames = SyntheticExercise(kind: .squat, repSeconds: 2, holdSeconds: 12, restSeconds: 1).frames(reps: 6)
        let summary = try Self.run(frames, exercise: nil).session.summary()
        #expect(summary.exercise == "wall-sit" && summary.repetitions.count == 6, "\(summary.exercise ?? "-")")
        for rep in summary.repetitions {
            let held = try #require(rep.tempo.atPeakSeconds)
            #expect(abs(held - 12) < 1.5, "\(rep.index): \(held) s")
        }
    }

    @Test(arguments: ["shoulder-abduction", nil])
    func aRepetitionHeldAtTheTopReportsItsHoldNotASlowHalf(exercise: String?) throws {
        // Each raise held 5 s at the top: the tempo said about 4 s up and 2 s down, wherever the wobble of the
        // hold put the largest angle; it is up (about 1 s of the 2-s movement), held 5 s, and down.
        let frames = SyntheticExercise(kind: .shoulderAbduction, repSeconds: 2, holdSeconds: 5, restSeconds: 1)
            .frames(reps: 6)
        let session = try Self.run(frames, exercise: exercise).session
        #expect(session.repetitions.count == 6)
        for rep in session.repetitions.dropFirst() {
            let held = try #require(rep.tempo.atPeakSeconds)
            #expect(held > 4.5 && held < 6, "\(rep.tempo) \(rep.startSeconds)-\(rep.endSeconds)")
            #expect(rep.tempo.toPeakSeconds < 1.5 && rep.tempo.fromPeakSeconds < 1.5, "\(rep.tempo)")
        }
    }

    @Test(arguments: [(5.0, false), (2.0, true)])
    func aPrescribedHoldAtThePeakIsCheckedOnEachRepetition(heldSeconds: Double, short: Bool) throws {
        // Raises held 5 s or 2 s at the top, a hold of 5 s prescribed: the short ones are flagged with what was held.
        let frames = SyntheticExercise(
            kind: .shoulderAbduction,
            repSeconds: 2,
            holdSeconds: heldSeconds,
            restSeconds: 1
        )
        .frames(reps: 4)
        var prescription = try #require(Self.library()["shoulder-abduction"])
        prescription.repetition?.holdSeconds = 5
        var session = CoachingSession(
            configuration: .init(exercise: prescription, library: try Self.library().exercises, emitsPoseEvents: false)
        )
        // Live, the overlay counts the time held at each peak, and says when it is enough.
        var longestLive = 0.0
        for frame in frames {
            _ = session.ingest(frame)
            if let live = session.snapshot.peakHold {
                #expect(live.targetSeconds == 5 && live.heldSeconds >= 0.5)
                longestLive = max(longestLive, live.heldSeconds)
            }
        }
        #expect(abs(longestLive - heldSeconds) < 0.6, "\(longestLive)")
        let enough = session.summary().cues.filter { $0.text == "5 s: now come back slowly" }
        // Said when the hold is long enough, on every repetition (8 s apart: it was held back as a repeat on every
        // other one), within a few frames of the 5 s.
        #expect(short ? enough.isEmpty : enough.count == 4, "\(session.summary().cues.map { ($0.seconds, $0.text) })")
        #expect(session.repetitions.count == 4)
        for (cue, rep) in zip(enough, session.repetitions) {
            let peak = try #require(rep.tempo.atPeakSeconds)
            let holdStart = rep.startSeconds + rep.tempo.toPeakSeconds
            #expect(cue.kind == .timing, "\(cue)")
            #expect(abs(cue.seconds - holdStart - 5) < 0.6, "\(cue.seconds) \(holdStart) \(peak)")
        }
        for rep in session.repetitions {
            let issue = rep.issues.first { $0.rule == "hold" }
            #expect((issue != nil) == short, "\(rep.tempo) \(rep.issues)")
            if let issue {
                #expect(abs(issue.value - heldSeconds) < 0.6 && issue.limit == 5, "\(issue)")
                #expect(issue.cue == "Hold the position for 5 s before coming back")
            }
        }
    }

    @Test func shoulderRotationIsNotMeasuredWhereTheShoulderLineIsNotSeen() throws {
        // Side view, no depth: the shoulders 3 px apart, the outward axis is noise.
        let side = SyntheticExercise.body(cx: 320, view: .side, elbow: 90)
        #expect(AngleKind.shoulderRotation.measure(side, side: .left) == nil)
        let front = SyntheticExercise.body(cx: 320, view: .front)
        #expect(AngleKind.shoulderRotation.measure(front, side: .left) != nil)
        // With depth, the same side view shows the shoulder line.
        var deep = side
        deep[.leftShoulder].z = -40
        deep[.rightShoulder].z = 40
        for joint in [Joint.leftElbow, .rightElbow, .leftWrist, .rightWrist] { deep[joint].z = 0 }
        #expect(AngleKind.shoulderRotation.measure(deep, side: .left) != nil)
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func aKneeHeldBentInASideViewIsNotCountedAsShoulderRotations(seed: UInt64) throws {
        // Six knee bends held 12 s (side view, no exercise given): the shoulder rotation read from the 3 px between
        // the shoulders swung with the keypoint noise, counted repetitions in the holds and took over the count
        // (19 and 15 of 6 for two of these seeds).
        let frames = SyntheticExercise(kind: .legCurl, repSeconds: 2, holdSeconds: 12, restSeconds: 0.5, seed: seed)
            .frames(reps: 6)
        let summary = try Self.run(frames, exercise: nil).session.summary()
        #expect(summary.countedBy != .otherAngle(.shoulderRotation))
        #expect(summary.reps >= 5, "\(summary.reps) by \(summary.countedBy)")
        #expect(summary.reps <= 6, "\(summary.reps) by \(summary.countedBy)")
    }

    @Test func aRecordingTooShortForTheMovementsWindowStillCountsItsRepetition() throws {
        // One 1.2-s squat in a 1.6-s clip (kaiakol's clips last 1.1 s): the agnostic counter's window needs 3 s,
        // so the summary looks for the movement in what there is, and the single decision names the exercise.
        let frames = SyntheticExercise(kind: .squat, repSeconds: 1.2, idleBeforeSeconds: 0.2, idleAfterSeconds: 0.1)
            .frames(reps: 1)
        let summary = try Self.run(frames, exercise: nil).session.summary()
        #expect(summary.reps == 1)
        let rep = try #require(summary.repetitions.first)
        #expect(rep.startSeconds < 0.5 && rep.endSeconds > 1.1, "\(rep.startSeconds)–\(rep.endSeconds)")
        #expect(summary.exercise == "squat")
        // Standing still or walking for as long is nothing.
        for kind in [SyntheticExercise.Kind.standStill, .walkOnly] {
            let frames = SyntheticExercise(kind: kind, repSeconds: 1.2, idleBeforeSeconds: 0.2, idleAfterSeconds: 0.1)
                .frames(reps: 1)
            #expect(try Self.run(frames, exercise: nil).session.summary().reps == 0, "\(kind)")
        }
    }

    // MARK: - The angle shown

    @Test func theOverlayShowsTheSideWhoseRepetitionsCount() throws {
        // The left arm curls six times; the right arm, from 2 s to 7 s, is raised once slowly to 150° and held,
        // more range than the left's but no repetition of the curl's rhythm. Once the left's repetitions count,
        // the overlay's angle is the left's, the side the summary reports, not the side that moved more.
        var frames = SyntheticCurl.good.frames(reps: 6)
        var rightMovedMore = false
        for f in frames.indices {
            let t = frames[f].seconds
            let raised = Swift.max(0, Swift.min(1, t - 2, 7 - t))
            guard raised > 0 else { continue }
            var pose = frames[f].poses[0]
            let shoulder = pose[.rightShoulder]
            let elbow = pose[.rightElbow]
            let upper = (elbow.x - shoulder.x, elbow.y - shoulder.y)
            let length = (upper.0 * upper.0 + upper.1 * upper.1).squareRoot() * 0.7 / 0.8
            let direction = atan2(upper.0, upper.1) + (8 + raised * 142) * .pi / 180
            pose[.rightWrist] = Keypoint(
                x: elbow.x + length * sin(direction),
                y: elbow.y + length * cos(direction),
                confidence: 0.9
            )
            frames[f].poses[0] = pose
            let right = AngleKind.elbowFlexion.measure(pose, side: .right, useDepth: false) ?? 0
            if right > 140 { rightMovedMore = true }
        }
        #expect(rightMovedMore)
        var session = CoachingSession(
            configuration: .init(exercise: try Self.library()["bicep-curl"]!, library: try Self.library().exercises)
        )
        var wrongSide: [Double] = []
        for frame in frames {
            _ = session.ingest(frame)
            if let counted = session.repetitions.first?.side, session.snapshot.side != counted {
                wrongSide.append(frame.seconds)
            }
        }
        #expect(session.repetitions.count >= 5)
        #expect(session.repetitions.allSatisfy { $0.side == .left })
        #expect(wrongSide.isEmpty, "the overlay showed the other side at \(wrongSide.prefix(5)) s")
    }
}

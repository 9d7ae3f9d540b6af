import CoachKit
import CoachTestSupport
import Foundation
import PoseKit
import Testing

/// What a patient hears from the built-in rules and recogniser on the labelled clips of `../shared/data`
/// (Pose Trainer's four exercises, kaiakol's push-ups). `scripts/evaluate-feedback.py` reports the same
/// figures; these tests keep them from slipping back.
struct BuiltInFeedbackTests {
    /// What the manifest's clips are named with no exercise given (`none` when nothing), and how many clips.
    static func named(_ manifest: String) throws -> (named: [String: Int], clips: Int) {
        var named: [String: Int] = [:]
        let clips = try Self.clips(manifest)
        for clip in clips {
            named[try Self.summary(clip.path, exercise: nil).exercise ?? "none", default: 0] += 1
        }
        return (named, clips.count)
    }

    /// The clip's verdict as the evaluation calls it: bad when any repetition needs work, good when one was
    /// judged good and none needs work, nil when nothing was counted or checked.
    static func verdict(_ summary: SessionSummary) -> String? {
        let verdicts = summary.repetitions.map(\.verdict)
        if verdicts.contains(.needsWork) { return "bad" }
        return verdicts.contains(.good) ? "good" : nil
    }

    /// A session given `exercise` (`nil`: recognised from the library) for frames of `header`'s size.
    static func session(exercise: String?, header: PoseTrackHeader) throws -> CoachingSession {
        let library = try ExerciseLibrary.bundled()
        return CoachingSession(
            configuration: .init(
                exercise: try exercise.map { try library.exercise(id: $0) },
                library: library.exercises,
                frameWidth: Double(header.width),
                frameHeight: Double(header.height),
                emitsPoseEvents: false
            )
        )
    }

    static func summary(_ path: String, exercise: String?) throws -> SessionSummary {
        let (header, frames) = try PoseTrackReader.readAll(path: path)
        var session = try session(exercise: exercise, header: header)
        for frame in frames { _ = session.ingest(frame) }
        return session.summary()
    }

    /// The manifest's clips and their labels (good/bad; kaiakol's correct/incorrect mapped to them).
    static func clips(_ manifest: String) throws -> [(path: String, label: String)] {
        let path = try SharedData.path("manifests/" + manifest)
        let folder = (path as NSString).deletingLastPathComponent
        return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").dropFirst().map { line in
            let fields = line.split(separator: ",").map(String.init)
            let label = fields[1] == "correct" ? "good" : fields[1] == "incorrect" ? "bad" : fields[1]
            return ((folder as NSString).appendingPathComponent(fields[0]), label)
        }
    }

    /// Clips judged the opposite of their label stay at most the measured number, and clips judged at least the
    /// measured number (2026-11-28, with the close-call margin, ``ExerciseDefinition/FormRule/CloseCallMargin``, and
    /// the push-up's bounds fitted on generated motion: bicep curl 0 wrong of 7 judged, front raise 0 of 13,
    /// shoulder press 0 of 12, shrug 0 of 10, push-ups 3 of 43, of which 1 good called
    /// bad; before the margin 0 of 7, 1 of 16, 5 of 21, 1 of 15 and 7 of 47). A clip not judged is one whose
    /// rule values were all within the margin of a bound, or seen from a view that does not suit the exercise.
    @Test(arguments: [
        ("form-pose-trainer-bicep-curl-train.csv", "bicep-curl", 0, 7),
        ("form-pose-trainer-front-raise-train.csv", "front-raise", 0, 13),
        ("form-pose-trainer-shoulder-press-train.csv", "shoulder-press", 0, 12),
        ("form-pose-trainer-shoulder-shrug-train.csv", "shoulder-shrug", 0, 10),
        ("form-pushup-train.csv", "push-up", 3, 43),
    ])
    func theBuiltInVerdictsFollowTheLabelledFaults(
        manifest: String,
        exercise: String,
        wrongAtMost: Int,
        judgedAtLeast: Int
    ) throws {
        var wrong: [String] = []
        var judged = 0
        for clip in try Self.clips(manifest) {
            guard let verdict = Self.verdict(try Self.summary(clip.path, exercise: exercise)) else { continue }
            judged += 1
            if verdict != clip.label { wrong.append("\((clip.path as NSString).lastPathComponent) (\(clip.label))") }
        }
        #expect(wrong.count <= wrongAtMost, "\(wrong)")
        #expect(judged >= judgedAtLeast, "only \(judged) clips judged")
        if exercise == "push-up" { #expect(wrong.count(where: { $0.hasSuffix("(good)") }) <= 1, "\(wrong)") }
    }

    /// A shoulder press bends and straightens the elbow; a shoulder flexion raises a straight arm
    /// (`motion.hinge`). Pose Trainer's presses, side views: 4 of 21 were named a press before, 17 a shoulder
    /// flexion; now 21 and none.
    @Test func aPressIsNotTakenForAStraightArmRaise() throws {
        let (named, clips) = try Self.named("form-pose-trainer-shoulder-press-train.csv")
        #expect(named["shoulder-press", default: 0] >= clips - 2, "\(named)")
        #expect(named["shoulder-flexion", default: 0] <= 1, "\(named)")
    }

    /// Push-ups in sets with a pike rest between them (hips raised and held, hands and feet where they were),
    /// made from a real kaiakol push-up repeated: the pike's big hip movement must not become the movement counted
    /// and swallow the next set's repetitions. 19 of 30 were counted with no exercise given before the rests
    /// between sets were left out of the fallback's regularity (``CountingSource/irregularity(_:)``).
    @Test(arguments: [([10, 10, 10], 4.0), ([8, 12, 10], 6.0)])
    func aPikeBetweenSetsSwallowsNoRepetition(sets: [Int], restSeconds: Double) throws {
        let path = try SharedData.path("pose-tracks/kaiakol/pushup_correct_003.jsonl")
        let (header, clip) = try PoseTrackReader.readAll(path: path)
        let poses = clip.compactMap(\.poses.first)
        let top = poses.indices.min { poses[$0][.leftShoulder].y < poses[$1][.leftShoulder].y }!
        let cycle = Array(poses[top...] + poses[..<top])
        func pike(_ amount: Double) -> Pose {
            var pose = poses[top]
            let hip = pose[.leftHip].x
            let reach = max(1, abs(hip - pose[.leftAnkle].x), abs(hip - pose[.leftWrist].x))
            let planted: Set<Joint> = [
                .leftAnkle, .rightAnkle, .leftHeel, .rightHeel, .leftFootIndex, .rightFootIndex, .leftWrist,
                .rightWrist,
            ]
            for joint in Joint.allCases where !planted.contains(joint) && pose[joint].confidence > 0 {
                pose[joint].y -= amount * (1 - min(1, abs(pose[joint].x - hip) / reach))
            }
            return pose
        }
        var sequence: [Pose] = []
        for (index, reps) in sets.enumerated() {
            for _ in 0..<reps { sequence += cycle }
            guard index < sets.count - 1 else { break }
            for i in 0..<15 { sequence.append(pike(120 * Double(i) / 15)) }
            for _ in 0..<Int(restSeconds * 30) { sequence.append(pike(120)) }
            for i in 0..<15 { sequence.append(pike(120 * Double(15 - i) / 15)) }
        }
        var rng = SplitMix64(seed: 3)
        let frames = sequence.enumerated().map { i, pose in
            var noisy = pose
            for joint in Joint.allCases where noisy[joint].confidence > 0 {
                noisy[joint].x += rng.gaussian()
                noisy[joint].y += rng.gaussian()
            }
            return PoseFrame(seconds: Double(i) / 30, poses: [noisy])
        }
        let total = sets.reduce(0, +)
        for exercise in [nil, "push-up"] {
            var session = try Self.session(exercise: exercise, header: header)
            for frame in frames { _ = session.ingest(frame) }
            let summary = session.summary()
            #expect(abs(summary.reps - total) <= 1, "\(exercise ?? "no exercise"): \(summary.reps) of \(total)")
        }
    }

    /// From the side, the far arm of a push-up is behind the body and its keypoints are guesses: it must not
    /// veto a movement the near arm shows (kaiakol's 50 push-ups, no exercise given: 48 named push-ups; 39 before,
    /// with 9 named nothing, when the far upper arm's guessed swing had to match the near one's).
    @Test func aPushUpSeenFromTheSideIsNamedFromItsNearArm() throws {
        let (named, clips) = try Self.named("form-pushup-train.csv")
        #expect(named["push-up", default: 0] >= clips - 3, "\(named)")
    }

    /// A plank is a plank after two seconds of holding it: the top of a real push-up held still (1.5-px noise),
    /// with no exercise given, is named a high plank (on straight arms, not the forearm `plank`) within 2.5 s and
    /// timed as a hold.
    @Test func aHighPlankIsNamedWithinTheFirstSeconds() throws {
        let path = try SharedData.path("pose-tracks/kaiakol/pushup_correct_003.jsonl")
        let (header, clip) = try PoseTrackReader.readAll(path: path)
        let poses = clip.compactMap(\.poses.first)
        let top = try #require(poses.min { $0[.leftShoulder].y < $1[.leftShoulder].y })
        var rng = SplitMix64(seed: 1)
        var session = try Self.session(exercise: nil, header: header)
        var namedAt: Double?
        for i in 0..<(8 * 30) {
            var pose = top
            for joint in Joint.allCases where pose[joint].confidence > 0 {
                pose[joint].x += 1.5 * rng.gaussian()
                pose[joint].y += 1.5 * rng.gaussian()
            }
            let t = Double(i) / 30
            _ = session.ingest(PoseFrame(seconds: t, poses: [pose]))
            if namedAt == nil, session.snapshot.exerciseID == "high-plank" { namedAt = t }
        }
        let at = try #require(namedAt, "never named a high plank")
        #expect(at <= 2.5, "named at \(at) s")
        let summary = session.summary()
        #expect(summary.exercise == "high-plank")
        #expect((summary.holds.first?.heldSeconds ?? 0) >= 7, "\(summary.holds)")
    }
}

import CoachKit
import Foundation
import PoseKit
import Testing

/// The kaiakol push-up clips from `../shared/data` (MediaPipe side views, one or a few repetitions each; not in
/// the repository).
struct RealPushUpTests {
    static let data = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
            "shared/data/pose-tracks/kaiakol"
        )

    static func session(_ name: String) throws -> CoachingSession {
        let path = data.appendingPathComponent(name + ".jsonl").path
        try #require(
            FileManager.default.fileExists(atPath: path),
            "missing \(path): the real-clip tests need ../shared/data next to the repository"
        )
        let (header, frames) = try PoseTrackReader.readAll(path: path)
        var session = CoachingSession(
            configuration: .init(
                exercise: try ExerciseLibrary.bundled().exercise(id: "push-up"),
                frameWidth: Double(header.width),
                frameHeight: Double(header.height),
                emitsPoseEvents: false
            )
        )
        for frame in frames { _ = session.ingest(frame) }
        return session
    }

    /// The summary of a session over the pose-track at `path` with no exercise given (recognised from the library).
    static func summaryWithoutAnExercise(_ path: String) throws -> SessionSummary {
        let (header, frames) = try PoseTrackReader.readAll(path: path)
        var session = try sessionWithoutAnExercise(header)
        for frame in frames { _ = session.ingest(frame) }
        return session.summary()
    }

    /// A session with no exercise given, for frames of `header`'s size.
    static func sessionWithoutAnExercise(_ header: PoseTrackHeader) throws -> CoachingSession {
        CoachingSession(
            configuration: .init(
                exercise: nil,
                library: try ExerciseLibrary.bundled().exercises,
                frameWidth: Double(header.width),
                frameHeight: Double(header.height),
                emitsPoseEvents: false
            )
        )
    }

    @Test(arguments: ["pushup_correct_020", "pushup_incorrect_011"])
    func withoutAnExerciseTheSegmentsHoldEveryRepetition(name: String) throws {
        // Recognised as push-ups about 2 s in; the movement's repetition was reported after the segment before
        // that decision had closed, so the segments said "— 0 reps, push-up 0 reps" of 1 repetition.
        let path = Self.data.appendingPathComponent(name + ".jsonl").path
        try #require(FileManager.default.fileExists(atPath: path), "missing \(path): these tests need ../shared/data")
        let summary = try Self.summaryWithoutAnExercise(path)
        #expect(summary.reps >= 1)
        #expect(summary.segments.map(\.reps).reduce(0, +) == summary.reps, "\(summary.segments)")
        #expect(summary.segments.map(\.exercise) == ["push-up"])
    }

    /// A clip one recognition window holds whole, never named twice in a row, is named by a last decision over
    /// all of it, and its one segment carries that name with its repetition. Before, the name went to a segment
    /// opened at the clip's last frame, which was dropped for being empty: the segment said "none", and a clip
    /// with no repetition counted (Pose Trainer's shrugs are 1–2 s) was not named at all (shrugs 4 of 19).
    /// The repetitions completed before that name are measured and judged as the exercise named, as if it had been
    /// named before them (frontraise_good_12, and pushup_incorrect_004 until the recognizer's side-view noise
    /// deadband left that clip unnamed: a repetition with no exercise, no angles and a "good" that nothing had
    /// judged).
    @Test(arguments: [
        ("pose-trainer/shouldershrug_good_2", "shoulder-shrug"), ("pose-trainer/frontraise_good_14", "front-raise"),
        ("kaiakol/squat_correct_016", "squat"), ("pose-trainer/frontraise_good_12", "front-raise"),
    ])
    func aShortClipIsNamedByADecisionOverAllOfIt(name: String, exercise: String) throws {
        let path = Self.data.deletingLastPathComponent().appendingPathComponent(name + ".jsonl").path
        try #require(FileManager.default.fileExists(atPath: path), "missing \(path): these tests need ../shared/data")
        let summary = try Self.summaryWithoutAnExercise(path)
        #expect(summary.exercise == exercise, "\(summary.segments)")
        #expect(summary.segments.map(\.exercise) == [exercise], "\(summary.segments)")
        #expect(summary.segments.map(\.reps).reduce(0, +) == summary.reps, "\(summary.segments)")
        #expect(summary.repetitions.allSatisfy { $0.exercise == exercise }, "\(summary.repetitions.map(\.exercise))")
        let primary = try ExerciseLibrary.bundled().exercise(id: exercise).primaryAngle
        for repetition in summary.repetitions {
            #expect(repetition.angles.contains { $0.angle == primary }, "rep \(repetition.index): \(repetition.angles)")
        }
    }

    @Test func eachSegmentCountsTheRepetitionsOfItsOwnExercise() throws {
        // KIMORE es3_rec2, arm exercises recognised as several library exercises in turn: the shoulder
        // abduction judged at 16.2 s ended at 16.17 s, just inside the front raise's segment, and was counted
        // there ("front-raise (2 reps)", "shoulder-abduction (0 reps)").
        let path = Self.data.deletingLastPathComponent().appendingPathComponent("kimore/es3_rec2.jsonl").path
        try #require(FileManager.default.fileExists(atPath: path), "missing \(path): these tests need ../shared/data")
        let summary = try Self.summaryWithoutAnExercise(path)
        try #require(Set(summary.segments.map(\.exercise)).count >= 3, "\(summary.segments)")
        for exercise in Set(summary.segments.map(\.exercise)) {
            let counted = summary.segments.filter { $0.exercise == exercise }.map(\.reps).reduce(0, +)
            let judged = summary.repetitions.count { $0.exercise == exercise }
            #expect(counted == judged, "\(exercise ?? "none"): segments \(counted), repetitions \(judged)")
        }
    }

    @Test func aPushUpWithTheWristsBelowThePictureIsCounted() throws {
        // In every frame of this clip the near wrist lies up to 25 px below the 360-px picture (MediaPipe
        // places it there) and the far arm is barely seen; the elbows and most of the forearms are in view.
        let session = try Self.session("pushup_correct_001")
        #expect(session.repetitions.count >= 1)
        #expect(session.snapshot.setupGuidance == nil)
    }

    @Test func theDepthCueNeverContradictsTheRangeOfMotion() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.data.path)
            .filter { $0.hasPrefix("pushup_") && $0.hasSuffix(".jsonl") }.sorted()
        try #require(names.count == 50, "expected the 50 kaiakol push-up clips, found \(names.count)")
        var counted = 0
        for name in names {
            let session = try Self.session(String(name.dropLast(6)))
            if !session.repetitions.isEmpty { counted += 1 }
            for rep in session.repetitions {
                let depth = rep.issues.contains { $0.rule == "depth" }
                let past = rep.range?.status == .beyond
                #expect(!(depth && past), "\(name) rep \(rep.index): 'lower your chest' and 'past the target range'")
            }
        }
        // Each clip holds at least one push-up.
        #expect(counted == names.count, "\(counted) of \(names.count) clips counted")
    }

    /// Once recognised, a repetition is measured and judged as with the exercise given (issue: squat_17 had its
    /// repetition at 0.2–1.8 s, 7–66°, "squat a little deeper" without --exercise; 1.4–3.4 s, 91°, good with it).
    /// Over the 50 kaiakol push-up clips, every repetition recognised as a push-up has the times, peak, range
    /// and verdict of one counted with `--exercise push-up` (33 of 34 when this was written).
    @Test func aRecognisedRepetitionIsMeasuredAsIfTheExerciseWasGiven() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.data.path)
            .filter { $0.hasPrefix("pushup_") && $0.hasSuffix(".jsonl") }.sorted()
        var recognised = 0
        var same = 0
        for name in names {
            let given = try Self.session(String(name.dropLast(6))).summary().repetitions
            let path = Self.data.appendingPathComponent(name).path
            for rep in try Self.summaryWithoutAnExercise(path).repetitions where rep.exercise == "push-up" {
                recognised += 1
                let twin = given.first {
                    abs($0.startSeconds - rep.startSeconds) < 0.05 && abs($0.endSeconds - rep.endSeconds) < 0.05
                }
                if let twin, twin.peakAngle == rep.peakAngle, twin.range == rep.range, twin.verdict == rep.verdict {
                    same += 1
                }
            }
        }
        try #require(recognised >= 30, "\(recognised) repetitions recognised as push-ups")
        #expect(Double(same) >= 0.95 * Double(recognised), "\(same) of \(recognised) measured as if given")
    }

    /// With no exercise given, the movement confirms its first repetition late (a cycle or two into the set); a
    /// repetition the recognised exercise's counter found shows at once as provisional, at most one ahead. Over
    /// the 50 kaiakol push-up clips: the count shown never runs more than one ahead of the count confirmed, and
    /// the first repetition shows earlier than it is confirmed, on average (27 clips counted during the stream: first
    /// shown at 3.23 s, confirmed at 3.58 s, when this was written).
    @Test func aProvisionalRepetitionShowsBeforeTheMovementConfirmsIt() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.data.path)
            .filter { $0.hasPrefix("pushup_") && $0.hasSuffix(".jsonl") }.sorted()
        var shownFirst = 0.0
        var confirmedFirst = 0.0
        var clips = 0
        for name in names {
            let (header, frames) = try PoseTrackReader.readAll(path: Self.data.appendingPathComponent(name).path)
            var session = try Self.sessionWithoutAnExercise(header)
            var shown: Double?
            var confirmed: Double?
            for frame in frames {
                _ = session.ingest(frame)
                let s = session.snapshot
                #expect(s.provisionalReps <= 1)
                if shown == nil, s.repCount + s.provisionalReps > 0 { shown = frame.seconds }
                if confirmed == nil, s.repCount > 0 { confirmed = frame.seconds }
            }
            guard let shown, let confirmed else { continue }
            #expect(shown <= confirmed, "\(name): shown at \(shown) s, confirmed at \(confirmed) s")
            shownFirst += shown
            confirmedFirst += confirmed
            clips += 1
        }
        try #require(clips >= 20)
        #expect(
            shownFirst < confirmedFirst,
            "first shown \(shownFirst / Double(clips)) s, confirmed \(confirmedFirst / Double(clips)) s"
        )
    }
}

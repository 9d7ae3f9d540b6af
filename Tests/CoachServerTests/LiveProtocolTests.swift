import CoachKit
import CoachStore
import CoachTestSupport
import Foundation
import HummingbirdTesting
import HummingbirdWSTesting
import HummingbirdWebSocket
import Testing

@testable import CoachServer
@testable import PoseKit

/// A client that does what docs/live-protocol.md says (a `rep` adds one repetition, a `repsRevised` replaces them all,
/// the `summary`'s events applied as well) ends with exactly the repetitions saved: their number, their order and
/// their contents. Over the socket, the first push-up of a set came as two `rep` events with index 1, and such a
/// client showed 19 where 18 were saved.
struct LiveProtocolTests {
    /// What such a client shows, from the messages of one set; each `rep` is checked to be numbered one more than
    /// the repetitions shown (a repetition shown before never comes as another `rep`).
    static func followed(_ messages: [JSONValue], name: String) -> [JSONValue] {
        var shown: [JSONValue] = []
        for message in messages where ["frame", "summary"].contains(message["type"]?.stringValue) {
            var revisions = 0
            var adds = 0
            for event in message["events"]?.arrayValue ?? [] {
                switch event["type"]?.stringValue {
                case "rep":
                    let repetition = event["repetition"] ?? .null
                    #expect(
                        repetition["index"]?.intValue == shown.count + 1,
                        "\(name): a rep #\(repetition["index"]?.intValue ?? -1) with \(shown.count) shown"
                    )
                    shown.append(repetition)
                    adds += 1
                case "repsRevised":
                    shown = event["repetitions"]?.arrayValue ?? []
                    revisions += 1
                default: break
                }
            }
            // One change per message: a revision, or repetitions added, or neither.
            #expect(revisions <= 1 && (revisions == 0 || adds == 0), "\(name): \(revisions) revisions, \(adds) reps")
        }
        return shown
    }

    /// The start and frame messages of `frames` as a keypoint client sends them (all joints, with depth).
    static func keypointMessages(_ frames: [PoseFrame], exercise: String?) -> (start: String, frames: [String]) {
        let header = PoseTrackHeader(
            keypoints: Joint.allCases.map(\.name),
            fps: 30,
            width: 640,
            height: 480,
            dimensions: 3
        )
        let start = JSONValue.object([
            "type": .string("start"), "input": .string("keypoints"),
            "exercise": exercise.map(JSONValue.string) ?? .null,
            "keypoints": .array(header.keypoints.map(JSONValue.string)), "width": .number(640),
            "height": .number(480), "dimensions": .number(3), "fps": .number(30),
        ])
        let lines = frames.enumerated().compactMap { k, frame -> String? in
            let line = PoseTrackWriter.line(for: frame, joints: header.joints, dimensions: 3)
            guard var object = (try? JSONValue.parse(line))?.objectValue else { return nil }
            object["type"] = .string("frame")
            object["id"] = .number(Double(k))
            return JSONValue.object(object).jsonText
        }
        return (start.jsonText, lines)
    }

    /// Squats on a guessed depth whose knees glitch in depth before the set: a phantom repetition is counted on the
    /// depth, then withdrawn when the image plane recounts them (as `CoachingSessionTests.phantomThenThreeSquats`).
    static func phantomThenThreeSquats() -> [PoseFrame] {
        var rng = SplitMix64(seed: 3)
        return SyntheticExercise(kind: .squat, idleBeforeSeconds: 1.2).frames(reps: 3).map { frame in
            var frame = frame
            for p in frame.poses.indices {
                for joint in Joint.allCases where frame.poses[p][joint].confidence > 0 {
                    frame.poses[p][joint].z = 12 * rng.gaussian()
                }
            }
            if frame.seconds > 0.1, frame.seconds < 0.9 {
                let bump = 60 * sin(Double.pi * (frame.seconds - 0.1) / 0.8)
                for joint in [Joint.leftKnee, .rightKnee] { frame.poses[0][joint].z! -= bump }
            }
            return frame
        }
    }

    /// Runs one keypoint set over the socket; returns every message and the repetitions saved.
    static func run(
        start: String,
        frames: [String]
    ) async throws -> (
        messages: [JSONValue], saved: [Repetition], savedCount: Int?
    ) {
        let (store, _) = try LiveTestServer.store()
        let app = try LiveTestServer.application(store: store)
        let mailbox = LiveMailbox()
        _ = try await app.test(.live) { client in
            try await LiveTestServer.session(client, mailbox: mailbox) { outbound in
                try await LiveTestServer.sendSet(start: start, frames: frames, on: outbound, mailbox: mailbox)
                try await outbound.write(.text(#"{"type":"end"}"#))
                _ = try await mailbox.wait(for: "summary")
            }
        }
        let messages = await mailbox.messages
        let id = try #require(messages.first { $0["type"]?.stringValue == "summary" }?["session"]?.stringValue)
        return (messages, try await store.repetitions(setID: id), try await store.set(id: id)?.reps)
    }

    /// Checks that the client following the document shows the summary's repetitions and the ones saved.
    static func check(_ run: (messages: [JSONValue], saved: [Repetition], savedCount: Int?), name: String) throws {
        let shown = Self.followed(run.messages, name: name)
        let summary = try #require(run.messages.first { $0["type"]?.stringValue == "summary" }?["summary"])
        let repetitions = summary["repetitions"]?.arrayValue ?? []
        #expect(shown.count == summary["reps"]?.intValue, "\(name)")
        #expect(shown == repetitions, "\(name): the repetitions shown are the summary's")
        #expect(run.savedCount == shown.count, "\(name): \(run.savedCount ?? -1) saved, \(shown.count) shown")
        #expect(run.saved.map { JSONValue.encoding($0) } == shown, "\(name): the repetitions saved are those shown")
    }

    @Test("A phantom repetition withdrawn over the socket: a rep never repeats an index, the count is the saved one")
    func phantomWithdrawn() async throws {
        let messages = Self.keypointMessages(Self.phantomThenThreeSquats(), exercise: "squat")
        let run = try await Self.run(start: messages.start, frames: messages.frames)
        let events = run.messages.flatMap { $0["events"]?.arrayValue ?? [] }
        #expect(events.contains { $0["type"]?.stringValue == "repsRevised" }, "the phantom is withdrawn by a revision")
        try Self.check(run, name: "phantom then three squats")
        #expect(run.savedCount == 3)
    }

    @Test("Frames coached after the set's end send their repetition events with the summary")
    func eventsAfterTheEndComeWithTheSummary() throws {
        let library = try ExerciseLibrary.bundled()
        let frames = SyntheticExercise(kind: .squat).frames(reps: 3)
        let messages = Self.keypointMessages(frames, exercise: "squat")
        let start = try JSONValue.parse(messages.start)
        let sent = LockedBox<[String]>([])
        let set = LiveSet(
            id: "test",
            input: .keypoints,
            exercise: try library.exercise(id: "squat"),
            library: library.exercises,
            prescribedReps: nil,
            prescribedHoldSeconds: nil,
            keypointHeader: PoseTrackHeader(
                keypoints: (start["keypoints"]?.arrayValue ?? []).compactMap(\.stringValue),
                fps: 30,
                width: 640,
                height: 480,
                dimensions: 3
            ),
            estimators: nil,
            send: { text in sent.value.append(text) },
            completed: { _ in }
        )
        // The set ends (the socket closed) while frames are still being coached: the last repetition completes in a
        // frame whose answer is not sent.
        let cut = frames.count * 3 / 4
        for (k, frame) in messages.frames.enumerated() {
            if k == cut { set.stop() }
            #expect(set.coachKeypoints(id: k, text: frame, received: .now) == nil)
        }
        let outcome = try #require(set.outcome())
        let answers = sent.value.compactMap { try? JSONValue.parse($0) }
        #expect(answers.count == cut, "no answer after the end")
        let end = try JSONValue.parse(
            ServerMessage.summary(
                .init(session: "test", dropped: 0, events: outcome.events.compactMap(LiveEvent.init), hand: false)
            ).jsonText
        )
        let shown = Self.followed(answers + [end], name: "ended early")
        #expect(outcome.summary.reps == 3)
        #expect(shown == outcome.summary.repetitions.map { JSONValue.encoding($0) })
    }

    /// Recordings whose repetitions the coach revises during the set (re-judged once named, withdrawn, recounted).
    static let files: [(String, String?)] = [
        ("kaiakol/pushup_correct_003.jsonl", nil),
        ("kaiakol/pushup_incorrect_003.jsonl", nil),
        ("kaiakol/pushup_correct_002.jsonl", "push-up"),
        ("ui-prmd/m09_s04_side.jsonl", nil),
        ("kimore/es1_rec1.jsonl", nil),
    ]

    @Test("A client that follows the document counts exactly the repetitions saved", arguments: files)
    func followingTheDocumentCountsWhatIsSaved(file: String, exercise: String?) async throws {
        let path = LiveTestServer.shared + "/pose-tracks/" + file
        try #require(
            FileManager.default.fileExists(atPath: path),
            "missing \(path): ../shared must sit beside the repository"
        )
        let messages = try LiveSocketTests.keypointMessages(path, exercise: exercise)
        let run = try await Self.run(start: messages.start, frames: messages.frames)
        try Self.check(run, name: "\(file), exercise \(exercise ?? "recognised")")
    }
}

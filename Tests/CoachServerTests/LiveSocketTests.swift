import CoachKit
import CoachStore
import Foundation
import Hummingbird
import HummingbirdTesting
import HummingbirdWSClient
import HummingbirdWSTesting
import HummingbirdWebSocket
import NIOCore
import NIOWebSocket
import ServiceLifecycle
import Testing

@testable import CoachServer
@testable import PoseKit

/// The live WebSocket (docs/live-protocol.md) against the real server, store and coach, with a stand-in pose
/// model for camera frames (the real model's path is covered by the browser test and the load generator).
struct LiveSocketTests {
    /// The start message and frame messages of a pose-track file, as a keypoint client sends them.
    static func keypointMessages(_ path: String, exercise: String?) throws -> (start: String, frames: [String]) {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = text.split(separator: "\n")
        let header = try JSONValue.parse(lines[0])
        let start = JSONValue.object([
            "type": .string("start"), "input": .string("keypoints"),
            "exercise": exercise.map(JSONValue.string) ?? .null,
            "keypoints": header["keypoints"]!, "width": header["width"]!, "height": header["height"]!,
            "dimensions": header["dimensions"] ?? .number(2), "fps": header["fps"]!,
        ])
        var frames: [String] = []
        for (k, line) in lines.dropFirst().enumerated() {
            guard var object = try JSONValue.parse(line).objectValue else { continue }
            object["type"] = .string("frame")
            object["id"] = .number(Double(k))
            frames.append(JSONValue.object(object).jsonText)
        }
        return (start.jsonText, frames)
    }

    @Test("A keypoint client is answered frame by frame, and its set is saved with its repetitions")
    func keypointSet() async throws {
        let path = LiveTestServer.shared + "/pose-tracks/ui-prmd/m07_s01_front.jsonl"
        try #require(
            FileManager.default.fileExists(atPath: path),
            "missing \(path): ../shared must sit beside the repository"
        )
        let (store, _) = try LiveTestServer.store()
        let app = try LiveTestServer.application(store: store)
        let messages = try Self.keypointMessages(path, exercise: "shoulder-abduction")
        let mailbox = LiveMailbox()
        _ = try await app.test(.live) { client in
            try await LiveTestServer.session(client, mailbox: mailbox) { outbound in
                try await LiveTestServer.sendSet(
                    start: messages.start,
                    frames: messages.frames,
                    on: outbound,
                    mailbox: mailbox
                )
                _ = try await mailbox.wait(for: "frame", count: messages.frames.count)
                try await outbound.write(.text(#"{"type":"end"}"#))
                _ = try await mailbox.wait(for: "summary")
            }
        }
        let frames = await mailbox.all("frame")
        #expect(frames.count == messages.frames.count)
        #expect(frames.map { $0["id"]?.intValue } == (0..<messages.frames.count).map { $0 })
        #expect(frames.contains { $0["pose"]?.objectValue?["leftKnee"] != nil })
        let summaryMessage = try #require(await mailbox.all("summary").first)
        let summary = try #require(summaryMessage["summary"])
        let reps = try #require(summary["reps"]?.intValue)
        #expect((9...11).contains(reps), "UI-PRMD files hold 10 repetitions; counted \(reps)")
        let id = try #require(summaryMessage["session"]?.stringValue)
        let saved = try #require(try await store.set(id: id))
        #expect(saved.status == .completed)
        #expect(saved.reps == reps)
        #expect(try await store.repetitions(setID: id).count == reps)
        #expect(summaryMessage["report"]?["html"]?.stringValue == "/api/sessions/\(id)/report.html")
    }

    @Test("Bad messages get an error event and the set goes on")
    func badInput() async throws {
        let (store, _) = try LiveTestServer.store()
        let app = try LiveTestServer.application(store: store, maxFrameBytes: 2000)
        let mailbox = LiveMailbox()
        _ = try await app.test(.live) { client in
            try await LiveTestServer.session(client, mailbox: mailbox) { outbound in
                try await outbound.write(.text(#"{"type":"frame","id":1,"t":0,"poses":[]}"#))
                try await outbound.write(.text(#"{"type":"start","exercise":"moonwalk"}"#))
                try await outbound.write(.text(#"{"type":"start","input":"camera","exercise":"squat","reps":5}"#))
                _ = try await mailbox.wait(for: "ready")
                try await outbound.write(.text("this is not json"))
                try await outbound.write(.text(#"{"type":"dance"}"#))
                try await outbound.write(.text(#"[1,2,3]"#))
                try await outbound.write(.binary(ByteBuffer(bytes: [1, 2, 3, 4, 5])))
                try await outbound.write(
                    LiveTestServer.cameraFrame(id: 1, seconds: 0.1, bytes: Array("GIF89a-not-a-jpeg".utf8))
                )
                try await outbound.write(
                    LiveTestServer.cameraFrame(
                        id: 2,
                        seconds: 0.2,
                        bytes: LiveTestServer.jpegBytes + [UInt8](repeating: 7, count: 3000)
                    )
                )
                try await outbound.write(
                    LiveTestServer.cameraFrame(id: 3, seconds: 1.0, bytes: LiveTestServer.jpegBytes)
                )
                _ = try await mailbox.wait(for: "frame")
                try await outbound.write(
                    LiveTestServer.cameraFrame(id: 4, seconds: 0.5, bytes: LiveTestServer.jpegBytes)
                )
                try await outbound.write(
                    LiveTestServer.cameraFrame(id: 5, seconds: .nan, bytes: LiveTestServer.jpegBytes)
                )
                try await outbound.write(
                    LiveTestServer.cameraFrame(id: 6, seconds: 1.1, bytes: LiveTestServer.jpegBytes)
                )
                _ = try await mailbox.wait(for: "frame", count: 2)
                try await outbound.write(.text(#"{"type":"end"}"#))
                _ = try await mailbox.wait(for: "summary")
            }
        }
        let errors = await mailbox.all("error").map {
            ($0["code"]?.stringValue ?? "", $0["message"]?.stringValue ?? "")
        }
        let codes = errors.map(\.0)
        #expect(
            codes == [
                "not-started", "unknown-exercise", "bad-json", "bad-message", "bad-message", "bad-frame", "bad-frame",
                "bad-frame", "bad-frame", "bad-frame",
            ],
            "\(errors)"
        )
        #expect(errors[1].1.contains("moonwalk") && errors[1].1.contains("/api/exercises"))
        #expect(errors[7].1.contains("limit"))
        #expect(errors[8].1.contains("go back"))
        #expect(errors[6].1.contains("not a JPEG"))
        // Every error left the set running: frames 3 and 6 were answered.
        #expect(await mailbox.all("frame").map { $0["id"]?.intValue } == [3, 6])
        #expect(await mailbox.all("frame").first?["state"]?["prescribedReps"]?.intValue == 5)
    }

    @Test("A newer frame replaces one waiting for the model, and the server says how many it dropped")
    func latestFrameWins() async throws {
        let (store, _) = try LiveTestServer.store()
        let alive = LockedBox(0)
        // The model is held until every frame has arrived, so what is dropped does not depend on the machine's speed.
        let gate = DispatchSemaphore(value: 0)
        let app = try LiveTestServer.application(store: store, estimatorsAlive: alive, estimatorGate: gate)
        let mailbox = LiveMailbox()
        let sent = 30
        _ = try await app.test(.live) { client in
            try await LiveTestServer.session(client, mailbox: mailbox) { outbound in
                try await outbound.write(.text(#"{"type":"start","input":"camera"}"#))
                _ = try await mailbox.wait(for: "ready")
                for k in 0..<sent {
                    try await outbound.write(
                        LiveTestServer.cameraFrame(
                            id: UInt32(k),
                            seconds: Double(k) / 30,
                            bytes: LiveTestServer.jpegBytes
                        )
                    )
                }
                // The server reads a socket's messages in order: once this one is answered, every frame was offered.
                try await outbound.write(.text(#"{"type":"no-such-message"}"#))
                _ = try await mailbox.wait(for: "error")
                gate.signal()
                // The last frame sent is always answered: nothing newer replaced it.
                try await mailbox.wait(until: "frame \(sent - 1) answered", timeout: 30) { messages in
                    messages.contains { $0["type"]?.stringValue == "frame" && $0["id"]?.intValue == sent - 1 }
                }
                try await outbound.write(.text(#"{"type":"end"}"#))
                _ = try await mailbox.wait(for: "summary")
            }
        }
        let answered = await mailbox.all("frame")
        // The ended set gave its estimator back: the next camera set reuses it instead of loading another model.
        #expect(alive.value == 1)
        #expect(answered.last?["id"]?.intValue == sent - 1)
        // The frame the model held (if it took one before the last came), then the last: the others were replaced.
        #expect(answered.count <= 2, "\(answered.compactMap { $0["id"]?.intValue })")
        let ids = answered.compactMap { $0["id"]?.intValue }
        #expect(ids == ids.sorted(), "answers come in the order sent")
        let summary = try #require(await mailbox.all("summary").first)
        #expect(summary["dropped"]?.intValue == sent - answered.count)
        #expect(answered.last?["dropped"]?.intValue == sent - answered.count)
    }

    @Test("Past the session limit the next camera session is refused with a clear message and 1013")
    func sessionLimit() async throws {
        let (store, _) = try LiveTestServer.store()
        let app = try LiveTestServer.application(store: store, maxCameraSessions: 1)
        let first = LiveMailbox()
        let second = LiveMailbox()
        try await app.test(.live) { client in
            let holder = Task {
                try await LiveTestServer.session(client, mailbox: first) { outbound in
                    try await outbound.write(.text(#"{"type":"start","input":"camera"}"#))
                    _ = try await first.wait(for: "ready")
                    _ = try await second.wait(for: "error")
                }
            }
            _ = try await first.wait(for: "ready")
            let close = try await LiveTestServer.session(client, mailbox: second) { outbound in
                try await outbound.write(.text(#"{"type":"start","input":"camera"}"#))
                _ = try await second.wait(for: "error")
            }
            #expect(close?.closeCode == WebSocketErrorCode(codeNumber: 1013))
            _ = try await holder.value
            // The seat is free again once the first socket has closed.
            let third = LiveMailbox()
            try await LiveTestServer.session(client, mailbox: third) { outbound in
                try await outbound.write(.text(#"{"type":"start","input":"camera"}"#))
                _ = try await third.wait(for: "ready")
            }
        }
        let error = try #require(await second.all("error").first)
        #expect(error["code"]?.stringValue == "busy")
        #expect(error["message"]?.stringValue?.contains("try again later") == true)
    }

    @Test("A socket that disconnects mid-set saves what was counted")
    func disconnectSaves() async throws {
        let path = LiveTestServer.shared + "/pose-tracks/ui-prmd/m07_s02_front.jsonl"
        try #require(FileManager.default.fileExists(atPath: path))
        let (store, _) = try LiveTestServer.store()
        let app = try LiveTestServer.application(store: store)
        let messages = try Self.keypointMessages(path, exercise: "shoulder-abduction")
        let dropped = LiveMailbox()
        _ = try await app.test(.live) { client in
            // Disconnects without "end" after half the frames.
            try await LiveTestServer.session(client, mailbox: dropped) { outbound in
                try await LiveTestServer.sendSet(
                    start: messages.start,
                    frames: messages.frames.prefix(messages.frames.count / 2),
                    on: outbound,
                    mailbox: dropped
                )
                _ = try await dropped.wait(for: "frame", count: messages.frames.count / 2)
            }
        }
        let sets = try await store.sets(limit: 10)
        #expect(sets.count == 1)
        let set = try #require(sets.first)
        #expect(set.status == .completed)
        #expect(set.summaryJSON != nil)
        let shown = await dropped.all("frame").flatMap { $0["events"]?.arrayValue ?? [] }.filter {
            $0["type"]?.stringValue == "rep"
        }.count
        #expect(set.reps >= 3 && set.reps >= shown - 1, "\(set.reps) saved, \(shown) shown live")
    }

    @Test("At SIGTERM each open socket gets its set's summary and a 1001 close before the server stops")
    func shutdownClosesSocketsWithAReason() async throws {
        let path = LiveTestServer.shared + "/pose-tracks/ui-prmd/m07_s02_front.jsonl"
        try #require(FileManager.default.fileExists(atPath: path))
        let (store, _) = try LiveTestServer.store()
        let port = LockedBox(0)
        let (application, shutdown) = try CoachServer.parts(
            try LiveTestServer.configuration(),
            store,
            { () throws(LiveFrameError) in StandingPersonEstimator.camera() },
            NoReports(),
            LiveTestServer.logger,
            { port.value = $0 }
        )
        // As `CoachServer.run` has them, with the signal replaced by a call.
        let group = ServiceGroup(
            configuration: .init(services: [application, shutdown], logger: LiveTestServer.logger)
        )
        let running = Task { try await group.run() }
        // 60 s of waiting, counted in polls: on a loaded 2-core machine the test's own task may not run for a
        // minute while other suites' synchronous work holds the threads (a wall-clock deadline failed there).
        for _ in 0..<LiveMailbox.polls(60, every: 0.01) where port.value == 0 {
            try await Task.sleep(for: .milliseconds(10))
        }
        if port.value == 0 {
            await group.triggerGracefulShutdown()
            throw LiveTestError("the server did not listen within 60 s of waiting")
        }
        let messages = try Self.keypointMessages(path, exercise: "shoulder-abduction")
        let mailbox = LiveMailbox()
        let client = Task {
            try await LiveTestServer.session(url: "ws://127.0.0.1:\(port.value)/live", mailbox: mailbox) { outbound in
                try await LiveTestServer.sendSet(
                    start: messages.start,
                    frames: messages.frames,
                    on: outbound,
                    mailbox: mailbox
                )
                try await mailbox.waitUntilClosed(timeout: 120)
            }
        }
        do {
            _ = try await mailbox.wait(for: "frame", count: messages.frames.count)
        } catch {
            // Stop the server and the client before failing, so nothing is left running in the test process.
            await group.triggerGracefulShutdown()
            _ = try? await client.value
            throw error
        }
        await group.triggerGracefulShutdown()
        let close = try await client.value
        try await running.value
        #expect(close?.closeCode == .goingAway, "\(String(describing: close))")
        #expect(close?.reason == "server shutting down")
        let summary = try #require(await mailbox.all("summary").first)
        let reps = try #require(summary["summary"]?["reps"]?.intValue)
        #expect(reps >= 8)
        let id = try #require(summary["session"]?.stringValue)
        #expect(try await store.set(id: id)?.status == .completed)
        #expect(try await store.set(id: id)?.reps == reps)
    }

    @Test("A set in which nobody was seen ends with analyze's reason, not a silent zero")
    func nobodySeen() async throws {
        let (store, _) = try LiveTestServer.store()
        let app = try LiveTestServer.application(store: store)
        let mailbox = LiveMailbox()
        _ = try await app.test(.live) { client in
            try await LiveTestServer.session(client, mailbox: mailbox) { outbound in
                try await outbound.write(
                    .text(
                        #"{"type":"start","input":"keypoints","exercise":"squat","keypoints":["leftHip","leftKnee","leftAnkle"],"width":640,"height":480}"#
                    )
                )
                _ = try await mailbox.wait(for: "ready")
                for k in 0..<20 {
                    try await outbound.write(.text(#"{"type":"frame","id":\#(k),"t":\#(Double(k) / 30),"poses":[]}"#))
                }
                try await outbound.write(.text(#"{"type":"end"}"#))
                _ = try await mailbox.wait(for: "summary")
            }
        }
        let summary = try #require(await mailbox.all("summary").first)
        #expect(summary["summary"]?["reps"]?.intValue == 0)
        #expect(
            summary["message"]?.stringValue
                == "this set: no person was seen in any of the 20 frames; check the recording"
        )
    }

    @Test("The exercise library and saved sets are served as JSON; a WebSocket from another origin is refused")
    func httpAPI() async throws {
        let (store, _) = try LiveTestServer.store()
        let app = try LiveTestServer.application(store: store)
        try await app.test(.live) { client in
            try await client.execute(uri: "/api/exercises", method: .get) { response in
                #expect(response.status == .ok)
                let list = try JSONValue.parse(String(buffer: response.body)).arrayValue ?? []
                #expect(list.count >= 30)
                #expect(list.contains { $0["id"]?.stringValue == "squat" && $0["view"]?.stringValue == "side" })
            }
            try await client.execute(uri: "/api/sessions/nothing-here", method: .get) { response in
                #expect(response.status == .notFound)
            }
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("<html"))
            }
            // A page of another site in a visitor's browser may not open a live session.
            var foreign = WebSocketClientConfiguration()
            foreign.additionalHeaders = [.origin: "http://evil.example"]
            await #expect(throws: (any Error).self) {
                try await client.ws("/live", configuration: foreign) { _, _, _ in }
            }
            // (The page's own origin is let in: the browser test opens the socket from it.)
        }
    }
}

/// A value shared between tasks in a test.
final class LockedBox<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

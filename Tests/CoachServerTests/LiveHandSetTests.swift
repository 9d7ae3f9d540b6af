import CoachKit
import CoachStore
import CoachTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import HummingbirdWSTesting
import HummingbirdWebSocket
import NIOCore
import Testing

@testable import CoachServer
@testable import PoseKit

/// A hand estimator for unit tests: it reads nothing of the image and gives the hands the script has at the frame's
/// time (generated hands, ``SyntheticHand``); as a camera session's, in a 640x480 picture.
final class ScriptedHandEstimator: PoseEstimator {
    let script: @Sendable (Double) -> [HandPose]
    init(script: @escaping @Sendable (Double) -> [HandPose]) { self.script = script }

    func startStream() {}

    func estimate(in image: RGBImage, at seconds: Double) -> HandFrame {
        HandFrame(seconds: seconds, hands: script(seconds))
    }

    static func camera(script: @escaping @Sendable (Double) -> [HandPose]) -> CameraEstimator<HandFrame> {
        CameraEstimator(
            decode: { _ in StandingPersonEstimator.blank },
            estimator: ScriptedHandEstimator(script: script)
        )
    }
}

/// A hand exercise coached live (docs/live-protocol.md, "Hand exercises"): the hands in each answer, the count, and
/// the gestures the server obeys, on generated hands.
struct LiveHandSetTests {
    /// One frame's hands: the coached left hand closing `share` of the way to a fist (at x + 120), and the other,
    /// smaller hand (at x − 150) open, pinching, or out of view.
    enum Other { case open, pinch, none }

    static func hands(fist share: Double, other: Other, seconds: Double) -> [HandPose] {
        var rng = SplitMix64(seed: UInt64(seconds * 1000))
        /// Moved by `dx` and scaled by `scale` about the wrist.
        func shifted(_ hand: HandPose, dx: Double, scale: Double = 1) -> HandPose {
            var copy = hand
            let wrist = hand[.wrist]
            copy.keypoints = hand.keypoints.map {
                Keypoint(
                    x: wrist.x + ($0.x - wrist.x) * scale + dx,
                    y: wrist.y + ($0.y - wrist.y) * scale,
                    z: $0.z,
                    confidence: $0.confidence
                )
            }
            return copy
        }
        var coached = SyntheticHand(chirality: .left)
        for finger in [Finger.index, .middle, .ring, .little] {
            coached.flexion[finger.joints[0]] = 85 * share
            coached.flexion[finger.joints[1]] = 100 * share
            coached.flexion[finger.joints[2]] = 60 * share
        }
        var hands = [shifted(coached.pose(viewDegrees: 0, noise: 1, using: &rng), dx: 120)]
        if other != .none {
            var hand = SyntheticHand(chirality: .right).pose(viewDegrees: 0, noise: 1, using: &rng)
            if other == .pinch { hand[.thumbTip] = hand[.indexTip] }
            // Smaller: the coach takes the larger hand as the one to coach.
            hands.append(shifted(hand, dx: -150, scale: 0.8))
        }
        return hands
    }

    /// The script: the other hand open (0–1 s), pinching (1–2 s: the set starts), away (2–5.5 s) while the coached
    /// hand makes one fist (3–4.5 s), then held up open (5.5 s on: the set ends).
    static func script(_ t: Double) -> [HandPose] {
        let other: Other = t < 1 ? .open : t < 2 ? .pinch : t < 5.5 ? .none : .open
        return hands(fist: fist(t), other: other, seconds: t)
    }

    /// The coached hand's share of a fist at `t`: one fist, 3–4.5 s.
    static func fist(_ t: Double) -> Double {
        let phase = t - 2.5
        let share = phase < 0.5 ? 0 : phase < 1 ? (phase - 0.5) * 2 : phase < 1.5 ? 1 : phase < 2 ? (2 - phase) * 2 : 0
        return max(0, share)
    }

    /// The server with the hand library and `hands` as its hand model (`nil`: none).
    static func application(
        store: any ClinicStore,
        hands: CameraHandEstimatorFactory?,
        reports: any ReportRendering = NoReports()
    ) throws -> some ApplicationProtocol {
        var configuration = try LiveTestServer.configuration()
        configuration.handLibrary = try HandExerciseLibrary.bundled().exercises
        return try CoachServer.parts(
            configuration,
            store,
            { () throws(LiveFrameError) in StandingPersonEstimator.camera() },
            reports,
            LiveTestServer.logger,
            { _ in },
            hands
        ).application
    }

    @Test("A hand set answers with the hands, starts on a held pinch, counts a fist and ends on an open palm")
    func handSetObeysThePinch() async throws {
        let (store, _) = try LiveTestServer.store()
        let app = try Self.application(
            store: store,
            hands: { () throws(LiveFrameError) in ScriptedHandEstimator.camera { Self.script($0) } }
        )
        let mailbox = LiveMailbox()
        let fps = 15.0
        try await app.test(.live) { client in
            try await client.execute(uri: "/api/exercises", method: .get) { response in
                let list = try JSONValue.parse(String(buffer: response.body)).arrayValue ?? []
                let fist = list.first { $0["id"]?.stringValue == "finger-flexion" }
                #expect(fist?["hand"] == .bool(true), "the hand exercises are listed, marked as such")
            }
            try await LiveTestServer.session(client, mailbox: mailbox) { outbound in
                try await outbound.write(
                    .text(#"{"type":"start","input":"camera","exercise":"finger-flexion","startOnPinch":true}"#)
                )
                _ = try await mailbox.wait(for: "ready")
                // One frame at a time, each answered before the next: no frame is dropped, the evidence is whole. The
                // open palm ends the set at a frame of the script's; its summary comes after that frame's answer,
                // sooner or later, and a frame sent meanwhile is not answered: each frame waits for its answer or
                // the summary, whichever the server's speed brings first.
                for k in 0..<Int(8 * fps) {
                    if await !mailbox.all("summary").isEmpty { break }
                    let frame = LiveTestServer.cameraFrame(
                        id: UInt32(k),
                        seconds: Double(k) / fps,
                        bytes: LiveTestServer.jpegBytes
                    )
                    try await outbound.write(frame)
                    try await mailbox.wait(until: "frame \(k) answered, or the set's summary", timeout: 30) {
                        messages in
                        messages.contains { $0["type"]?.stringValue == "summary" }
                            || messages.filter { $0["type"]?.stringValue == "frame" }.count > k
                    }
                }
                _ = try await mailbox.wait(for: "summary", timeout: 30)
            }
        }
        let ready = try #require(await mailbox.all("ready").first)
        #expect(ready["exercise"]?["hand"] == .bool(true))
        let frames = await mailbox.all("frame")
        let first = try #require(frames.first)
        let hands = try #require(first["hands"]?.arrayValue)
        #expect(hands.count == 2)
        #expect(hands[0]["keypoints"]?.objectValue?.count == 21)
        #expect(hands[0]["side"]?.stringValue == "left")
        #expect(first["gesture"]?["set"]?.stringValue == "idle")
        // The pinch: possible first (orange on the page), then pinched (green), and only then the set starts.
        let states = frames.compactMap { $0["gesture"]?["state"]?.stringValue }
        let possible = try #require(states.firstIndex(of: "possiblePinch"))
        let pinched = try #require(states.firstIndex(of: "pinched"))
        // Timed by the frames' capture times (the pinch starts at 1 s, halfway between frames 14 and 15 it is first
        // seen): pinched at the first frame a quarter of a second after that.
        let evidence = PinchGesture.Configuration().evidenceSeconds
        let expected = Int(((1 - 0.5 / fps + evidence) * fps).rounded(.up)) - 15
        #expect(possible < pinched && pinched - possible == expected, "\(states)")
        #expect(frames[pinched]["t"]?.doubleValue ?? 0 >= 1 + evidence - 0.5 / fps)
        let commands = frames.compactMap { $0["gesture"]?["command"]?.stringValue }
        #expect(commands == ["start", "end"], "\(commands)")
        #expect(frames[..<pinched].allSatisfy { $0["state"]?["reps"]?.intValue == 0 })
        let reps = frames.flatMap { $0["events"]?.arrayValue ?? [] }.filter { $0["type"]?.stringValue == "handRep" }
        #expect(reps.count == 1)
        #expect(frames.last?["state"]?["reps"]?.intValue == 1)
        let spoken = frames.flatMap { $0["events"]?.arrayValue ?? [] }.filter { $0["type"]?.stringValue == "cue" }
        #expect(spoken.contains { $0["text"]?.stringValue == "Set started" })
        // The open palm ended the set: the summary came with no "end" sent, and the set is saved.
        let summary = try #require(await mailbox.all("summary").first)
        #expect(summary["hand"] == .bool(true))
        #expect(summary["summary"]?["reps"]?.intValue == 1)
        let id = try #require(summary["session"]?.stringValue)
        #expect(summary["report"]?["html"]?.stringValue == "/api/sessions/\(id)/report.html")
        let saved = try #require(try await store.set(id: id))
        #expect(saved.status == .completed)
        #expect(saved.reps == 1)
        #expect(saved.exercise == "finger-flexion")
        #expect(saved.summaryJSON?.contains("\"framesMeasured\"") == true)
        // Saved as a body set is: a repetition row with what the hand reached, and the peak in degrees.
        let rows = try await store.repetitions(setID: id)
        #expect(rows.count == 1)
        let reach = try #require(rows.first?.hand)
        #expect(reach.measure == .fingerFlexion)
        #expect(Set(reach.fingers.keys) == ["index", "middle", "ring", "little"])
        #expect(rows.first?.peakAngle == reach.peak)
        #expect(try #require(saved.peakAngle) > 150)
        // The series keeps each finger, for the report's chart per finger.
        let reported = try #require(CoachServer.reportedSet(saved))
        #expect(reported.hand?.reps == 1)
        #expect(reported.summary.headline(isHold: false) == "Finger flexion and extension: 1 repetition")
        #expect(reported.angleSeries.contains { $0.fingers[.little] != nil })
    }

    @Test("A hand set's report is written, from the hand summary and each finger's series")
    func handSetReport() async throws {
        let (store, _) = try LiveTestServer.store()
        let app = try Self.application(
            store: store,
            hands: { () throws(LiveFrameError) in
                ScriptedHandEstimator.camera { Self.hands(fist: Self.fist($0), other: .none, seconds: $0) }
            },
            reports: FingerReports()
        )
        let mailbox = LiveMailbox()
        try await app.test(.live) { client in
            try await LiveTestServer.session(client, mailbox: mailbox) { outbound in
                try await LiveTestServer.sendCameraSet(
                    start: #"{"type":"start","input":"camera","exercise":"finger-flexion"}"#,
                    seconds: 6,
                    on: outbound,
                    mailbox: mailbox
                )
            }
            let summary = try #require(await mailbox.all("summary").first)
            let link = try #require(summary["report"]?["html"]?.stringValue)
            try await client.execute(uri: link, method: .get) { response in
                #expect(response.status == .ok)
                let text = String(buffer: response.body)
                #expect(text.contains("hand finger-flexion: 1 reps"), "\(text)")
                #expect(
                    text.contains("fingers index,little,middle,ring"),
                    "the four fingers the exercise follows: \(text)"
                )
                #expect(!text.contains("thumb"), "\(text)")
                #expect(text.contains("Finger flexion and extension: 1 repetition"), "\(text)")
            }
        }
    }
}

/// A report renderer that says what it was given of a hand set: its summary's count, and the fingers charted.
struct FingerReports: ReportRendering {
    func report(_ sets: [ReportedSet], title: String, subtitle: String, format: String) throws -> [UInt8] {
        let lines = sets.map { reported in
            let fingers = Set(reported.angleSeries.flatMap(\.fingers.keys)).map(\.rawValue).sorted()
            return "hand \(reported.hand?.exercise ?? "none"): \(reported.hand?.reps ?? -1) reps, fingers "
                + fingers.joined(separator: ",")
        }
        return Array((["\(title) (\(format))"] + lines).joined(separator: "\n").utf8)
    }
}

extension LiveHandSetTests {

    @Test("A hand set's bad starts and failing model are one clear error each, and the socket goes on")
    func handSetErrors() async throws {
        let (store, _) = try LiveTestServer.store()
        let app = try Self.application(
            store: store,
            hands: { () throws(LiveFrameError) in throw LiveFrameError(.model, "the hand model could not start: test") }
        )
        let mailbox = LiveMailbox()
        _ = try await app.test(.live) { client in
            try await LiveTestServer.session(client, mailbox: mailbox) { outbound in
                try await outbound.write(
                    .text(#"{"type":"start","input":"keypoints","exercise":"finger-flexion","keypoints":["wrist"]}"#)
                )
                _ = try await mailbox.wait(for: "error")
                try await outbound.write(.text(#"{"type":"start","exercise":"kapandji","holdSeconds":-1}"#))
                _ = try await mailbox.wait(for: "error", count: 2)
                try await outbound.write(.text(#"{"type":"start","exercise":"finger-flexion"}"#))
                _ = try await mailbox.wait(for: "ready")
                try await outbound.write(LiveTestServer.cameraFrame(id: 1, seconds: 0, bytes: LiveTestServer.jpegBytes))
                _ = try await mailbox.wait(for: "error", count: 3)
                try await outbound.write(.text(#"{"type":"end"}"#))
                _ = try await mailbox.wait(for: "summary")
            }
        }
        let errors = await mailbox.all("error")
        #expect(errors.map { $0["code"]?.stringValue } == ["bad-message", "bad-message", "hand-model"])
        #expect(errors[0]["message"]?.stringValue?.contains("camera frames") == true)
        #expect(errors[2]["message"]?.stringValue?.contains("could not start") == true)
        let summary = try #require(await mailbox.all("summary").first)
        #expect(summary["summary"] == .null, "nothing was coached")
    }

    @Test("A hand set that waited for a pinch that never came says so in its summary")
    func handSetWithoutAPinch() async throws {
        let (store, _) = try LiveTestServer.store()
        let app = try Self.application(
            store: store,
            hands: { () throws(LiveFrameError) in
                ScriptedHandEstimator.camera { Self.hands(fist: 0, other: .open, seconds: $0) }
            }
        )
        let mailbox = LiveMailbox()
        _ = try await app.test(.live) { client in
            try await LiveTestServer.session(client, mailbox: mailbox) { outbound in
                try await outbound.write(
                    .text(#"{"type":"start","input":"camera","exercise":"finger-flexion","startOnPinch":true}"#)
                )
                _ = try await mailbox.wait(for: "ready")
                for k in 0..<10 {
                    let bytes = LiveTestServer.jpegBytes
                    let frame = LiveTestServer.cameraFrame(id: UInt32(k), seconds: Double(k) / 15, bytes: bytes)
                    try await outbound.write(frame)
                    _ = try await mailbox.wait(for: "frame", count: k + 1, timeout: 30)
                }
                try await outbound.write(.text(#"{"type":"end"}"#))
                _ = try await mailbox.wait(for: "summary", timeout: 30)
            }
        }
        let frames = await mailbox.all("frame")
        #expect(frames.allSatisfy { $0["gesture"]?["set"]?.stringValue == "idle" })
        let summary = try #require(await mailbox.all("summary").first)
        #expect(summary["summary"] == .null, "nothing was coached")
        #expect(
            summary["message"]?.stringValue == "no pinch seen: the set never started (10 frames watched for one)",
            "\(summary["message"] ?? .null)"
        )
    }

    @Test("A server without the hand model lists no hand exercise and refuses one by name")
    func noHandModel() async throws {
        let (store, _) = try LiveTestServer.store()
        let app = try Self.application(store: store, hands: nil)
        let mailbox = LiveMailbox()
        try await app.test(.live) { client in
            try await client.execute(uri: "/api/exercises", method: .get) { response in
                let list = try JSONValue.parse(String(buffer: response.body)).arrayValue ?? []
                #expect(!list.isEmpty && list.allSatisfy { $0["hand"] == nil })
            }
            try await LiveTestServer.session(client, mailbox: mailbox) { outbound in
                try await outbound.write(.text(#"{"type":"start","exercise":"finger-flexion"}"#))
                _ = try await mailbox.wait(for: "error")
            }
        }
        let error = try #require(await mailbox.all("error").first)
        #expect(error["code"]?.stringValue == "unknown-exercise")
        #expect(error["message"]?.stringValue?.contains("no hand model") == true)
    }
}

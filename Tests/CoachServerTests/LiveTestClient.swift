import CoachDatabase
import CoachKit
import CoachStore
import CoachTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import HummingbirdWSClient
import HummingbirdWSTesting
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOWebSocket
import Testing

@testable import CoachServer
@testable import PoseKit

/// What a test client received on the live socket.
actor LiveMailbox {
    private(set) var messages: [JSONValue] = []
    /// Whether the server closed the socket.
    private(set) var closed = false

    func add(_ message: JSONValue) { messages.append(message) }
    func markClosed() { closed = true }

    /// Waits (up to `timeout` seconds) for a message of `type`; returns it.
    func wait(for type: String, count: Int = 1, timeout: Double = 180) async throws -> JSONValue {
        for _ in 0..<Self.polls(timeout, every: 0.005) {
            let found = messages.filter { $0["type"]?.stringValue == type }
            if found.count >= count { return found[count - 1] }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw LiveTestError(
            "no \(count) '\(type)' message within \(timeout) s; got \(messages.map { $0["type"]?.stringValue ?? "?" })"
        )
    }

    /// How many polls `timeout` seconds of waiting are. A deadline in polls, not in wall-clock time: on a loaded
    /// machine, where the test's own task may not run for a while (two cores, other suites' synchronous work), the
    /// wait is as long in the test's own time, and a server that never answers still fails it.
    static func polls(_ timeout: Double, every interval: Double) -> Int {
        max(1, Int((timeout / interval).rounded(.up)))
    }

    func all(_ type: String) -> [JSONValue] { messages.filter { $0["type"]?.stringValue == type } }

    /// Waits (up to `timeout` seconds) until `condition` holds of the messages received; `what` says, in the error,
    /// what was awaited.
    func wait(
        until what: String,
        timeout: Double = 60,
        _ condition: @Sendable ([JSONValue]) -> Bool
    ) async throws {
        for _ in 0..<Self.polls(timeout, every: 0.005) {
            if condition(messages) { return }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw LiveTestError(
            "not within \(timeout) s: \(what); got \(messages.map { $0["type"]?.stringValue ?? "?" })"
        )
    }

    /// Waits (up to `timeout` seconds) until the server has closed the socket.
    func waitUntilClosed(timeout: Double = 60) async throws {
        for _ in 0..<Self.polls(timeout, every: 0.02) where !closed {
            try await Task.sleep(for: .milliseconds(20))
        }
        if !closed { throw LiveTestError("the server did not close the socket within \(timeout) s of waiting") }
    }
}

struct LiveTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A pose estimator for unit tests: it checks nothing of the image and finds one standing person after `delay` (to
/// play a slow model).
final class StandingPersonEstimator: PoseEstimator {
    let delay: Double
    /// Counts the estimators alive: a set that ended must let go of its own (the real one holds a pose model).
    let alive: LockedBox<Int>?
    /// When given, each frame waits for it to be opened (a model as slow as the test wants, whatever the machine's
    /// speed).
    let gate: DispatchSemaphore?
    init(delay: Double = 0, alive: LockedBox<Int>? = nil, gate: DispatchSemaphore? = nil) {
        self.delay = delay
        self.alive = alive
        self.gate = gate
        alive?.value += 1
    }
    deinit { alive?.value -= 1 }

    func startStream() {}

    func estimate(in image: RGBImage, at seconds: Double) throws(PoseEstimationError) -> PoseFrame {
        if let gate {
            gate.wait()
            gate.signal()  // open stays open
        }
        if delay > 0 { Thread.sleep(forTimeInterval: delay) }
        var joints: [Joint: Keypoint] = [:]
        let positions: [(Joint, Double, Double)] = [
            (.nose, 320, 60), (.leftShoulder, 340, 120), (.rightShoulder, 300, 120), (.leftElbow, 350, 180),
            (.rightElbow, 290, 180), (.leftWrist, 355, 240), (.rightWrist, 285, 240), (.leftHip, 335, 250),
            (.rightHip, 305, 250), (.leftKnee, 337, 340), (.rightKnee, 303, 340), (.leftAnkle, 338, 430),
            (.rightAnkle, 302, 430),
        ]
        for (joint, x, y) in positions { joints[joint] = Keypoint(x: x, y: y, z: nil, confidence: 0.9) }
        var pose = Pose(joints)
        pose.deriveMidpoints()
        return PoseFrame(seconds: seconds, poses: [pose])
    }

    /// As a camera session's estimator: any bytes "decode" to a blank 640x480 picture.
    static func camera(
        delay: Double = 0,
        alive: LockedBox<Int>? = nil,
        gate: DispatchSemaphore? = nil
    ) -> CameraEstimator<PoseFrame> {
        CameraEstimator(
            decode: { _ in blank },
            estimator: StandingPersonEstimator(delay: delay, alive: alive, gate: gate)
        )
    }

    /// The picture every camera frame gives the fakes (copy-on-write: shared, never copied).
    static let blank = RGBImage(width: 640, height: 480, bytes: [UInt8](repeating: 0, count: 640 * 480 * 3))
}

struct NoReports: ReportRendering {
    func report(_ sets: [ReportedSet], title: String, subtitle: String, format: String) throws -> [UInt8] {
        Array("report of \(sets.map(\.set.id).joined(separator: ",")) as \(format): \(title)".utf8)
    }
}

enum LiveTestServer {
    /// A temporary SQLite store.
    static func store() throws -> (any ClinicStore, String) {
        let folder = NSTemporaryDirectory() + "ptcoach-live-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return (try SQLiteClinicStore(path: folder + "/ptcoach.sqlite"), folder)
    }

    static func application(
        store: any ClinicStore,
        maxCameraSessions: Int = 4,
        maxFrameBytes: Int = 1 << 20,
        estimatorDelay: Double = 0,
        estimatorsAlive: LockedBox<Int>? = nil,
        admission: InferenceCapacity.Configuration = .init(),
        estimatorGate: DispatchSemaphore? = nil
    ) throws -> some ApplicationProtocol {
        var configuration = try Self.configuration(maxCameraSessions: maxCameraSessions, maxFrameBytes: maxFrameBytes)
        configuration.admission = admission
        return try CoachServer.parts(
            configuration,
            store,
            { () throws(LiveFrameError) in
                StandingPersonEstimator.camera(delay: estimatorDelay, alive: estimatorsAlive, gate: estimatorGate)
            },
            NoReports(),
            logger,
            { _ in }
        ).application
    }

    static var logger: Logger {
        var logger = Logger(label: "live-test")
        logger.logLevel = .warning
        return logger
    }

    static func configuration(
        maxCameraSessions: Int = 4,
        maxFrameBytes: Int = 1 << 20
    ) throws -> CoachServerConfiguration {
        var configuration = CoachServerConfiguration(
            port: 0,
            dataDirectory: NSTemporaryDirectory(),
            library: try ExerciseLibrary.bundled().exercises,
            maxCameraSessions: maxCameraSessions,
            workers: 2,
            maxFrameBytes: maxFrameBytes,
            bcryptCost: 4
        )
        // HummingbirdTesting's live client opens its HTTP connection when the test starts; a test that first runs a
        // live set sends its first request only after it, which on a loaded machine can be past the 10 s the server
        // gives a connection's first request head ("I/O on closed channel"). The timeout is probed from outside by
        // Tests/browser/test_hardening.py.
        configuration.requestHeadTimeout = .seconds(300)
        configuration.idleTimeout = .seconds(300)
        return configuration
    }

    /// Opens the live socket, runs `script` with a writer while every message received goes to the mailbox.
    @discardableResult
    static func session(
        _ client: some TestClientProtocol,
        mailbox: LiveMailbox,
        configuration: WebSocketClientConfiguration = .init(),
        script: @escaping @Sendable (WebSocketOutboundWriter) async throws -> Void
    ) async throws -> WebSocketCloseFrame? {
        try await client.ws("/live", configuration: configuration) { inbound, outbound, _ in
            try await exchange(inbound, outbound, mailbox: mailbox, script: script)
        }
    }

    /// The same on a socket opened to `url` (a server run outside the test framework).
    @discardableResult
    static func session(
        url: String,
        mailbox: LiveMailbox,
        script: @escaping @Sendable (WebSocketOutboundWriter) async throws -> Void
    ) async throws -> WebSocketCloseFrame? {
        try await WebSocketClient.connect(url: url, logger: logger) { inbound, outbound, _ in
            try await exchange(inbound, outbound, mailbox: mailbox, script: script)
        }
    }

    private static func exchange(
        _ inbound: WebSocketInboundStream,
        _ outbound: WebSocketOutboundWriter,
        mailbox: LiveMailbox,
        script: @escaping @Sendable (WebSocketOutboundWriter) async throws -> Void
    ) async throws {
        let ended = LockedBox(false)
        let reader = Task {
            defer { ended.value = true }
            defer { Task { await mailbox.markClosed() } }
            for try await message in inbound.messages(maxSize: 1 << 24) {
                if case .text(let text) = message, let json = try? JSONValue.parse(text) { await mailbox.add(json) }
            }
        }
        do {
            try await script(outbound)
            // Closed by the server already (its shutdown): the close handshake is over.
            if !ended.value { try await outbound.close(.normalClosure, reason: nil) }
        } catch {
            // The reader must be done with the inbound stream before this returns: the WebSocket client reads it
            // too once the handler ends, and two readers of one stream stop the process (NIO's precondition
            // "only allow a single Iterator"), which a failing script used to do, taking every test with it.
            reader.cancel()
            _ = try? await reader.value
            throw error
        }
        _ = try? await reader.value
    }

    /// Starts a keypoint set and sends its frames (a pose-track's, as ``LiveSocketTests/keypointMessages(_:exercise:)``
    /// makes them), once the server is ready.
    static func sendSet(
        start: String,
        frames: some Sequence<String>,
        on outbound: WebSocketOutboundWriter,
        mailbox: LiveMailbox
    ) async throws {
        try await outbound.write(.text(start))
        _ = try await mailbox.wait(for: "ready")
        for frame in frames { try await outbound.write(.text(frame)) }
    }

    /// Starts a camera set, sends `seconds` of frames at 15 a second, each answered before the next (none dropped),
    /// then ends the set and waits for its summary.
    static func sendCameraSet(
        start: String,
        seconds: Double,
        on outbound: WebSocketOutboundWriter,
        mailbox: LiveMailbox
    ) async throws {
        try await outbound.write(.text(start))
        _ = try await mailbox.wait(for: "ready")
        for k in 0..<Int(seconds * 15) {
            try await outbound.write(cameraFrame(id: UInt32(k), seconds: Double(k) / 15, bytes: jpegBytes))
            _ = try await mailbox.wait(for: "frame", count: k + 1, timeout: 30)
        }
        try await outbound.write(.text(#"{"type":"end"}"#))
        _ = try await mailbox.wait(for: "summary", timeout: 30)
    }

    /// A camera frame: the 12-byte header and the bytes.
    static func cameraFrame(id: UInt32, seconds: Double, bytes: [UInt8]) -> WebSocketOutboundWriter.OutboundFrame {
        var buffer = ByteBuffer()
        buffer.writeInteger(id, endianness: .big)
        buffer.writeInteger(seconds.bitPattern, endianness: .big)
        buffer.writeBytes(bytes)
        return .binary(buffer)
    }

    /// The start of a JPEG (the server looks at the first two bytes; the test estimator at none).
    static let jpegBytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 0, count: 100)

    /// The shared data folder beside the repository.
    static let shared = SharedData.root
}

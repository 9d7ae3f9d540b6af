import CoachKit
import CoachStore
import Foundation
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOWebSocket
import PoseKit
import Synchronization

/// One client's WebSocket: the sets it starts, the frames it sends, the answers it gets
/// (docs/live-protocol.md). Messages are handled one at a time in the order they came.
actor LiveConnection {
    enum Outgoing: Sendable {
        case text(String)
        case close(WebSocketErrorCode, String)
    }

    private let hub: LiveHub
    private let output: @Sendable (Outgoing) -> Void
    private let logger: Logger
    /// The patient logged in on the browser that opened the socket, if any.
    private let patient: User?
    private var phase = LiveSocketPhase()
    /// The last set's finishing (its save and summary), for the shutdown to wait for.
    private var finishing: Task<Void, Never>?
    /// The 1001 close was sent (or is being).
    private var goingAway = false
    private let saves = SaveLog()
    /// The client's address, for the limit of keypoint sets per address.
    private let address: String
    /// A logged-in patient's set as their therapist watches it (``openWatchFeed()``).
    private var feed: LiveWatchFeed?

    init(
        hub: LiveHub,
        patient: User? = nil,
        address: String = "unknown",
        logger: Logger,
        output: @escaping @Sendable (Outgoing) -> Void
    ) {
        self.hub = hub
        self.address = address
        self.patient = patient
        self.logger = logger
        self.output = output
    }

    private func send(_ message: ServerMessage) { output(.text(message.jsonText)) }

    /// A logged-in patient's socket: their therapist may watch its sets (docs/live-watch.md).
    func openWatchFeed() {
        guard let patient, feed == nil else { return }
        let output = output
        let feed = LiveWatchFeed(patient: patient, router: hub.watch) { output(.text($0.jsonText)) }
        self.feed = feed
        feed.connected(endSet: { [weak self] in Task { await self?.endSet() } })
    }

    private func refuse(_ error: LiveProtocolError) {
        logger.info("live: \(error.code.rawValue): \(error.message)")
        send(.error(.init(error)))
    }

    // MARK: - Messages

    /// Handles one message; returns `false` when the socket is to be closed.
    func handle(_ message: WebSocketMessage) async -> Bool {
        let action: LiveSocketPhase.Action
        switch message {
        case .binary:
            action = phase.receivedCameraFrame()
        case .text(let text):
            do throws(LiveProtocolError) {
                action = phase.received(try ClientMessage.decode(text, maxBytes: hub.configuration.maxTextBytes))
            } catch {
                action = .refuse(error)
            }
        }
        do throws(LiveProtocolError) {
            switch action {
            // Closed by the shutdown: its 1001 close is on its way; reading on lets the close handshake end the
            // socket rather than this message (which would close it before the summary and the 1001 went out).
            case .ignore: return true
            case .refuse(let error): throw error
            case .start(let start): try await self.start(start)
            case .end: await endSet()
            case .coachKeypoints(let set, let id, let text):
                if let error = set.coachKeypoints(id: id, text: text, received: .now) {
                    throw LiveProtocolError(.badFrame, error)
                }
            case .coachCamera(let set):
                guard case .binary(let buffer) = message else { return true }
                try cameraFrame(buffer, for: set)
            }
        } catch  where error.code == .busy {
            // The server's limit: said, and the socket closed with 1013 "try again later".
            logger.info("live: busy: \(error.message)")
            send(.error(.init(error)))
            output(.close(.init(codeNumber: 1013), "session limit reached; try again later"))
            _ = phase.close()
            return false
        } catch {
            refuse(error)
        }
        return true
    }

    private func cameraFrame(_ buffer: ByteBuffer, for set: LiveSet) throws(LiveProtocolError) {
        var buffer = buffer
        let size = buffer.readableBytes
        guard size > 12, let id = buffer.readInteger(endianness: .big, as: UInt32.self),
            let bits = buffer.readInteger(endianness: .big, as: UInt64.self)
        else {
            throw LiveProtocolError(
                .badFrame,
                "a camera frame is a 12-byte header (frame id, capture time) and a JPEG; got \(size) bytes"
            )
        }
        let seconds = Double(bitPattern: bits)
        guard seconds.isFinite, seconds >= 0 else {
            throw LiveProtocolError(.badFrame, "frame \(id): the capture time must be a finite number of seconds ≥ 0")
        }
        let limit = hub.configuration.maxFrameBytes
        guard size - 12 <= limit else {
            throw LiveProtocolError(
                .badFrame,
                "frame \(id) has \(size - 12) bytes of JPEG; the limit is \(limit) (send 640×480 at quality 0.7)"
            )
        }
        let jpeg = buffer.readBytes(length: buffer.readableBytes) ?? []
        guard jpeg.count > 3, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else {
            let start = jpeg.prefix(2).map { String(format: "%02x", $0) }.joined(separator: " ")
            throw LiveProtocolError(
                .badFrame,
                "frame \(id) is not a JPEG image (it starts \(start)); send JPEG bytes after the 12-byte header"
            )
        }
        if let error = set.offer(.init(id: Int(id), seconds: seconds, jpeg: jpeg, received: .now)) {
            throw LiveProtocolError(.badFrame, error)
        }
        hub.pool.enqueue(set)
    }

    // MARK: - Sets

    /// Ends the running set, then opens the one `start` asks for and answers `ready`.
    private func start(_ start: StartMessage) async throws(LiveProtocolError) {
        await endSet()
        let plan = try await LiveSetPlan.make(start, patient: patient, hub: hub)
        let seat = try takeSeat(plan.input)
        let set = makeSet(plan)
        var record = SetRecord(
            id: set.id,
            startedAt: set.startedAt,
            input: plan.input.rawValue,
            exercise: plan.exercise?.id ?? plan.hand?.id,
            exerciseName: plan.exercise?.name ?? plan.hand?.name,
            prescribedReps: plan.reps,
            prescribedHoldSeconds: plan.holdSeconds
        )
        record.patientID = patient?.id
        record.programmeVersion = plan.followed?.programme.version
        record.programmeItem = plan.followed?.item
        record.prescription = plan.followed?.prescription
        // A logged-in patient's set counts when it follows the programme with their own camera; else it is practice.
        if patient != nil {
            record.practice = plan.isSample ? .sampleVideo : plan.followed == nil ? .unprescribed : nil
        }
        record.setNumber = record.practice == nil ? plan.followed?.setNumber : nil
        do {
            try await hub.store.open(record)
        } catch {
            release(seat)
            throw LiveProtocolError(.storage, "the set could not be saved (\(error)); nothing will be counted")
        }
        guard phase.started(set, seat: seat) else {
            // The socket closed while the set was being opened: it is finished as any other.
            await finish(set, seat: seat)
            return
        }
        hub.register(set)
        logger.info(
            "live: set \(set.id) started (\(plan.input.rawValue), \(plan.exercise?.id ?? plan.hand?.id ?? "recognised"))"
        )
        let ready = ServerMessage.Ready(plan: plan, record: record, maxFrameBytes: hub.configuration.maxFrameBytes)
        send(.ready(ready))
        feed?.started(ready)
    }

    /// Takes the seat a set of `input` counts against.
    ///
    /// - Throws: ``LiveProtocolError`` `busy` at the server's limit.
    private func takeSeat(_ input: LiveInput) throws(LiveProtocolError) -> LiveSocketPhase.Seat {
        switch input {
        case .keypoints:
            if let refusal = hub.takeKeypointSeat(address: address) {
                throw LiveProtocolError(.busy, refusal, retryAfterSeconds: 60)
            }
            return .keypoints(address: address)
        case .camera:
            if let refusal = hub.takeCameraSeat() {
                throw LiveProtocolError(.busy, refusal.message, retryAfterSeconds: refusal.retryAfterSeconds)
            }
            return .camera
        }
    }

    private func release(_ seat: LiveSocketPhase.Seat) {
        switch seat {
        case .camera: hub.releaseCameraSeat()
        case .keypoints(let address): hub.releaseKeypointSeat(address: address)
        }
    }

    /// The set `plan` describes, its repetitions saved as they come (in the connection's ``SaveLog``).
    private func makeSet(_ plan: LiveSetPlan) -> LiveSet {
        let id = UUID().uuidString
        let (saves, store, logger, output) = (saves, hub.store, logger, output)
        return LiveSet(
            id: id,
            input: plan.input,
            exercise: plan.exercise,
            library: hub.bundled,
            prescribedReps: plan.reps,
            prescribedHoldSeconds: plan.holdSeconds,
            keypointHeader: plan.keypointHeader,
            estimators: plan.input == .camera ? hub.estimators : nil,
            hands: plan.hand.map {
                LiveHandCoach(exercise: $0, startOnPinch: plan.startOnPinch, estimators: hub.handEstimators)
            },
            send: { output(.text($0)) },
            watch: feed,
            completed: { repetition in
                saves.add(
                    Task {
                        do {
                            try await store.save(repetition, setID: id)
                        } catch {
                            logger.error("live: \(error)")
                        }
                    }
                )
            },
            gestureEnded: { [weak self] in Task { await self?.gestureEnded(setID: id) } }
        )
    }

    /// Ends the running set: waits for the frame being coached, saves the summary and sends it.
    private func endSet() async {
        guard let (set, seat) = phase.ending() else { return }
        await finish(set, seat: seat)
    }

    private func finish(_ set: LiveSet, seat: LiveSocketPhase.Seat) async {
        release(seat)
        // Saved in a task of its own: a socket's task is cancelled when the server stops, and the save must not be.
        let (hub, saves, output, feed) = (hub, saves, output, feed)
        let task = Task {
            let summary = await hub.finish(set, after: saves)
            let text = summary.map { ServerMessage.summary($0).jsonText }
            if let text { output(.text(text)) }
            feed?.ended(summary: summary, text: text)
        }
        finishing = task
        await task.value
    }

    /// A held open palm ended the set whose id is `setID`: finish it as `end` does, if it is still the one running.
    private func gestureEnded(setID: String) async {
        guard phase.set?.id == setID else { return }
        await endSet()
    }

    /// The socket closed (or the server is stopping): the running set is finished and saved.
    func finish() async {
        defer { feed?.disconnected() }
        guard let (set, seat) = phase.close() else { return }
        await finish(set, seat: seat)
    }

    /// The server is shutting down: save the set, say so, close with 1001. A set being finished already (its
    /// socket closing at the same time) is waited for, so that its summary goes before the close.
    func shutDown() async {
        guard !goingAway else { return }
        goingAway = true
        if let (set, seat) = phase.close() {
            await finish(set, seat: seat)
        } else {
            await finishing?.value
        }
        feed?.disconnected()
        output(.close(.goingAway, "server shutting down"))
    }
}

/// The repetition saves in flight for a connection, so that a set's summary is saved after them.
final class SaveLog: Sendable {
    private let tasks = Mutex<[Task<Void, Never>]>([])

    func add(_ task: Task<Void, Never>) {
        tasks.withLock { $0.append(task) }
    }

    func drain() async {
        let pending = tasks.withLock { tasks in
            defer { tasks = [] }
            return tasks
        }
        for task in pending { await task.value }
    }
}

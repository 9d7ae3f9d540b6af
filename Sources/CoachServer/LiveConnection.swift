import CoachKit
import CoachStore
import Foundation
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOWebSocket
import PoseKit

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
    private var set: LiveSet?
    private var saves = SaveLog()
    private var holdsCameraSeat = false
    /// The client's address, for the limit of keypoint sets per address.
    private let address: String
    private var holdsKeypointSeat = false
    private var closed = false

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

    private func send(_ text: String) { output(.text(text)) }

    private func fail(_ code: String, _ message: String) {
        logger.info("live: \(code): \(message)")
        send(LiveMessage.error(code, message))
    }

    // MARK: - Messages

    /// Handles one message; returns `false` when the socket is to be closed.
    func handle(_ message: WebSocketMessage) async -> Bool {
        guard !closed else { return false }
        switch message {
        case .binary(let buffer):
            cameraFrame(buffer)
            return true
        case .text(let text):
            return await command(text)
        }
    }

    private func command(_ text: String) async -> Bool {
        guard text.utf8.count <= hub.configuration.maxTextBytes else {
            fail(
                "bad-json",
                "a text message of \(text.utf8.count) bytes is over the limit of \(hub.configuration.maxTextBytes)"
            )
            return true
        }
        let json: JSONValue
        do {
            json = try JSONValue.parse(text)
        } catch {
            fail("bad-json", "the message is not valid JSON (\(error)); send one JSON object")
            return true
        }
        guard let type = json["type"]?.stringValue else {
            fail("bad-message", "a message must be a JSON object with a \"type\" (start, frame, end)")
            return true
        }
        switch type {
        case "start": return await start(json)
        case "frame":
            guard let set else {
                fail("not-started", "send {\"type\":\"start\", …} before frames")
                return true
            }
            if let error = set.coachKeypoints(json, received: .now) { fail("bad-frame", error) }
            return true
        case "end":
            guard set != nil else {
                fail("not-started", "no set is running; send {\"type\":\"start\", …} first")
                return true
            }
            await endSet()
            return true
        default:
            fail("bad-message", "unknown message type \"\(type)\"; the types are start, frame and end")
            return true
        }
    }

    private func cameraFrame(_ buffer: ByteBuffer) {
        guard let set else {
            fail("not-started", "send {\"type\":\"start\",\"input\":\"camera\"} before camera frames")
            return
        }
        guard set.input == .camera else {
            fail("bad-frame", "this set was started with input \"keypoints\": send pose-track frames as text")
            return
        }
        var buffer = buffer
        let size = buffer.readableBytes
        guard size > 12, let id = buffer.readInteger(endianness: .big, as: UInt32.self),
            let bits = buffer.readInteger(endianness: .big, as: UInt64.self)
        else {
            fail(
                "bad-frame",
                "a camera frame is a 12-byte header (frame id, capture time) and a JPEG; got \(size) bytes"
            )
            return
        }
        let seconds = Double(bitPattern: bits)
        guard seconds.isFinite, seconds >= 0 else {
            fail("bad-frame", "frame \(id): the capture time must be a finite number of seconds ≥ 0")
            return
        }
        guard size - 12 <= hub.configuration.maxFrameBytes else {
            fail(
                "bad-frame",
                "frame \(id) has \(size - 12) bytes of JPEG; the limit is \(hub.configuration.maxFrameBytes) (send 640×480 at quality 0.7)"
            )
            return
        }
        let jpeg = buffer.readBytes(length: buffer.readableBytes) ?? []
        guard jpeg.count > 3, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else {
            let start = jpeg.prefix(2).map { String(format: "%02x", $0) }.joined(separator: " ")
            fail(
                "bad-frame",
                "frame \(id) is not a JPEG image (it starts \(start)); send JPEG bytes after the 12-byte header"
            )
            return
        }
        if let error = set.offer(.init(id: Int(id), seconds: seconds, jpeg: jpeg, received: .now)) {
            fail("bad-frame", error)
            return
        }
        hub.pool.enqueue(set)
    }

    // MARK: - Sets

    private func start(_ json: JSONValue) async -> Bool {
        if set != nil { await endSet() }
        let library = hub.library
        var exercise: ExerciseDefinition?
        // A hand exercise: coached with the hand model, on camera frames (docs/live-protocol.md, "Hand exercises").
        var hand: HandExerciseDefinition?
        if let id = json["exercise"]?.stringValue, !library.contains(where: { $0.id == id }),
            let found = hub.handLibrary.first(where: { $0.id == id })
        {
            guard hub.handEstimators != nil else {
                fail("unknown-exercise", "'\(id)' is a hand exercise and this server has no hand model")
                return true
            }
            hand = found
            if let problem = handStartProblem(json, &hand!) {
                fail("bad-message", problem)
                return true
            }
        } else if let id = json["exercise"], id != .null {
            guard let id = id.stringValue, let found = library.first(where: { $0.id == id }) else {
                fail(
                    "unknown-exercise",
                    "unknown exercise \(json["exercise"]!.jsonText); GET /api/exercises lists the ids, or send null to recognise it"
                )
                return true
            }
            exercise = found
        }
        // Frames from a sample video are practice: never the patient's set.
        let isSample = json["sample"] == .bool(true)
        // A set of the patient's programme: the therapist's prescription replaces the library's numbers.
        var followed: (programme: Programme, item: Int, setNumber: Int)?
        if let value = json["programmeItem"], value != .null {
            guard let patient else {
                fail("bad-message", "log in as a patient to follow a programme (\"programmeItem\")")
                return true
            }
            let programme: Programme?
            do {
                programme = try await hub.store.programme(patientID: patient.id, version: nil)
            } catch {
                fail("storage", "the programme could not be read (\(error)); try again")
                return true
            }
            guard let programme, let index = value.intValue, programme.items.indices.contains(index) else {
                fail("bad-message", "\"programmeItem\" must be the index of an exercise of your current programme")
                return true
            }
            do throws(CoachKitError) {
                (exercise, hand) = try hub.prescribed(programme.items[index])
            } catch {
                fail("bad-message", error.message)
                return true
            }
            if let hand, let input = json["input"]?.stringValue, input != "camera" {
                fail("bad-message", "'\(hand.id)' is a hand exercise: send camera frames (\"input\": \"camera\")")
                return true
            }
            let recent = (try? await hub.store.sets(patientID: patient.id, since: nil, limit: 1000)) ?? []
            // After pain 7 or more, or a safety stop, the exercise waits for the therapist (a sample video aside).
            if !isSample, let stop = StopAdvice.blocking(recent, exercise: programme.items[index].exercise) {
                fail("stopped", StopAdvice.text(for: stop, name: exercise?.name ?? hand?.name))
                return true
            }
            let done = StopAdvice.setsDoneToday(recent, item: index, version: programme.version)
            followed = (programme, index, done + 1)
        }
        let inputName = json["input"]?.stringValue ?? "camera"
        guard let input = LiveSet.Input(rawValue: inputName) else {
            fail("bad-message", "\"input\" must be \"camera\" or \"keypoints\", got \"\(inputName)\"")
            return true
        }
        var reps: Int? = followed.flatMap { exercise?.isHold == true ? nil : $0.programme.items[$0.item].reps }
        if followed == nil, let value = json["reps"], value != .null {
            guard let n = value.intValue, (1...1000).contains(n) else {
                fail("bad-message", "\"reps\" must be a whole number from 1 to 1000 (the repetitions prescribed)")
                return true
            }
            reps = n
        }
        var hold: Double? = followed.flatMap {
            exercise?.isHold == true ? nil : $0.programme.items[$0.item].holdSeconds
        }
        if followed == nil, let hand, json["holdSeconds"] != nil, json["holdSeconds"] != .null {
            hold = hand.repetition.holdSeconds
        }
        if followed == nil, hand == nil, let value = json["holdSeconds"], value != .null {
            guard let seconds = value.doubleValue, seconds > 0 else {
                fail("bad-message", "\"holdSeconds\" must be a number of seconds above 0")
                return true
            }
            guard let spec = exercise?.repetition else {
                fail(
                    "bad-message",
                    exercise == nil
                        ? "\"holdSeconds\" needs an exercise: the hold is prescribed for a named exercise's repetitions"
                        : "\"holdSeconds\" is for repetitions held at their peak; '\(exercise!.id)' is itself a hold"
                )
                return true
            }
            guard spec.acceptsHold(seconds) else {
                fail(
                    "bad-message",
                    "\"holdSeconds\" must be below \(String(format: "%g", spec.maximumSeconds)) s for '\(exercise!.id)'"
                )
                return true
            }
            hold = seconds
        }
        var header: PoseTrackHeader?
        if input == .keypoints {
            var object: [String: JSONValue] = ["format": .string("pose-track"), "version": .number(1)]
            for key in ["keypoints", "width", "height", "dimensions", "fps"] { object[key] = json[key] }
            if object["fps"] == nil { object["fps"] = .number(30) }
            do {
                header = try PoseTrackHeader(json: .object(object))
            } catch {
                fail(
                    "bad-message",
                    error.message.replacingOccurrences(
                        of: "not a pose-track header",
                        with: "not a keypoint start message"
                    )
                )
                return true
            }
            if let refusal = hub.takeKeypointSeat(address: address) {
                logger.info("live: busy: \(refusal)")
                send(LiveMessage.busy(refusal, retryAfterSeconds: 60))
                output(.close(.init(codeNumber: 1013), "session limit reached; try again later"))
                closed = true
                return false
            }
            holdsKeypointSeat = true
        } else {
            if let refusal = hub.takeCameraSeat() {
                logger.info("live: busy: \(refusal.message)")
                send(LiveMessage.busy(refusal.message, retryAfterSeconds: refusal.retryAfterSeconds))
                output(.close(.init(codeNumber: 1013), "session limit reached; try again later"))
                closed = true
                return false
            }
            holdsCameraSeat = true
        }
        let id = UUID().uuidString
        let saves = self.saves
        let store = hub.store
        let logger = self.logger
        let output = self.output
        let newSet = LiveSet(
            id: id,
            input: input,
            exercise: exercise,
            library: library,
            prescribedReps: reps,
            prescribedHoldSeconds: hold,
            keypointHeader: header,
            estimators: input == .camera ? hub.estimators : nil,
            hands: hand.map {
                LiveHandCoach(
                    exercise: $0,
                    startOnPinch: json["startOnPinch"] == .bool(true),
                    estimators: hub.handEstimators
                )
            },
            send: { output(.text($0)) },
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
        var record = SetRecord(
            id: id,
            startedAt: newSet.startedAt,
            input: input.rawValue,
            exercise: exercise?.id ?? hand?.id,
            exerciseName: exercise?.name ?? hand?.name,
            prescribedReps: reps,
            prescribedHoldSeconds: hold
        )
        record.patientID = patient?.id
        record.programmeVersion = followed?.programme.version
        record.programmeItem = followed?.item
        record.prescription = followed.map { $0.programme.items[$0.item] }
        // A logged-in patient's set counts when it follows the programme with their own camera; else it is practice.
        if patient != nil {
            record.practice = isSample ? .sampleVideo : followed == nil ? .unprescribed : nil
        }
        record.setNumber = record.practice == nil ? followed?.setNumber : nil
        do {
            try await store.open(record)
        } catch {
            releaseSeat()
            fail("storage", "the set could not be saved (\(error)); nothing will be counted")
            return true
        }
        set = newSet
        hub.register(newSet)
        logger.info("live: set \(id) started (\(input.rawValue), \(exercise?.id ?? hand?.id ?? "recognised"))")
        var ready: [String: JSONValue] = [
            "type": .string("ready"), "session": .string(id), "input": .string(input.rawValue),
            "maxFrameBytes": .number(Double(hub.configuration.maxFrameBytes)),
            "reps": reps.map { .number(Double($0)) } ?? .null,
            "practice": record.practice.map { .string($0.rawValue) } ?? .null,
        ]
        ready["exercise"] =
            exercise.map {
                .object(["id": .string($0.id), "name": .string($0.name), "view": .string($0.view.rawValue)])
            } ?? hand.map {
                .object([
                    "id": .string($0.id), "name": .string($0.name), "view": .string($0.view.rawValue),
                    "hand": .bool(true), "setUp": .string($0.setUp),
                    "gestures": .string(HandGestureControl.setUpGuidance),
                ])
            } ?? .null
        if let followed {
            let item = followed.programme.items[followed.item]
            ready["programme"] = .object([
                "item": .number(Double(followed.item)),
                "set": record.setNumber.map { .number(Double($0)) } ?? .null,
                "sets": .number(Double(item.sets)), "restSeconds": .number(item.restSeconds),
                "holdSeconds": item.holdSeconds.map(JSONValue.number) ?? .null, "note": .string(item.note),
                "target": (exercise?.target ?? hand?.target).map { .array([.number($0.min), .number($0.max)]) }
                    ?? .null,
            ])
        }
        send(JSONValue.object(ready).jsonText)
        return true
    }

    /// Ends the running set: waits for the frame being coached, saves the summary and sends it.
    private func endSet() async {
        guard let set else { return }
        self.set = nil
        releaseSeat()
        // Saved in a task of its own: a socket's task is cancelled when the server stops, and the save must not be.
        let (hub, saves) = (hub, saves)
        let message = await Task { await hub.finish(set, after: saves) }.value
        if let message { send(message) }
    }

    /// What is wrong with a hand set's start message (camera frames only; a hold applies to the definition's
    /// repetitions, unless a programme's item prescribes it), or `nil`.
    private func handStartProblem(_ json: JSONValue, _ hand: inout HandExerciseDefinition) -> String? {
        if let input = json["input"]?.stringValue, input != "camera" {
            return "'\(hand.id)' is a hand exercise: send camera frames (\"input\": \"camera\")"
        }
        if let value = json["holdSeconds"], value != .null,
            json["programmeItem"] == nil || json["programmeItem"] == .null
        {
            guard let seconds = value.doubleValue, hand.repetition.acceptsHold(seconds) else {
                return "\"holdSeconds\" must be above 0 and below "
                    + "\(String(format: "%g", hand.repetition.maximumSeconds)) s for '\(hand.id)'"
            }
            hand.repetition.holdSeconds = seconds
        }
        return nil
    }

    /// A held open palm ended the set whose id is `setID`: finish it as `end` does, if it is still the one running.
    private func gestureEnded(setID: String) async {
        guard set?.id == setID else { return }
        await endSet()
    }

    private func releaseSeat() {
        if holdsCameraSeat {
            hub.releaseCameraSeat()
            holdsCameraSeat = false
        }
        if holdsKeypointSeat {
            hub.releaseKeypointSeat(address: address)
            holdsKeypointSeat = false
        }
    }

    /// The socket closed (or the server is stopping): the running set is finished and saved.
    func finish() async {
        await endSet()
        closed = true
    }

    /// The server is shutting down: save the set, say so, close with 1001.
    func shutDown() async {
        guard !closed else { return }
        await endSet()
        closed = true
        output(.close(.goingAway, "server shutting down"))
    }
}

/// The repetition saves in flight for a connection, so that a set's summary is saved after them.
final class SaveLog: @unchecked Sendable {
    private let lock = NSLock()
    private var tasks: [Task<Void, Never>] = []

    func add(_ task: Task<Void, Never>) {
        lock.withLock { tasks.append(task) }
    }

    func drain() async {
        let pending = lock.withLock {
            defer { tasks = [] }
            return tasks
        }
        for task in pending { await task.value }
    }
}

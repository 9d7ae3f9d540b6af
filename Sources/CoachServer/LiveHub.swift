import CoachKit
import CoachStore
import Foundation
import Logging
import PoseKit
import ServiceLifecycle
import Synchronization

/// What every live connection shares: the inference workers, the store, the library and the session limit.
/// As a service it outlives the HTTP server at shutdown: sets still open then are finished and saved.
final class LiveHub: Service, Sendable {
    let configuration: CoachServerConfiguration
    /// The library the server was started with (bundled, or `--exercises-directory`); the one exercises are recognised
    /// from when none is given.
    let bundled: [ExerciseDefinition]
    /// The clinic's own exercises (learned from demonstrations, kept in the store): re-read when a name is not found,
    /// so that one learned on another instance is known here too.
    private let learned = Mutex<[ExerciseDefinition]>([])
    /// Finds the poses in a demonstration video, for the clinic's learning (`nil`: the server cannot learn).
    let demonstrations: (any DemonstrationPoses)?
    let store: any ClinicStore
    let estimators: CameraEstimatorPool<PoseFrame>
    /// The hand sets' estimators; `nil` when the server was given no hand model.
    let handEstimators: CameraEstimatorPool<HandFrame>?
    let handLibrary: [HandExerciseDefinition]
    let pool: InferencePool
    let logger: Logger
    /// The live-watch relay's end on this instance: patients' sets to their therapists (docs/live-watch.md).
    let watch: WatchRouter

    /// The names of the bundled body and hand exercises, by id.
    private let bundledNames: [String: String]

    /// Every body exercise the server coaches: the bundled library's, then the clinic's own.
    var library: [ExerciseDefinition] { bundled + learned.withLock { $0 } }

    /// The names of the body and hand exercises, the clinic's own included, by id.
    var exerciseNames: [String: String] {
        bundledNames.merging(learned.withLock { $0 }.map { ($0.id, $0.name) }) { bundled, _ in bundled }
    }

    /// The seats taken, the sets open and the sockets connected.
    private struct State {
        var cameraSeats = 0
        /// Keypoint sets open, by the client's address.
        var keypointSeats: [String: Int] = [:]
        var open: [ObjectIdentifier: LiveSet] = [:]
        var connections: [ObjectIdentifier: LiveConnection] = [:]
    }

    private let state = Mutex(State())

    init(
        configuration: CoachServerConfiguration,
        store: any ClinicStore,
        makeEstimator: @escaping CameraPoseEstimatorFactory,
        makeHandEstimator: CameraHandEstimatorFactory? = nil,
        relay: any LiveRelay = LocalLiveRelay(),
        demonstrations: (any DemonstrationPoses)? = nil,
        logger: Logger
    ) {
        watch = WatchRouter(relay: relay)
        self.demonstrations = demonstrations
        handEstimators = makeHandEstimator.map { CameraEstimatorPool(make: $0) }
        handLibrary = configuration.handLibrary
        self.configuration = configuration
        bundled = configuration.library
        bundledNames = Dictionary(
            configuration.library.map { ($0.id, $0.name) } + configuration.handLibrary.map { ($0.id, $0.name) },
            uniquingKeysWith: { body, _ in body }
        )
        self.store = store
        estimators = CameraEstimatorPool(make: makeEstimator)
        self.logger = logger
        pool = InferencePool(workers: configuration.workers, capacity: configuration.admission)
    }

    /// Takes one of the camera sessions the server can coach: within `maxCameraSessions`, and while the workers'
    /// measured rate leaves every session, the new one included, its minimum frame rate (``InferenceCapacity``).
    /// At a limit, `nil` and the refusal: its words, and when to try again.
    func takeCameraSeat() -> (message: String, retryAfterSeconds: Int)? {
        let limit = configuration.maxCameraSessions
        return state.withLock { state in
            guard state.cameraSeats < limit else {
                return ("the server is coaching \(limit) camera sessions, its limit; try again later", 60)
            }
            if case .busy(let retry, let rate) = pool.admission(running: state.cameraSeats) {
                let minimum = Int(pool.minimumFramesPerSecond)
                return (
                    "the server is busy: its pose model manages \(Int(rate)) frames a second, enough for the "
                        + "\(state.cameraSeats) camera session(s) running at \(minimum) frames a second each and no "
                        + "more; try again in \(retry) s",
                    retry
                )
            }
            state.cameraSeats += 1
            return nil
        }
    }

    func releaseCameraSeat() {
        state.withLock { $0.cameraSeats -= 1 }
    }

    /// Takes one of the keypoint sets allowed to `address` and in all; at a limit, `nil` and the refusal's words.
    func takeKeypointSeat(address: String) -> String? {
        let (perAddress, inAll) = (configuration.maxKeypointSessionsPerAddress, configuration.maxKeypointSessions)
        return state.withLock { state in
            if state.keypointSeats.values.reduce(0, +) >= inAll {
                return "the server has \(inAll) keypoint sets open, its limit; try again later"
            }
            if state.keypointSeats[address, default: 0] >= perAddress {
                return "\(perAddress) keypoint sets are open from your address, the limit; end one, or try again later"
            }
            state.keypointSeats[address, default: 0] += 1
            return nil
        }
    }

    func releaseKeypointSeat(address: String) {
        state.withLock { state in
            state.keypointSeats[address, default: 1] -= 1
            if state.keypointSeats[address] == 0 { state.keypointSeats[address] = nil }
        }
    }

    func register(_ connection: LiveConnection) {
        state.withLock { $0.connections[ObjectIdentifier(connection)] = connection }
    }

    func unregister(_ connection: LiveConnection) {
        state.withLock { $0.connections[ObjectIdentifier(connection)] = nil }
    }

    /// Sends each open socket its set's summary, saves the set and closes the socket with 1001.
    func closeConnections() async {
        let open = state.withLock { Array($0.connections.values) }
        await withTaskGroup(of: Void.self) { group in
            for connection in open { group.addTask { await connection.shutDown() } }
        }
    }

    func register(_ set: LiveSet) {
        state.withLock { $0.open[ObjectIdentifier(set)] = set }
    }

    func unregister(_ set: LiveSet) {
        state.withLock { $0.open[ObjectIdentifier(set)] = nil }
    }

    /// Sets being coached now.
    var openSets: Int { state.withLock { $0.open.count } }

    /// What a programme's item prescribes: a body exercise of the library as the coach follows it, or a hand
    /// exercise (only on a server with the hand model: the patient could not do it live otherwise).
    ///
    /// - Throws: ``CoachKit/CoachKitError`` with one line: the exercise unknown, or a number out of range.
    func prescribed(
        _ item: Prescription
    ) throws(CoachKitError) -> (body: ExerciseDefinition?, hand: HandExerciseDefinition?) {
        guard !library.contains(where: { $0.id == item.exercise }),
            let hand = handLibrary.first(where: { $0.id == item.exercise })
        else { return (try item.prescribed(from: library), nil) }
        guard handEstimators != nil else {
            throw CoachKitError(
                .unknownExercise,
                "'\(item.exercise)' is a hand exercise (\(hand.name)) and this server has no hand model"
            )
        }
        return (nil, try item.prescribed(hands: handLibrary))
    }

    /// Ends a set and saves it: waits for the frame being coached, gives its estimator back, saves the summary
    /// after the repetition saves in flight (`saves`), and returns the summary message for its socket. `nil` when
    /// the set was already finished (by its socket, or by the shutdown's sweep).
    func finish(_ set: LiveSet, after saves: SaveLog?) async -> ServerMessage.Summary? {
        guard set.claimFinish() else { return nil }
        set.stop()
        while pool.isBusy(set) { try? await Task.sleep(for: .milliseconds(2)) }
        set.releaseEstimator()
        defer { unregister(set) }
        await saves?.drain()
        var message = ServerMessage.Summary(
            session: set.id,
            dropped: set.droppedFrames,
            events: [],
            message: set.hands?.neverStarted ?? "no frame was coached in this set",
            hand: set.hands != nil
        )
        guard let outcome = set.outcome() else {
            try? await store.close(setID: set.id, summary: nil, summaryJSON: nil, angleSeriesJSON: nil, at: Date())
            message.practice = try? await store.set(id: set.id)?.practice
            return message
        }
        // Hand lengths to a hundredth, degrees to a tenth.
        let scale = set.hands.map { $0.exercise.primary.isDegrees ? 10.0 : 100 } ?? 10
        let series = AngleSample.seriesJSON(outcome.series, scale: scale)
        message.message = outcome.problem
        do {
            try await store.close(
                setID: set.id,
                summary: outcome.summary,
                summaryJSON: outcome.json,
                angleSeriesJSON: series,
                at: Date()
            )
        } catch {
            logger.error("live: \(error)")
            message.message =
                "the set's summary could not be saved (\(error)); its repetitions were saved as they came"
        }
        logger.info("live: set \(set.id) ended: \(outcome.summary.reps) reps, \(set.droppedFrames) frames dropped")
        message.events = outcome.events.compactMap(LiveEvent.init)
        message.report = .init(session: set.id)
        message.summary = try? EmbeddedJSON(text: outcome.json)
        message.unsure = outcome.summary.recognitionUnsure ? RecognitionConfidence.unsureSentence : nil
        // A patient's set that crossed a safety limit stops the exercise (StopAdvice); practice is said too.
        let saved = try? await store.set(id: set.id)
        message.stop = saved.flatMap {
            $0.patientID == nil || $0.stopReason == nil ? nil : StopAdvice.text(for: $0, name: nil)
        }
        message.practice = saved?.practice
        return message
    }

    /// Reads the clinic's own exercises again from the store (a definition that no longer reads is left out, and
    /// logged).
    func refreshLearned() async {
        guard let saved = try? await store.clinicExercises() else { return }
        var definitions: [ExerciseDefinition] = []
        for exercise in saved where !bundled.contains(where: { $0.id == exercise.id }) {
            do throws(CoachKitError) {
                definitions.append(try ExerciseDefinition(jsonText: exercise.definitionJSON, file: exercise.id))
            } catch {
                logger.error("library: the clinic's exercise \(exercise.id) does not read: \(error.message)")
            }
        }
        learned.withLock { $0 = definitions }
    }

    /// `id` is a body exercise the server knows, re-reading the clinic's own exercises when it is not among them.
    func knowsExercise(_ id: String) async -> Bool {
        if library.contains(where: { $0.id == id }) || handLibrary.contains(where: { $0.id == id }) { return true }
        await refreshLearned()
        return library.contains(where: { $0.id == id })
    }

    func run() async throws {
        await refreshLearned()
        let interrupted = try await store.markInterrupted()
        if interrupted > 0 {
            logger.warning(
                "live: \(interrupted) set(s) left open by an earlier run are marked interrupted; their repetitions are kept"
            )
        }
        // The heartbeat: other instances on the database see this one alive and leave its sets alone; a set of an
        // instance that stopped beating is marked interrupted here (docs/live-watch.md, "Several instances").
        let heartbeat = Task { [store, logger] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(ClinicStoreHeartbeat.interval))
                if Task.isCancelled { break }
                do throws(StoreError) {
                    let count = try await store.markInterrupted()
                    if count > 0 {
                        logger.warning("live: \(count) set(s) of a stopped instance are marked interrupted")
                    }
                } catch {
                    logger.error("live: heartbeat: \(error.message)")
                }
            }
        }
        try? await gracefulShutdown()
        heartbeat.cancel()
        // The HTTP server has stopped and its sockets have closed (each saving its set); anything left is saved here.
        let left = state.withLock { Array($0.open.values) }
        for set in left { _ = await finish(set, after: nil) }
        pool.stop()
        logger.info("live: stopped; \(left.count) set(s) saved at shutdown")
    }
}

/// At shutdown, closes the live sockets with a reason before the HTTP server stops (`CoachServer.run` lists it after
/// the application, so that it is stopped first).
final class LiveShutdown: Service, Sendable {
    let hub: LiveHub
    init(hub: LiveHub) { self.hub = hub }

    func run() async throws {
        try? await gracefulShutdown()
        await hub.closeConnections()
    }
}

import CoachKit
import CoachStore
import Foundation
import Logging
import ServiceLifecycle

/// What every live connection shares: the inference workers, the store, the library and the session limit.
/// As a service it outlives the HTTP server at shutdown: sets still open then are finished and saved.
final class LiveHub: Service, @unchecked Sendable {
    let configuration: CoachServerConfiguration
    let library: [ExerciseDefinition]
    let store: any SessionStore
    let estimators: CameraEstimatorPool
    let pool: InferencePool
    let logger: Logger

    private let lock = NSLock()
    private var cameraSeats = 0
    private var open: [ObjectIdentifier: LiveSet] = [:]

    init(
        configuration: CoachServerConfiguration,
        store: any SessionStore,
        makeEstimator: @escaping CameraPoseEstimatorFactory,
        logger: Logger
    ) {
        self.configuration = configuration
        self.library = configuration.library
        self.store = store
        estimators = CameraEstimatorPool(make: makeEstimator)
        self.logger = logger
        pool = InferencePool(workers: configuration.workers)
    }

    /// Takes one of the camera sessions allowed; `false` at the limit.
    func takeCameraSeat() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard cameraSeats < configuration.maxCameraSessions else { return false }
        cameraSeats += 1
        return true
    }

    func releaseCameraSeat() {
        lock.lock()
        cameraSeats -= 1
        lock.unlock()
    }

    func register(_ set: LiveSet) {
        lock.lock()
        open[ObjectIdentifier(set)] = set
        lock.unlock()
    }

    func unregister(_ set: LiveSet) {
        lock.lock()
        open[ObjectIdentifier(set)] = nil
        lock.unlock()
    }

    /// Sets being coached now.
    var openSets: Int {
        lock.lock()
        defer { lock.unlock() }
        return open.count
    }

    func run() async throws {
        let interrupted = try await store.markInterrupted()
        if interrupted > 0 {
            logger.warning("live: \(interrupted) set(s) left open by an earlier run are marked interrupted; their repetitions are kept")
        }
        try? await gracefulShutdown()
        // The HTTP server has stopped and its sockets have closed (each saving its set); anything left is saved here.
        let left = lock.withLock { Array(open.values) }
        for set in left {
            set.stop()
            while pool.isBusy(set) { try? await Task.sleep(for: .milliseconds(2)) }
            if let outcome = set.outcome() {
                try? await store.close(
                    setID: set.id,
                    summary: outcome.summary,
                    summaryJSON: outcome.json,
                    angleSeriesJSON: "[]",
                    at: Date()
                )
            }
        }
        pool.stop()
        logger.info("live: stopped; \(left.count) set(s) saved at shutdown")
    }
}

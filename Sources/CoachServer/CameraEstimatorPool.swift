import Foundation

/// The camera sessions' estimators (the body's, or the hands'): a session takes an idle one (or a new one) and gives
/// it back when it ends, so the server holds at most as many models as it ever coached camera sessions at once.
final class CameraEstimatorPool<Estimator>: @unchecked Sendable {
    private let make: @Sendable () throws(LiveFrameError) -> Estimator
    private let restart: @Sendable (Estimator) -> Void
    private let lock = NSLock()
    private var idle: [Estimator] = []
    /// Estimators made so far.
    private(set) var made = 0

    /// - Parameter restart: called on an idle estimator taken again (its stream starts afresh).
    init(
        make: @escaping @Sendable () throws(LiveFrameError) -> Estimator,
        restart: @escaping @Sendable (Estimator) -> Void
    ) {
        self.make = make
        self.restart = restart
    }

    func take() throws(LiveFrameError) -> Estimator {
        if let estimator = lock.withLock({ idle.popLast() }) {
            restart(estimator)
            return estimator
        }
        let estimator = try make()
        lock.withLock { made += 1 }
        return estimator
    }

    func give(_ estimator: Estimator) {
        lock.withLock { idle.append(estimator) }
    }
}

extension CameraEstimatorPool where Estimator == any CameraPoseEstimator {
    convenience init(make: @escaping CameraPoseEstimatorFactory) {
        self.init(make: make, restart: { $0.startStream() })
    }
}

extension CameraEstimatorPool where Estimator == any CameraHandEstimator {
    convenience init(make: @escaping CameraHandEstimatorFactory) {
        self.init(make: make, restart: { $0.startStream() })
    }
}

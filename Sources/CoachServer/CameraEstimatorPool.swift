import Foundation

/// The camera sessions' estimators: a session takes an idle one (or a new one) and gives it back when it ends, so
/// the server holds at most as many pose models as it ever coached camera sessions at once.
final class CameraEstimatorPool: @unchecked Sendable {
    private let make: CameraPoseEstimatorFactory
    private let lock = NSLock()
    private var idle: [any CameraPoseEstimator] = []
    /// Estimators made so far.
    private(set) var made = 0

    init(make: @escaping CameraPoseEstimatorFactory) { self.make = make }

    func take() throws(LiveFrameError) -> any CameraPoseEstimator {
        if let estimator = lock.withLock({ idle.popLast() }) {
            estimator.startStream()
            return estimator
        }
        let estimator = try make()
        lock.withLock { made += 1 }
        return estimator
    }

    func give(_ estimator: any CameraPoseEstimator) {
        lock.withLock { idle.append(estimator) }
    }
}

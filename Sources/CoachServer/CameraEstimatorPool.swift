import Foundation
import PoseKit

/// The camera sessions' estimators (the body's, or the hands'): a session takes an idle one (or a new one) and gives
/// it back when it ends, so the server holds at most as many models as it ever coached camera sessions at once.
///
/// `@unchecked Sendable`: `idle` and `made` are only touched under `lock`; an estimator is handed to one set at a
/// time (taken out of `idle` before it is used, put back once its set has ended).
final class CameraEstimatorPool<Frame: Sendable>: @unchecked Sendable {
    private let make: @Sendable () throws(LiveFrameError) -> CameraEstimator<Frame>
    private let lock = NSLock()
    private var idle: [CameraEstimator<Frame>] = []
    /// Estimators made so far.
    private(set) var made = 0

    init(make: @escaping @Sendable () throws(LiveFrameError) -> CameraEstimator<Frame>) {
        self.make = make
    }

    /// An idle estimator, its stream started afresh, or a new one.
    func take() throws(LiveFrameError) -> CameraEstimator<Frame> {
        if let estimator = lock.withLock({ idle.popLast() }) {
            estimator.startStream()
            return estimator
        }
        let estimator = try make()
        lock.withLock { made += 1 }
        return estimator
    }

    func give(_ estimator: CameraEstimator<Frame>) {
        lock.withLock { idle.append(estimator) }
    }
}

import PoseKit
import Synchronization

/// The camera sessions' estimators (the body's, or the hands'): a session takes an idle one (or a new one) and gives
/// it back when it ends, so the server holds at most as many models as it ever coached camera sessions at once.
///
/// An estimator is handed to one set at a time: taken out of the idle list before it is used, put back once its set
/// has ended.
final class CameraEstimatorPool<Frame: Sendable>: Sendable {
    /// An idle estimator. `@unchecked Sendable`: a ``CameraEstimator`` is not `Sendable` (its model is used by one
    /// thread at a time), and the region checker cannot see that a set hands it over for good: the set that gives it
    /// back drops it (``LiveSet/releaseEstimator()``, ``LiveHandCoach/releaseEstimator()``), so while it is idle only
    /// the pool holds it, and ``take()`` hands it to one set again.
    private struct Idle: @unchecked Sendable {
        let estimator: CameraEstimator<Frame>
    }

    private struct State {
        var idle: [Idle] = []
        /// Estimators made so far.
        var made = 0
    }

    private let make: @Sendable () throws(LiveFrameError) -> CameraEstimator<Frame>
    private let state = Mutex(State())

    init(make: @escaping @Sendable () throws(LiveFrameError) -> CameraEstimator<Frame>) {
        self.make = make
    }

    /// Estimators made so far.
    var made: Int { state.withLock { $0.made } }

    /// An idle estimator, its stream started afresh, or a new one.
    func take() throws(LiveFrameError) -> CameraEstimator<Frame> {
        if let idle = state.withLock({ $0.idle.popLast() }) {
            idle.estimator.startStream()
            return idle.estimator
        }
        let estimator = try make()
        state.withLock { $0.made += 1 }
        return estimator
    }

    /// Takes `estimator` back once its set has ended; the set never uses it again.
    func give(_ estimator: CameraEstimator<Frame>) {
        let idle = Idle(estimator: estimator)
        state.withLock { $0.idle.append(idle) }
    }
}

/// Lets through one frame in `factor`, or resamples a stream to a target rate by its timestamps
/// (Create ML's `Downsampler`).
///
/// By rate, kept frames follow a grid of `1 / targetFPS` seconds anchored at the first frame: a frame
/// is kept when it is the first to arrive within half a source frame interval before the next grid
/// time (the source interval is estimated from the timestamps), so jittered timestamps still keep the
/// right frames and the average rate is exact. After a pause longer than one target period the grid
/// restarts at the next frame. A source slower than the target keeps every frame.
///
/// ```swift
/// var downsampler = Downsampler(targetFPS: 10)      // 30 fps camera → 10 fps
/// for frame in frames where downsampler.ingest(at: frame.seconds) { classify(frame) }
/// ```
public struct Downsampler: Sendable {
    private enum Mode: Sendable, Hashable {
        case factor(Int)
        case rate(period: Double)
    }

    private let mode: Mode
    /// Frames seen (by factor) since the last kept one.
    private var counter = 0
    /// The grid time of the next frame to keep (by rate).
    private var due = -Double.infinity
    private var previousSeconds: Double?
    /// Running estimate of the source frame interval in seconds (0 until two frames were seen).
    private var sourceInterval = 0.0

    /// Resamples to `targetFPS` frames per second by timestamp.
    public init(targetFPS: Double) {
        precondition(targetFPS > 0 && targetFPS.isFinite, "targetFPS (\(targetFPS)) must be a positive number")
        mode = .rate(period: 1 / targetFPS)
    }

    /// Keeps the first frame and then one in every `factor`, whatever the timestamps.
    public init(factor: Int) {
        precondition(factor >= 1, "factor (\(factor)) must be at least 1")
        mode = .factor(factor)
    }

    /// Whether to keep the frame at `seconds`.
    public mutating func ingest(at seconds: Double) -> Bool {
        switch mode {
        case .factor(let factor):
            let keep = counter == 0
            counter += 1
            if counter == factor { counter = 0 }
            return keep
        case .rate(let period):
            if let previousSeconds {
                let dt = seconds - previousSeconds
                if dt < 0 {
                    // Time went backwards: a new recording; start over.
                    reset()
                } else if dt > 0, dt < period * 4 {
                    sourceInterval = sourceInterval == 0 ? dt : sourceInterval + 0.1 * (dt - sourceInterval)
                }
            }
            previousSeconds = seconds
            let slack = min(sourceInterval, period) / 2
            guard seconds >= due - slack else { return false }
            // On time: advance the grid; after a pause (more than a period late): restart it here.
            due = seconds - due > period ? seconds + period : due + period
            return true
        }
    }

    /// Starts over: the next frame is kept.
    public mutating func reset() {
        counter = 0
        due = -Double.infinity
        previousSeconds = nil
        sourceInterval = 0
    }
}

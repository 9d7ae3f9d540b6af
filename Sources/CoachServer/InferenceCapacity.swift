/// How many camera sessions the inference workers can coach, measured from the frames they processed: a new
/// session is admitted only while every session, the new one included, could still be coached at
/// ``Configuration/minimumFramesPerSecond``. The figure is the server's own, so it holds on any machine and under
/// any other load: frames that take longer (a slower core, another process on it) lower it.
///
/// ```swift
/// var capacity = InferenceCapacity()
/// capacity.record(frameCost: .milliseconds(20))          // per processed frame, by the worker that ran it
/// if case .busy(let retry, _) = capacity.admission(running: 9, workers: 2) { … refuse, "try again in \(retry) s" … }
/// ```
struct InferenceCapacity: Sendable {
    struct Configuration: Sendable {
        /// The rate every running camera session keeps: 8 frames per second still count repetitions and see a
        /// held pinch (half a second over at least 3 frames).
        var minimumFramesPerSecond: Double = 8
        /// The frames averaged: the last 240 (about 8 s of two clients at 15 fps), so the figure follows the load.
        var window: Int = 240
        /// Frames measured before the figure is used; until then only the fixed session limit applies.
        var minimumSamples: Int = 30
        /// When a refused client is told to try again (a set lasts a few minutes; sessions end and the load moves).
        var retryAfterSeconds: Int = 30

        init() {}
    }

    enum Admission: Equatable, Sendable {
        case admit
        /// No room: try again in `retryAfterSeconds`; the workers manage `framesPerSecond` in all.
        case busy(retryAfterSeconds: Int, framesPerSecond: Double)
    }

    let configuration: Configuration
    /// The seconds the last frames took, a ring of `window` entries.
    private var costs: [Double] = []
    private var next = 0
    private var total = 0.0

    init(configuration: Configuration = .init()) {
        precondition(configuration.window > 0, "window (\(configuration.window)) must be above 0")
        precondition(
            configuration.minimumFramesPerSecond > 0,
            "minimumFramesPerSecond (\(configuration.minimumFramesPerSecond)) must be above 0"
        )
        self.configuration = configuration
    }

    /// Records the time one worker spent on one frame (decode, pose model, coaching).
    mutating func record(frameCost: Duration) {
        let seconds = Double(frameCost.components.seconds) + Double(frameCost.components.attoseconds) * 1e-18
        guard seconds.isFinite, seconds >= 0 else { return }
        if costs.count < configuration.window {
            costs.append(seconds)
        } else {
            total -= costs[next]
            costs[next] = seconds
            next = (next + 1) % configuration.window
        }
        total += seconds
    }

    /// The frames per second `workers` workers coach at the measured cost, or `nil` before enough frames.
    func framesPerSecond(workers: Int) -> Double? {
        guard costs.count >= configuration.minimumSamples, total > 0 else { return nil }
        return Double(workers) / (total / Double(costs.count))
    }

    /// Whether one more camera session fits beside `running` ones.
    func admission(running: Int, workers: Int) -> Admission {
        guard let rate = framesPerSecond(workers: workers) else { return .admit }
        if Double(running + 1) * configuration.minimumFramesPerSecond <= rate { return .admit }
        return .busy(retryAfterSeconds: configuration.retryAfterSeconds, framesPerSecond: rate)
    }
}

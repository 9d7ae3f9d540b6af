/// One-Euro filter for one scalar signal (Casiez, Roussel & Vogel, CHI 2012).
///
/// A first-order low-pass filter whose cutoff rises with the signal's speed: at rest the cutoff is
/// `minCutoff` (strong smoothing, little jitter), and in fast movement it grows by `beta` per unit of
/// speed (little lag). Frames carry their own time, so irregular frame rates are handled.
/// See `Guides.md` next to this file for the parameters chosen for poses in pixels.
///
/// ```swift
/// var filter = OneEuroFilter(configuration: .init(minCutoff: 1.0, beta: 0.02))
/// for (seconds, x) in samples {
///     let smoothX = filter.ingest(x, at: seconds)
/// }
/// ```
public struct OneEuroFilter: Sendable {
    /// The filter's tuning.
    public struct Configuration: Sendable, Hashable {
        /// Cutoff frequency in hertz at rest. Lower = smoother but more lag at slow speeds.
        public var minCutoff: Double
        /// How fast the cutoff rises with speed, in hertz per (unit of the signal per second).
        /// Higher = less lag in fast movement, more jitter let through.
        public var beta: Double
        /// Cutoff frequency in hertz of the low-pass filter applied to the derivative.
        public var derivativeCutoff: Double

        /// - Parameters:
        ///   - minCutoff: Cutoff in hertz at rest (default 1.0 Hz).
        ///   - beta: Speed coefficient (default 0.02, tuned for pixel coordinates of a person a few hundred pixels tall).
        ///   - derivativeCutoff: Cutoff in hertz for the speed estimate (default 1.0 Hz, as in the paper).
        public init(minCutoff: Double = 1.0, beta: Double = 0.02, derivativeCutoff: Double = 1.0) {
            precondition(minCutoff > 0 && minCutoff.isFinite, "minCutoff (\(minCutoff)) must be a positive number of hertz")
            precondition(beta >= 0 && beta.isFinite, "beta (\(beta)) must be zero or positive")
            precondition(
                derivativeCutoff > 0 && derivativeCutoff.isFinite,
                "derivativeCutoff (\(derivativeCutoff)) must be a positive number of hertz"
            )
            self.minCutoff = minCutoff
            self.beta = beta
            self.derivativeCutoff = derivativeCutoff
        }
    }

    public var configuration: Configuration

    private enum State: Sendable {
        case empty
        case running(value: Double, derivative: Double, seconds: Double)
    }

    private var state: State = .empty

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    /// The last filtered value, or `nil` before the first sample.
    public var value: Double? {
        if case .running(let value, _, _) = state { return value }
        return nil
    }

    /// Filters `value` observed at `seconds` and returns the smoothed value.
    ///
    /// The first sample is returned unchanged. A sample whose time is not after the previous one's
    /// returns the previous output and changes nothing (duplicate timestamps); a non-finite value does
    /// the same.
    public mutating func ingest(_ value: Double, at seconds: Double) -> Double {
        switch state {
        case .empty:
            guard value.isFinite, seconds.isFinite else { return value }
            state = .running(value: value, derivative: 0, seconds: seconds)
            return value
        case .running(let previous, let previousDerivative, let previousSeconds):
            let dt = seconds - previousSeconds
            guard dt > 0, value.isFinite else { return previous }
            let rawDerivative = (value - previous) / dt
            let derivative = Self.lowPass(
                rawDerivative, previous: previousDerivative, cutoff: configuration.derivativeCutoff, dt: dt
            )
            let cutoff = configuration.minCutoff + configuration.beta * abs(derivative)
            let filtered = Self.lowPass(value, previous: previous, cutoff: cutoff, dt: dt)
            state = .running(value: filtered, derivative: derivative, seconds: seconds)
            return filtered
        }
    }

    /// Forgets the history: the next sample is returned unchanged.
    public mutating func reset() {
        state = .empty
    }

    /// Exponential smoothing with the factor of a first-order low-pass filter at `cutoff` hertz.
    private static func lowPass(_ value: Double, previous: Double, cutoff: Double, dt: Double) -> Double {
        // alpha = 1 / (1 + tau / dt) with tau = 1 / (2π fc).
        let tau = 1 / (2 * Double.pi * cutoff)
        let alpha = 1 / (1 + tau / dt)
        return previous + alpha * (value - previous)
    }
}

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
            precondition(
                minCutoff > 0 && minCutoff.isFinite,
                "minCutoff (\(minCutoff)) must be a positive number of hertz"
            )
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

    // Plain stored state rather than an enum with payloads: this runs ~100 times per frame in PoseSmoother.
    private var hasValue = false
    private var previousValue = 0.0
    private var previousDerivative = 0.0
    private var previousSeconds = 0.0

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    /// The last filtered value, or `nil` before the first sample.
    public var value: Double? { hasValue ? previousValue : nil }

    /// Filters `value` observed at `seconds` and returns the smoothed value.
    ///
    /// The first sample is returned unchanged. A sample whose time is not after the previous one's
    /// returns the previous output and changes nothing (duplicate timestamps); a non-finite value does
    /// the same.
    public mutating func ingest(_ value: Double, at seconds: Double) -> Double {
        guard hasValue else {
            guard value.isFinite, seconds.isFinite else { return value }
            hasValue = true
            previousValue = value
            previousDerivative = 0
            previousSeconds = seconds
            return value
        }
        let dt = seconds - previousSeconds
        guard dt > 0, value.isFinite else { return previousValue }
        let rawDerivative = (value - previousValue) / dt
        let derivative =
            previousDerivative + Self.alpha(cutoff: configuration.derivativeCutoff, dt: dt)
            * (rawDerivative - previousDerivative)
        let cutoff = configuration.minCutoff + configuration.beta * abs(derivative)
        let filtered = previousValue + Self.alpha(cutoff: cutoff, dt: dt) * (value - previousValue)
        previousValue = filtered
        previousDerivative = derivative
        previousSeconds = seconds
        return filtered
    }

    /// Forgets the history: the next sample is returned unchanged.
    public mutating func reset() {
        hasValue = false
    }

    /// The smoothing factor of a first-order low-pass filter at `cutoff` hertz over `dt` seconds:
    /// `1 / (1 + tau / dt)` with `tau = 1 / (2π cutoff)`, written with one division.
    private static func alpha(cutoff: Double, dt: Double) -> Double {
        let r = 2 * Double.pi * cutoff * dt
        return r / (r + 1)
    }
}

/// Counts repetitions of a scalar signal (an exercise's primary angle) with hysteresis whose thresholds
/// adapt to the person's own range.
///
/// The signal is median-filtered over `medianSeconds` of capture time (five frames at 25–30 fps), then a
/// repetition is an excursion from the rest side past the upper threshold (held for `debounceSeconds`) and back
/// below the lower one. The thresholds sit at `lowerFraction` and
/// `upperFraction` of the range observed over the recent window (at least `windowSeconds`, and two
/// median repetitions long once there are some), so a patient who reaches only 60° of a 90° target is
/// still counted. An excursion smaller than `minimumRange`, shorter than `minimumSeconds` or longer
/// than `maximumSeconds` is not a repetition. After an invalid stretch (person walking, out of frame),
/// the counter waits for the rest position before it counts again. See `Guides.md`.
///
/// Every rule reads the samples' capture times, so a server that drops frames when it is busy counts the same
/// movement the same. With fewer samples than a rule assumes: the median is of the samples within its span (at
/// 5 fps or less, the value itself: glitches pass, but the movement is not flattened); in the debounce each
/// sample stands for the time since the one before, at most 0.1 s (two frames at 25–30 fps, one at 16 fps or
/// fewer: a glitch then is not debounced, a brisk repetition seen once past the threshold still counts). The
/// observed range is kept in buckets of at least 0.1 s (a
/// bucket closes at the first sample 0.1 s after it opened) and the window is a number of buckets: under
/// 10 fps a bucket holds one sample and lasts until the next, so the window covers more time than
/// `windowSeconds` (16 s instead of 8 at 5 fps; at 30 fps 8 to 10.7 s, as buckets hold three or four
/// frames) — the thresholds adapt more slowly, the count is the same for a steady exercise. Samples further
/// apart than a repetition's phases (under about 3 fps) cannot follow it: an excursion between two samples
/// is not seen.
///
/// ```swift
/// var counter = RepCounter(configuration: .init(direction: 1, minimumRange: 25))
/// for (t, angle) in samples {
///     if case .completed(let rep) = counter.ingest(angle, at: t) { print(rep.startSeconds, rep.endSeconds) }
/// }
/// ```
public struct RepCounter: Sendable {
    /// The counter's tuning.
    public struct Configuration: Sendable, Hashable {
        /// +1 when the signal grows from rest to peak, −1 when it shrinks.
        public var direction: Double
        /// The smallest excursion counted, in the signal's units.
        public var minimumRange: Double
        public var minimumSeconds: Double
        public var maximumSeconds: Double
        public var lowerFraction: Double
        public var upperFraction: Double
        /// The shortest window the observed range is taken over.
        public var windowSeconds: Double
        /// How long the signal stays beyond the upper threshold before a repetition starts, each sample beyond
        /// it standing for the time since the sample before (at most ``RepCounter/longestSampleSeconds``): 0.06 s
        /// is two frames at 25–30 fps, four at 60; at 16 fps or fewer one sample is enough (a glitch is then
        /// not debounced, but a brisk push-up seen in one sample at its top is still counted). 0 starts on the
        /// first sample.
        public var debounceSeconds: Double
        /// The span of capture time the signal is median-filtered over (``MedianFilter``).
        public var medianSeconds: Double
        /// Counts samples instead of reading their times: the median of the last five samples and a debounce of
        /// two, whatever their spacing. For ``PeriodicMotionCounter``, whose counter is fed frames live and its
        /// 10-Hz samples in a replay: with times, its replays (two samples in 0.165 s) changed full-rate counts
        /// of long pull-up videos (docs/frame-rates.md).
        public var countsSamples: Bool

        public init(
            direction: Double,
            minimumRange: Double,
            minimumSeconds: Double = 0.5,
            maximumSeconds: Double = 20,
            lowerFraction: Double = 0.35,
            upperFraction: Double = 0.65,
            windowSeconds: Double = 8,
            debounceSeconds: Double = 0.06,
            medianSeconds: Double = MedianFilter.defaultSpanSeconds,
            countsSamples: Bool = false
        ) {
            precondition(direction == 1 || direction == -1, "direction (\(direction)) must be +1 or -1")
            precondition(minimumRange > 0, "minimumRange (\(minimumRange)) must be positive")
            precondition(
                0 < lowerFraction && lowerFraction < upperFraction && upperFraction < 1,
                "lowerFraction (\(lowerFraction)) must be below upperFraction (\(upperFraction)), both in (0, 1)"
            )
            self.direction = direction
            self.minimumRange = minimumRange
            self.minimumSeconds = minimumSeconds
            self.maximumSeconds = maximumSeconds
            self.lowerFraction = lowerFraction
            self.upperFraction = upperFraction
            self.windowSeconds = windowSeconds
            self.debounceSeconds = debounceSeconds
            self.medianSeconds = medianSeconds
            self.countsSamples = countsSamples
        }

        /// The configuration a repetition definition implies.
        public init(_ spec: ExerciseDefinition.RepetitionSpec) {
            self.init(
                direction: spec.direction,
                minimumRange: spec.minimumRange,
                minimumSeconds: spec.minimumSeconds,
                maximumSeconds: spec.maximumSeconds
            )
        }
    }

    /// A completed repetition, in the signal's own units.
    public struct Completed: Sendable, Hashable {
        public var startSeconds: Double
        public var peakSeconds: Double
        public var endSeconds: Double
        /// The signal at the peak.
        public var peakValue: Double
        /// The signal at rest before the repetition.
        public var restValue: Double
        /// When the signal came within ``RepCounter/plateauFraction`` of the excursion from its peak, and when it
        /// last was (the position held at the peak, if any, lies between).
        public var plateauStartSeconds: Double
        public var plateauEndSeconds: Double

        public init(
            startSeconds: Double,
            peakSeconds: Double,
            endSeconds: Double,
            peakValue: Double,
            restValue: Double,
            plateauStartSeconds: Double? = nil,
            plateauEndSeconds: Double? = nil
        ) {
            self.startSeconds = startSeconds
            self.peakSeconds = peakSeconds
            self.endSeconds = endSeconds
            self.peakValue = peakValue
            self.restValue = restValue
            self.plateauStartSeconds = plateauStartSeconds ?? peakSeconds
            self.plateauEndSeconds = plateauEndSeconds ?? peakSeconds
        }
    }

    /// The share of a repetition's excursion (rest to peak) within which the signal counts as at the peak: a
    /// raise held 5 s at the top is up, held, then down, not 4 s up and 2 s down.
    public static let plateauFraction = 0.1

    public enum Event: Sendable, Hashable {
        case none
        /// The signal left the rest position far enough: a repetition is under way.
        case started
        case completed(Completed)
    }

    /// Where the counter is in a repetition.
    public enum Phase: Sendable, Hashable {
        /// Waiting for the rest position (at the start, after an invalid stretch).
        case unknown
        case rest
        case active
    }

    public let configuration: Configuration
    public private(set) var phase: Phase = .unknown
    public private(set) var count = 0

    private var median: MedianFilter
    // Ring of 0.1-s buckets: the min and max of the (direction-normalised) signal in each.
    private static let bucketSeconds = 0.1
    /// The ring's length: 20 s of buckets.
    private static let bucketCapacity = 200
    private var bucketMin: [Double]
    private var bucketMax: [Double]
    /// When each bucket began.
    private var bucketTimes: [Double]
    private var bucketCount = 0
    private var bucketNext = 0
    private var bucketStart = -Double.infinity
    private var currentMin = Double.infinity
    private var currentMax = -Double.infinity
    private var windowMin = Double.infinity
    private var windowMax = -Double.infinity
    private var windowBuckets = 80
    /// The window's length changed since its range was last found: found again in full at the next bucket.
    private var windowResized = false

    private var restMin = Double.infinity
    private var lastRestSeconds = 0.0
    private var peak = -Double.infinity
    private var peakSeconds = 0.0
    /// How long the signal has been beyond the upper threshold (the samples beyond it in a row, each for the time
    /// since the one before), and when the last sample was (`nil` at the start and after an invalid stretch).
    private var aboveSeconds = 0.0
    private var previousSeconds: Double?
    /// The median's and the debounce's clock is capture time less the gaps bridged (``bridgeGap(at:)``);
    /// `previousSeconds` is on it, `previousInterval` the time between the last two samples on it.
    private var bridgedSeconds = 0.0
    private var previousInterval = 0.0
    /// The most time one sample stands for in the debounce: after a longer gap, not the gap.
    public static let longestSampleSeconds = 0.1
    private var startSeconds = 0.0
    private var durations: (Double, Double, Double) = (0, 0, 0)

    /// The last filtered value, in the signal's units.
    public private(set) var lastValue: Double?

    /// While the repetition under way is held at its peak (within ``plateauFraction`` of the excursion from its
    /// highest value so far), since when: the first 0.1-s bucket of the repetition that came that near, as the
    /// completed repetition's plateau is found.
    public var heldAtPeakSince: Double? {
        guard phase == .active, let value = lastValue else { return nil }
        let plateau = plateau(rest: restMin)
        guard value * configuration.direction >= plateau.near else { return nil }
        return plateau.start
    }

    public init(configuration: Configuration) {
        self.configuration = configuration
        median = MedianFilter(spanSeconds: configuration.medianSeconds)
        let capacity = Self.bucketCapacity
        bucketMin = Array(repeating: 0, count: capacity)
        bucketMax = Array(repeating: 0, count: capacity)
        bucketTimes = Array(repeating: 0, count: capacity)
        windowBuckets = min(capacity, Int((configuration.windowSeconds / Self.bucketSeconds).rounded()))
    }

    /// The observed range of the recent window, in the signal's units (`nil` before any sample).
    public var observedRange: (low: Double, high: Double)? {
        let (lo, hi) = thresholdRange
        guard lo.isFinite, hi.isFinite else { return nil }
        let d = configuration.direction
        return d > 0 ? (lo, hi) : (-hi, -lo)
    }

    /// The range the thresholds are set in (signal × direction): the window's, and while a repetition is under
    /// way also its own rest and peak. A raise held longer than the window at the top would otherwise leave its
    /// rest behind: the range shrank to the hold's wobble, and the wobble ended the repetition in mid-hold.
    private var thresholdRange: (low: Double, high: Double) {
        var lo = min(windowMin, currentMin)
        var hi = max(windowMax, currentMax)
        if phase == .active {
            lo = min(lo, restMin)
            hi = max(hi, peak)
        }
        return (lo, hi)
    }

    /// The current progress of the excursion from rest toward the observed peak, 0…1.
    public var progress: Double {
        guard let value = lastValue else { return 0 }
        let s = value * configuration.direction
        let (lo, hi) = thresholdRange
        guard hi - lo >= configuration.minimumRange else { return 0 }
        return max(0, min(1, (s - lo) / (hi - lo)))
    }

    /// Feeds one sample. `nil` or `valid == false` marks an invalid stretch: a repetition under way is
    /// dropped and the counter waits for the rest position again.
    public mutating func ingest(_ value: Double?, at seconds: Double, valid: Bool = true) -> Event {
        guard valid, let value, value.isFinite else {
            if phase != .unknown {
                phase = .unknown
                median.reset()
            }
            aboveSeconds = 0
            previousSeconds = nil
            return .none
        }
        let clock = seconds - bridgedSeconds
        let covered =
            configuration.countsSamples
            ? configuration.debounceSeconds / 2
            : previousSeconds.map { min(max(clock - $0, 0), Self.longestSampleSeconds) } ?? 0
        previousInterval = previousSeconds.map { max(clock - $0, 0) } ?? 0
        previousSeconds = clock
        let filtered = configuration.countsSamples ? median.ingest(value) : median.ingest(value, at: clock)
        lastValue = filtered
        let s = filtered * configuration.direction
        record(s, at: seconds)
        let (lo, hi) = thresholdRange
        let range = hi - lo
        let enough = range >= configuration.minimumRange
        let lower = lo + configuration.lowerFraction * range
        let upper = lo + configuration.upperFraction * range

        switch phase {
        case .unknown:
            if !enough || s <= lower {
                phase = .rest
                restMin = s
                lastRestSeconds = seconds
                aboveSeconds = 0
            }
            return .none
        case .rest:
            if !enough || s <= lower {
                restMin = min(restMin, s)
                lastRestSeconds = seconds
                aboveSeconds = 0
                return .none
            }
            if s >= upper {
                aboveSeconds += covered
                if aboveSeconds >= configuration.debounceSeconds - 1e-9 {
                    phase = .active
                    startSeconds = lastRestSeconds
                    peak = s
                    peakSeconds = seconds
                    return .started
                }
            } else {
                aboveSeconds = 0
            }
            return .none
        case .active:
            if s > peak {
                peak = s
                peakSeconds = seconds
            }
            if seconds - startSeconds > configuration.maximumSeconds {
                phase = .unknown
                return .none
            }
            guard s <= lower else { return .none }
            phase = .rest
            let rest = restMin
            restMin = s
            lastRestSeconds = seconds
            aboveSeconds = 0
            let duration = seconds - startSeconds
            guard duration >= configuration.minimumSeconds, peak - rest >= configuration.minimumRange else {
                return .none
            }
            count += 1
            durations = (durations.1, durations.2, duration)
            adaptWindow()
            let plateau = plateau(rest: rest)
            let d = configuration.direction
            return .completed(
                Completed(
                    startSeconds: startSeconds,
                    peakSeconds: peakSeconds,
                    endSeconds: seconds,
                    peakValue: peak * d,
                    restValue: rest * d,
                    plateauStartSeconds: plateau.start,
                    plateauEndSeconds: plateau.end
                )
            )
        }
    }

    /// Whether `value` (in the signal's units) continues what the counter was doing before a gap in the signal:
    /// a repetition under way is still past the lower threshold, a rest has not gone past the upper one. So a
    /// pose lost for a moment at the bottom of a squat, found again still low, is the same squat; found
    /// standing again, what happened in between was not seen. True when the counter waits for the rest position
    /// or has seen no range yet (nothing to contradict); otherwise false for a missing or non-finite value.
    ///
    /// ```swift
    /// if counter.continues(with: angleAfterGap) { /* keep the counter's state */ } else { counter.reset() }
    /// ```
    public func continues(with value: Double?) -> Bool {
        guard phase != .unknown else { return true }
        guard let value, value.isFinite else { return false }
        let lo = min(windowMin, currentMin)
        let hi = max(windowMax, currentMax)
        let range = hi - lo
        guard lo.isFinite, hi.isFinite, range >= configuration.minimumRange else { return true }
        let s = value * configuration.direction
        switch phase {
        case .active: return s > lo + configuration.lowerFraction * range
        case .rest: return s < lo + configuration.upperFraction * range
        case .unknown: return true
        }
    }

    /// Tells the counter that the samples up to `seconds` were skipped, not lost: a glitch of the pose estimator
    /// or a gap that the session bridges (the counter fed nothing meanwhile). The next sample then follows the
    /// last one by the interval before it, as if the gap were not there: the median still holds the samples from
    /// before it (at 30 fps four, as when the filter counted samples) and the gap counts in no debounce. Without
    /// it, a 0.25-s glitch emptied the 0.165-s median, whose first value after it (a knee the pose's smoothing
    /// still pulled aside) ended the squat under way, which then counted twice. Nothing after an invalid
    /// stretch or before any sample.
    ///
    /// ```swift
    /// if skippedFrames { counter.bridgeGap(at: t) }
    /// _ = counter.ingest(value, at: t)
    /// ```
    public mutating func bridgeGap(at seconds: Double) {
        guard let previous = previousSeconds else { return }
        let gap = seconds - bridgedSeconds - previous
        if gap > previousInterval { bridgedSeconds += gap - previousInterval }
    }

    /// Whether the last completed sample is in the rest zone (used to reset per-repetition statistics).
    public var isAtRest: Bool { phase != .active && lastRestSeconds >= 0 }

    /// The time the signal was last in the rest zone.
    public var restSeconds: Double { lastRestSeconds }

    /// Forgets everything except the count.
    public mutating func reset() {
        phase = .unknown
        median.reset()
        bucketCount = 0
        bucketNext = 0
        bucketStart = -Double.infinity
        currentMin = .infinity
        currentMax = -.infinity
        windowMin = .infinity
        windowMax = -.infinity
        aboveSeconds = 0
        previousSeconds = nil
    }

    // MARK: - Window

    private mutating func record(_ s: Double, at seconds: Double) {
        if seconds - bucketStart >= Self.bucketSeconds || seconds < bucketStart {
            if currentMin.isFinite { pushBucket() }
            bucketStart = seconds
            currentMin = s
            currentMax = s
        } else {
            currentMin = min(currentMin, s)
            currentMax = max(currentMax, s)
        }
    }

    /// Closes the current bucket into the ring. The window's range is updated in place unless the bucket that
    /// leaves the window held its minimum or maximum (then, or after a resize, it is found again in full): the
    /// same range as a full search, at a fraction of its cost.
    private mutating func pushBucket() {
        let capacity = Self.bucketCapacity
        let n = min(bucketCount, windowBuckets)
        var extremeLeaves = false
        if n == windowBuckets, n > 0 {
            let oldest = (bucketNext - n + capacity) % capacity
            extremeLeaves = bucketMin[oldest] <= windowMin || bucketMax[oldest] >= windowMax
        }
        bucketMin[bucketNext] = currentMin
        bucketMax[bucketNext] = currentMax
        bucketTimes[bucketNext] = bucketStart
        bucketNext = (bucketNext + 1) % capacity
        bucketCount = min(bucketCount + 1, capacity)
        if extremeLeaves || windowResized {
            windowResized = false
            recomputeWindow()
        } else {
            windowMin = min(windowMin, currentMin)
            windowMax = max(windowMax, currentMax)
        }
    }

    /// The stretch the repetition under way (from its rest at `rest`) spent at its peak so far: the first and the
    /// last 0.1-s bucket since it started (the open one included) whose signal came within ``plateauFraction``
    /// of the excursion from the peak, that level `near`. The repetition lasts at most `maximumSeconds`, within
    /// the buckets kept (20 s); the peak itself is always in it.
    private func plateau(rest: Double) -> (start: Double, end: Double, near: Double) {
        let start = startSeconds
        let near = peak - Self.plateauFraction * (peak - rest)
        var first = peakSeconds
        var last = peakSeconds
        if currentMax >= near, bucketStart >= start - 0.05 {
            (first, last) = (min(first, bucketStart), max(last, bucketStart))
        }
        let capacity = bucketMin.count
        var index = bucketNext
        for _ in 0..<bucketCount {
            index = index == 0 ? capacity - 1 : index - 1
            guard bucketTimes[index] >= start - 0.05 else { break }
            if bucketMax[index] >= near {
                first = min(first, bucketTimes[index])
                last = max(last, bucketTimes[index])
            }
        }
        return (first, last, near)
    }

    private mutating func recomputeWindow() {
        let n = min(bucketCount, windowBuckets)
        var lo = Double.infinity
        var hi = -Double.infinity
        let next = bucketNext
        // The last n buckets, newest first: those before `next`, then (wrapping) those at the ring's end.
        bucketMin.withUnsafeBufferPointer { mins in
            bucketMax.withUnsafeBufferPointer { maxs in
                let recent = min(n, next)
                var index = next
                for _ in 0..<recent {
                    index -= 1
                    lo = min(lo, mins[index])
                    hi = max(hi, maxs[index])
                }
                index = Self.bucketCapacity
                for _ in recent..<n {
                    index -= 1
                    lo = min(lo, mins[index])
                    hi = max(hi, maxs[index])
                }
            }
        }
        windowMin = lo
        windowMax = hi
    }

    /// How long a repetition lasts here: the median of the last three (the longer of two; 0 before any).
    public var typicalRepetitionSeconds: Double {
        let (a, b, c) = durations
        // Zeros before three repetitions are ignored by max().
        return a > 0 ? max(min(a, b), min(max(a, b), c)) : max(b, c)
    }

    /// Widens the window to two median repetitions when repetitions are slow.
    private mutating func adaptWindow() {
        let seconds = max(configuration.windowSeconds, 2 * typicalRepetitionSeconds)
        let buckets = min(bucketMin.count, Int((seconds / Self.bucketSeconds).rounded()))
        if buckets != windowBuckets { windowResized = true }
        windowBuckets = buckets
    }
}

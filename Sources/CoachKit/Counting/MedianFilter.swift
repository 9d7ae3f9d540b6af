/// A running median over the values captured in the last ``spanSeconds`` (by default 0.165 s: the last five
/// frames at 25 to 30 fps), to remove one- and two-frame tracking glitches from a signal before hysteresis.
/// Allocation-free after `init`.
///
/// The span is one of capture time, not of frames, so a server that drops frames when it is busy filters the
/// same stretch of movement. **Fewer frames than five in the span** (a camera or a busy server giving under
/// 25 fps): the median is of those there are — three at 15 fps, two (their mean) at 7.5 to 10 fps, the value
/// itself at 5 fps or less — so a glitch is removed less well, but a movement is never flattened (a five-frame
/// median at 5 fps is one of a whole second: a push-up disappeared in it). **More frames** (60 fps): all of
/// them, up to ``capacity``. A frame captured before the last one starts the span again.
///
/// ```swift
/// var median = MedianFilter()
/// let clean = median.ingest(noisyAngle, at: frame.seconds)
/// ```
public struct MedianFilter: Sendable {
    /// The span a median is taken over by default: five frames at 25, 29.97 and 30 fps.
    public static let defaultSpanSeconds = 0.165
    /// The most values a median is taken of (the newest, when more were captured within the span).
    public static let capacity = 24

    public let spanSeconds: Double
    /// The values of the span, oldest first from `first`, in a ring.
    private var values: [Double]
    private var times: [Double]
    private var scratch: [Double]
    private var first = 0
    private var count = 0
    /// The frames fed without a time (``ingest(_:)``).
    private var untimed = 0

    public init(spanSeconds: Double = MedianFilter.defaultSpanSeconds) {
        precondition(spanSeconds >= 0, "spanSeconds (\(spanSeconds)) must not be negative")
        self.spanSeconds = spanSeconds
        values = Array(repeating: 0, count: Self.capacity)
        times = Array(repeating: 0, count: Self.capacity)
        scratch = Array(repeating: 0, count: Self.capacity)
    }

    /// The median of the values captured from `seconds - spanSeconds` to `seconds`, this one included.
    public mutating func ingest(_ value: Double, at seconds: Double) -> Double {
        let capacity = Self.capacity
        if count > 0, seconds < times[(first + count - 1) % capacity] { count = 0 }
        while count > 0, seconds - times[first] > spanSeconds + 1e-9 {
            first = (first + 1) % capacity
            count -= 1
        }
        if count == capacity {
            first = (first + 1) % capacity
            count -= 1
        }
        let slot = (first + count) % capacity
        values[slot] = value
        times[slot] = seconds
        count += 1
        return median()
    }

    /// A value without its time, taken 1/30 s after the previous one: with the default span, the median of the
    /// last five values, whatever the frame rate — a rule over frames (a hand's best flexion of a set, a record
    /// seen in three frames of five), not over time. Not mixed with ``ingest(_:at:)`` in one filter.
    public mutating func ingest(_ value: Double) -> Double {
        untimed += 1
        // Taken 1/30 s apart: five lie within the default span.
        return ingest(value, at: Double(untimed) / 30)
    }

    /// Forgets the history.
    public mutating func reset() {
        count = 0
        first = 0
    }

    /// The median of the values held, oldest first: up to five with the arithmetic the filter always had (so
    /// a 30-fps signal gives the same filtered values to the last bit), more by sorting a copy.
    private mutating func median() -> Double {
        let capacity = Self.capacity
        @inline(__always) func at(_ k: Int) -> Double { values[(first + k) % capacity] }
        switch count {
        case 1: return at(0)
        case 2: return (at(0) + at(1)) / 2
        case 3: return Self.median3(at(0), at(1), at(2))
        case 4:
            // Median of four: mean of the middle two.
            let (a, b, c, d) = (at(0), at(1), at(2), at(3))
            let lo = min(min(a, b), min(c, d))
            let hi = max(max(a, b), max(c, d))
            return (a + b + c + d - lo - hi) / 2
        case 5:
            var (a, b, c, d, e) = (at(0), at(1), at(2), at(3), at(4))
            // Sorting network for five values, middle element.
            if a > b { swap(&a, &b) }
            if d > e { swap(&d, &e) }
            if a > c { swap(&a, &c) }
            if b > c { swap(&b, &c) }
            if a > d { swap(&a, &d) }
            if c > d { swap(&c, &d) }
            if b > e { swap(&b, &e) }
            if b > c { swap(&b, &c) }
            if d > e { swap(&d, &e) }
            return c
        default:
            let n = count
            for k in 0..<n {
                // Insertion sort: at most `capacity` values.
                let v = at(k)
                var j = k
                while j > 0, scratch[j - 1] > v {
                    scratch[j] = scratch[j - 1]
                    j -= 1
                }
                scratch[j] = v
            }
            return n % 2 == 1 ? scratch[n / 2] : (scratch[n / 2 - 1] + scratch[n / 2]) / 2
        }
    }

    private static func median3(_ a: Double, _ b: Double, _ c: Double) -> Double {
        max(min(a, b), min(max(a, b), c))
    }
}

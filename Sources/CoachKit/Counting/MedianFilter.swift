/// A running median of the last five values, to remove one- and two-frame tracking glitches from a
/// signal before hysteresis. Allocation-free.
///
/// ```swift
/// var median = MedianFilter()
/// let clean = median.ingest(noisyAngle)
/// ```
public struct MedianFilter: Sendable {
    private var values: (Double, Double, Double, Double, Double) = (0, 0, 0, 0, 0)
    private var count = 0
    private var next = 0

    public init() {}

    /// The median of the values seen so far, up to the last five.
    public mutating func ingest(_ value: Double) -> Double {
        switch next {
        case 0: values.0 = value
        case 1: values.1 = value
        case 2: values.2 = value
        case 3: values.3 = value
        default: values.4 = value
        }
        next = (next + 1) % 5
        count = min(count + 1, 5)
        var a = values.0
        var b = values.1
        var c = values.2
        var d = values.3
        var e = values.4
        switch count {
        case 1: return value
        case 2: return (a + b) / 2
        case 3: return Self.median3(a, b, c)
        case 4:
            // Median of four: mean of the middle two.
            let lo = min(min(a, b), min(c, d))
            let hi = max(max(a, b), max(c, d))
            return (a + b + c + d - lo - hi) / 2
        default:
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
        }
    }

    /// Forgets the history.
    public mutating func reset() {
        count = 0
        next = 0
    }

    private static func median3(_ a: Double, _ b: Double, _ c: Double) -> Double {
        max(min(a, b), min(max(a, b), c))
    }
}

/// Which frames are a signal's 10-Hz samples: the first frame in each 0.1-s interval of capture time
/// (`[k × 0.1, (k + 1) × 0.1)` seconds, counted from time 0), so that the samples are the same moments of the
/// movement at any frame rate, to within one frame interval.
///
/// A rule "0.095 s after the last sample" took every third frame at 25 to 30 fps (8.3 samples a second at 25 fps)
/// and every second one at 15 fps (7.5 a second): what was sampled, and how many samples a stretch held, depended
/// on which frames arrived. On the grid, any rate of 10 fps or more gives ten samples a second (at 15 fps 0.067 and
/// 0.133 s apart by turns); **fewer frames** (7.5 or 5 fps, a busy server) give one sample a frame, the intervals
/// in between none. A frame captured before the last sample starts again. Both the recogniser's window
/// (``ExerciseRecognizer``) and the session's ring (`AngleSampleRing`) sample on it, so they take the same frames.
///
/// ```swift
/// var grid = SampleGrid()
/// for frame in frames where grid.isDue(at: frame.seconds) {
///     grid.take(at: frame.seconds)
///     store(frame)
/// }
/// ```
struct SampleGrid: Sendable, Hashable {
    /// The grid's spacing.
    static let seconds = 0.1

    /// The interval of the last sample; `nil` before any.
    private var lastInterval: Int?

    /// The interval `t` lies in; a frame on the boundary (0.3 s read as 0.29999…) belongs to the interval it opens.
    private static func interval(_ t: Double) -> Int { Int((t / seconds + 1e-6).rounded(.down)) }

    /// Whether a frame at `t` is a sample: the first in its interval, or one captured before the last sample.
    func isDue(at t: Double) -> Bool {
        guard t.isFinite else { return false }
        guard let lastInterval else { return true }
        return Self.interval(t) != lastInterval
    }

    /// Takes the frame at `t` as its interval's sample.
    mutating func take(at t: Double) {
        guard t.isFinite else { return }
        lastInterval = Self.interval(t)
    }

    /// Forgets the samples taken: the next frame is one.
    mutating func reset() { lastInterval = nil }
}

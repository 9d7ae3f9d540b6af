/// Counts touches: a fingertip (or any point of a finger) brought to another and held for a few frames, the way
/// thumb opposition is done. Where ``RepCounter`` counts a swing of one signal out and back, a touch is an event:
/// the distance falls under ``Configuration/touchDistance`` on a target (a finger), and the next touch counts
/// once the two parted (over ``Configuration/releaseDistance`` for ``Configuration/releaseSeconds``), or, with
/// ``Configuration/countsNewTarget``, at once on another target (the thumb sliding from one fingertip to the next).
///
/// The distance is median-filtered over ``MedianFilter/defaultSpanSeconds`` of capture time as the repetition
/// counter's signal is; a target must be the nearest, under the touch distance, from a frame to one at least
/// ``Configuration/holdSeconds`` later, so one frame of tracking noise is no touch. Both read the frames'
/// capture times: with fewer frames (a busy server), the median is of those in its span (none filtered at
/// 5 fps or less) and the hold needs two frames in a row at least `holdSeconds` apart (at 30 fps, three frames;
/// at 15 fps or less, any two in a row), so the same touch counts at any frame rate down to one where it lasts
/// less than two frames. Letting go likewise needs frames over the release distance from one to another
/// `releaseSeconds` later (nine at 30 fps, three at 5 fps: a let-go shorter than two frame intervals and
/// `releaseSeconds` together may not be seen).
///
/// ```swift
/// var touches = TouchCounter(configuration: .init(touchDistance: 0.2, releaseDistance: 0.3, countsNewTarget: true))
/// if case .touched(let touch) = touches.ingest(distance: 0.08, target: 3, at: t) { print(touch.target) }
/// ```
public struct TouchCounter: Sendable {
    public struct Configuration: Sendable, Hashable {
        /// Under this distance the target is touched.
        public var touchDistance: Double
        /// Over this distance (for ``releaseSeconds``) the touch is let go.
        public var releaseDistance: Double
        public var releaseSeconds: Double
        /// A touch on another target counts without a release in between.
        public var countsNewTarget: Bool
        /// How long a touch is held before it counts (0.06 s: three frames at 30 fps).
        public var holdSeconds: Double

        public init(
            touchDistance: Double,
            releaseDistance: Double,
            releaseSeconds: Double = 0.25,
            countsNewTarget: Bool,
            holdSeconds: Double = 0.06
        ) {
            precondition(touchDistance > 0 && releaseDistance > touchDistance, "release must be beyond touch")
            self.touchDistance = touchDistance
            self.releaseDistance = releaseDistance
            self.releaseSeconds = releaseSeconds
            self.countsNewTarget = countsNewTarget
            self.holdSeconds = holdSeconds
        }
    }

    /// A touch counted.
    public struct Touch: Sendable, Hashable {
        /// When the thumb left the previous touch (or the rest), and when this touch was made.
        public var startSeconds: Double
        public var touchSeconds: Double
        /// The (filtered) distance when it was counted, and the largest since the previous touch.
        public var distance: Double
        public var restDistance: Double
        public var target: Int
    }

    public enum Event: Sendable, Hashable {
        case none
        case touched(Touch)
    }

    public let configuration: Configuration
    public private(set) var count = 0
    /// The last filtered distance.
    public private(set) var lastValue: Double?
    private var median = MedianFilter()
    private var released = true
    private var lastTarget: Int?
    private var candidate: Int?
    /// Since when the candidate target has been touched, frame after frame.
    private var runSince: Double?
    private var releaseStart: Double?
    private var sinceSeconds: Double?
    private var restDistance = 0.0

    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// How near the thumb is to a touch, 0 at rest (the release distance or further) to 1 (touching).
    public var progress: Double {
        guard let value = lastValue else { return 0 }
        let span = configuration.releaseDistance - configuration.touchDistance
        return max(0, min(1, (configuration.releaseDistance - value) / span))
    }

    /// One frame: the distance to the nearest target and which target it is; `nil` (or `valid: false`) for a frame
    /// not measured, which lets go of the touch under way.
    public mutating func ingest(distance: Double?, target: Int, at seconds: Double, valid: Bool = true) -> Event {
        guard valid, let distance, distance.isFinite else {
            median.reset()
            runSince = nil
            candidate = nil
            released = true
            lastTarget = nil
            sinceSeconds = nil
            lastValue = nil
            return .none
        }
        let value = median.ingest(distance, at: seconds)
        lastValue = value
        if sinceSeconds == nil { sinceSeconds = seconds }
        guard value < configuration.touchDistance else {
            runSince = nil
            candidate = nil
            restDistance = max(restDistance, value)
            if value > configuration.releaseDistance {
                let start = releaseStart ?? seconds
                releaseStart = start
                if seconds - start >= configuration.releaseSeconds {
                    if !released { sinceSeconds = seconds }
                    released = true
                }
            } else {
                releaseStart = nil
            }
            return .none
        }
        releaseStart = nil
        let since = candidate == target ? runSince ?? seconds : seconds
        runSince = since
        candidate = target
        guard seconds - since >= configuration.holdSeconds - 1e-9,
            released || configuration.countsNewTarget && target != lastTarget
        else { return .none }
        let touch = Touch(
            startSeconds: sinceSeconds ?? seconds,
            touchSeconds: seconds,
            distance: value,
            restDistance: restDistance,
            target: target
        )
        count += 1
        released = false
        lastTarget = target
        sinceSeconds = seconds
        restDistance = value
        return .touched(touch)
    }
}

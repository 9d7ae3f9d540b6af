/// The session's time: its first and latest frame, the time between frames, and how long a person was seen.
/// Allocation-free.
///
/// ```swift
/// var clock = SessionClock()
/// let dt = clock.ingest(at: frame.seconds, person: pose != nil)
/// ```
struct SessionClock: Sendable {
    struct Configuration: Sendable, Hashable {
        /// The longest time between two frames that counts as time seen or held: a stall in the frames (a paused
        /// stream, a dropped second) is not time the person was there.
        var maximumFrameSeconds = 0.5
    }

    let configuration: Configuration
    /// The first frame's time and the latest's (`nil` before the first frame).
    private(set) var first: Double?
    private(set) var last: Double?
    /// The frames with a person, and the time between consecutive ones.
    private(set) var framesWithPerson = 0
    private(set) var secondsWithPerson = 0.0
    private var previousFrameHadPerson = false
    /// Whether the session was ended (``CoachingSession/finish()``): later frames are ignored.
    private(set) var ended = false

    init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    /// A frame at `t`, with a `person` or nobody; returns the time since the last frame (at most
    /// ``Configuration/maximumFrameSeconds``; 0 for the first, or when time went backwards).
    mutating func ingest(at t: Double, person: Bool) -> Double {
        if first == nil { first = t }
        let dt = last.map { Swift.min(Swift.max(t - $0, 0), configuration.maximumFrameSeconds) } ?? 0
        last = t
        if person {
            framesWithPerson += 1
            if previousFrameHadPerson { secondsWithPerson += dt }
        }
        previousFrameHadPerson = person
        return dt
    }

    /// Ends the session.
    mutating func end() { ended = true }
}

/// Times a hold: from when the position is taken, through breaks of at most half a second, until it is let go; a
/// hold of a second or more is kept for the summary.
///
/// The session says each frame whether the position is held (the exercise's hold conditions met while the person
/// is measurable); the timer reports each whole second held, the moment the target is reached, and the release.
///
/// ```swift
/// var timer = HoldTimer()
/// for (t, held) in frames {
///     if case .held(let progress?, _) = timer.ingest(holding: held, dt: 1 / 30, at: t, target: 30) { show(progress) }
/// }
/// let holds = timer.holds(openTarget: 30)
/// ```
struct HoldTimer: Sendable {
    /// The timer's numbers (judgements, not read off a recording).
    enum Configuration {
        /// A break in the position longer than this ends the hold: a wobble, or a frame whose angle misses a
        /// condition, is no release (6766158).
        static let releaseSeconds = 0.5
        /// A hold shorter than this is not kept for the summary: passing through the position is no hold.
        static let shortestKeptSeconds = 1.0
    }

    private struct Timing: Sendable, Hashable {
        var start: Double
        var held: Double
        /// The last frame the position was held in.
        var lastGood: Double
        var reachedTarget = false
        /// The whole seconds held last reported (`nil`: none yet).
        var lastWholeSecond: Int?
    }

    private enum State: Sendable, Hashable {
        case idle
        case timing(Timing)
    }

    enum Event: Sendable, Hashable {
        /// Held: another whole second (the progress to report, else `nil`), and whether the target was reached in
        /// this frame.
        case held(HoldProgress?, reachedTarget: Bool)
        /// Let go for more than half a second: the hold ended (the progress to report: nothing held).
        case released(HoldProgress)
    }

    private var state = State.idle
    /// The holds ended so far (of a second or more).
    private(set) var holds: [SessionSummary.Hold] = []

    /// The start of the hold at a repetition's peak whose target was last reached (``reachesPeakHold(since:)``).
    private var peakHoldReachedSince: Double?

    /// Whether a prescribed hold at a repetition's peak that began at `since`, now long enough, is reached for the
    /// first time: its cue is said once per repetition.
    mutating func reachesPeakHold(since: Double) -> Bool {
        guard since != peakHoldReachedSince else { return false }
        peakHoldReachedSince = since
        return true
    }

    /// Whether a hold is being timed (held, or let go for at most half a second).
    var isTiming: Bool { if case .timing = state { true } else { false } }

    /// The seconds of the hold being timed (0 when none is).
    var heldSeconds: Double { if case .timing(let timing) = state { timing.held } else { 0 } }

    /// One frame: whether the position is `holding`, the time since the last frame (`dt`), and when a hold starts
    /// in this frame, when it began (`start`: earlier than `t` when it is found late).
    mutating func ingest(
        holding: Bool,
        startingAt start: Double? = nil,
        dt: Double,
        at t: Double,
        target: Double
    ) -> Event? {
        guard holding else {
            guard case .timing(let timing) = state, t - timing.lastGood > Configuration.releaseSeconds else {
                return nil
            }
            end(target: target)
            return .released(HoldProgress(heldSeconds: 0, targetSeconds: target, holding: false))
        }
        var timing: Timing
        if case .timing(let current) = state {
            timing = current
        } else {
            let start = start ?? t
            timing = Timing(start: start, held: t - start, lastGood: t)
        }
        timing.held += dt
        timing.lastGood = t
        var progress: HoldProgress?
        let whole = Int(timing.held)
        if whole != timing.lastWholeSecond {
            timing.lastWholeSecond = whole
            progress = HoldProgress(heldSeconds: timing.held, targetSeconds: target, holding: true)
        }
        var reached = false
        if !timing.reachedTarget, timing.held >= target {
            timing.reachedTarget = true
            reached = true
        }
        state = .timing(timing)
        return progress != nil || reached ? .held(progress, reachedTarget: reached) : nil
    }

    /// Ends the hold being timed, if any: kept when it lasted a second or more.
    mutating func end(target: Double) {
        guard case .timing(let timing) = state else { return }
        if let hold = Self.hold(timing, target: target) { holds.append(hold) }
        state = .idle
    }

    /// The holds so far with the one being timed, as if it ended now (with `target`).
    func holds(openTarget target: Double?) -> [SessionSummary.Hold] {
        guard let target, case .timing(let timing) = state, let open = Self.hold(timing, target: target) else {
            return holds
        }
        return holds + [open]
    }

    private static func hold(_ timing: Timing, target: Double) -> SessionSummary.Hold? {
        guard timing.held >= Configuration.shortestKeptSeconds else { return nil }
        return .init(
            startSeconds: timing.start,
            endSeconds: timing.lastGood,
            heldSeconds: timing.held,
            targetSeconds: target,
            completed: timing.held >= target
        )
    }
}

import PoseKit

/// An exercise's safety limits, watched frame by frame: one warning per crossing, with its peak and duration, and the
/// crossings of the repetition under way, for its verdict. Allocation-free after `init` but for the warnings
/// themselves.
///
/// A crossing is one event however the angle wavers about the limit and whichever sides cross: it begins when a
/// side goes past the limit and ends once every side has been back within it for ``Configuration/releaseSeconds``
/// (the frames' own times, so the same frames give the same warnings at any frame rate). A knee that flickered about
/// its limit for 0.2 s gave three warnings, each shown, spoken and counted in the report.
///
/// ```swift
/// var safety = SafetyMonitor(exercise: squat)
/// for slot in safety.slots.indices {
///     if case .breached(let warning) = safety.ingest(slot: slot, value: kneeAngle, at: t) { print(warning.text) }
/// }
/// ```
struct SafetyMonitor: Sendable {
    struct Configuration: Sendable, Hashable {
        /// Seconds every side must be back within a limit before a crossing ends and the next one warns again:
        /// about a repetition's turn at its peak, so that an angle wavering about the limit there is one crossing,
        /// and the next repetition's crossing another.
        var releaseSeconds = 1.0
    }

    /// One limit on one side: what it watches.
    struct Slot: Sendable, Hashable {
        /// The limit's index in the exercise's ``ExerciseDefinition/safetyLimits``.
        var limit: Int
        /// The angle's value index in the session's angle values (`angle * 2 + side`).
        var value: Int
        /// The side (`nil` for an angle without sides).
        var side: BodySide?
    }

    enum Event: Sendable, Hashable {
        /// The value is within the limit (or not measured), and no crossing of the limit is under way.
        case within
        /// A crossing of this limit is under way (past it, or back within it for less than the release time).
        case beyond
        /// Crossed the limit in this frame: a new crossing.
        case breached(SafetyWarning)
    }

    /// A crossing under way, of one limit.
    private struct Crossing: Sendable {
        /// Its warning in ``warnings``, and its breach in ``pendingBreaches`` while the repetition is under way.
        var warning: Int
        var breach: Int?
        /// The last time a side was past the limit.
        var lastBeyond: Double
    }

    let configuration: Configuration
    let limits: [ExerciseDefinition.SafetyLimit]
    /// Every limit whose angle the exercise measures, on each side it has, in the order of the limits.
    let slots: [Slot]
    /// The crossing under way of each limit.
    private var crossings: [Crossing?]
    /// The warnings so far: one per crossing.
    private(set) var warnings: [SafetyWarning] = []
    /// The crossings since the last repetition was completed (``clearBreaches()``).
    private(set) var pendingBreaches: [Repetition.SafetyBreach] = []

    /// The limits of `exercise` (none without one).
    init(exercise: ExerciseDefinition?, configuration: Configuration = .init()) {
        self.configuration = configuration
        limits = exercise?.safetyLimits ?? []
        var slots: [Slot] = []
        for (l, limit) in limits.enumerated() {
            guard let a = exercise?.angles.firstIndex(of: limit.angle) else { continue }
            for s in 0..<(limit.angle.isSided ? 2 : 1) {
                let side: BodySide? = limit.angle.isSided ? (s == 0 ? .left : .right) : nil
                slots.append(Slot(limit: l, value: a * 2 + s, side: side))
            }
        }
        self.slots = slots
        crossings = Array(repeating: nil, count: limits.count)
        if exercise != nil { pendingBreaches.reserveCapacity(8) }
    }

    /// Checks slot `slot`'s angle `value` (`nil`: not measured) at time `t` (the frame's time, not decreasing).
    mutating func ingest(slot index: Int, value v: Double?, at t: Double) -> Event {
        let slot = slots[index]
        let l = slot.limit
        let limit = limits[l]
        var crossed: (value: Double, limit: Double)?
        if let v {
            if let max = limit.max, v > max { crossed = (v, max) }
            if let min = limit.min, v < min { crossed = (v, min) }
        }
        guard let (v, crossed) = crossed else {
            guard let crossing = crossings[l] else { return .within }
            if t - crossing.lastBeyond < configuration.releaseSeconds { return .beyond }
            crossings[l] = nil
            return .within
        }
        if var crossing = crossings[l] {
            // The same crossing: its peak and duration grow.
            crossing.lastBeyond = t
            crossings[l] = crossing
            let w = crossing.warning
            if isFurther(v, than: warnings[w], limit: crossed) {
                warnings[w].peak = v
                if let b = crossing.breach { pendingBreaches[b].value = v }
            }
            warnings[w].durationSeconds = t - warnings[w].seconds
            return .beyond
        }
        let warning = SafetyWarning(
            angle: limit.angle,
            side: slot.side,
            value: v,
            limit: crossed,
            text: limit.warning,
            seconds: t,
            peak: v,
            durationSeconds: 0
        )
        warnings.append(warning)
        pendingBreaches.append(.init(angle: limit.angle, value: v, limit: crossed, warning: limit.warning, seconds: t))
        crossings[l] = Crossing(warning: warnings.count - 1, breach: pendingBreaches.count - 1, lastBeyond: t)
        return .breached(warning)
    }

    /// Whether `v` is further past `limit` than the warning's peak so far.
    private func isFurther(_ v: Double, than warning: SafetyWarning, limit: Double) -> Bool {
        let peak = warning.peak ?? warning.value
        return abs(v - limit) > abs(peak - limit)
    }

    /// Forgets the crossings kept for the repetition under way (it was completed with them); a crossing still under
    /// way goes on, but is no longer the next repetition's.
    mutating func clearBreaches() {
        pendingBreaches.removeAll(keepingCapacity: true)
        for l in crossings.indices { crossings[l]?.breach = nil }
    }
}

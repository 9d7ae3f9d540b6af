import PoseKit

/// An exercise's safety limits, watched frame by frame: a warning when an angle crosses a limit (once per
/// crossing: it must come back within the limit before it warns again), and the crossings of the repetition
/// under way, for its verdict. Allocation-free after `init` but for the warnings themselves.
///
/// ```swift
/// var safety = SafetyMonitor(exercise: squat)
/// for slot in safety.slots.indices {
///     if case .breached(let warning) = safety.ingest(slot: slot, value: kneeAngle, at: t) { print(warning.text) }
/// }
/// ```
struct SafetyMonitor: Sendable {
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
        /// The value is within the limit (or not measured).
        case within
        /// Beyond the limit, as it already was.
        case beyond
        /// Crossed the limit in this frame.
        case breached(SafetyWarning)
    }

    let limits: [ExerciseDefinition.SafetyLimit]
    /// Every limit whose angle the exercise measures, on each side it has, in the order of the limits.
    let slots: [Slot]
    /// Whether each slot is beyond its limit.
    private var beyond: [Bool]
    /// The warnings so far.
    private(set) var warnings: [SafetyWarning] = []
    /// The crossings since the last repetition was completed (``clearBreaches()``).
    private(set) var pendingBreaches: [Repetition.SafetyBreach] = []

    /// The limits of `exercise` (none without one).
    init(exercise: ExerciseDefinition?) {
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
        beyond = Array(repeating: false, count: slots.count)
        if exercise != nil { pendingBreaches.reserveCapacity(8) }
    }

    /// Checks slot `slot`'s angle `value` (NaN: not measured) at time `t`.
    mutating func ingest(slot index: Int, value v: Double, at t: Double) -> Event {
        let slot = slots[index]
        let limit = limits[slot.limit]
        var crossed: Double?
        if !v.isNaN {
            if let max = limit.max, v > max { crossed = max }
            if let min = limit.min, v < min { crossed = min }
        }
        guard let crossed else {
            beyond[index] = false
            return .within
        }
        if beyond[index] { return .beyond }
        beyond[index] = true
        let warning = SafetyWarning(
            angle: limit.angle,
            side: slot.side,
            value: v,
            limit: crossed,
            text: limit.warning,
            seconds: t
        )
        warnings.append(warning)
        pendingBreaches.append(.init(angle: limit.angle, value: v, limit: crossed, warning: limit.warning, seconds: t))
        return .breached(warning)
    }

    /// Forgets the crossings kept for the repetition under way (it was completed with them).
    mutating func clearBreaches() {
        pendingBreaches.removeAll(keepingCapacity: true)
    }
}

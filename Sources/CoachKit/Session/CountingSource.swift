/// What a session's repetitions are counted from, and when that changes: the exercise's primary angle is trusted
/// until another signal of the exercise (the movement of its joints, or one of its other measured angles) has
/// been counted two repetitions more where the angle saw none; then the primary angle is not measurable here
/// (wrong camera view, distorted skeleton), and repetitions come from that signal from then on, the ones missed
/// included. The same test applies to the fallback counting then: a fallback that took over early gives way to
/// another that has since counted two more than it.
///
/// With no exercise given, the movement counts until one of the body's angles proves it misses repetitions, and
/// more is asked of the 40-odd candidates (``Configuration/movementOnly``).
///
/// ```swift
/// var source = CountingSource(configuration: .init(movementOnly: false), otherAngles: 4)
/// if source.record(rep, from: .movement) { count(rep) }
/// if let signal = source.ingest(angleReps: 3, counted: repetitions, movementKnown: true) { recount(from: signal) }
/// ```
struct CountingSource: Sendable {
    struct Configuration: Sendable, Hashable {
        /// With no exercise given: the movement is judged only once it is known (its first repetitions come in a
        /// replay after about 3 s), and an angle replaces it only with at least 4 repetitions (so that their
        /// regularity is measured), excursions from a rest (``restsBetween(_:)``), among them every repetition the
        /// movement counted: the movement's repetitions, missed in part, not a noisy angle's own rhythm.
        var movementOnly: Bool

        /// How many repetitions a fallback must find where the one counted saw none before it takes over: one could
        /// be a stray excursion, two are a pattern (ba090f3, with the other angles as fallbacks, 2010487).
        static let missedToSwitch = 2
        /// The most irregular a fallback's rhythm may be (``irregularity(_:)``, a coefficient of variation) and take
        /// over: a signal that counts each repetition twice alternates short and long intervals, well above it, and
        /// a person's own repetitions vary by less (ba090f3, on the recordings of scripts/hand-counts.csv).
        static let maximumIrregularity = 0.3
        /// With no exercise given (``movementOnly``), the fewest repetitions an angle must have found to replace the
        /// movement, so that their regularity is measured (fcbc311: UI-PRMD with no exercise, dev 0.778 → 0.833,
        /// held out 0.917 → 1.000).
        static let movementOnlyMinimumReps = 4
        /// A signal's repetitions are excursions from a rest when each lasts on average at most this many times the
        /// pause before the next: a steady back-and-forth is above its threshold 60 % of its cycle (1.5 times its
        /// pause), the same angle counted the wrong way round spends the long rests "active" (fcbc311).
        static let activeToRestRatio = 2.0
        /// A signal's repetition belongs to a counted one that it overlaps widened by this fraction of the counted
        /// one's length on each side: the movement around the threshold crossings belongs to it.
        static let overlapMarginFraction = 0.5
        /// Fewer repetitions than this are too few to tell a rhythm: a short clip's fallback is not held back.
        static let irregularityMinimumReps = 4
        /// An interval over this many times the mean one is a rest between sets, not part of the rhythm ...
        static let setRestIntervalFactor = 2.0
        /// ... as long as at most one interval in this many is one (a double count has as many long intervals as
        /// short ones).
        static let setRestIntervalsOneIn = 4
        /// The fewest intervals left, once rests between sets are left out, to measure a rhythm with.
        static let irregularityMinimumIntervals = 3.0
    }

    /// A signal repetitions may be counted from.
    enum Signal: Sendable, Hashable {
        /// The exercise's primary angle.
        case primaryAngle
        /// The dominant movement (``fallbackReps``[0]).
        case movement
        /// The k-th other angle's counter (``fallbackReps``[k + 1]).
        case secondaryAngle(Int)

        /// Its index in ``fallbackReps``; `nil` for the primary angle.
        var fallback: Int? {
            switch self {
            case .primaryAngle: nil
            case .movement: 0
            case .secondaryAngle(let k): k + 1
            }
        }

        init(fallback: Int) { self = fallback == 0 ? .movement : .secondaryAngle(fallback - 1) }
    }

    let configuration: Configuration
    /// What the repetitions are counted from now.
    private(set) var signal: Signal
    /// The repetitions each fallback signal found (those that may count): [0] the movement, [k + 1] the k-th other
    /// angle.
    private(set) var fallbackReps: [[RepCounter.Completed]]

    /// With `otherAngles` angle counters besides the movement; the primary angle counts first, or with
    /// ``Configuration/movementOnly``, the movement.
    init(configuration: Configuration, otherAngles: Int) {
        self.configuration = configuration
        signal = configuration.movementOnly ? .movement : .primaryAngle
        fallbackReps = Array(repeating: [], count: otherAngles + 1)
    }

    /// Keeps a repetition a fallback signal found; whether it counts (it is the signal counted).
    mutating func record(_ rep: RepCounter.Completed, from signal: Signal) -> Bool {
        if let k = signal.fallback { fallbackReps[k].append(rep) }
        return signal == self.signal
    }

    /// Forgets the repetitions fallback `k` found (all of them when `nil`).
    mutating func forget(fallback k: Int? = nil) {
        if let k {
            fallbackReps[k].removeAll(keepingCapacity: true)
        } else {
            for k in fallbackReps.indices { fallbackReps[k].removeAll(keepingCapacity: true) }
        }
    }

    /// Whether another signal should count now, given the primary angle's repetitions (`angleReps`), the
    /// repetitions counted, and (``Configuration/movementOnly``) whether the movement is known yet. Returns the
    /// new signal, whose ``fallbackReps`` replace the repetitions counted; `nil` to go on as before.
    mutating func ingest(angleReps: Int, counted repetitions: [SessionLog.Span], movementKnown: Bool) -> Signal? {
        let movementOnly = configuration.movementOnly
        if movementOnly, !movementKnown { return nil }
        var best: Int?
        var bestCount = (signal.fallback.map { fallbackReps[$0].count } ?? angleReps) + 1
        for (k, reps) in fallbackReps.enumerated() where k != signal.fallback && reps.count > bestCount {
            if movementOnly,
                reps.count < Configuration.movementOnlyMinimumReps || !Self.restsBetween(reps)
                    || !repetitions.allSatisfy({ counted in reps.contains { Self.overlap($0, counted) } })
            {
                continue
            }
            // Extra counts inside the angle's repetitions are the fallback's own noise; only
            // repetitions where the angle saw none show that the angle missed them.
            var missed = 0
            for rep in reps where !repetitions.contains(where: { Self.overlap(rep, $0) }) { missed += 1 }
            guard missed >= Configuration.missedToSwitch, Self.irregularity(reps) <= Configuration.maximumIrregularity
            else { continue }
            best = k
            bestCount = reps.count
        }
        guard let best else { return nil }
        signal = Signal(fallback: best)
        return signal
    }

    /// Whether a signal's repetitions are excursions from a rest, not the rests of an opposite excursion: on
    /// average each lasts at most twice the pause before the next. A steady back-and-forth is above the
    /// threshold 60% of its cycle (1.5 times its pause); the same angle counted in the wrong direction spends
    /// the brief movements of a hurdle step at "rest" and the long rests "active".
    static func restsBetween(_ reps: [RepCounter.Completed]) -> Bool {
        guard reps.count >= 2 else { return true }
        var active = 0.0
        var rest = 0.0
        for i in reps.indices {
            active += reps[i].endSeconds - reps[i].startSeconds
            if i > 0 { rest += reps[i].startSeconds - reps[i - 1].endSeconds }
        }
        return active / Double(reps.count) <= Configuration.activeToRestRatio * rest / Double(reps.count - 1)
    }

    /// Whether a signal's repetition falls within a counted one: a counted repetition spans its threshold
    /// crossings, and the movement around it (half its length on each side) belongs to it too.
    static func overlap(_ rep: RepCounter.Completed, _ counted: SessionLog.Span) -> Bool {
        let margin = Configuration.overlapMarginFraction * (counted.end - counted.start)
        return counted.start - margin < rep.endSeconds && rep.startSeconds < counted.end + margin
    }

    /// How irregular a signal's repetitions are: the coefficient of variation of the intervals between
    /// their peaks (0 for a metronome). A signal that counts each repetition twice (a double peak) or
    /// misses every other one alternates short and long intervals; it is not a trustworthy fallback. The few
    /// intervals over twice the mean one (at most a quarter of them) are rests between sets, not part of the
    /// rhythm, and are left out; a double count has as many long intervals as short ones.
    static func irregularity(_ reps: [RepCounter.Completed]) -> Double {
        // Too few repetitions to tell: a short clip's fallback is not held back.
        guard reps.count >= Configuration.irregularityMinimumReps else { return 0 }
        let intervals = reps.count - 1
        let longer =
            Configuration.setRestIntervalFactor * (reps[intervals].peakSeconds - reps[0].peakSeconds)
            / Double(intervals)
        var long = 0
        for i in 1..<reps.count where reps[i].peakSeconds - reps[i - 1].peakSeconds > longer { long += 1 }
        // The intervals left out as rests between sets: those longer, unless too many are (`nil`: none).
        let cut: Double? = long * Configuration.setRestIntervalsOneIn > intervals ? nil : longer
        var sum = 0.0
        var sumSquares = 0.0
        var n = 0.0
        for i in 1..<reps.count {
            let interval = reps[i].peakSeconds - reps[i - 1].peakSeconds
            if let cut, interval > cut { continue }
            sum += interval
            sumSquares += interval * interval
            n += 1
        }
        guard n >= Configuration.irregularityMinimumIntervals else { return 0 }
        let mean = sum / n
        guard mean > 0 else { return .infinity }
        return max(0, sumSquares / n - mean * mean).squareRoot() / mean
    }
}

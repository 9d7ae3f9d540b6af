import PoseKit

/// What a session's repetitions are counted from, and the repetitions each signal completes: the exercise's primary
/// angle (one ``RepCounter`` per side counted), the same angle in the image plane while the depth is not judged,
/// the movement of the exercise's joints and its other angles (each counted in both directions) as fallback signals,
/// and ``CountingSource``'s choice between them.
///
/// With no exercise given, the body's angles are counted in the recogniser's 10-Hz samples (``ingest(sample:of:at:_:)``)
/// beside the movement the session counts (``ingest(movement:_:)``).
///
/// Counting does not judge: it emits each repetition that counts, with the statistics it is judged on, and the
/// revisions (another signal takes over; the depth proves a guess and the image plane's repetitions replace the
/// ones counted). The caller measures and records them in order.
///
/// ```swift
/// var counting = RepetitionCounting(exercise: squat)
/// for event in counting.ingest(frame, angles: &meter, imagePlane: &flat, context) {
///     if case .completed(let rep, let side, let statistics) = event { record(judge(rep, side, statistics)) }
/// }
/// ```
struct RepetitionCounting: Sendable {
    struct Configuration: Sendable, Hashable {
        /// The movement counter's smallest excursion, in torso lengths, when it cross-checks an exercise's angle
        /// counter: a repetition moves its joints by more than a sixth of the torso, a sway less.
        var movementMinimumRange = 0.15
        /// The smallest excursion, in degrees, of another angle counted on its own as a fallback signal: small
        /// enough for an arm's part in a squat, larger than the pose estimator's jitter.
        var otherAngleMinimumRange = 15.0
        /// With a counter per side, how many more repetitions the other side must count before it takes over as
        /// the working side: a glitchy resting limb flipping between two wrong positions must not take turns.
        var sideTakeoverLead = 2
        /// How far (seconds) a repetition counted by the other side may start before the last one ended and still
        /// count: the same movement is never counted twice, a tenth of a second of overlap is the smoother's lag.
        var sideOverlapSeconds = 0.1
    }

    /// A repetition that counts, or a change to those counted so far.
    enum Event: Sendable {
        /// The primary angle's counter on `side` (`nil`: both) completed a repetition, measured by `statistics`.
        case completed(RepCounter.Completed, side: BodySide?, statistics: RepetitionJudge.Statistics)
        /// A fallback signal (the movement, another angle) counted a repetition: measured as the movement's.
        case counted(RepCounter.Completed)
        /// Another signal counts from now on: the repetitions so far are withdrawn, and these (that signal's, the
        /// ones missed included) count instead, measured as the movement's.
        case replaced(by: [RepCounter.Completed])
        /// The depth proved a guess: the repetitions so far are withdrawn, and the `.completed` that follow are those
        /// the image-plane counters found, judged on the statistics they had then.
        case recounting
    }

    /// What counting reads of a frame, with an exercise given.
    struct Frame {
        var pose: Pose
        var seconds: Double
        /// Whether the person is measurable (in frame, not walking).
        var valid: Bool
        /// Whether the angles are measured in 3-D (``SetUpCheck/hasDepth``).
        var hasDepth: Bool
        /// Whether the depth's verdict is still to come: the image-plane counters run beside the 3-D ones.
        var depthUnjudged: Bool
        /// The side a bilateral exercise is measured on alone (the camera does not face the person), else `nil`.
        var measuredSide: BodySide?
    }

    let configuration: Configuration
    /// The exercise given; `nil` with the body's angles counted.
    private let exercise: ExerciseDefinition?
    /// The primary angle's counters (one per side counted) and their sides.
    private var counters: [RepCounter] = []
    private let counterSides: [BodySide?]
    /// The counters of the primary angle in the image plane while the depth is not judged.
    private var flatCounters: [RepCounter] = []
    /// The repetitions `flatCounters` completed (and that could count) before the depth verdict, with their
    /// counter: when the depth proves a guess, they replace the ones counted on the 3-D angle until then.
    private var flatCompleted: [(rep: RepCounter.Completed, counter: Int, statistics: RepetitionJudge.Statistics)] = []
    /// Whether the counters were skipped (a glitch, a held gap) since they were last fed: the next feed bridges
    /// the gap (``RepCounter/bridgeGap(at:)``).
    private var skipped = false
    /// Whether the exercise's primary angle has a left and a right.
    let primaryIsSided: Bool
    /// The counter (side) whose repetitions count, once one has counted.
    private(set) var countingCounter: Int?
    /// Where the last repetition counted on the primary angle ended.
    private var lastRepEnd: Double?
    /// The repetitions the primary angle counted (the side counting).
    private(set) var angleReps = 0
    /// The movement of the exercise's joints, counted as a cross-check of the angle counter.
    private var movement: PeriodicMotionCounter?
    /// The other angles' counters, and the slot each reads (``AngleSlot/index`` in the session's ``AngleMeter``; with
    /// no exercise given, `ExerciseRecognizer.index(kind) * 2 + side` in the recogniser's 10-Hz samples).
    private var secondary: [RepCounter] = []
    private var secondarySlots: [Int] = []
    /// With no exercise given: whether the other angles' counters were told of an invalid stretch since their last
    /// sample.
    private var secondaryInvalid = true
    /// What the repetitions are counted from.
    private(set) var source: CountingSource
    /// The events of the latest call (reused).
    private var events: [Event] = []
    /// The times of the repetitions counted, as the caller's log will hold them once it recorded this call's events
    /// (what a fallback signal is compared with; reused).
    private var spans: [SessionLog.Span] = []

    init(exercise: ExerciseDefinition?, configuration: Configuration = .init()) {
        self.configuration = configuration
        self.exercise = exercise
        primaryIsSided = exercise?.primaryAngle.isSided ?? false
        var sides: [BodySide?] = []
        if let exercise, let spec = exercise.repetition {
            var joints: [Joint] = []
            for angle in exercise.angles {
                for side in [BodySide.left, .right] {
                    for joint in angle.joints(side: side) where !joints.contains(joint) { joints.append(joint) }
                }
            }
            movement = PeriodicMotionCounter(
                configuration: .init(
                    minimumRange: configuration.movementMinimumRange,
                    minimumSeconds: spec.minimumSeconds,
                    maximumSeconds: spec.maximumSeconds,
                    joints: joints
                )
            )
            for (a, angle) in exercise.angles.enumerated() where a > 0 && angle.countsRepetitions {
                // Both directions: which end of another angle is its rest is not known (a pull-up's
                // shoulder abduction rests high, a squat's hip flexion low).
                for side in 0..<(angle.isSided ? 2 : 1) {
                    for direction in [1.0, -1.0] {
                        secondary.append(
                            RepCounter(
                                configuration: .init(
                                    direction: direction,
                                    minimumRange: configuration.otherAngleMinimumRange,
                                    minimumSeconds: spec.minimumSeconds,
                                    maximumSeconds: spec.maximumSeconds
                                )
                            )
                        )
                        secondarySlots.append(AngleSlot(angle: a, side: side == 0 ? .left : .right).index)
                    }
                }
            }
            sides =
                switch exercise.side {
                case .left: [.left]
                case .right: [.right]
                case .both: [nil]
                case .either: exercise.primaryAngle.isSided ? [.left, .right] : [nil]
                }
            counters = sides.map { _ in RepCounter(configuration: RepCounter.Configuration(spec)) }
            flatCounters = counters
        } else if exercise == nil {
            for (k, kind) in ExerciseRecognizer.kinds.enumerated() where kind.countsRepetitions {
                for side in 0..<(kind.isSided ? 2 : 1) {
                    for direction in [1.0, -1.0] {
                        secondary.append(
                            // Fed the ring's 10-Hz samples, not frames: it counts samples (a median of five, 0.5 s,
                            // and a debounce of two, as before the counters read capture times), which are already
                            // spaced in time. A median of 0.165 s held two of them: each angle's noise then passed,
                            // an angle counted more than the movement and took over (two recordings one after the
                            // other were then judged as the exercise recognised last).
                            RepCounter(
                                configuration: .init(
                                    direction: direction,
                                    minimumRange: configuration.otherAngleMinimumRange,
                                    countsSamples: true
                                )
                            )
                        )
                        secondarySlots.append(k * 2 + side)
                    }
                }
            }
        }
        counterSides = sides
        source = CountingSource(configuration: .init(movementOnly: exercise == nil), otherAngles: secondary.count)
        events.reserveCapacity(4)
    }

    /// How many counters follow the primary angle (one per side counted; none for a hold or with no exercise).
    var counterCount: Int { counters.count }

    // MARK: - An exercise given

    /// Counts one frame of the exercise given: the movement, the other angles, the image plane's primary angle while
    /// the depth is not judged, and the primary angle, whose per-repetition statistics `angles` (and `imagePlane`)
    /// follow. `presence` says whether a repetition may count; `counted` are the times of the repetitions counted so
    /// far.
    mutating func ingest(
        _ frame: Frame,
        angles: inout AngleMeter,
        imagePlane: inout AngleMeter?,
        presence: PresenceTracker,
        counted: [SessionLog.Span]
    ) -> [Event] {
        begin()
        let t = frame.seconds
        let valid = frame.valid
        if skipped {
            skipped = false
            for c in counters.indices { counters[c].bridgeGap(at: t) }
            for c in flatCounters.indices { flatCounters[c].bridgeGap(at: t) }
            for k in secondary.indices { secondary[k].bridgeGap(at: t) }
        }
        if movement != nil,
            (movement?.ingest(frame.pose, at: t, valid: valid, useDepth: frame.hasDepth) ?? 0) > 0,
            let reps = movement?.completed
        {
            for rep in reps where presence.mayCount(startingAt: rep.startSeconds) {
                if source.record(rep, from: .movement) { emit(.counted(rep)) }
            }
            switchToFallbackIfAngleFails(counted: counted, movementKnown: false)
        }
        // The other measured angles, each counted on its own: one of them may move periodically when
        // the primary angle cannot be measured.
        for k in secondary.indices {
            let v = angles.value(AngleSlot(index: secondarySlots[k]))
            if case .completed(let rep) = secondary[k].ingest(v, at: t, valid: valid),
                presence.mayCount(startingAt: rep.startSeconds)
            {
                if source.record(rep, from: .secondaryAngle(k)) { emit(.counted(rep)) }
                switchToFallbackIfAngleFails(counted: counted, movementKnown: false)
            }
        }
        let sole = frame.measuredSide.flatMap { primaryIsSided ? $0 : nil }
        if frame.depthUnjudged, frame.hasDepth, imagePlane != nil {
            for c in flatCounters.indices {
                let value = imagePlane.flatMap { $0.primaryValue(side: counterSides[c], sole: sole) }
                let event = flatCounters[c].ingest(value, at: t, valid: valid)
                let active = flatCounters[c].phase == .active
                imagePlane?.follow(counter: c, side: counterSides[c], value: value, active: active, valid: valid)
                if case .completed(let rep) = event {
                    if presence.mayCount(startingAt: rep.startSeconds), let statistics = imagePlane?.statistics {
                        flatCompleted.append((rep, c, statistics))
                    }
                    imagePlane?.startRepetition(counter: c, side: counterSides[c])
                }
            }
        }
        for c in counters.indices {
            let value = angles.primaryValue(side: counterSides[c], sole: sole)
            let event = counters[c].ingest(value, at: t, valid: valid)
            let active = counters[c].phase == .active
            angles.follow(counter: c, side: counterSides[c], value: value, active: active, valid: valid)
            if case .completed(let completed) = event {
                if source.signal == .primaryAngle, presence.mayCount(startingAt: completed.startSeconds) {
                    complete(completed, counter: c, measuredSide: frame.measuredSide) {
                        angles.closeRepetition(counted: $0, rest: completed.restValue, peak: completed.peakValue)
                    }
                    switchToFallbackIfAngleFails(counted: counted, movementKnown: false)
                }
                angles.startRepetition(counter: c, side: counterSides[c])
            }
        }
        return events
    }

    /// The counters are not fed this frame (a glitch, a held gap): their next frame bridges the gap.
    mutating func skip() { skipped = true }

    /// Nobody was seen: unless the stretch is `held` (a glitch, a held gap), the repetitions under way are dropped.
    mutating func lostPerson(held: Bool, depthUnjudged: Bool, at t: Double) {
        if held {
            skipped = true
            return
        }
        for i in counters.indices { _ = counters[i].ingest(nil, at: t, valid: false) }
        if depthUnjudged {
            for i in flatCounters.indices { _ = flatCounters[i].ingest(nil, at: t, valid: false) }
        }
    }

    /// The depth's verdict: when it proves a guess, the image-plane counters take over, and the repetitions counted
    /// so far on the 3-D primary angle are replaced by those the image-plane counters found in the same time, each
    /// with the image-plane statistics it had then. The fallback signals' repetitions until then were measured with
    /// the guessed depth too: forgotten.
    mutating func takeDepthVerdict(measured: Bool, counted: [SessionLog.Span], measuredSide: BodySide?) -> [Event] {
        begin()
        if !measured {
            swap(&counters, &flatCounters)
            if source.signal == .primaryAngle, exercise != nil {
                source.forget()
                for k in secondary.indices { secondary[k].reset() }
                if !counted.isEmpty || !flatCompleted.isEmpty {
                    emit(.recounting)
                    angleReps = 0
                    lastRepEnd = nil
                    countingCounter = nil
                    for (rep, c, statistics) in flatCompleted {
                        complete(rep, counter: c, measuredSide: measuredSide) {
                            AngleMeter.closing(statistics, counted: $0, rest: rep.restValue, peak: rep.peakValue)
                        }
                    }
                }
            }
        }
        flatCompleted.removeAll()
        return events
    }

    /// Counts and emits a repetition counter `c` completed, measured by `close` (given the slot of the signal
    /// counted), unless the other side counts.
    private mutating func complete(
        _ completed: RepCounter.Completed,
        counter c: Int,
        measuredSide: BodySide?,
        close: (AngleSlot?) -> RepetitionJudge.Statistics
    ) {
        // With one counter per side, only the side that moves more counts, and never the same movement twice.
        if counters.count == 2 {
            // One side at a time: the side that counts first is the working side, and it stays so until
            // the other has counted two more (a glitchy resting limb, flipping between two wrong
            // positions, must not take turns with the moving one); the same movement is never counted twice.
            if let working = countingCounter, working != c {
                guard counters[c].count >= counters[working].count + configuration.sideTakeoverLead else { return }
            }
            countingCounter = c
            if let lastRepEnd, completed.startSeconds < lastRepEnd - configuration.sideOverlapSeconds { return }
        }
        lastRepEnd = completed.endSeconds
        let side = counterSides[c]
        // The primary angle on the side counted is the counter's own signal: its range holds the rest and
        // the peak the counter saw, and its value at the peak is the repetition's peak angle. So the form rule
        // on that angle (a push-up's depth) and the range-of-motion text judge the same number; a range that
        // began before the depth verdict (the angles were 3-D until then) still reaches the peak.
        let countedSide: BodySide? = side ?? measuredSide
        let countedSlot: AngleSlot? =
            !primaryIsSided ? AngleSlot(angle: 0, side: .left) : countedSide.map { AngleSlot(angle: 0, side: $0) }
        let statistics = close(countedSlot)
        angleReps += 1
        emit(.completed(completed, side: side, statistics: statistics))
    }

    // MARK: - No exercise given

    /// With no exercise given: the repetitions the movement completed (the session's ``PeriodicMotionCounter``); one
    /// of the body's angles that proves the movement misses repetitions takes over unless `checkingFallback` is off
    /// (the end of the recording).
    mutating func ingest(
        movement reps: [RepCounter.Completed],
        presence: PresenceTracker,
        counted: [SessionLog.Span],
        movementKnown: Bool,
        checkingFallback: Bool = true
    ) -> [Event] {
        begin()
        for rep in reps where presence.mayCount(startingAt: rep.startSeconds) {
            if source.record(rep, from: .movement) { emit(.counted(rep)) }
        }
        if checkingFallback { switchToFallbackIfAngleFails(counted: counted, movementKnown: movementKnown) }
        return events
    }

    /// With no exercise given, counts each of the body's angles in the 10-Hz sample `i` of `ring` (the depth's or
    /// the image plane's, as the ring holds them); one that proves the movement misses repetitions takes over.
    mutating func ingest(
        sample i: Int,
        of ring: AngleSampleRing,
        presence: PresenceTracker,
        counted: [SessionLog.Span],
        movementKnown: Bool
    ) -> [Event] {
        begin()
        count(sample: i, of: ring, presence: presence, counted: counted, movementKnown: movementKnown)
        return events
    }

    /// With no exercise given: the person is not seen or not steady, which the angles' counters are told once.
    mutating func invalidateSamples(at t: Double) {
        guard !secondaryInvalid else { return }
        secondaryInvalid = true
        for k in secondary.indices { _ = secondary[k].ingest(nil, at: t, valid: false) }
    }

    /// The depth proved a guess with no exercise given: the angles' counters start again from the image-plane
    /// angles of the samples so far (`ring`, converted), so that they measure what the picture shows from the start.
    mutating func recount(
        samplesOf ring: AngleSampleRing,
        presence: PresenceTracker,
        counted: [SessionLog.Span],
        movementKnown: Bool
    ) -> [Event] {
        begin()
        guard exercise == nil, source.signal == .movement else { return events }
        for k in secondary.indices {
            secondary[k].reset()
            source.forget(fallback: k + 1)
        }
        for j in 0..<ring.count {
            count(
                sample: ring.index(chronological: j),
                of: ring,
                presence: presence,
                counted: counted,
                movementKnown: movementKnown
            )
        }
        return events
    }

    private mutating func count(
        sample i: Int,
        of ring: AngleSampleRing,
        presence: PresenceTracker,
        counted: [SessionLog.Span],
        movementKnown: Bool
    ) {
        secondaryInvalid = false
        for k in secondary.indices {
            let value = ring[sample: i, slot: secondarySlots[k]]
            guard case .completed(let rep) = secondary[k].ingest(value, at: ring.times[i]),
                presence.mayCount(startingAt: rep.startSeconds)
            else { continue }
            if source.record(rep, from: .secondaryAngle(k)) { emit(.counted(rep)) }
            switchToFallbackIfAngleFails(counted: counted, movementKnown: movementKnown)
        }
    }

    // MARK: - The signal counted

    /// Counts from another signal when ``CountingSource`` finds the one counted missing repetitions: the
    /// repetitions so far are replaced by that signal's, the ones missed included.
    private mutating func switchToFallbackIfAngleFails(counted: [SessionLog.Span], movementKnown: Bool) {
        let signal: CountingSource.Signal?
        if events.isEmpty {
            signal = source.ingest(angleReps: angleReps, counted: counted, movementKnown: movementKnown)
        } else {
            // The caller records this call's events before the next frame: compare with what it will hold then.
            spans.removeAll(keepingCapacity: true)
            spans.append(contentsOf: counted)
            for event in events {
                switch event {
                case .completed(let rep, _, _), .counted(let rep):
                    spans.append(SessionLog.Span(start: rep.startSeconds, end: rep.endSeconds))
                case .replaced(let reps):
                    spans.removeAll(keepingCapacity: true)
                    for rep in reps { spans.append(SessionLog.Span(start: rep.startSeconds, end: rep.endSeconds)) }
                case .recounting:
                    spans.removeAll(keepingCapacity: true)
                }
            }
            signal = source.ingest(angleReps: angleReps, counted: spans, movementKnown: movementKnown)
        }
        guard let k = signal?.fallback else { return }
        emit(.replaced(by: source.fallbackReps[k]))
    }

    private mutating func begin() {
        if !events.isEmpty { events.removeAll(keepingCapacity: true) }
    }

    private mutating func emit(_ event: Event) {
        events.append(event)
    }

    // MARK: - Reading

    /// The counter of the working side: the side whose repetitions count (the side they are measured and judged on,
    /// so that the overlay's angle is of the side the summary reports), before the first the side that moves more; a
    /// side never measured (the far arm hidden in a side view) has no range. `nil` without counters.
    var workingCounter: Int? {
        guard !counters.isEmpty else { return nil }
        guard counters.count == 2 else { return 0 }
        if source.signal == .primaryAngle, let countingCounter { return countingCounter }
        guard let right = counters[1].observedRange else { return 0 }
        guard let left = counters[0].observedRange else { return 1 }
        return right.high - right.low > left.high - left.low ? 1 : 0
    }

    /// The side counter `c` follows (`nil`: both).
    func side(ofCounter c: Int) -> BodySide? { counterSides[c] }

    /// How far counter `c`'s repetition under way is from rest to peak (0...1): of the image-plane counter while the
    /// depth is not judged (what the repetitions are measured in when it proves a guess).
    func progress(ofCounter c: Int, imagePlane: Bool) -> Double {
        imagePlane ? flatCounters[c].progress : counters[c].progress
    }

    /// Since when counter `c`'s repetition under way has been held at its peak, while the primary angle counts.
    func heldAtPeakSince(counter c: Int) -> Double? {
        source.signal == .primaryAngle ? counters[c].heldAtPeakSince : nil
    }

    /// Whether the counted angle, measured again after a gap, continues what its counter did before it
    /// (``RepCounter/continues(with:)``): the counters of the primary angle (the side counting, once one has
    /// counted), the image-plane ones while the depth is not judged, and the other angle counting instead.
    func continues(angles: AngleMeter, imagePlane: AngleMeter?, imagePlaneCounts: Bool, measuredSide: BodySide?) -> Bool
    {
        let sole = measuredSide.flatMap { primaryIsSided ? $0 : nil }
        for c in counters.indices where countingCounter == nil || countingCounter == c {
            if !counters[c].continues(with: angles.primaryValue(side: counterSides[c], sole: sole)) { return false }
        }
        if imagePlaneCounts {
            for c in flatCounters.indices where countingCounter == nil || countingCounter == c {
                let value = imagePlane.flatMap { $0.primaryValue(side: counterSides[c], sole: sole) }
                if !flatCounters[c].continues(with: value) { return false }
            }
        }
        if case .secondaryAngle(let k) = source.signal {
            if !secondary[k].continues(with: angles.value(AngleSlot(index: secondarySlots[k]))) { return false }
        }
        return true
    }

    /// The angle the `k`-th other counter reads: one of the exercise's, or with none given, of the body's.
    func countedAngle(_ k: Int) -> AngleKind {
        let slot = secondarySlots[k]
        if let exercise { return exercise.angles[slot / 2] }
        return ExerciseRecognizer.kinds[slot / 2]
    }

    /// What the repetitions were counted from, for the summary.
    var countedBy: SessionSummary.CountingSource {
        switch source.signal {
        case .movement: .movement
        case .secondaryAngle(let k): .otherAngle(countedAngle(k))
        case .primaryAngle: exercise?.isHold == true ? .hold : .angle
        }
    }

    /// The repetitions each counting signal found so far (exercise given): `"angle"` (the primary angle's
    /// counter, as counted), `"movement"`, then `"<kind>:<side><direction>"` for each other angle (side L, R or
    /// -, direction + or -).
    var signalCounts: [(signal: String, reps: Int)] {
        guard let exercise, exercise.repetition != nil else { return [] }
        var list: [(signal: String, reps: Int)] = [("angle", angleReps), ("movement", source.fallbackReps[0].count)]
        for k in secondary.indices {
            let slot = AngleSlot(index: secondarySlots[k])
            let angle = exercise.angles[slot.angle]
            let side = angle.isSided ? (slot.side == .left ? "L" : "R") : "-"
            let direction = secondary[k].configuration.direction > 0 ? "+" : "-"
            list.append(("\(angle.rawValue):\(side)\(direction)", source.fallbackReps[k + 1].count))
        }
        return list
    }
}

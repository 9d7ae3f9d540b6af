public import PoseKit

/// Coaches one hand exercise from hand frames: the hand's counterpart of ``CoachingSession``.
///
/// Each frame: the set-up check (``HandSetUp``: no hand, a third hand, crossed hands, a hand half out of view),
/// the exercise's measurements on the coached hand (``HandMeasure``, ``HandAngles``), repetitions counted on the
/// primary one by the same ``RepCounter`` the body exercises use, and at each repetition its per-finger range
/// against the definition's targets, with one cue at a time (``CueScheduler``: "Bend your little finger further").
/// A gap of up to ``gapSeconds`` (a frame or two without the hand) is skipped, and one up to ``lostSeconds`` when the
/// hand comes back where it was; a longer one, or any set-up issue, is an invalid stretch for the counter, so a
/// repetition is never made of noise.
///
/// ```swift
/// var session = HandCoachingSession(exercise: fist, width: 640, height: 480)
/// while let frame = try reader.next() { let snapshot = session.ingest(frame); draw(snapshot) }
/// let summary = session.summary()      // reps, per-finger ROM, TAM, cues
/// ```
public struct HandCoachingSession: Sendable {
    /// A frame's state, for the overlay and the live page.
    public struct Snapshot: Sendable {
        public var seconds: Double
        public var hands: [HandPose]
        /// The index in `hands` of the coached hand.
        public var coachedIndex: Int?
        /// The primary measurement (after the counter's median filter).
        public var value: Double?
        public var reps: Int
        /// The current repetition's progress from rest to its peak, 0…1.
        public var progress: Double
        /// The cue given in this frame, if any.
        public var cue: Cue?
        /// The set-up issue under way (after ``issueSeconds``).
        public var setUp: HandSetUp.Issue?
        /// Each finger's measurement in this frame (``HandExerciseDefinition/FingerMeasure``).
        public var fingers: [Finger: Double]
    }

    /// Gaps up to this long are skipped, not an invalid stretch.
    public static let gapSeconds = 0.3
    /// A longer gap without a hand, up to this long, is skipped too when the hand comes back where it was (its
    /// wrist within ``returnDistance`` hand lengths): the model lost the hand, it did not move away. A wrist bent
    /// back edge-on to the camera is lost that way for a second or more.
    public static let lostSeconds = 2.0
    public static let returnDistance = 0.5
    /// A set-up issue lasting this long is said.
    public static let issueSeconds = 0.5

    public let exercise: HandExerciseDefinition
    public let width: Double
    public let height: Double

    private var counter: RepCounter
    /// Counts instead of `counter` when the exercise is counted by touches.
    private var touches: TouchCounter?
    private var cues = CueScheduler()
    private var said: [Cue] = []
    private var repetitions: [HandSessionSummary.Repetition] = []
    /// Recent valid frames: time, primary value, per-finger values (for each repetition's extremes).
    private var recent: [(seconds: Double, fingers: [Finger: Double])] = []
    private var lastValid: Double?
    private var lastWrist: Vector2?
    private var issue: (issue: HandSetUp.Issue, since: Double)?
    private var issueTime: [HandSetUp.Issue: Double] = [:]
    private var lastSeconds: Double?
    private var firstSeconds: Double?
    private var frames = 0
    private var framesMeasured = 0
    /// Frames measured on the body pose (``BodyWrist``), the hand model having found no hand.
    private var framesOnBody = 0
    private var views: [HandView: Int] = [:]
    private var basis: HandAngles.Basis?
    /// Each finger's extremes over the set, and the angles of the frames they came from (for TAM).
    private var fingerBest: [Finger: Double] = [:]
    private var flexed: [Finger: (total: Double, angles: HandAngles)] = [:]
    private var extended: [Finger: (total: Double, angles: HandAngles)] = [:]
    private var fingerMedians: [Finger: MedianFilter] = [:]
    private var kapandji = KapandjiScore()

    public init(exercise: HandExerciseDefinition, width: Double, height: Double) {
        self.exercise = exercise
        self.width = width
        self.height = height
        counter = RepCounter(configuration: RepCounter.Configuration(exercise.repetition))
        touches = exercise.touch.map {
            TouchCounter(
                configuration: .init(
                    touchDistance: $0.distance,
                    releaseDistance: $0.release,
                    countsNewTarget: $0.newFinger
                )
            )
        }
    }

    /// The fingers whose measurement is followed: the targets', else the four fingers' flexion.
    private var fingerMeasure: HandExerciseDefinition.FingerMeasure { exercise.fingerTargets?.measure ?? .flexion }
    private var followedFingers: [Finger] {
        exercise.fingerTargets?.fingers ?? (fingerMeasure == .flexion ? Finger.allCases : HandMeasure.fingers)
    }

    /// Takes one frame, and the body pose seen at the same moment when there is one.
    ///
    /// - Parameter body: the person's body pose; wrist flexion and extension (``HandMeasure/handInclination``) is
    ///   measured on it (``BodyWrist``: the hand against the forearm) in a frame in which the hand model found no
    ///   hand, and counted on as on the hand's.
    public mutating func ingest(_ frame: HandFrame, body: Pose? = nil) -> Snapshot {
        let t = frame.seconds
        frames += 1
        if firstSeconds == nil { firstSeconds = t }
        let dt = lastSeconds.map { max(0, t - $0) } ?? 0
        lastSeconds = t
        let check = HandSetUp.check(frame.hands, width: width, height: height, side: exercise.side, near: lastWrist)
        var snapshot = Snapshot(
            seconds: t,
            hands: frame.hands,
            coachedIndex: check.index,
            value: nil,
            reps: repetitions.count,
            progress: 0,
            cue: nil,
            setUp: nil,
            fingers: [:]
        )

        var measured = false
        if check.issue == nil, let index = check.index {
            let hand = frame.hands[index]
            let angles = HandAngles(hand)
            if let value = exercise.primary.value(hand, angles: angles) {
                // Back after a gap: skipped only if short, or the hand came back where it was.
                if let last = lastValid, t - last > Self.gapSeconds {
                    let length = HandMeasure.handLength(hand) ?? 0
                    let moved = lastWrist.map { (hand[.wrist].point - $0).length } ?? .infinity
                    if t - last > Self.lostSeconds || moved > Self.returnDistance * length {
                        invalidate(at: t)
                    }
                }
                measured = true
                issue = nil
                lastValid = t
                lastWrist = hand[.wrist].point
                framesMeasured += 1
                views[angles.view, default: 0] += 1
                basis = angles.basis
                if exercise.primary == .thumbGap || exercise.primary == .thumbOpposition { kapandji.ingest(hand) }
                let fingers = fingerValues(hand, angles: angles)
                snapshot.fingers = fingers
                followSet(fingers, angles: angles)
                recent.append((t, fingers))
                let horizon = exercise.repetition.maximumSeconds + 1
                if let drop = recent.firstIndex(where: { $0.seconds >= t - horizon }), drop > 0 {
                    recent.removeFirst(drop)
                }
                if var touches, let spec = exercise.touch {
                    let touch = HandMeasure.thumbTouch(hand, fingertipsOnly: spec.fingertipsOnly)
                    let target = touch.map { Finger.allCases.firstIndex(of: $0.finger)! } ?? 0
                    if case .touched(let made) = touches.ingest(distance: touch?.distance, target: target, at: t) {
                        let completed = RepCounter.Completed(
                            startSeconds: made.startSeconds,
                            peakSeconds: made.touchSeconds,
                            endSeconds: made.touchSeconds,
                            peakValue: made.distance,
                            restValue: made.restDistance
                        )
                        snapshot.cue = judge(completed, at: t, touched: Finger.allCases[made.target])
                    }
                    self.touches = touches
                } else {
                    count(value, at: t, into: &snapshot)
                }
            }
        }
        // No hand from the hand model: wrist flexion and extension from the body's wrist against its forearm.
        if !measured, check.issue == nil || check.issue == .noHand, exercise.primary == .handInclination, let body,
            let value = BodyWrist.inclination(in: body, side: exercise.side, picture: max(width, height))
        {
            if let last = lastValid, t - last > Self.lostSeconds { invalidate(at: t) }
            measured = true
            issue = nil
            lastValid = t
            framesMeasured += 1
            framesOnBody += 1
            count(value, at: t, into: &snapshot)
        }
        if !measured {
            let kind = check.issue ?? .noHand
            if issue?.issue != kind { issue = (kind, t) }
            issueTime[kind, default: 0] += dt
            // A set-up issue stops the repetition under way; a gap without a hand is judged when the hand is back.
            if check.issue != nil && check.issue != .noHand { invalidate(at: t) }
            if let issue, t - issue.since >= Self.issueSeconds {
                snapshot.setUp = issue.issue
                _ = cues.offer(Cue(kind: .setup, text: issue.issue.cue(side: exercise.side), priority: 1, seconds: t))
            }
        }
        if let cue = cues.ingest(at: t) {
            said.append(cue)
            snapshot.cue = cue
        } else if let cue = snapshot.cue, cue.kind.isImmediate {
            said.append(cue)
        } else {
            snapshot.cue = nil
        }
        snapshot.value = measured ? touches?.lastValue ?? counter.lastValue : nil
        snapshot.reps = repetitions.count
        snapshot.progress = touches?.progress ?? counter.progress
        return snapshot
    }

    /// Counts on the primary measurement (not touches).
    private mutating func count(_ value: Double, at t: Double, into snapshot: inout Snapshot) {
        switch counter.ingest(value, at: t) {
        case .completed(let completed): snapshot.cue = judge(completed, at: t)
        case .started, .none: break
        }
    }

    /// An invalid stretch for the counters: the repetition under way is dropped.
    private mutating func invalidate(at t: Double) {
        _ = counter.ingest(nil, at: t, valid: false)
        _ = touches?.ingest(distance: nil, target: 0, at: t, valid: false)
        lastValid = nil
    }

    private func fingerValues(_ hand: HandPose, angles: HandAngles) -> [Finger: Double] {
        var values: [Finger: Double] = [:]
        for finger in followedFingers {
            switch fingerMeasure {
            case .flexion: values[finger] = angles.totalFlexion(of: finger)
            case .opposition: values[finger] = angles.thumbOpposition[finger]
            }
        }
        return values
    }

    /// Follows each finger's best over the set (median of five frames, so a glitch is not a record) and the
    /// most flexed and most extended hand of each finger (for TAM).
    private mutating func followSet(_ fingers: [Finger: Double], angles: HandAngles) {
        for (finger, raw) in fingers {
            let value = fingerMedians[finger, default: MedianFilter()].ingest(raw)
            let better =
                fingerMeasure == .flexion
                ? value > (fingerBest[finger] ?? -.infinity) : value < (fingerBest[finger] ?? .infinity)
            if better { fingerBest[finger] = value }
        }
        for finger in Finger.allCases {
            guard let total = angles.totalFlexion(of: finger) else { continue }
            if total > (flexed[finger]?.total ?? -.infinity) { flexed[finger] = (total, angles) }
            if total < (extended[finger]?.total ?? .infinity) { extended[finger] = (total, angles) }
        }
    }

    /// Judges a completed repetition against the definition and offers its cue.
    private mutating func judge(_ completed: RepCounter.Completed, at t: Double, touched: Finger? = nil) -> Cue? {
        var issues: [(text: String, weight: Double)] = []
        if let target = exercise.target {
            let peak = completed.peakValue
            let short = exercise.repetition.direction > 0 ? peak < target.min : peak > target.max
            if short { issues.append((exercise.rangeCue, .infinity)) }
        }
        var fingers: [Finger: Double] = [:]
        let during = recent.filter { $0.seconds >= completed.startSeconds && $0.seconds <= completed.endSeconds }
        // A touch reached one finger: that finger's distance is the repetition's.
        for finger in touched.map({ [$0] }) ?? followedFingers {
            let values = touched != nil ? [completed.peakValue] : during.compactMap { $0.fingers[finger] }
            guard !values.isEmpty else { continue }
            let sorted = values.sorted()
            // The second-best frame: one glitching frame is not the repetition's reach.
            let best = fingerMeasure == .flexion ? sorted[max(0, sorted.count - 2)] : sorted[min(sorted.count - 1, 1)]
            fingers[finger] = best
            if let targets = exercise.fingerTargets, targets.scope == .repetition, !targets.accepts(best) {
                issues.append((targets.cue(for: finger), targets.shortfall(best)))
            }
        }
        let held = completed.plateauEndSeconds - completed.plateauStartSeconds
        if let hold = exercise.repetition.holdSeconds, held < hold - 0.5 {
            issues.append(("Hold the position for \(Int(hold.rounded())) s before letting go", 1e9))
        }
        issues.sort { $0.weight > $1.weight }
        let rep = HandSessionSummary.Repetition(
            index: repetitions.count + 1,
            startSeconds: completed.startSeconds,
            peakSeconds: completed.peakSeconds,
            endSeconds: completed.endSeconds,
            peak: completed.peakValue,
            rest: completed.restValue,
            heldSeconds: held,
            fingers: Dictionary(uniqueKeysWithValues: fingers.map { ($0.key.rawValue, $0.value) }),
            issues: issues.map(\.text),
            verdict: issues.isEmpty ? .good : .needsWork
        )
        repetitions.append(rep)
        let cue =
            issues.first.map { Cue(kind: .form, text: $0.text, priority: 1, seconds: t) }
            ?? Cue(kind: .encouragement, text: exercise.praise, priority: 1, seconds: t)
        return cues.offer(cue)
    }

    /// What the session found so far.
    public func summary() -> HandSessionSummary {
        let duration = (lastSeconds ?? 0) - (firstSeconds ?? 0)
        var ranges: [HandSessionSummary.FingerRange] = []
        for finger in followedFingers {
            guard let best = fingerBest[finger] else { continue }
            let targets = exercise.fingerTargets
            ranges.append(
                .init(
                    finger: finger.rawValue,
                    measure: fingerMeasure,
                    best: best,
                    targetMin: targets?.min,
                    targetMax: targets?.max,
                    reached: targets.map { $0.accepts(best) }
                )
            )
        }
        var tam: [String: Double] = [:]
        if exercise.primary.isFlexion {
            for finger in Finger.allCases {
                guard let fist = flexed[finger]?.angles, let open = extended[finger]?.angles,
                    let degrees = TotalActiveMotion.degrees(of: finger, flexed: fist, extended: open)
                else { continue }
                tam[finger.rawValue] = degrees
            }
        }
        var setUp: [HandSessionSummary.SetUpTime] = []
        for issue in HandSetUp.Issue.allCases {
            if let seconds = issueTime[issue], seconds > 0 {
                setUp.append(.init(issue: issue, cue: issue.cue(side: exercise.side), seconds: seconds))
            }
        }
        return HandSessionSummary(
            exercise: exercise.id,
            exerciseName: exercise.name,
            durationSeconds: duration,
            reps: repetitions.count,
            frames: frames,
            framesMeasured: framesMeasured,
            framesOnBody: exercise.primary == .handInclination ? framesOnBody : nil,
            basis: basis?.rawValue,
            view: views.max { $0.value < $1.value }?.key.rawValue,
            primary: exercise.primary,
            repetitions: repetitions,
            fingers: ranges,
            totalActiveMotion: tam.isEmpty ? nil : tam,
            kapandji: kapandji.score,
            cues: said,
            setUp: setUp
        )
    }
}

extension HandMeasure {
    /// Whether the measure is a flexion (its repetitions say something of TAM).
    var isFlexion: Bool {
        switch self {
        case .fingerFlexion, .pipFlexion, .thumbFlexion, .indexFlexion, .middleFlexion, .ringFlexion, .littleFlexion:
            true
        default: false
        }
    }
}

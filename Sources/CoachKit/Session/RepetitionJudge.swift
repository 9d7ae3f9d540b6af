import PoseKit

/// What the session knows of how it measures, when it judges a repetition: whether the depth is measured, the
/// camera's view, and the side a bilateral exercise is measured on when the person does not face the camera.
struct MeasurementContext: Sendable, Hashable {
    /// Whether angles are measured in 3-D (the keypoints have depth, not found to be a guess).
    var hasDepth: Bool
    var view: CoachingSession.View
    /// ``ViewEstimator/facesCameraSquarely``.
    var facesCameraSquarely: Bool
    /// The side a bilateral exercise is measured on when ``measuresOneSide``.
    var measuredSide: BodySide
    /// Whether the depth is known to be measured (``DepthJitterCheck``): the recogniser's samples then hold the
    /// angles in 3-D in their own slots, else in the image plane's.
    var depthTrusted: Bool

    /// Whether a bilateral exercise is measured on one side only: unless the person faces the camera, the
    /// far limbs are hidden or guessed (a video pose estimator's depth is a guess too), so the near side,
    /// the better seen, is the measurement.
    var measuresOneSide: Bool { view != .front }

    /// Whether `exercise`'s angles can be measured (with none, whether there is depth).
    func isReliable(for exercise: ExerciseDefinition?) -> Bool {
        Self.isReliable(for: exercise, hasDepth: hasDepth, view: view)
    }

    /// The same, given what it needs (the session asks on every frame).
    static func isReliable(for exercise: ExerciseDefinition?, hasDepth: Bool, view: CoachingSession.View) -> Bool {
        guard let exercise else { return hasDepth }
        if hasDepth || exercise.view == .any { return true }
        return (exercise.view == .front && view == .front) || (exercise.view == .side && view == .side)
    }
}

/// Judges a completed repetition: its angle ranges, the value at its peak, tempo, symmetry, form rules (each
/// checked, or said to be unchecked with the reason) and verdict, for a repetition counted on the exercise's
/// angle (from the session's per-repetition statistics) or from the movement (from the 10-Hz angle samples).
///
/// Keeps its buffers across repetitions: judging allocates the repetition's own lists only.
///
/// ```swift
/// var judge = RepetitionJudge(exercise: squat)
/// let repetition = judge.judge(completed, side: nil, exercise: squat, statistics: statistics, context: context,
///                              recounting: false, index: 1, breaches: [], gapSeconds: 0)
/// ```
struct RepetitionJudge: Sendable {

    /// The judge's numbers (judgements made with the first session, 968a0e4, not read off a recording).
    enum Configuration {
        /// The 10-Hz samples up to this long before a repetition's start or after its end belong to it: half a
        /// sample's interval, so that the sample at each threshold crossing is in.
        static let ringMarginSeconds = 0.05
        /// A repetition counted from the movement is measured from the end of the previous one, at most this long
        /// before its start: its range then includes the start position.
        static let startPositionSeconds = 1.0
        /// The priority of the hold-at-the-peak and symmetry issues among a repetition's (lower is said first).
        static let holdAndSymmetryPriority = 2
    }

    static let wrongViewReason = "the camera view does not suit the exercise"
    static let movementReason = "rules for one camera view not judged from a movement count without depth"
    static let notSeenReason = "angles not seen"
    static let unrecognisedReason = "no exercise recognised"
    static let noRulesReason = "the exercise has no form rules"
    /// A rule's value within ``ExerciseDefinition/FormRule/CloseCallMargin`` of its bound
    /// (``Repetition/closeCalls``).
    static let tooCloseReason = "too close to call from this view"

    /// The exercise given, if any.
    let given: ExerciseDefinition?
    /// For each form rule of the exercise given, why it may not be checked, in words made once (a repetition
    /// allocates only its list of unchecked rules): another view needed, not seen, not measured in a recount,
    /// not judged from a movement count without depth.
    private let ruleReasons: [(view: String, notSeen: String, recount: String, movement: String)]
    /// The angles judged, kept across repetitions (no allocation for the partition).
    private var judgedAngles: [Repetition.AngleRange] = []
    /// The reasons of the repetition being completed, kept across repetitions.
    private var reasonBuffer: [String] = []

    init(exercise: ExerciseDefinition?) {
        given = exercise
        ruleReasons = (exercise?.formRules ?? []).map { rule in
            (
                "\(rule.id) needs a \(rule.view.rawValue) view", "\(rule.id) not seen",
                "\(rule.id) not measured at the start of the recording",
                "\(rule.id) not judged from a movement count without depth"
            )
        }
        if let exercise { judgedAngles.reserveCapacity(exercise.angles.count * 2) }
        reasonBuffer.reserveCapacity(4)
    }

    /// A repetition counted on the exercise's angle by the counter of `side` (`nil`: both sides), from the angles'
    /// `statistics` over it; `recounting` while repetitions counted before the depth verdict are recounted from
    /// their image-plane angle only; `breaches`: the safety limits crossed during it.
    mutating func judge(
        _ completed: RepCounter.Completed,
        side: BodySide?,
        exercise: ExerciseDefinition,
        statistics: Statistics,
        context: MeasurementContext,
        recounting: Bool,
        index: Int,
        breaches: [Repetition.SafetyBreach],
        gapSeconds: Double
    ) -> Repetition {
        var angles = Self.angleRanges(of: exercise, statistics: statistics, side: side)
        // A bilateral exercise measured on one side (not square-on): the form rules judge that side only, the
        // one counted and shown. The far limb is hidden or guessed, and its angle contradicted the near one's
        // verdict (see Guides.md, "Cases behind the code").
        var nearCount = angles.count
        if side == nil, context.measuresOneSide {
            nearCount = Self.moveToFront(side: context.measuredSide, of: &angles)
        }
        let spec = exercise.repetition!
        let tempo = Repetition.Tempo(completed, towardPeak: spec.towardPeak)
        var symmetry: Repetition.Symmetry?
        // Symmetry only where both sides are reliably seen: square-on from the front (or back). From the
        // side or at an angle, one camera hides or foreshortens the far limb, and a video pose estimator's
        // depth does not bring it back.
        if exercise.side == .both, exercise.primaryAngle.isSided, let left = statistics.slots[0].atPeak,
            let right = statistics.slots[1].atPeak,
            context.facesCameraSquarely
        {
            symmetry = Repetition.Symmetry(left: left, right: right, difference: abs(left - right))
        }
        let reliable = context.isReliable(for: exercise)
        var issues: [Repetition.FormIssue] = []
        // Form is not judged from angles the camera cannot measure (the wrong view, no measured depth): a
        // front-view squat's knee angle reads a fraction of the real one, and "squat deeper" would be wrong.
        // The angles judged, in a buffer kept across repetitions (no allocation for the partition).
        judgedAngles.removeAll(keepingCapacity: true)
        judgedAngles.append(contentsOf: angles[..<nearCount])
        // A rule that cannot be checked is said to be unchecked, with the reason; the verdict is from the others.
        var unchecked: [String] = []
        var closeCalls: [String] = []
        reasonBuffer.removeAll(keepingCapacity: true)
        checkFormRules(
            of: exercise,
            statistics: statistics,
            side: side,
            context: context,
            reliable: reliable,
            recounting: recounting,
            issues: &issues,
            unchecked: &unchecked,
            closeCalls: &closeCalls
        )
        if let issue = Self.peakHoldIssue(of: exercise, tempo: tempo) { issues.append(issue) }
        // Like the form rules, not judged from an angle the view cannot measure (a front-view squat's knees: an
        // occluded one read 82° beside 134°; see Guides.md, "Cases behind the code").
        if reliable, let symmetry, let issue = Self.symmetryIssue(of: exercise, symmetry: symmetry) {
            issues.append(issue)
        }
        issues.sort { $0.priority < $1.priority }
        // Something was checked: a form rule, the hold at the peak, or the symmetry. With nothing checked and
        // nothing wrong the repetition is "not checked", never "good".
        let checked =
            unchecked.count < exercise.formRules.count
            || (spec.holdSeconds != nil && tempo.atPeakSeconds != nil)
            || (exercise.maximumAsymmetry != nil && symmetry != nil && reliable)
        if !checked, exercise.formRules.isEmpty, reasonBuffer.isEmpty { reasonBuffer.append(Self.noRulesReason) }
        return Repetition(
            index: index,
            exercise: exercise.id,
            startSeconds: completed.startSeconds,
            endSeconds: completed.endSeconds,
            side: exercise.side == .both ? nil : side,
            angles: angles,
            peakAngle: completed.peakValue,
            rangeOfMotion: exercise.rangeOfMotionFraction(peakValue: completed.peakValue),
            range: .init(peak: completed.peakValue, exercise: exercise, measurable: reliable),
            tempo: tempo,
            symmetry: symmetry,
            // A rule too close to call leaves no "good": only a clear breach elsewhere gives a verdict.
            verdict: !issues.isEmpty || !breaches.isEmpty
                ? .needsWork : checked && closeCalls.isEmpty ? .good : .notChecked,
            issues: issues,
            safetyBreaches: breaches,
            measurementReliable: reliable,
            uncheckedRules: unchecked,
            uncheckedReason: uncheckedReasonText,
            gapSeconds: gapSeconds,
            closeCalls: closeCalls.isEmpty ? nil : closeCalls
        )
    }

    /// The angle ranges of a repetition counted by the counter of `side` (`nil`: both sides), from the angles'
    /// statistics over it; the value at the peak, where the counter's signal did not go through a slot, is the end of
    /// its range toward the exercise's peak.
    private static func angleRanges(
        of exercise: ExerciseDefinition,
        statistics: Statistics,
        side: BodySide?
    ) -> [Repetition.AngleRange] {
        var angles: [Repetition.AngleRange] = []
        for (a, angle) in exercise.angles.enumerated() {
            for s in 0..<(angle.isSided ? 2 : 1) {
                let bodySide: BodySide? = angle.isSided ? (s == 0 ? .left : .right) : nil
                if let side, angle.isSided, bodySide != side { continue }
                let i = a * 2 + s
                let measured = statistics.slots[i]
                guard let range = measured.range else { continue }
                angles.append(
                    Repetition.AngleRange(
                        angle: angle,
                        side: bodySide,
                        min: range.low,
                        max: range.high,
                        atPeak: measured.atPeak ?? (exercise.repetition!.direction > 0 ? range.high : range.low)
                    )
                )
            }
        }
        return angles
    }

    /// Moves the ranges of `side` (and the midline's) to the front of `angles`, in order (a stable partition, in
    /// place), and returns how many there are: the measured side is the side counted and shown.
    private static func moveToFront(side near: BodySide, of angles: inout [Repetition.AngleRange]) -> Int {
        var nearCount = 0
        for i in angles.indices where angles[i].side == nil || angles[i].side == near {
            let item = angles[i]
            var j = i
            while j > nearCount {
                angles[j] = angles[j - 1]
                j -= 1
            }
            angles[nearCount] = item
            nearCount += 1
        }
        return nearCount
    }

    /// Checks each form rule of `exercise` on ``judgedAngles``: an issue found goes into `issues`; a rule that cannot
    /// be checked (the view, the angle not seen in the repetition, or not at its peak) into `unchecked`, with its
    /// reason.
    private mutating func checkFormRules(
        of exercise: ExerciseDefinition,
        statistics: Statistics,
        side: BodySide?,
        context: MeasurementContext,
        reliable: Bool,
        recounting: Bool,
        issues: inout [Repetition.FormIssue],
        unchecked: inout [String],
        closeCalls: inout [String]
    ) {
        for (r, rule) in exercise.formRules.enumerated() {
            guard reliable else {
                noteUnchecked(rule.id, Self.wrongViewReason, in: &unchecked)
                continue
            }
            if rule.view != .any, !context.hasDepth,
                !(rule.view == .front && context.view == .front) && !(rule.view == .side && context.view == .side)
            {
                noteUnchecked(rule.id, ruleReasons[r].view, in: &unchecked)
                continue
            }
            // The rule's angle on the sides judged: seen in the repetition, and at its peak when the rule is
            // about the peak (an angle seen only while standing says nothing about the bottom of a squat).
            var seen = false
            var missing = 0
            if let a = exercise.angles.firstIndex(of: rule.angle) {
                for s in 0..<(rule.angle.isSided ? 2 : 1) {
                    let i = a * 2 + s
                    let bodySide: BodySide? = rule.angle.isSided ? (s == 0 ? .left : .right) : nil
                    if let bodySide, let side, bodySide != side { continue }
                    if let bodySide, side == nil, context.measuresOneSide, bodySide != context.measuredSide { continue }
                    let slot = statistics.slots[i]
                    let measured = slot.range != nil && (rule.at != .peak || slot.atPeak != nil)
                    if measured { seen = true } else { missing |= slot.missingParts }
                }
            }
            guard seen else {
                noteUnchecked(
                    rule.id,
                    missing != 0
                        ? "\(BodyPart.names(missing)) out of the picture"
                        : recounting ? ruleReasons[r].recount : ruleReasons[r].notSeen,
                    in: &unchecked
                )
                continue
            }
            call(rule, issues: &issues, closeCalls: &closeCalls)
        }
    }

    /// A repetition counted from the movement, measured and judged as one of `exercise` (from the 10-Hz ring of
    /// angles), or only timed without one. `previousEnd`: where the repetition before it ended (`nil`: none did).
    mutating func judgeMovement(
        _ completed: RepCounter.Completed,
        exercise: ExerciseDefinition?,
        index: Int,
        previousEnd: Double?,
        ring: AngleSampleRing,
        context: MeasurementContext,
        gapSeconds: Double
    ) -> Repetition {
        var angles: [Repetition.AngleRange] = []
        var peakAngle: Double?
        var rom: Double?
        var issues: [Repetition.FormIssue] = []
        var side: BodySide?
        var unchecked: [String] = []
        var closeCalls: [String] = []
        reasonBuffer.removeAll(keepingCapacity: true)
        // From the end of the previous repetition (at most 1 s before this one's start), so the range
        // includes the start position.
        let from = Swift.min(
            completed.startSeconds - Configuration.ringMarginSeconds,
            previousEnd.map { Swift.max(completed.startSeconds - Configuration.startPositionSeconds, $0) }
                ?? completed.startSeconds - Configuration.startPositionSeconds
        )
        // The repetition's peak is the exercise's: where the primary angle of the side that moved most went
        // furthest toward the definition's peak. The movement's own peak can be the other end: its rest is the
        // side the recording starts on, and a recording that starts in a half squat had "at the peak" standing
        // (see Guides.md, "Cases behind the code").
        let exercisePeak = exercise.flatMap {
            Self.exercisePeak(completed, exercise: $0, ring: ring, imagePlane: !context.depthTrusted)
        }
        let peakSeconds = exercisePeak?.seconds ?? completed.peakSeconds
        // A movement no exercise was recognised for has no rules to judge it by; say so, as for a rule not checked.
        if exercise == nil { reasonBuffer.append(Self.unrecognisedReason) }
        if let exercise {
            angles = Self.angleRanges(
                of: exercise,
                ring: ring,
                within: from...(completed.endSeconds + Configuration.ringMarginSeconds),
                peakSeconds: peakSeconds
            )
            // The working side: the one whose primary angle moved most.
            let primary = angles.filter { $0.angle == exercise.primaryAngle }.max {
                ($0.max - $0.min) < ($1.max - $1.min)
            }
            if let primary, let spec = exercise.repetition {
                side = exercise.side == .both ? nil : primary.side
                peakAngle = spec.direction > 0 ? primary.max : primary.min
                rom = exercise.rangeOfMotionFraction(peakValue: peakAngle!)
                if exercise.side != .both, let side {
                    angles.removeAll { $0.side != nil && $0.side != side }
                }
            }
            // A bilateral exercise not seen square-on is judged on the side that moved most, as a repetition
            // counted on the angle is on the side counted: the far limb is hidden or guessed (see Guides.md, "Cases behind the code").
            let near = exercise.side == .both && context.measuresOneSide ? primary?.side : nil
            judgedAngles.removeAll(keepingCapacity: true)
            for range in angles where near == nil || range.side == nil || range.side == near {
                judgedAngles.append(range)
            }
            // The exercise given has its reasons made; a recognised one says them without the rule's id.
            // As for a repetition counted on the angle, no rule is judged from a view that cannot measure the
            // exercise (a front-view push-up's elbows: "Lower your chest").
            checkFormRulesOfMovement(
                of: exercise,
                context: context,
                issues: &issues,
                unchecked: &unchecked,
                closeCalls: &closeCalls
            )
            issues.sort { $0.priority < $1.priority }
            if exercise.formRules.isEmpty, reasonBuffer.isEmpty { reasonBuffer.append(Self.noRulesReason) }
        }
        let tempo = Repetition.Tempo(
            completed,
            plateau: exercisePeak.map { ($0.plateauStart, $0.plateauEnd) },
            towardPeak: exercise?.repetition?.towardPeak
        )
        return Repetition(
            index: index,
            exercise: exercise?.id,
            startSeconds: completed.startSeconds,
            endSeconds: completed.endSeconds,
            side: side,
            angles: angles,
            peakAngle: peakAngle,
            rangeOfMotion: rom,
            range: exercise.flatMap { exercise in
                peakAngle.flatMap { .init(peak: $0, exercise: exercise, measurable: context.isReliable(for: exercise)) }
            },
            tempo: tempo,
            symmetry: nil,
            // No rule checked (none recognised, or none could be): not checked, never "good".
            // A rule too close to call leaves no "good" either.
            verdict: !issues.isEmpty
                ? .needsWork
                : closeCalls.isEmpty && exercise.map { unchecked.count < $0.formRules.count } == true
                    ? .good : .notChecked,
            issues: issues,
            safetyBreaches: [],
            measurementReliable: context.isReliable(for: exercise),
            uncheckedRules: unchecked,
            uncheckedReason: uncheckedReasonText,
            gapSeconds: gapSeconds,
            closeCalls: closeCalls.isEmpty ? nil : closeCalls
        )
    }

    /// When, within a repetition counted from the movement, the primary angle of the side that moved most went
    /// furthest toward the exercise's peak (from the 10-Hz angle ring), and the stretch around it where it stayed
    /// within ``RepCounter/plateauFraction`` of its range of that; `nil` without samples or a repetition.
    private static func exercisePeak(
        _ completed: RepCounter.Completed,
        exercise: ExerciseDefinition,
        ring: AngleSampleRing,
        imagePlane: Bool
    ) -> (seconds: Double, plateauStart: Double, plateauEnd: Double)? {
        func inRepetition(_ time: Double) -> Bool {
            time >= completed.startSeconds - Configuration.ringMarginSeconds
                && time <= completed.endSeconds + Configuration.ringMarginSeconds
        }
        guard let spec = exercise.repetition else {
            // A hold named for a position taken and held: its peak is where the hold's conditions are met, from the
            // first to the last sample that meets them (the movement's own level shifts while its clip adapts, and
            // the first of six 12-s holds read "held 2.8 s").
            guard let hold = exercise.hold else { return nil }
            var met: (first: Double, last: Double)?
            for i in 0..<ring.count
            where inRepetition(ring.times[i]) && ring.meets(hold, of: exercise, sample: i, imagePlane: imagePlane) {
                let time = ring.times[i]
                met = met.map { (Swift.min($0.first, time), Swift.max($0.last, time)) } ?? (time, time)
            }
            return met.map { (($0.first + $0.last) / 2, $0.first, $0.last) }
        }
        let k = ExerciseRecognizer.index(exercise.primaryAngle) * 2
        var best: (range: Double, seconds: Double, side: Int, furthest: Double)?
        for s in 0..<(exercise.primaryAngle.isSided ? 2 : 1) {
            // The side's range, and where it went furthest toward the peak (`nil` until a value is measured).
            var range: (lo: Double, hi: Double)?
            var furthest: (value: Double, seconds: Double)?
            for i in 0..<ring.count where inRepetition(ring.times[i]) {
                guard let v = ring[sample: i, slot: k + s] else { continue }
                range = range.map { (Swift.min($0.lo, v), Swift.max($0.hi, v)) } ?? (v, v)
                if furthest.map({ v * spec.direction > $0.value }) ?? true {
                    furthest = (v * spec.direction, ring.times[i])
                }
            }
            if let range, let furthest, best.map({ range.hi - range.lo > $0.range }) ?? true {
                best = (range.hi - range.lo, furthest.seconds, s, furthest.value)
            }
        }
        guard let best else { return nil }
        // The plateau: from the first to the last sample of that side near the peak.
        let near = best.furthest - RepCounter.plateauFraction * best.range
        var first = best.seconds
        var last = best.seconds
        for i in 0..<ring.count where inRepetition(ring.times[i]) {
            guard let v = ring[sample: i, slot: k + best.side], v * spec.direction >= near else { continue }
            first = Swift.min(first, ring.times[i])
            last = Swift.max(last, ring.times[i])
        }
        return (best.seconds, first, last)
    }

    /// The angle ranges of a repetition counted from the movement, as `exercise`'s angles: each side's from the
    /// 10-Hz samples `within` the repetition, with the value nearest `peakSeconds` as its value at the peak.
    private static func angleRanges(
        of exercise: ExerciseDefinition,
        ring: AngleSampleRing,
        within times: ClosedRange<Double>,
        peakSeconds: Double
    ) -> [Repetition.AngleRange] {
        var angles: [Repetition.AngleRange] = []
        for angle in exercise.angles {
            let k = ExerciseRecognizer.index(angle) * 2
            for s in 0..<(angle.isSided ? 2 : 1) {
                // The range so far, and the value nearest the peak in time (`nil` until a value is measured).
                var range: (lo: Double, hi: Double)?
                var nearest: (distance: Double, value: Double)?
                for i in 0..<ring.count {
                    let time = ring.times[i]
                    guard times.contains(time), let v = ring[sample: i, slot: k + s] else { continue }
                    range = range.map { (Swift.min($0.lo, v), Swift.max($0.hi, v)) } ?? (v, v)
                    let distance = abs(time - peakSeconds)
                    if nearest.map({ distance < $0.distance }) ?? true { nearest = (distance, v) }
                }
                guard let range, let nearest else { continue }
                angles.append(
                    .init(
                        angle: angle,
                        side: angle.isSided ? (s == 0 ? .left : .right) : nil,
                        min: range.lo,
                        max: range.hi,
                        atPeak: nearest.value
                    )
                )
            }
        }
        return angles
    }

    /// Checks each form rule of `exercise` on ``judgedAngles`` for a repetition counted from the movement: an issue
    /// found goes into `issues`; a rule that cannot be checked into `unchecked`, with its reason (the exercise given
    /// has its reasons made; a recognised one says them without the rule's id).
    private mutating func checkFormRulesOfMovement(
        of exercise: ExerciseDefinition,
        context: MeasurementContext,
        issues: inout [Repetition.FormIssue],
        unchecked: inout [String],
        closeCalls: inout [String]
    ) {
        let isGiven = exercise.id == given?.id
        let reliable = context.isReliable(for: exercise)
        for (r, rule) in exercise.formRules.enumerated() {
            if !reliable {
                noteUnchecked(rule.id, Self.wrongViewReason, in: &unchecked)
            } else if rule.view != .any, !context.hasDepth {
                noteUnchecked(rule.id, isGiven ? ruleReasons[r].movement : Self.movementReason, in: &unchecked)
            } else if !judgedAngles.contains(where: { $0.angle == rule.angle }) {
                noteUnchecked(rule.id, isGiven ? ruleReasons[r].notSeen : Self.notSeenReason, in: &unchecked)
            } else {
                call(rule, issues: &issues, closeCalls: &closeCalls)
            }
        }
    }

    /// A prescribed hold at the peak held too briefly, timed as the tempo times it (half a second of slack).
    private static func peakHoldIssue(of exercise: ExerciseDefinition, tempo: Repetition.Tempo) -> Repetition.FormIssue?
    {
        guard let hold = exercise.repetition?.holdSeconds, let held = tempo.atPeakSeconds,
            held + CoachingSession.holdSlackSeconds < hold
        else { return nil }
        return .init(
            rule: "hold",
            cue: "Hold the position for \(CoachingSession.secondsText(hold)) s before coming back",
            angle: exercise.primaryAngle,
            value: held,
            limit: hold,
            priority: Configuration.holdAndSymmetryPriority
        )
    }

    /// Sides that moved unevenly, beyond the exercise's ``ExerciseDefinition/maximumAsymmetry``.
    private static func symmetryIssue(
        of exercise: ExerciseDefinition,
        symmetry: Repetition.Symmetry
    ) -> Repetition.FormIssue? {
        guard let limit = exercise.maximumAsymmetry, symmetry.difference > limit else { return nil }
        return .init(
            rule: "symmetry",
            cue: "Move both sides evenly",
            angle: exercise.primaryAngle,
            value: symmetry.difference,
            limit: limit,
            priority: Configuration.holdAndSymmetryPriority
        )
    }

    /// Judges a rule that could be checked: a clear breach is an issue, a value too close to its bound to call is
    /// a close call (and its reason is given once).
    private mutating func call(
        _ rule: ExerciseDefinition.FormRule,
        issues: inout [Repetition.FormIssue],
        closeCalls: inout [String]
    ) {
        switch rule.call(in: judgedAngles) {
        case .kept: break
        case .broken(let issue): issues.append(issue)
        case .tooClose:
            closeCalls.append(rule.id)
            if !reasonBuffer.contains(Self.tooCloseReason) { reasonBuffer.append(Self.tooCloseReason) }
        }
    }

    /// Records a rule not checked in the repetition being completed, and its reason once.
    private mutating func noteUnchecked(_ rule: String, _ reason: String, in unchecked: inout [String]) {
        if unchecked.isEmpty { unchecked.reserveCapacity(4) }  // one allocation per repetition at most
        unchecked.append(rule)
        if !reasonBuffer.contains(reason) { reasonBuffer.append(reason) }
    }

    /// The reasons of the repetition being completed, joined (no allocation for one).
    private var uncheckedReasonText: String? {
        reasonBuffer.isEmpty ? nil : reasonBuffer.count == 1 ? reasonBuffer[0] : reasonBuffer.joined(separator: "; ")
    }
}

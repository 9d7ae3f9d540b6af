/// What a session has counted and said so far, for its summary: the repetitions, their form issues, the cues
/// given (and those withdrawn with the repetitions they were about) and, with no exercise given, the segments of
/// the exercises recognised. The session records; ``summary(from:to:given:library:open:holds:countedBy:safetyWarnings:secondsWithPerson:)``
/// sums up.
///
/// ```swift
/// var log = SessionLog()
/// log.record(repetition, at: 3.2)
/// let summary = log.summary(from: 0, to: 10, given: squat, library: [], open: (nil, 0), holds: [],
///                           countedBy: .angle, safetyWarnings: [], secondsWithPerson: 10)
/// ```
struct SessionLog: Sendable {
    /// The repetitions so far.
    private(set) var repetitions: [Repetition] = []
    /// Where a counted repetition began and ended, as the signal that counted it found it.
    struct Span: Sendable, Hashable {
        var start: Double
        var end: Double
    }
    /// The times the repetitions were counted at, in order (``repetitions``' own, until one takes another
    /// measurement: the exercise's when recognised, ``CoachingSession/adoptMeasurementsAsGiven()``). What a
    /// fallback signal is compared with, so that what is counted stays what the signal counted.
    private(set) var countedSpans: [Span] = []
    private(set) var formIssues: [SessionSummary.FormIssueEvent] = []
    /// The cues given.
    private(set) var cues: [Cue] = []
    /// Cues given about repetitions a recount replaced.
    private(set) var withdrawnCues: [Cue] = []
    /// The segments closed so far (no exercise given).
    private(set) var segments: [SessionSummary.Segment] = []

    /// Records a repetition completed at `t`, with its form issues.
    mutating func record(_ repetition: Repetition, at t: Double) {
        repetitions.append(repetition)
        countedSpans.append(Span(start: repetition.startSeconds, end: repetition.endSeconds))
        for issue in repetition.issues {
            formIssues.append(.init(seconds: t, repetition: repetition.index, rule: issue.rule, cue: issue.cue))
        }
    }

    /// Replaces repetition `i` by the same judged again (it ended at `t`), with its form issues.
    mutating func replace(_ i: Int, with judged: Repetition, at t: Double) {
        repetitions[i] = judged
        // The issues of the judgement it replaces go with it: the summary lists those of the one that stands
        // (looked for among the latest, so that the work does not grow with the set).
        var k = formIssues.count
        while k > 0, formIssues[k - 1].repetition >= judged.index { k -= 1 }
        if k < formIssues.count { formIssues[k...].removeAll { $0.repetition == judged.index } }
        for issue in judged.issues {
            formIssues.append(.init(seconds: t, repetition: judged.index, rule: issue.rule, cue: issue.cue))
        }
    }

    /// Withdraws the repetitions at `withdrawn` (their form issues with them) and puts `earlier`, repetitions found
    /// before the first one counted, in front (their issues said at `t`); all are numbered again in order.
    mutating func recount(withdrawing withdrawn: Set<Int>, adding earlier: [Repetition], at t: Double) {
        var number = [Int: Int]()
        var kept: [Repetition] = earlier
        var spans = earlier.map { Span(start: $0.startSeconds, end: $0.endSeconds) }
        for i in repetitions.indices where !withdrawn.contains(i) {
            number[repetitions[i].index] = kept.count + 1
            kept.append(repetitions[i])
            spans.append(countedSpans[i])
        }
        for k in kept.indices { kept[k].index = k + 1 }
        var issues: [SessionSummary.FormIssueEvent] = []
        for (k, rep) in earlier.enumerated() {
            for issue in rep.issues {
                issues.append(.init(seconds: t, repetition: k + 1, rule: issue.rule, cue: issue.cue))
            }
        }
        for var issue in formIssues {
            guard let n = number[issue.repetition] else { continue }
            issue.repetition = n
            issues.append(issue)
        }
        repetitions = kept
        countedSpans = spans
        formIssues = issues
    }

    /// Records a cue given.
    mutating func log(_ cue: Cue) {
        cues.append(cue)
    }

    /// Whether a cue is about repetitions (a form cue or praise).
    static func isAboutRepetitions(_ cue: Cue) -> Bool { cue.kind == .form || cue.kind == .encouragement }

    /// Forgets the repetitions so far, which a recount is about to replace: their form issues leave the log,
    /// and the form cues and praise already given move to ``withdrawnCues`` (said, but about repetitions that no
    /// longer exist).
    mutating func withdrawRepetitions() {
        repetitions.removeAll()
        countedSpans.removeAll()
        formIssues.removeAll()
        var kept = 0
        for cue in cues {
            if Self.isAboutRepetitions(cue) {
                withdrawnCues.append(cue)
            } else {
                cues[kept] = cue
                kept += 1
            }
        }
        cues.removeLast(cues.count - kept)
    }

    /// An empty segment with no exercise shorter than this is not kept: a switch of exercise in the frame after the
    /// last one closed, not a stretch of the recording.
    static let shortestUnnamedSegmentSeconds = 0.01

    /// Closes the segment of exercise `id` (`nil`: none recognised) at `t`: from where the last one closed (or
    /// `recordingStart`), with the repetitions that ended in it.
    mutating func closeSegment(at t: Double, exercise id: String?, confidence: Double, recordingStart: Double) {
        let start = segments.last?.endSeconds ?? recordingStart
        guard t > start else { return }
        let reps = repetitions.filter { $0.endSeconds > start && $0.endSeconds <= t }.count
        if reps == 0, id == nil, t - start < Self.shortestUnnamedSegmentSeconds { return }
        segments.append(.init(exercise: id, startSeconds: start, endSeconds: t, reps: reps, confidence: confidence))
    }

    /// The segments with their repetitions counted from the repetitions themselves, each in a segment of its
    /// own exercise: the movement's are reported up to a window late, often after their segment was closed (75 of 321
    /// recordings' segments added up to fewer repetitions than the session, e.g. "— 0, push-up 0" of 1). A
    /// segment without an exercise in which a repetition of the next segment's exercise began is that exercise
    /// before the recogniser's first decision, and becomes part of it.
    static func attributing(
        _ repetitions: [Repetition],
        to segments: [SessionSummary.Segment]
    ) -> [SessionSummary.Segment] {
        var result: [SessionSummary.Segment] = []
        var mergedStart: Double?
        for (k, segment) in segments.enumerated() {
            var segment = segment
            if let start = mergedStart { segment.startSeconds = start }
            mergedStart = nil
            if segment.exercise == nil, k + 1 < segments.count, let next = segments[k + 1].exercise,
                // One that began in it (measured as the exercise, it can end just after the decision that named it).
                repetitions.contains(where: {
                    $0.exercise == next && $0.endSeconds > segment.startSeconds && $0.startSeconds < segment.endSeconds
                })
            {
                mergedStart = segment.startSeconds
                continue
            }
            result.append(segment)
        }
        // Each repetition in the segment of its own exercise nearest the time it ended (reported late, it can
        // belong to the segment before the one it was judged in, or the next), else the one it ended in.
        for k in result.indices { result[k].reps = 0 }
        guard !result.isEmpty else { return result }
        for repetition in repetitions {
            let end = repetition.endSeconds
            var home = result.firstIndex { end <= $0.endSeconds } ?? result.count - 1
            var nearest: Double?
            for k in result.indices where result[k].exercise == repetition.exercise {
                let distance = Swift.max(0, result[k].startSeconds - end, end - result[k].endSeconds)
                if nearest.map({ distance < $0 }) ?? true {
                    nearest = distance
                    home = k
                }
            }
            result[home].reps += 1
        }
        return result
    }

    /// The summary of the session from `start` to `end`: the `given` exercise's, or with none given, of the ones
    /// recognised from `library` (`open`: the exercise recognised in the segment still open, if any), with the
    /// holds, how the repetitions were counted, the safety warnings and the time a person was seen.
    func summary(
        from start: Double,
        to end: Double,
        given: ExerciseDefinition?,
        library: [ExerciseDefinition],
        open: (exercise: String?, confidence: Double),
        holds: [SessionSummary.Hold],
        countedBy: SessionSummary.CountingSource,
        safetyWarnings: [SafetyWarning],
        secondsWithPerson: Double
    ) -> SessionSummary {
        var segments = self.segments
        if let exercise = given {
            segments = [
                .init(
                    exercise: exercise.id,
                    startSeconds: start,
                    endSeconds: end,
                    reps: repetitions.count,
                    confidence: 1
                )
            ]
        } else {
            let segmentStart = segments.last?.endSeconds ?? start
            // One named at the recording's last frame is still there: the unnamed stretch before it that holds its
            // repetitions becomes part of it.
            if end > segmentStart || open.exercise != nil {
                // Its repetitions are counted with all the others', below.
                segments.append(
                    .init(
                        exercise: open.exercise,
                        startSeconds: segmentStart,
                        endSeconds: end,
                        reps: 0,
                        confidence: open.confidence
                    )
                )
            }
            segments = Self.attributing(repetitions, to: segments)
        }
        let exerciseID: String?
        let source: SessionSummary.ExerciseSource
        if let exercise = given {
            exerciseID = exercise.id
            source = .given
        } else {
            // The exercise recognised for the most repetitions (each as judged, its own exercise), or the longest
            // time.
            var best: (id: String, reps: Int, seconds: Double)?
            var totals: [String: (Int, Double)] = [:]
            for segment in segments {
                guard let id = segment.exercise else { continue }
                totals[id, default: (0, 0)].1 += segment.endSeconds - segment.startSeconds
            }
            for repetition in repetitions {
                guard let id = repetition.exercise else { continue }
                totals[id, default: (0, 0)].0 += 1
            }
            for (id, total) in totals.sorted(by: { $0.key < $1.key }) {
                if best == nil || total.0 > best!.reps || (total.0 == best!.reps && total.1 > best!.seconds) {
                    best = (id, total.0, total.1)
                }
            }
            exerciseID = best?.id
            source = best == nil ? .none : .recognized
        }
        let name = exerciseID.flatMap { id in
            given?.id == id ? given?.name : library.first { $0.id == id }?.name
        }
        func mean(_ values: [Double]) -> Double? { values.isEmpty ? nil : values.reduce(0, +) / Double(values.count) }
        // Form counts only where it was checked: a movement counted with no exercise, or one the view could not
        // judge, is not "good".
        let judged = repetitions.filter { $0.verdict != .notChecked }
        let averages = SessionSummary.Averages(
            peakAngle: mean(repetitions.compactMap(\.peakAngle)),
            // A range the view cannot measure is not averaged with the others (no "96 %" beside "not measurable").
            rangeOfMotion: mean(repetitions.filter { $0.range?.status != .notMeasurable }.compactMap(\.rangeOfMotion)),
            repetitionSeconds: mean(repetitions.map(\.durationSeconds)),
            goodFraction: judged.isEmpty
                ? nil : Double(judged.filter { $0.verdict == .good }.count) / Double(judged.count)
        )
        return SessionSummary(
            exercise: exerciseID,
            exerciseName: name,
            exerciseSource: source,
            countedBy: countedBy,
            reps: repetitions.count,
            repetitions: repetitions,
            holds: holds,
            segments: segments,
            formIssues: formIssues,
            safetyWarnings: safetyWarnings,
            cues: cues,
            withdrawnCues: withdrawnCues,
            averages: averages,
            durationSeconds: Swift.max(0, end - start),
            secondsWithPerson: secondsWithPerson
        )
    }
}

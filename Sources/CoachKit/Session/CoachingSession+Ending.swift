public import PoseKit

/// The end of a set and the summary.
extension CoachingSession {
    // MARK: - Summary

    /// The joints the exercise needs that were never seen in frame while a person was there.
    public var jointsNeverSeen: [Joint] {
        guard core.clock.framesWithPerson > 0 else { return [] }
        return core.setUp.jointsNeverSeen
    }

    /// The number of frames in which a person was selected.
    public var personFrames: Int { core.clock.framesWithPerson }

    /// What happened in the session so far, as if the recording ended now: a movement the agnostic counter had
    /// too little of to find (its window needs 3 s; a squat can last 1.1 s) is looked for in what there is.
    public func summary() -> SessionSummary {
        guard !core.clock.ended, endsWithMore || provisionalCountedAtEnd != nil else { return summarised() }
        var ended = self
        if endsWithMore { ended.endRecording() }
        ended.countProvisionalAtEnd()
        ended.recountAsGivenAtEnd()
        return ended.summarised()
    }

    /// The provisional repetition the end of the recording counts: one that ended less than a cycle (1–2 s) before
    /// the recording did. The movement confirms a cycle late, and the recording ended before it could (squat_19's
    /// second squat ended 0.5 s before the clip: 1 counted of the 2 that `--exercise squat` counts).
    private var provisionalCountedAtEnd: Repetition? {
        let window = Tuning.provisionalAtEndSeconds
        guard let shown = recognised?.replay.provisional, repetitions.count < shown.index, let last = core.clock.last,
            last - shown.endSeconds
                <= Swift.min(window.upperBound, Swift.max(window.lowerBound, shown.endSeconds - shown.startSeconds))
        else { return nil }
        return shown
    }

    /// Counts ``provisionalCountedAtEnd``, if any.
    mutating func countProvisionalAtEnd() {
        guard var repetition = provisionalCountedAtEnd else { return }
        repetition.index = repetitions.count + 1
        core.recordRepetition(repetition, at: core.clock.last ?? repetition.endSeconds)
    }

    /// Whether the end of the recording may count, name or judge more (see ``summary()``).
    var endsWithMore: Bool {
        recognised.map { !$0.hasMovement || isNamedAtItsEnd } ?? false
    }

    /// Whether the recording is named by a last decision over it when it ends: one too short for two decisions in
    /// a row that name an exercise (a 1.1-s squat gets one at most), or one that no decision named twice in a row
    /// and that one recognition window holds whole, since that decision then sees all of it and nothing follows to
    /// contradict it (see Guides.md, "Cases behind the code").
    var isNamedAtItsEnd: Bool {
        guard recognizedIndex == nil else { return false }
        if (recognised?.decisions ?? 0) <= 1 { return true }
        guard let window = recognised?.windowSeconds, let first = core.clock.first, let last = core.clock.last,
            last - first <= window
        else {
            return false
        }
        return !core.output.log.segments.contains { $0.exercise != nil }
    }

    /// The repetitions completed in the open segment before the recording was named at its end are measured and
    /// judged as the exercise named, as they would have been had it been named before them (they had no angles and
    /// a "good" that nothing had judged; see Guides.md, "Cases behind the code").
    mutating func judgeUnnamedRepetitions(as exercise: ExerciseDefinition, from start: Double) {
        for i in repetitions.indices where repetitions[i].exercise == nil && repetitions[i].endSeconds > start {
            let old = repetitions[i]
            let completed = RepCounter.Completed(
                startSeconds: old.startSeconds,
                peakSeconds: old.startSeconds + old.tempo.toPeakSeconds + (old.tempo.atPeakSeconds ?? 0) / 2,
                endSeconds: old.endSeconds,
                peakValue: .nan,
                restValue: .nan,
                plateauStartSeconds: old.startSeconds + old.tempo.toPeakSeconds,
                plateauEndSeconds: old.endSeconds - old.tempo.fromPeakSeconds
            )
            let judged = core.judgedAgnostic(
                completed,
                exercise: exercise,
                index: old.index,
                previousEnd: i > 0 ? repetitions[i - 1].endSeconds : nil
            )
            core.replaceRepetition(i, with: judged, at: old.endSeconds)
        }
    }

    private func summarised() -> SessionSummary {
        core.output.log.summary(
            from: core.clock.first ?? 0,
            to: core.clock.last ?? 0,
            given: core.mode.exercise,
            library: core.configuration.library,
            open: (recognizedIndex.map { core.configuration.library[$0].id }, recognised?.confidence ?? 0),
            holds: core.holdTimer.holds(openTarget: (core.mode.exercise ?? recognizedExercise)?.hold?.seconds),
            countedBy: core.counting.countedBy,
            safetyWarnings: core.safety.warnings,
            secondsWithPerson: core.clock.secondsWithPerson
        )
    }
}

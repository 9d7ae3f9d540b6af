import PoseKit

/// The session's judging: each repetition counted is measured and judged (``RepetitionJudge``) with the safety limits
/// crossed during it (``SafetyMonitor``), then recorded. The only file that writes ``judge`` and ``safety``.
extension CoachingCore {
    // MARK: - Safety

    /// Checks the safety limits on this frame's angles: a limit crossed is warned about once, and the overlay shows
    /// the warning while a limit is crossed.
    mutating func checkSafety(at t: Double) {
        guard !safety.limits.isEmpty else { return }
        var anyActive = false
        for slot in safety.slots.indices {
            let value = angles.value(AngleSlot(index: safety.slots[slot].value))
            switch safety.ingest(slot: slot, value: value, at: t) {
            case .within: break
            case .beyond: anyActive = true
            case .breached(let warning):
                anyActive = true
                warn(warning, at: t)
            }
        }
        if !anyActive { clearSafetyWarning() }
    }

    // MARK: - Repetitions

    /// Measures, judges and records, in order, what ``counting`` emitted: repetitions of the primary angle (judged on
    /// their statistics), those of a fallback signal (measured as the movement's, as `exercise` when one is known),
    /// and the revisions.
    mutating func record(_ counted: [RepetitionCounting.Event], exercise: ExerciseDefinition?) {
        var recounting = false
        for event in counted {
            switch event {
            case .completed(let completed, let side, let statistics):
                guard let exercise else { continue }
                let repetition = judge.judge(
                    completed,
                    side: side,
                    exercise: exercise,
                    statistics: statistics,
                    context: measurementContext,
                    recounting: recounting,
                    index: repetitions.count + 1,
                    breaches: safety.pendingBreaches,
                    gapSeconds: gapSeconds(from: completed.startSeconds, to: completed.endSeconds)
                )
                safety.clearBreaches()
                recordRepetition(repetition, at: completed.endSeconds)
            case .counted(let rep):
                completeAgnostic(rep, exercise: exercise)
            case .replaced(let reps):
                withdrawRepetitions()
                for rep in reps { completeAgnostic(rep, exercise: exercise) }
            case .recounting:
                withdrawRepetitions()
                showRepCount(0)
                recounting = true
            }
        }
    }

    /// Records a repetition counted from the movement (or a fallback signal), measured and judged as `exercise`.
    mutating func completeAgnostic(_ completed: RepCounter.Completed, exercise: ExerciseDefinition?) {
        let repetition = judgedAgnostic(
            completed,
            exercise: exercise,
            index: repetitions.count + 1,
            previousEnd: output.log.countedSpans.last?.end
        )
        recordRepetition(repetition, at: completed.endSeconds)
    }

    /// A repetition counted from the movement, measured and judged as one of `exercise` (from the 10-Hz ring of
    /// angles), or only timed without one. `previousEnd`: where the repetition before it ended (`nil`: none did).
    mutating func judgedAgnostic(
        _ completed: RepCounter.Completed,
        exercise: ExerciseDefinition?,
        index: Int,
        previousEnd: Double?
    ) -> Repetition {
        judge.judgeMovement(
            completed,
            exercise: exercise,
            index: index,
            previousEnd: previousEnd,
            ring: ring,
            context: measurementContext,
            gapSeconds: gapSeconds(from: completed.startSeconds, to: completed.endSeconds)
        )
    }
}

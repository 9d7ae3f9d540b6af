import PoseKit

/// The session with no exercise given: recognition, the movement counted, and the exercise recognised coached as if
/// given (`CoachingSession+AsGiven.swift`). The only file that writes ``recognised``.
extension CoachingSession {
    // MARK: - Recognition

    mutating func recognize(_ pose: Pose?, steady: Bool, at t: Double) {
        // Optional chaining mutates in place: copying the recogniser out would copy its buffers.
        guard recognised != nil else { return }
        let decision = recognised?.observe(pose, at: t, steady: steady)
        if let sample = recognised?.sample {
            core.sampleRecognisedAngles(
                sample,
                seen: pose != nil && steady,
                movementKnown: recognised?.hasMovement == true,
                recognizedIndex: recognizedIndex,
                at: t
            )
        }
        guard let decision else { return }
        // A new exercise takes over after winning two decisions in a row.
        switch recognised?.decide(decision) {
        case .sameExercise(let confidence):
            core.showConfidence(confidence)
        case .switchExercise(let index, let confidence):
            switchExercise(to: index, confidence: confidence, state: decision, at: t)
        case .nothingRecognised:
            core.showNothingRecognised(decision)
        case nil:
            break
        }
    }

    /// The exercise recognised so far, with no exercise given.
    var recognizedExercise: ExerciseDefinition? { recognizedIndex.map { core.configuration.library[$0] } }

    mutating func switchExercise(to index: Int?, confidence: Double, state: RecognitionState, at t: Double) {
        let previous = recognizedIndex
        core.closeSegment(
            at: t,
            exercise: recognizedIndex.map { core.configuration.library[$0].id },
            confidence: recognised?.confidence ?? 0
        )
        // A recognised hold ends with its segment.
        if index != recognizedIndex, let hold = recognizedExercise?.hold { core.endHold(hold) }
        recognised?.switched(to: index, confidence: confidence)
        let exercise = index.map { core.configuration.library[$0] }
        if index != previous { recognised?.replay.start(exercise, configuration: core.configuration, at: t) }
        core.showRecognised(exercise, decision: state, confidence: confidence)
    }

    mutating func countAgnostic(_ pose: Pose, valid: Bool, dt: Double, at t: Double) {
        guard recognised != nil else { return }
        // A hold recognised is timed as a hold given is (from when it is recognised), and its timer sets the
        // overlay's angle, side and joint, as with the hold given.
        // The library's exercise is read in place (a copy of a definition on every frame costs).
        let recognizedHold = recognizedIndex.map { core.configuration.library[$0].isHold } ?? false
        if recognizedHold, let hold = recognizedExercise {
            core.updateHold(hold, valid: valid, dt: dt, at: t, recogniserSample: recognised?.sample)
        }
        let reps = recognised?.countMovement(pose, at: t, valid: valid, useDepth: core.setUp.hasDepth)
        core.showProgress(recognised?.movementProgress ?? 0)
        if let reps {
            core.completeMovement(
                reps,
                movementKnown: recognised?.hasMovement == true,
                recognizedIndex: recognizedIndex
            )
        }
        if recognizedIndex != nil, !recognizedHold, let shown = recognised?.replay.overlay {
            // The exercise's session shows the side as the exercise given does: held, not the larger angle of each
            // frame (two arms at rest swapped it frame by frame).
            core.showAngle(shown.angle, side: shown.side, joint: shown.joint)
        } else if let index = recognizedIndex, !recognizedHold {
            let angle = core.configuration.library[index].primaryAngle
            let bilateral = core.configuration.library[index].side == .both
            let (left, right) = core.recognizedAngle(angle, in: recognised?.sample)
            // Where the overlay draws it: as with the exercise given, a bilateral mean at the left joint, else the
            // side the value comes from.
            var value = left ?? right
            var side: BodySide? = left != nil || right == nil ? .left : .right
            if let l = left, let r = right {
                value = bilateral ? (l + r) / 2 : Swift.max(l, r)
                side = bilateral ? nil : l >= r ? .left : .right
            }
            if !angle.isSided { side = nil }
            core.showAngle(
                value,
                side: side,
                joint: angle.vertexJoint(side: side ?? .left)
            )
        }
    }

    // MARK: - The exercise recognised, as if given

    /// Gives `frame` (with the movement's session's smoothed pose of it) to the replay of the exercise recognised.
    mutating func replay(_ frame: PoseFrame, smoothed: Pose?) {
        recognised?.replay.ingest(frame, pose: smoothed)
    }

    /// Whether repetitions were counted or revised, here or by the replay, since the last adoption (and no longer).
    mutating func takePendingAdoption() -> Bool {
        if core.takeRepetitionRecorded() { recognised?.replay.notePending() }
        return recognised?.replay.takePending() == true
    }

    /// Shows `repetition` as the provisional one (`nil`: none) and keeps it (``showProvisional(_:replacing:)``).
    mutating func showProvisional(_ repetition: Repetition?) {
        core.showProvisional(repetition, replacing: recognised?.replay.provisional)
        recognised?.replay.keep(provisional: repetition)
    }

    // MARK: - Nobody, and the end

    /// A frame with nobody seen, not held: the movement's counter sees the gap.
    mutating func countMovementOfNobody(at t: Double) {
        _ = recognised?.countMovement(nil, at: t, valid: false, useDepth: true)
    }

    /// The end of the recording: the recogniser's last decision when it names the recording
    /// (``isNamedAtItsEnd``), the movement counter's last repetitions
    /// (``PeriodicMotionCounter/finish()``), and the measurements of the exercise's session adopted.
    mutating func endRecording() {
        if isNamedAtItsEnd {
            // A last decision that names nothing (the window's end taken up by getting up, say) does not undo the
            // one before that named the exercise: it is no contradiction, only less evidence.
            recognised?.finishRecognition()
            if let (index, state) = recognised?.lastNamed, case .exercise(_, let confidence) = state {
                // The decision names what it saw: the segment still open, from where the last one closed (the
                // whole recording when none did), not a moment at its end (which left the recording's only
                // segment, and its repetition, without the exercise the summary names).
                let open = core.output.log.segments.last?.endSeconds ?? core.clock.first ?? 0
                switchExercise(to: index, confidence: confidence, state: state, at: open)
                judgeUnnamedRepetitions(as: core.configuration.library[index], from: open)
            }
        }
        if let reps = recognised?.finishMovement() {
            core.completeMovement(
                reps,
                movementKnown: recognised?.hasMovement == true,
                recognizedIndex: recognizedIndex,
                checkingFallback: false
            )
        }
        recognised?.replay.notePending()  // the repetitions judged again as the exercise named at the end
        adoptMeasurementsAsGiven()
    }
}

import PoseKit

/// The session with no exercise given: recognition, the movement counted, and its repetitions judged.
extension CoachingSession {
    // MARK: - Recognition

    mutating func recognize(_ pose: Pose?, steady: Bool, at t: Double) {
        // Optional chaining mutates in place: copying the recogniser out would copy its buffers.
        guard recognised != nil else { return }
        let decision = recognised?.observe(pose, at: t, steady: steady)
        if pose != nil, steady, ring.isDue(at: t) {
            let written = ring.beginSample(at: t)
            ring.write(recognised!.sample, to: written)
            if setUp.depthTrusted == false { ring.useImagePlaneAngles(ofSample: written) }
            let counted = counting.ingest(
                sample: written,
                of: ring,
                presence: setUp.presence,
                counted: log.countedSpans,
                movementKnown: recognised?.hasMovement == true
            )
            record(counted, exercise: recognizedExercise)
        } else if pose == nil || !steady {
            counting.invalidateSamples(at: t)
        }
        guard let decision else { return }
        // A new exercise takes over after winning two decisions in a row.
        switch recognised?.decide(decision) {
        case .sameExercise(let confidence):
            snapshot.confidence = confidence
        case .switchExercise(let index, let confidence):
            switchExercise(to: index, confidence: confidence, state: decision, at: t)
        case .nothingRecognised:
            if snapshot.recognition != decision {
                snapshot.recognition = decision
                events.append(.recognized(decision))
            }
        case nil:
            break
        }
    }

    /// An angle on the left and on the right in the recogniser's latest sample (NaN where not measured), with no
    /// exercise given: in the image plane unless the depth is trusted, as with an exercise given. Inlined (see
    /// ``primaryValue(side:)``).
    @inline(__always)
    func recognizedAngle(_ angle: AngleKind) -> (left: Double, right: Double) {
        guard let sample = recognised?.sample else { return (.nan, .nan) }
        let k = recognizedSlot(angle)
        return (sample[k], sample[k + 1])
    }

    /// Where a recogniser sample holds `angle` on the left (the right follows).
    @inline(__always)
    private func recognizedSlot(_ angle: AngleKind) -> Int {
        ExerciseRecognizer.index(angle) * 2 + (setUp.depthTrusted != true ? ExerciseRecognizer.flatAngleBase : 0)
    }

    /// The exercise recognised so far, with no exercise given.
    var recognizedExercise: ExerciseDefinition? { recognizedIndex.map { configuration.library[$0] } }

    /// Repetitions the movement completed (no exercise given): counted, when the movement is what counts; unless
    /// at the end of the recording, one of the body's angles that proves the movement misses repetitions takes over.
    mutating func completeMovement(_ reps: [RepCounter.Completed], checkingFallback: Bool = true) {
        let counted = counting.ingest(
            movement: reps,
            presence: setUp.presence,
            counted: log.countedSpans,
            movementKnown: recognised?.hasMovement == true,
            checkingFallback: checkingFallback
        )
        record(counted, exercise: recognizedExercise)
    }

    mutating func switchExercise(to index: Int?, confidence: Double, state: RecognitionState, at t: Double) {
        let previous = recognizedIndex
        closeSegment(at: t)
        // A recognised hold ends with its segment.
        if index != recognizedIndex, let hold = recognizedExercise?.hold {
            holdTimer.end(target: hold.seconds)
            snapshot.hold = nil
        }
        recognised?.switched(to: index, confidence: confidence)
        snapshot.recognition = state
        snapshot.confidence = confidence
        if index != previous { startAsGiven(index.map { configuration.library[$0] }, at: t) }
        if let index {
            let exercise = configuration.library[index]
            snapshot.exerciseID = exercise.id
            snapshot.exerciseName = exercise.name
            snapshot.primaryAngleKind = exercise.primaryAngle
            snapshot.targetRange = exercise.targetBand
        } else {
            snapshot.exerciseID = nil
            snapshot.exerciseName = nil
            snapshot.primaryAngleKind = nil
            snapshot.targetRange = nil
        }
        events.append(.recognized(state))
    }

    private mutating func closeSegment(at t: Double) {
        log.closeSegment(
            at: t,
            exercise: recognizedIndex.map { configuration.library[$0].id },
            confidence: recognised?.confidence ?? 0,
            recordingStart: clock.first ?? 0
        )
    }

    mutating func countAgnostic(_ pose: Pose, valid: Bool, dt: Double, at t: Double) {
        guard recognised != nil else { return }
        // A hold recognised is timed as a hold given is (from when it is recognised), and its timer sets the
        // overlay's angle, side and joint, as with the hold given.
        // The library's exercise is read in place (a copy of a definition on every frame costs).
        let recognizedHold = recognizedIndex.map { configuration.library[$0].isHold } ?? false
        if recognizedHold, let hold = recognizedExercise { updateHold(hold, valid: valid, dt: dt, at: t) }
        let reps = recognised?.countMovement(pose, at: t, valid: valid, useDepth: setUp.hasDepth)
        snapshot.rangeOfMotionProgress = recognised?.movementProgress ?? 0
        if let reps { completeMovement(reps) }
        if recognizedIndex != nil, !recognizedHold, let shown = recognised?.replay.overlay {
            // The exercise's session shows the side as the exercise given does: held, not the larger angle of each
            // frame (two arms at rest swapped it frame by frame).
            snapshot.primaryAngle = shown.angle
            snapshot.side = shown.side
            snapshot.primaryJoint = shown.joint
        } else if let index = recognizedIndex, !recognizedHold {
            let angle = configuration.library[index].primaryAngle
            let bilateral = configuration.library[index].side == .both
            let (l, r) = recognizedAngle(angle)
            snapshot.primaryAngle =
                l.isNaN ? (r.isNaN ? nil : r) : (r.isNaN ? l : (bilateral ? (l + r) / 2 : Swift.max(l, r)))
            // Where the overlay draws it: as with the exercise given, a bilateral mean at the left joint, else the
            // side the value comes from.
            let side: BodySide? =
                !angle.isSided || (bilateral && !l.isNaN && !r.isNaN)
                ? nil : (r.isNaN || (!l.isNaN && l >= r) ? .left : .right)
            snapshot.side = side
            snapshot.primaryJoint = angle.vertexJoint(side: side ?? .left)
        }
    }

    mutating func completeAgnostic(_ completed: RepCounter.Completed, exercise: ExerciseDefinition?) {
        let repetition = judgedAgnostic(
            completed,
            exercise: exercise,
            index: repetitions.count + 1,
            previousEnd: log.countedSpans.last?.end
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

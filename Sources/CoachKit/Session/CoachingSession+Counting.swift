import PoseKit

/// The session's angles and counting: each frame's angles per slot (3-D or the image plane, both until the depth
/// verdict), the side measured, the 10-Hz ring of the body's angles, and the repetitions' counters (the primary angle's,
/// the fallback signals, the movement's when no exercise is given). The only file that writes ``angles``,
/// ``imagePlaneAngles``, ``nearSide``, ``ring`` and ``counting``; what they count is judged and recorded by
/// ``record(_:exercise:)``.
extension CoachingCore {
    // MARK: - Counting

    mutating func count(_ exercise: ExerciseDefinition, valid: Bool, at t: Double, pose: Pose) {
        guard let spec = exercise.repetition else { return }
        if valid { updateSlotSeen(pose) }
        // 10-Hz ring of this exercise's angles, for repetitions counted from the movement.
        if valid, ring.isDue(at: t), ring.capacity > 0 {
            let i = ring.beginSample(at: t)
            // Only angles whose joints are seen, as for the angle counter's repetitions.
            for (a, angle) in exercise.angles.enumerated() {
                let k = ExerciseRecognizer.index(angle) * 2
                let left = angles.seenValue(AngleSlot(angle: a, side: .left))
                ring[sample: i, slot: k] = left
                ring[sample: i, slot: k + 1] =
                    angle.isSided ? angles.seenValue(AngleSlot(angle: a, side: .right)) : left
            }
        }
        let frame = RepetitionCounting.Frame(
            pose: pose,
            seconds: t,
            valid: valid,
            hasDepth: hasDepth,
            depthUnjudged: setUp.depthTrusted == nil,
            measuredSide: measuresOneSide ? measuredSide : nil
        )
        record(
            counting.ingest(
                frame,
                angles: &angles,
                imagePlane: &imagePlaneAngles,
                presence: setUp.presence,
                counted: output.log.countedSpans
            ),
            exercise: exercise
        )
        guard let best = counting.workingCounter else { return }
        let workingSide = counting.side(ofCounter: best)
        // Until the depth verdict, the image plane's numbers: what the repetitions are measured in when the
        // depth proves a guess (every video so far), so that the overlay does not show a guessed-depth angle
        // (a curl's 153° read 77°) that the summary then reports otherwise.
        let imagePlane = setUp.depthTrusted == nil && hasDepth
        showAngle(
            imagePlane ? flatPrimaryValue(side: workingSide) : primaryValue(side: workingSide),
            side: workingSide,
            joint: exercise.primaryAngle.vertexJoint(side: workingSide ?? .left)
        )
        showProgress(counting.progress(ofCounter: best, imagePlane: imagePlane))
        if let target = spec.holdSeconds {
            updatePeakHold(counter: counting.countingCounter ?? best, target: target, at: t)
        }
    }

    /// Skips the count in a frame held (a glitch, a gap being bridged): nothing is counted, nothing dropped.
    mutating func skipCount() {
        counting.skip()
    }

    /// A frame with nobody seen: the angles' history ends, and the repetition under way is dropped unless the gap is
    /// `held`.
    mutating func lostPerson(held: Bool, at t: Double) {
        angles.lostPerson()
        imagePlaneAngles?.lostPerson()
        counting.lostPerson(held: held, depthUnjudged: setUp.depthTrusted == nil, at: t)
    }

    /// The depth's verdict (``DepthJitterCheck``), in the frame it is made, before this frame's view is estimated:
    /// `measured`, or a guess. When it proves a guess, angles are measured in the image plane from now on, and the
    /// counters that followed the primary angle that way from the start take over. `asRecognised`: with no exercise
    /// given, whether the movement is known and the exercise recognised (its index in the library), for the recount of
    /// the ring's angles.
    mutating func takeDepthVerdict(measured: Bool, asRecognised: (movementKnown: Bool, index: Int?)?) {
        if !measured {
            // Before the recount: its repetitions are judged as measured in the image plane, the view deciding what it
            // can measure (a squat filmed from behind was "reliable"; see Guides.md, "Cases behind the code").
            if let asRecognised {
                for i in 0..<ring.count { ring.useImagePlaneAngles(ofSample: i) }
                let recounted = counting.recount(
                    samplesOf: ring,
                    presence: setUp.presence,
                    counted: output.log.countedSpans,
                    movementKnown: asRecognised.movementKnown
                )
                record(recounted, exercise: asRecognised.index.map { configuration.library[$0] })
            }
            if let imagePlane = imagePlaneAngles { angles = imagePlane }
        }
        let recounted = counting.takeDepthVerdict(
            measured: measured,
            counted: output.log.countedSpans,
            measuredSide: measuresOneSide ? measuredSide : nil
        )
        record(recounted, exercise: mode.exercise)
        imagePlaneAngles = nil
    }

    // MARK: - No exercise given

    /// With no exercise given, the recogniser's sample of the body's angles, 10 times a second while the person is
    /// `seen` (steady), goes into the ring, whose angles a fallback counter may count; a frame not seen breaks the
    /// samples. `sample`: the recogniser's; `movementKnown`: whether the movement is known yet; `recognizedIndex`: the
    /// exercise recognised (its index in the library).
    mutating func sampleRecognisedAngles(
        _ sample: [Double],
        seen: Bool,
        movementKnown: Bool,
        recognizedIndex: Int?,
        at t: Double
    ) {
        if seen, ring.isDue(at: t) {
            let written = ring.beginSample(at: t)
            ring.write(sample, to: written)
            if setUp.depthTrusted == false { ring.useImagePlaneAngles(ofSample: written) }
            let counted = counting.ingest(
                sample: written,
                of: ring,
                presence: setUp.presence,
                counted: output.log.countedSpans,
                movementKnown: movementKnown
            )
            record(counted, exercise: recognizedIndex.map { configuration.library[$0] })
        } else if !seen {
            counting.invalidateSamples(at: t)
        }
    }

    /// Repetitions the movement completed (no exercise given): counted, when the movement is what counts; unless
    /// at the end of the recording, one of the body's angles that proves the movement misses repetitions takes over.
    /// `movementKnown`: whether the movement is known yet; `recognizedIndex`: the exercise recognised (its index in the
    /// library).
    mutating func completeMovement(
        _ reps: [RepCounter.Completed],
        movementKnown: Bool,
        recognizedIndex: Int?,
        checkingFallback: Bool = true
    ) {
        let counted = counting.ingest(
            movement: reps,
            presence: setUp.presence,
            counted: output.log.countedSpans,
            movementKnown: movementKnown,
            checkingFallback: checkingFallback
        )
        record(counted, exercise: recognizedIndex.map { configuration.library[$0] })
    }

    // MARK: - Measuring

    mutating func measure(_ pose: Pose, _ exercise: ExerciseDefinition) {
        if exercise.primaryAngle.isSided {
            nearSide.ingest(pose, torso: setUp.torso, depthTrusted: setUp.depthTrusted == true)
        }
        if setUp.depthTrusted == nil, hasDepth {
            imagePlaneAngles?.measure(pose, useDepth: false)
        } else {
            imagePlaneAngles?.skip()
        }
        angles.measure(pose, useDepth: hasDepth)
    }

    /// Whether a bilateral exercise is measured on one side only: unless the person faces the camera, the
    /// far limbs are hidden or guessed (a video pose estimator's depth is a guess too), so the near side,
    /// the better seen, is the measurement.
    var measuresOneSide: Bool { view != .front }

    /// The primary value for a counter: one side, or for a bilateral exercise the mean of both (the
    /// measured side alone when the far side cannot be seen).
    ///
    /// Inlined, as are the other small readers called on every frame: called from a mutating method, a method of
    /// the session's that is not inlined gets a copy of the whole session (and a retain and release of each of its
    /// buffers).
    @inline(__always)
    func primaryValue(side: BodySide?) -> Double? {
        angles.primaryValue(side: side, sole: soleSide)
    }

    /// The primary angle in the image plane while the depth is not judged (``imagePlaneAngles``).
    @inline(__always)
    func flatPrimaryValue(side: BodySide?) -> Double? {
        imagePlaneAngles.flatMap { $0.primaryValue(side: side, sole: soleSide) }
    }

    /// The side a bilateral primary angle is measured on alone (``measuresOneSide``), else `nil`.
    private var soleSide: BodySide? { measuresOneSide && counting.primaryIsSided ? measuredSide : nil }

    /// The side a bilateral exercise is measured on when ``measuresOneSide`` (``NearSideEstimator``).
    var measuredSide: BodySide { nearSide.side }

    /// Which angle slots have all their joints seen in this frame, and which body parts kept the others from it.
    mutating func updateSlotSeen(_ pose: Pose) {
        angles.see(pose, visibility: setUp.visibility)
        // The image-plane statistics are kept only until the depth verdict (``imagePlaneAngles``).
        if setUp.depthTrusted == nil, hasDepth { imagePlaneAngles?.see(pose, visibility: setUp.visibility) }
    }
}

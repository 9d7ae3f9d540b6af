import PoseKit

/// The session's angle measurement: each frame's angles per slot (`angle * 2 + side`), in 3-D or the image plane
/// (both until the depth verdict), and each repetition's statistics.
extension CoachingSession {
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
    /// the session's that is not inlined gets a copy of the whole session (4.6 kB, and a retain and release of each
    /// of its buffers).
    @inline(__always)
    func primaryValue(side: BodySide?) -> Double? {
        Self.primaryValue(side: side, of: angles, sole: soleSide)
    }

    /// The primary angle in the image plane while the depth is not judged (``imagePlaneAngles``).
    @inline(__always)
    func flatPrimaryValue(side: BodySide?) -> Double? {
        imagePlaneAngles.flatMap { Self.primaryValue(side: side, of: $0, sole: soleSide) }
    }

    /// The side a bilateral primary angle is measured on alone (``measuresOneSide``), else `nil`.
    private var soleSide: BodySide? { measuresOneSide && primaryIsSided ? measuredSide : nil }

    /// The side a bilateral exercise is measured on when ``measuresOneSide`` (``NearSideEstimator``).
    var measuredSide: BodySide { nearSide.side }

    /// The primary value of `meter` (the primary angle is the exercise's first): `side`'s, or with `nil` the one
    /// measured, or the mean of both; `sole`: the only side measured.
    /// Static, and given what it needs: `count` reads it on every frame, and a method of the session's made
    /// the compiler copy the whole session to call it.
    @inline(__always)
    static func primaryValue(side: BodySide?, of meter: AngleMeter, sole: BodySide?) -> Double? {
        let l = meter.value(AngleSlot(angle: 0, side: .left))
        let r = meter.value(AngleSlot(angle: 0, side: .right))
        switch side {
        case .left?: return l
        case .right?: return r
        case nil:
            guard let l else { return r }
            guard let r else { return l }
            if let sole { return sole == .left ? l : r }
            return (l + r) / 2
        }
    }

    /// The depth proved a guess: the repetitions counted so far on the 3-D primary angle (a guessed depth can
    /// swing a standing knee between 90° and 130°; see Guides.md, "Cases behind the code") are replaced by those the
    /// image-plane counters found in the same time, each with the image-plane statistics it had then; the
    /// repetition under way keeps those swapped in at the verdict.
    /// The fallback signals' repetitions until then were measured with the guessed depth too: forgotten.
    mutating func recountInImagePlane() {
        guard source.signal == .primaryAngle, let exercise = mode.exercise else { return }
        source.forget()
        for k in secondary.indices { secondary[k].reset() }
        guard !repetitions.isEmpty || !flatCompleted.isEmpty else { return }
        withdrawRepetitions()
        angleReps = 0
        lastRepEnd = nil
        countingCounter = nil
        snapshot.repCount = 0
        recounting = true
        defer { recounting = false }
        // Each is judged on the image-plane statistics it had when its counter completed it; those of the repetition
        // under way stay in ``angles``.
        for (rep, c, statistics) in flatCompleted {
            complete(rep, counter: c, exercise, statistics: statistics)
        }
    }

    /// While the depth is not judged: the image-plane counters and statistics, kept as the session's own are.
    mutating func countInImagePlane(valid: Bool, at t: Double) {
        guard imagePlaneAngles != nil else { return }
        for c in flatCounters.indices {
            let value = flatPrimaryValue(side: counterSides[c])
            let event = flatCounters[c].ingest(value, at: t, valid: valid)
            let active = flatCounters[c].phase == .active
            imagePlaneAngles?.follow(counter: c, side: counterSides[c], value: value, active: active, valid: valid)
            if case .completed(let rep) = event {
                if mayCount(startingAt: rep.startSeconds), let statistics = imagePlaneAngles?.statistics {
                    flatCompleted.append((rep, c, statistics))
                }
                imagePlaneAngles?.startRepetition(counter: c, side: counterSides[c])
            }
        }
    }

    /// Which angle slots have all their joints seen in this frame, and which body parts kept the others from it.
    mutating func updateSlotSeen(_ pose: Pose) {
        angles.see(pose, visibility: setUp.visibility)
        // The image-plane statistics are kept only until the depth verdict (``imagePlaneAngles``).
        if setUp.depthTrusted == nil, hasDepth { imagePlaneAngles?.see(pose, visibility: setUp.visibility) }
    }
}

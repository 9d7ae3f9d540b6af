import PoseKit

/// The session's angle measurement: each frame's angles per slot (`angle * 2 + side`), in 3-D or the image plane
/// (both until the depth verdict), and each repetition's statistics.
extension CoachingSession {
    // MARK: - Measuring

    mutating func measure(_ pose: Pose, _ exercise: ExerciseDefinition) {
        if exercise.primaryAngle.isSided {
            var l = 0.0
            var r = 0.0
            var lz = 0.0
            var rz = 0.0
            var depth = true
            let (left, right) = primaryJoints
            for joint in left {
                let k = pose[joint]
                l += k.confidence
                if let z = k.z { lz += z } else { depth = false }
            }
            for joint in right {
                let k = pose[joint]
                r += k.confidence
                if let z = k.z { rz += z } else { depth = false }
            }
            let n = Double(max(1, left.count))
            sideConfidence.left += 0.1 * (l / n - sideConfidence.left)
            sideConfidence.right += 0.1 * (r / n - sideConfidence.right)
            let torso = walking.torso
            if depth, torso > 0 { sideDepthDifference += 0.1 * ((lz - rz) / n / torso - sideDepthDifference) }
            measuredSide = nearSide()
        }
        let recent = valuesAreRecent
        if depthCheck.trusted == nil, hasDepth {
            swapPlanes()
            measureAngles(pose, exercise, useDepth: false, recent: recent)
            swapPlanes()
        }
        measureAngles(pose, exercise, useDepth: hasDepth, recent: recent)
        valuesAreRecent = true
    }

    /// This frame's angles in `values`, the last two kept (NaN where the last frame had nobody: `recent` false).
    private mutating func measureAngles(_ pose: Pose, _ exercise: ExerciseDefinition, useDepth: Bool, recent: Bool) {
        for i in values.indices {
            olderValues[i] = recent ? previousValues[i] : .nan
            previousValues[i] = recent ? values[i] : .nan
        }
        for (a, angle) in exercise.angles.enumerated() {
            values[a * 2] = angle.measure(pose, side: .left, useDepth: useDepth) ?? .nan
            values[a * 2 + 1] =
                angle.isSided ? (angle.measure(pose, side: .right, useDepth: useDepth) ?? .nan) : .nan
        }
    }

    /// Whether a bilateral exercise is measured on one side only: unless the person faces the camera, the
    /// far limbs are hidden or guessed (a video pose estimator's depth is a guess too), so the near side,
    /// the better seen, is the measurement.
    var measuresOneSide: Bool { view != .front }

    /// The better seen side, else (equal confidences) the nearer one by depth.
    private func nearSide() -> BodySide {
        if abs(sideConfidence.right - sideConfidence.left) > 0.05 {
            return sideConfidence.right > sideConfidence.left ? .right : .left
        }
        // Depth decides only when it is measured: a video pose estimator's guessed z flips the near side
        // from frame to frame, and a signal that alternates sides counts phantom repetitions (2 in one descent
        // of an oblique squat before the depth verdict; see Guides.md, "Cases behind the code").
        guard depthCheck.trusted == true else { return .left }
        return sideDepthDifference > 0 ? .right : .left
    }

    /// The primary value for a counter: one side, or for a bilateral exercise the mean of both (the
    /// measured side alone when the far side cannot be seen).
    ///
    /// Inlined, as are the other small readers called on every frame: called from a mutating method, a method of
    /// the session's that is not inlined gets a copy of the whole session (4.6 kB, and a retain and release of each
    /// of its buffers).
    @inline(__always)
    func primaryValue(side: BodySide?) -> Double? {
        Self.primaryValue(side: side, left: values[0], right: values[1], sole: soleSide)
    }

    /// The primary angle in the image plane while the depth is not judged (``imagePlane``).
    @inline(__always)
    func flatPrimaryValue(side: BodySide?) -> Double? {
        Self.primaryValue(side: side, left: imagePlane.values[0], right: imagePlane.values[1], sole: soleSide)
    }

    /// The side a bilateral primary angle is measured on alone (``measuresOneSide``), else `nil`.
    private var soleSide: BodySide? { measuresOneSide && primaryIsSided ? measuredSide : nil }

    /// The primary value from its left and right values (NaN: not measured); `sole`: the only side measured.
    /// Static, and given what it needs: `count` reads it on every frame, and a method of the session's made
    /// the compiler copy the whole session to call it.
    static func primaryValue(side: BodySide?, left l: Double, right r: Double, sole: BodySide?) -> Double? {
        switch side {
        case .left?: return l.isNaN ? nil : l
        case .right?: return r.isNaN ? nil : r
        case nil:
            if l.isNaN { return r.isNaN ? nil : r }
            if r.isNaN { return l }
            if let sole { return sole == .left ? l : r }
            return (l + r) / 2
        }
    }

    private mutating func resetStats(side: BodySide?) {
        for i in 0..<statMin.count {
            if let side, isSidedSlot(i), (i % 2 == 0) != (side == .left) { continue }
            statMin[i] = .infinity
            statMax[i] = -.infinity
            statPeak[i] = .nan
            slotMissingParts[i] = 0
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
        lastRepEnd = -.infinity
        countingCounter = nil
        snapshot.repCount = 0
        recounting = true
        defer { recounting = false }
        // Each is judged on the image-plane statistics it had when its counter completed it, put in the plane
        // given up (the 3-D one, now in `imagePlane`), so that those of the repetition under way are kept.
        swapPlanes()
        defer { swapPlanes() }
        for (rep, c, statistics) in flatCompleted {
            (statMin, statMax, statPeak, slotMissingParts) = statistics
            complete(rep, counter: c, exercise)
        }
    }

    /// While the depth is not judged: the image-plane counters and statistics, kept as the session's own are.
    mutating func countInImagePlane(valid: Bool, at t: Double, direction: Double) {
        for c in flatCounters.indices {
            let value = flatPrimaryValue(side: counterSides[c])
            let event = flatCounters[c].ingest(value, at: t, valid: valid)
            let active = flatCounters[c].phase == .active
            swapPlanes()
            updateStatistics(counter: c, value: value, active: active, valid: valid, direction: direction)
            if case .completed(let rep) = event {
                if mayCount(startingAt: rep.startSeconds) {
                    flatCompleted.append((rep, c, (statMin, statMax, statPeak, slotMissingParts)))
                }
                resetStatistics(counter: c)
            }
            swapPlanes()
        }
    }

    /// Per-repetition statistics run from the end of the previous repetition (or from when the person
    /// became measurable) to the end of this one, so a repetition's range includes the start position it
    /// began from, not only the part past the counter's threshold; the peak is where counter `c`'s signal
    /// (`value`) went furthest while its repetition was under way (`active`).
    mutating func updateStatistics(
        counter c: Int,
        value: Double?,
        active: Bool,
        valid: Bool,
        direction: Double
    ) {
        let side = counterSides[c]
        if !valid {
            resetStatistics(counter: c)
        } else if !active {
            updateStats(side: side, peak: false)
        } else if let value {
            let s = value * direction
            let isPeak = s >= peakS[c]
            if isPeak { peakS[c] = s }
            updateStats(side: side, peak: isPeak)
        }
    }

    /// Starts counter `c`'s side afresh: after its repetition, or when the person is not measurable.
    mutating func resetStatistics(counter c: Int) {
        resetStats(side: counterSides[c])
        peakS[c] = -.infinity
    }

    private func isSidedSlot(_ i: Int) -> Bool {
        guard case .given(let given) = mode else { preconditionFailure("slots are the angles of an exercise given") }
        return given.definition.angles[i / 2].isSided
    }

    private mutating func updateStats(side: BodySide?, peak: Bool) {
        for i in 0..<values.count {
            // The median of the last three frames: what was held for two frames or more.
            let a = values[i]
            let b = previousValues[i]
            let c = olderValues[i]
            guard !a.isNaN, !b.isNaN, !c.isNaN, slotSeen[i] else { continue }
            let v = Swift.max(Swift.min(a, b), Swift.min(Swift.max(a, b), c))
            if let side, isSidedSlot(i), (i % 2 == 0) != (side == .left) { continue }
            if v < statMin[i] { statMin[i] = v }
            if v > statMax[i] { statMax[i] = v }
            if peak { statPeak[i] = v }
        }
    }

    /// Which angle slots have all their joints seen in this frame (``slotSeen``), and which body parts kept
    /// the others from it (``slotMissingParts``). No allocation.
    mutating func updateSlotSeen(_ pose: Pose) {
        // The image-plane statistics are kept only until the depth verdict (``imagePlane``).
        let imagePlaneKept = depthCheck.trusted == nil && hasDepth
        for i in slotJoints.indices {
            let vertex = pose[slotVertex[i]]
            var missing = 0
            for joint in slotJoints[i] where !visibility.isSeen(pose[joint], vertex: vertex) {
                missing |= BodyPart.of(joint)
            }
            slotSeen[i] = missing == 0
            slotMissingParts[i] |= missing
            if imagePlaneKept { imagePlane.slotMissingParts[i] |= missing }
        }
    }
}

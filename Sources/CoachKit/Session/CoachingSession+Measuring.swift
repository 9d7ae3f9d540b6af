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

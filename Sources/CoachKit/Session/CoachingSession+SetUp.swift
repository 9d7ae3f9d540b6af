import PoseKit

/// The set-up check: the camera view, whether the depth is measured, and whether the joints a form rule needs
/// are in the picture.
extension CoachingSession {
    /// "Step back so that your feet are in the picture …" when, for a second, a form rule the camera view
    /// could judge misses joints on both sides; `nil` otherwise. Allocates only when the advice changes.
    mutating func adviceForFormJoints(_ pose: Pose, at t: Double) -> String? {
        guard givenExercise.isHold == false, measurementReliable(recognised: false) else {
            missingPartsSince = .nan
            return nil
        }
        var missing = 0
        var judged = false
        for rule in ruleJoints {
            if rule.view != .any, !hasDepth, !(rule.view == .front && view == .front),
                !(rule.view == .side && view == .side)
            {
                continue
            }
            judged = true
            var left = 0
            var right = 0
            let leftVertex = pose[rule.angle.vertexJoint(side: .left)]
            let rightVertex = pose[rule.angle.vertexJoint(side: .right)]
            for joint in rule.left where !visibility.isSeen(pose[joint], vertex: leftVertex) {
                left |= BodyPart.of(joint)
            }
            for joint in rule.right where !visibility.isSeen(pose[joint], vertex: rightVertex) {
                right |= BodyPart.of(joint)
            }
            guard left != 0, right != 0 else { continue }
            // The side that misses less is the one to bring into the picture.
            missing |= left.nonzeroBitCount <= right.nonzeroBitCount ? left : right
        }
        // A frame where no rule can be judged (the view changed for a moment) neither shows nor clears it.
        if !judged { return guidance != nil && guidance == missingPartsAdvice ? guidance : nil }
        if missing == 0 {
            missingPartsSince = .nan
            return nil
        }
        if missing != missingParts || missingPartsSince.isNaN {
            missingParts = missing
            missingPartsSince = t
            missingPartsAdvice = nil
        }
        guard t - missingPartsSince >= 1 else { return nil }
        if missingPartsAdvice == nil {
            let verb = missing == BodyPart.head ? "is" : "are"
            missingPartsAdvice =
                "Step back so that your \(BodyPart.names(missing)) \(verb) in the picture, so I can check your form"
        }
        return missingPartsAdvice
    }

    mutating func updateView(_ pose: Pose) {
        let ls = pose[.leftShoulder]
        let rs = pose[.rightShoulder]
        hasDepth = configuration.useDepth && ls.z != nil && rs.z != nil && pose[.leftHip].z != nil
        if hasDepth, depthCheck.trusted == nil {
            depthCheck.ingest(pose)
            // The depth proved a guess: from now on angles are measured in the image plane, and the
            // counters that followed the primary angle that way from the start take over.
            if depthCheck.trusted == false {
                // Before the recount: its repetitions are judged as measured in the image plane, the view
                // deciding what it can measure (a squat filmed from behind was "reliable"; see Guides.md, "Cases behind the code").
                hasDepth = false
                if recognizer != nil {
                    for i in 0..<ring.count { ring.useImagePlaneAngles(ofSample: i) }
                    recountAnglesInImagePlane()
                }
                swap(&counters, &flatCounters)
                swapPlanes()
                recountInImagePlane()
            }
            if depthCheck.trusted != nil { flatCompleted.removeAll() }
        }
        hasDepth = hasDepth && depthCheck.trusted != false
        _ = viewEstimator.ingest(pose, torso: walking.torso)
    }

    /// Whether the camera view lets the exercise given be measured (``MeasurementContext/isReliable(for:hasDepth:view:)``),
    /// or with `recognised`, the one given or else the one recognised.
    ///
    /// Read on every frame, and remembered while the exercise, the depth and the view stay the same: reading an
    /// exercise's definition out of the session copies it (a few hundred bytes and a dozen buffers retained).
    mutating func measurementReliable(recognised: Bool) -> Bool {
        let index = mode.isRecognised && recognised ? recognizedIndex ?? -1 : -1
        let key = ReliabilityKey(recognizedIndex: index, hasDepth: hasDepth, view: view)
        if key != reliability.key {
            let exercise = index >= 0 ? configuration.library[index] : mode.exercise
            reliability = (key, MeasurementContext.isReliable(for: exercise, hasDepth: hasDepth, view: view))
        }
        return reliability.value
    }

    /// What ``measurementReliable(recognised:)`` depends on: the exercise (the given one, or the library's index of
    /// the one recognised; -1 for the given one or none), the depth and the view.
    struct ReliabilityKey: Equatable {
        var recognizedIndex: Int
        var hasDepth: Bool
        var view: View
    }

    /// What the set-up check reads of the exercise given on every frame, read from its definition once.
    struct GivenExercise {
        /// Whether it is a hold (`nil`: none given).
        var isHold: Bool?
        /// The camera view it needs (`nil`: none given).
        var view: ExerciseDefinition.CameraView?
    }

    /// How the session measures, for judging a repetition.
    var measurementContext: MeasurementContext {
        MeasurementContext(
            hasDepth: hasDepth,
            view: view,
            facesCameraSquarely: viewEstimator.facesCameraSquarely,
            measuredSide: measuredSide,
            depthTrusted: depthCheck.trusted == true
        )
    }

    /// Whether a repetition that started at `start` may count (``PresenceTracker/mayCount(startingAt:)``).
    func mayCount(startingAt start: Double) -> Bool { presence.mayCount(startingAt: start) }

    /// Whether the counted angle, measured again after a gap, continues what its counter did before it
    /// (``RepCounter/continues(with:)``): the counters of the primary angle (the side counting, once one has
    /// counted), the image-plane ones while the depth is not judged, and the other angle counting instead.
    func countedAngleContinues() -> Bool {
        for c in counters.indices where countingCounter == nil || countingCounter == c {
            if !counters[c].continues(with: primaryValue(side: counterSides[c])) { return false }
        }
        if depthCheck.trusted == nil, hasDepth {
            for c in flatCounters.indices where countingCounter == nil || countingCounter == c {
                if !flatCounters[c].continues(with: flatPrimaryValue(side: counterSides[c])) { return false }
            }
        }
        if case .secondaryAngle(let k) = source.signal {
            let v = values[secondarySlots[k]]
            if !secondary[k].continues(with: v.isNaN ? nil : v) { return false }
        }
        return true
    }

    /// The longest bridged gap within `start...end` (0 when none).
    func gapSeconds(from start: Double, to end: Double) -> Double {
        presence.gapSeconds(from: start, to: end)
    }
}

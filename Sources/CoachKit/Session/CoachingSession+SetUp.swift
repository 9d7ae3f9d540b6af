import PoseKit

/// What the session reads of the set-up check (``SetUpCheck``): the depth's verdict, how it measures, whether a
/// repetition may count.
extension CoachingSession {
    /// The depth's verdict (``DepthJitterCheck``), in the frame it is made, before this frame's view is estimated:
    /// `measured`, or a guess. When it proves a guess, angles are measured in the image plane from now on, and the
    /// counters that followed the primary angle that way from the start take over.
    mutating func takeDepthVerdict(measured: Bool) {
        if !measured {
            // Before the recount: its repetitions are judged as measured in the image plane, the view deciding what it
            // can measure (a squat filmed from behind was "reliable"; see Guides.md, "Cases behind the code").
            if recognised != nil {
                for i in 0..<ring.count { ring.useImagePlaneAngles(ofSample: i) }
                let recounted = counting.recount(
                    samplesOf: ring,
                    presence: setUp.presence,
                    counted: log.countedSpans,
                    movementKnown: recognised?.hasMovement == true
                )
                record(recounted, exercise: recognizedExercise)
            }
            if let imagePlane = imagePlaneAngles { angles = imagePlane }
        }
        let recounted = counting.takeDepthVerdict(
            measured: measured,
            counted: log.countedSpans,
            measuredSide: measuresOneSide ? measuredSide : nil
        )
        record(recounted, exercise: mode.exercise)
        imagePlaneAngles = nil
    }

    /// Whether angles are measured in 3-D in this frame (``SetUpCheck/hasDepth``).
    var hasDepth: Bool { setUp.hasDepth }

    /// How the session measures, for judging a repetition.
    var measurementContext: MeasurementContext {
        MeasurementContext(
            hasDepth: hasDepth,
            view: view,
            facesCameraSquarely: setUp.facesCameraSquarely,
            measuredSide: measuredSide,
            depthTrusted: setUp.depthTrusted == true
        )
    }

    /// Whether a repetition that started at `start` may count (``PresenceTracker/mayCount(startingAt:)``).
    func mayCount(startingAt start: Double) -> Bool { setUp.presence.mayCount(startingAt: start) }

    /// Whether the counted angle, measured again after a gap, continues what its counter did before it
    /// (``RepCounter/continues(with:)``): the counters of the primary angle (the side counting, once one has
    /// counted), the image-plane ones while the depth is not judged, and the other angle counting instead.
    func countedAngleContinues() -> Bool {
        counting.continues(
            angles: angles,
            imagePlane: imagePlaneAngles,
            imagePlaneCounts: setUp.depthTrusted == nil && hasDepth,
            measuredSide: measuresOneSide ? measuredSide : nil
        )
    }

    /// The longest bridged gap within `start...end` (0 when none).
    func gapSeconds(from start: Double, to end: Double) -> Double {
        setUp.presence.gapSeconds(from: start, to: end)
    }
}

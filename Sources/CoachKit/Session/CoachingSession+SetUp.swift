import PoseKit

/// What the session reads of the set-up check (``SetUpCheck``): how it measures, whether a repetition may count.
extension CoachingCore {
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

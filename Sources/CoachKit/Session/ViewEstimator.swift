import PoseKit

/// The view the camera has of the person, frame by frame, from the shoulder width relative to the torso length,
/// and whether the person has been facing the camera square-on (shoulders and hips both wide, smoothed over
/// about a second).
///
/// ```swift
/// var estimator = ViewEstimator()
/// let view = estimator.ingest(pose, torso: walking.torso)  // .front, .side, .oblique or .unknown
/// ```
struct ViewEstimator: Sendable {
    struct Configuration: Sendable, Hashable {
        /// Shoulder width over torso length from which the view is the front (or back): about 25° off square-on.
        var frontFrom = 0.45
        /// Shoulder width over torso length up to which the view is the side: up to about 30° off the side.
        var sideUpTo = 0.35
        /// The weight of each frame in the smoothed widths: about a second's memory at 20–30 frames a second.
        var smoothing = 0.05
        /// Smoothed shoulder and hip widths (over the torso length) from which the person faces the camera
        /// square-on: on the real videos here, square-on front and rear views read shoulders 0.62–0.79 and hips
        /// 0.41–0.46, oblique ones 0.34–0.50 and 0.23–0.29.
        var squareOnShoulders = 0.55
        var squareOnHips = 0.35
    }

    let configuration: Configuration
    /// The view at the latest frame.
    private(set) var view = CoachingSession.View.unknown
    /// The view from the shoulder width smoothed over about a second (``Configuration/smoothing``): an arm raised,
    /// a swing on a bar or a hip guessed out of the picture turns the shoulders of a frame or two, not this. What
    /// the person is asked to change is read from it.
    private(set) var settledView = CoachingSession.View.unknown
    /// The shoulder width over the torso length, smoothed; `nil` until measured.
    private var settledRatio: Double?
    /// Shoulder and hip width in the image over the torso length, smoothed; `nil` until both were seen.
    private var widths: (shoulders: Double, hips: Double)?

    init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    /// The view of one pose; `torso`: the torso length in the image (0 when not known: the view is unknown).
    mutating func ingest(_ pose: Pose, torso: Double) -> CoachingSession.View {
        let ls = pose[.leftShoulder]
        let rs = pose[.rightShoulder]
        guard ls.confidence > 0, rs.confidence > 0, torso > 0 else {
            view = .unknown
            return view
        }
        let width = ((ls.x - rs.x) * (ls.x - rs.x) + (ls.y - rs.y) * (ls.y - rs.y)).squareRoot()
        let ratio = width / torso
        view = classify(ratio)
        let settled = settledRatio.map { $0 + configuration.smoothing * (ratio - $0) } ?? ratio
        settledRatio = settled
        settledView = classify(settled)
        let lh = pose[.leftHip]
        let rh = pose[.rightHip]
        if lh.confidence > 0, rh.confidence > 0 {
            let hips = ((lh.x - rh.x) * (lh.x - rh.x) + (lh.y - rh.y) * (lh.y - rh.y)).squareRoot() / torso
            if let old = widths, !old.shoulders.isNaN {
                let w = configuration.smoothing
                widths = (old.shoulders + w * (ratio - old.shoulders), old.hips + w * (hips - old.hips))
            } else {
                widths = (ratio, hips)
            }
        }
        return view
    }

    /// The view of a shoulder width over the torso length. A rear view reads as the front: it is the same
    /// (frontal) plane, and measures what a front view measures.
    private func classify(_ ratio: Double) -> CoachingSession.View {
        ratio >= configuration.frontFrom ? .front : ratio <= configuration.sideUpTo ? .side : .oblique
    }

    /// Whether the person has been facing the camera square-on (not just in this frame): shoulders and hips
    /// both wide, smoothed over about a second. Left/right symmetry is only judged then; at 45° the far side
    /// is foreshortened and partly hidden (``Configuration/squareOnShoulders``).
    var facesCameraSquarely: Bool {
        guard view == .front, let widths else { return false }
        return widths.shoulders >= configuration.squareOnShoulders && widths.hips >= configuration.squareOnHips
    }
}

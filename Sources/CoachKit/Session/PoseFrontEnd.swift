import PoseKit

/// The session's front end: the patient's pose of each frame (``PoseSelector``, not the bystander), smoothed
/// (``PoseSmoother``). Both keep their state; the smoother reuses its buffer once the last pose it gave is let go
/// of.
///
/// ```swift
/// var frontEnd = PoseFrontEnd(selector: .init(), smoother: .init())
/// let pose = frontEnd.ingest(frame)  // nil: nobody
/// ```
struct PoseFrontEnd: Sendable {
    private var selector: PoseSelector
    private var smoother: PoseSmoother

    init(selector: PoseSelector.Configuration, smoother: PoseSmoother.Configuration) {
        self.selector = PoseSelector(configuration: selector)
        self.smoother = PoseSmoother(configuration: smoother)
    }

    /// The patient's smoothed pose in `frame`, or `nil` when nobody is selected.
    mutating func ingest(_ frame: PoseFrame) -> Pose? {
        let selected = selector.ingest(frame)
        return smoother.ingest(selected, at: frame.seconds)
    }
}

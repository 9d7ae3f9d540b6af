public import PoseKit

/// Everything an overlay needs to draw one frame: the coach's state after the latest frame.
///
/// ```swift
/// _ = session.ingest(frame)
/// let snapshot = session.snapshot
/// draw(snapshot.pose, label: "\(snapshot.exerciseName ?? "") \(snapshot.repCount)")
/// ```
public struct CoachSnapshot: Sendable, Hashable {
    /// The frame time.
    public var seconds: Double = 0
    public var exerciseID: String?
    public var exerciseName: String?
    /// Recognition confidence (1 when the exercise was given).
    public var confidence: Double = 0
    public var recognition: RecognitionState = .noPerson
    public var repCount = 0
    /// With no exercise given: a repetition the recognised exercise's counter found that the movement has not
    /// confirmed yet (0 or 1). Shown beside ``repCount`` as provisional; never in the summary until confirmed.
    public var provisionalReps = 0
    /// The primary angle now (clinical degrees, or a ratio).
    public var primaryAngle: Double?
    public var primaryAngleKind: AngleKind?
    /// The vertex joint of the primary angle on the measured side (where to draw the arc).
    public var primaryJoint: Joint?
    public var side: BodySide?
    /// The prescribed range for the primary angle at the peak.
    public var targetRange: ClosedRange<Double>?
    /// Progress of the current repetition from rest toward the person's usual peak, 0…1.
    public var rangeOfMotionProgress: Double = 0
    /// Whether the camera view lets the exercise's range be measured; when not, repetitions say "range not
    /// measurable" and the overlay shows no gauge (``Repetition/RangeJudgement/Status/notMeasurable``).
    public var rangeMeasurable = true
    /// The cue given most recently (shown for a few seconds).
    public var cueText: String?
    public var cueKind: Cue.Kind?
    /// The safety warning in force, if a limit is crossed right now.
    public var safetyWarning: String?
    /// What the person should do so the coach can see them, if anything.
    public var setupGuidance: String?
    /// Hold progress for hold exercises.
    public var hold: HoldProgress?
    /// While a repetition is held at its peak and the prescription asks for a hold there: how long so far.
    public var peakHold: HoldProgress?
    /// The selected person's smoothed pose.
    public var pose: Pose?

    public init() {}
}

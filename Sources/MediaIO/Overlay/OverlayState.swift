public import PoseKit

/// Everything the AR overlay draws on one video frame.
///
/// A plain value, independent of the coaching engine, so the overlay can be driven by any source
/// (the coach's per-frame snapshot, a pose-track file, a test). Every field is optional in effect:
/// whatever is `nil` or empty is not drawn.
///
/// ```swift
/// var state = OverlayState(people: frame.poses, coachedIndex: 0)
/// state.exerciseName = "Squat"
/// state.confidence = 0.93
/// state.reps = 4
/// state.angle = .init(joint: .leftKnee, from: .leftHip, to: .leftAnkle, degrees: 92)
/// renderer.render(state, onto: &image)
/// ```
public struct OverlayState: Sendable {
    /// The kind of a coaching cue; decides its colour.
    public enum CueKind: String, Sendable, Hashable, Codable, CaseIterable {
        /// Neutral information ("Lower slowly").
        case info
        /// Praise for good form (green).
        case encouragement
        /// A form correction (amber).
        case correction
        /// A safety cue (red).
        case safety
    }

    /// The measured angle drawn as an arc at its joint.
    public struct Angle: Sendable, Hashable {
        /// The vertex of the angle.
        public var joint: Joint
        /// One end of the arc (its bone goes from `joint` to `from`).
        public var from: Joint
        /// The other end of the arc.
        public var to: Joint
        /// The value printed next to the arc, in degrees (the coach's measure, e.g. clinical flexion).
        public var degrees: Double
        /// Whether the value is inside its target range; `nil` when there is no target. Colours the arc.
        public var isInTarget: Bool?

        public init(joint: Joint, from: Joint, to: Joint, degrees: Double, isInTarget: Bool? = nil) {
            self.joint = joint
            self.from = from
            self.to = to
            self.degrees = degrees
            self.isInTarget = isInTarget
        }
    }

    /// The range-of-motion gauge: how far the current repetition has gone, against the target band.
    public struct RangeOfMotion: Sendable, Hashable {
        /// Progress of the current repetition on the gauge's scale, 0 = start position, 1 = full scale.
        public var progress: Double
        /// The target band on the same scale (e.g. `0.8...1.0`).
        public var target: ClosedRange<Double>
        /// A short caption under the gauge ("Depth", "ROM").
        public var label: String

        public init(progress: Double, target: ClosedRange<Double>, label: String = "ROM") {
            self.progress = progress
            self.target = target
            self.label = label
        }
    }

    /// Every person seen in the frame, in image pixels.
    public var people: [Pose]
    /// The index in `people` of the person being coached; drawn clearly, the others faintly.
    public var coachedIndex: Int?
    /// The measured angle, drawn at its joint on the coached person.
    public var angle: Angle?
    /// Repetitions counted so far; `nil` hides the counter.
    public var reps: Int?
    /// Repetitions prescribed, shown as "4 / 10" when known.
    public var prescribedReps: Int?
    /// The recognised exercise ("Squat"); `nil` hides the title box.
    public var exerciseName: String?
    /// The recogniser's confidence in `exerciseName`, 0…1.
    public var confidence: Double?
    /// The current coaching cue ("Keep your knees over your toes").
    public var cue: String?
    /// The kind of `cue`.
    public var cueKind: CueKind
    /// An active safety warning, drawn as a red banner.
    public var warning: String?
    /// Set-up guidance ("Step back so your whole body is in view"), drawn in the middle of the frame.
    public var setupGuidance: String?
    /// The range-of-motion gauge.
    public var rangeOfMotion: RangeOfMotion?
    /// Seconds the current hold has lasted (isometric exercises); shown under the counter.
    public var holdSeconds: Double?
    /// Seconds the hold should last; shown as "12 / 30 s" when known.
    public var holdTargetSeconds: Double?
    /// Every hand seen (hand exercises), drawn as 21-point skeletons.
    public var hands: [HandPose] = []
    /// The index in `hands` of the coached hand; drawn clearly, the others faintly.
    public var coachedHand: Int?
    /// A colour for the coached hand's thumb and index tips (the pinch gesture's state), else their usual one.
    public var fingertipColor: OverlayColor?

    public init(
        people: [Pose] = [],
        coachedIndex: Int? = nil,
        angle: Angle? = nil,
        reps: Int? = nil,
        prescribedReps: Int? = nil,
        exerciseName: String? = nil,
        confidence: Double? = nil,
        cue: String? = nil,
        cueKind: CueKind = .info,
        warning: String? = nil,
        setupGuidance: String? = nil,
        rangeOfMotion: RangeOfMotion? = nil,
        holdSeconds: Double? = nil,
        holdTargetSeconds: Double? = nil
    ) {
        self.people = people
        self.coachedIndex = coachedIndex
        self.angle = angle
        self.reps = reps
        self.prescribedReps = prescribedReps
        self.exerciseName = exerciseName
        self.confidence = confidence
        self.cue = cue
        self.cueKind = cueKind
        self.warning = warning
        self.setupGuidance = setupGuidance
        self.rangeOfMotion = rangeOfMotion
        self.holdSeconds = holdSeconds
        self.holdTargetSeconds = holdTargetSeconds
    }
}

public import PoseKit

/// One exercise of the library, as declared in its JSON file (schema: `Resources/Exercises/SCHEMA.md`).
///
/// ```swift
/// let squat = try ExerciseLibrary.bundled.exercise(id: "squat")
/// squat.primaryAngle          // .kneeFlexion
/// squat.repetition?.peak      // 90
/// ```
public struct ExerciseDefinition: Sendable, Hashable, Codable {
    /// The camera view an exercise needs to be measured reliably in 2-D.
    public enum CameraView: String, Sendable, Hashable, Codable, CaseIterable {
        case front, side, any
    }

    /// Which side(s) of the body the exercise works.
    public enum SideMode: String, Sendable, Hashable, Codable, CaseIterable {
        /// Only the left side.
        case left
        /// Only the right side.
        case right
        /// Both sides together (bilateral, e.g. squat): measured on both, symmetry reported.
        case both
        /// One side at a time, whichever moves (picked automatically).
        case either
    }

    /// The body position the exercise is done in, used by recognition and the set-up check.
    public enum Posture: String, Sendable, Hashable, Codable, CaseIterable {
        /// Trunk upright, standing.
        case upright
        /// Trunk upright, hanging from the hands held above the head (pull-up): told by the hands staying put
        /// beyond the head.
        case hanging
        /// Trunk roughly horizontal (plank, push-up, lying).
        case horizontal
        /// Sitting: trunk upright, thighs forward (seated knee extension).
        case seated
        /// Anything (burpee, sit-to-stand).
        case any
    }

    /// Whether the muscles shorten (concentric) or lengthen (eccentric) on the way to the peak.
    public enum Contraction: String, Sendable, Hashable, Codable, CaseIterable {
        case concentric, eccentric
    }

    /// How a repetition moves the primary angle: start position → peak → back.
    public struct RepetitionSpec: Sendable, Hashable, Codable {
        /// The primary angle in the start position.
        public var start: Double
        /// The primary angle at the peak of a typical repetition (sets the direction of the movement).
        public var peak: Double
        /// The contraction on the way from start to peak.
        public var towardPeak: Contraction
        /// The smallest excursion of the primary angle that counts as a repetition.
        public var minimumRange: Double
        /// The shortest repetition in seconds (faster ones are noise).
        public var minimumSeconds: Double
        /// The longest repetition in seconds (slower ones are not repetitions).
        public var maximumSeconds: Double
        /// Seconds to hold the peak of each repetition, when prescribed ("hold 5 s at the top"); a repetition held
        /// for less gets the form issue `hold`.
        public var holdSeconds: Double? = nil

        /// +1 when the angle grows toward the peak, −1 when it shrinks.
        public var direction: Double { peak >= start ? 1 : -1 }

        /// Whether `seconds` can be held at each peak: above 0 and below ``maximumSeconds`` (a longer repetition
        /// is not counted). The definition file and `analyze --hold` are checked the same way.
        public func acceptsHold(_ seconds: Double) -> Bool { seconds > 0 && seconds < maximumSeconds }
    }

    /// The target the primary angle should reach at the peak (the prescription).
    public struct TargetRange: Sendable, Hashable, Codable {
        public var min: Double
        public var max: Double
    }

    /// One condition of a hold: an angle within a band.
    public struct HoldCondition: Sendable, Hashable, Codable {
        public var angle: AngleKind
        public var min: Double
        public var max: Double
        /// The cue when the condition is not met.
        public var cue: String
    }

    /// A hold: every condition met for `seconds`.
    public struct HoldSpec: Sendable, Hashable, Codable {
        public var seconds: Double
        public var conditions: [HoldCondition]
    }

    /// When a form rule is checked.
    public enum RuleTiming: String, Sendable, Hashable, Codable, CaseIterable {
        /// At the moment the primary angle peaks.
        case peak
        /// Over the whole repetition (its extreme value).
        case throughout
        /// How much the angle changes over the repetition (its maximum minus its minimum): for a body part
        /// that must stay still, whatever position it is held in.
        case range
    }

    /// A form rule: the angle must stay within [min, max] (either may be absent).
    public struct FormRule: Sendable, Hashable, Codable {
        public var id: String
        public var angle: AngleKind
        public var at: RuleTiming
        public var min: Double?
        public var max: Double?
        /// What the coach says when the rule is broken.
        public var cue: String
        /// 1 is the most important.
        public var priority: Int
        /// The view the rule can be checked in; `.any` for every view.
        public var view: CameraView
    }

    /// A safety limit: crossing it raises a warning at once.
    public struct SafetyLimit: Sendable, Hashable, Codable {
        public var angle: AngleKind
        public var min: Double?
        public var max: Double?
        public var warning: String
    }

    public var id: String
    public var name: String
    public var summary: String
    public var view: CameraView
    public var posture: Posture
    public var side: SideMode
    /// The angles measured and reported, primary first.
    public var angles: [AngleKind]
    /// The angle that drives repetitions (or the first hold condition).
    public var primaryAngle: AngleKind
    /// Repetition movement, `nil` for holds.
    public var repetition: RepetitionSpec?
    /// Hold specification, `nil` for repetition exercises.
    public var hold: HoldSpec?
    public var target: TargetRange?
    public var formRules: [FormRule]
    public var safetyLimits: [SafetyLimit]
    /// Largest left/right difference of the primary angle at the peak for bilateral exercises, if checked.
    public var maximumAsymmetry: Double?
    /// Praise for a good repetition.
    public var praise: String
    /// The movement signature recognition scores against (declared, or derived from the primary angle).
    public var motion: Motion

    /// Whether the exercise is a hold rather than repetitions.
    public var isHold: Bool { hold != nil }

    /// The band the primary angle should reach, in degrees: the target at the peak, or a hold's first condition.
    public var targetBand: ClosedRange<Double>? {
        target.map { $0.min...$0.max } ?? hold?.conditions.first.map { $0.min...$0.max }
    }

    /// Every joint the exercise needs (both sides for `both`/`either`).
    public var requiredJoints: [Joint] {
        var joints: [Joint] = []
        let sides: [BodySide] =
            switch side {
            case .left: [.left]
            case .right: [.right]
            case .both, .either: [.left, .right]
            }
        for side in sides {
            for joint in primaryAngle.joints(side: side) where !joints.contains(joint) { joints.append(joint) }
        }
        return joints
    }

    /// The fraction of the target excursion reached by a peak value (0 at the start, 1 at the target's near edge).
    public func rangeOfMotionFraction(peakValue: Double) -> Double? {
        guard let repetition, let target else { return nil }
        let edge = repetition.direction > 0 ? target.min : target.max
        let span = edge - repetition.start
        guard abs(span) > 1e-9 else { return nil }
        return max(0, (peakValue - repetition.start) / span)
    }
}

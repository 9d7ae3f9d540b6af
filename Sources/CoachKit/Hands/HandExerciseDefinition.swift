import Foundation
public import PoseKit

/// One hand exercise of the library, as declared in its JSON file (`Resources/Exercises/hands/SCHEMA.md`): the
/// hand's counterpart of ``ExerciseDefinition``, measured on the 21 keypoints of a hand (``HandMeasure``).
///
/// ```swift
/// let fist = try HandExerciseLibrary.bundled().exercise(id: "finger-flexion")
/// fist.primary                 // .fingerFlexion
/// fist.repetition.peak         // 220
/// ```
public struct HandExerciseDefinition: Sendable, Hashable {
    /// Which way the hand should face the camera for the exercise's angles to be trusted (``HandView``).
    public enum CameraView: String, Sendable, Hashable, Codable, CaseIterable {
        /// Palm or back toward the camera.
        case facing
        /// Thumb or little-finger side toward the camera.
        case side
        case any
    }

    /// Which hand the exercise is for.
    public enum HandSide: String, Sendable, Hashable, Codable, CaseIterable {
        case left, right
        /// Whichever hand is in view (the nearer one when both are).
        case either
    }

    /// What each finger's measurement is held against.
    public enum FingerMeasure: String, Sendable, Hashable, Codable, CaseIterable {
        /// The finger's MCP + PIP + DIP flexion (``HandMeasure/flexion(of:)``), the largest reached.
        case flexion
        /// The thumb tip's distance to the fingertip (hand lengths), the smallest reached.
        case opposition
    }

    /// When each finger is held against its target.
    public enum FingerScope: String, Sendable, Hashable, Codable, CaseIterable {
        /// In every repetition (a fist: every finger bends every time).
        case repetition
        /// Over the whole set (opposition: each repetition reaches one finger, the set should reach all).
        case set
    }

    /// Per-finger range of motion against a target, with its cue.
    public struct FingerTargets: Sendable, Hashable {
        public var measure: FingerMeasure
        public var scope: FingerScope
        /// The fingers held to the target (the four fingers by default; the thumb only for flexion).
        public var fingers: [Finger]
        public var min: Double?
        public var max: Double?
        /// The cue for a finger short of its target; `{finger}` is replaced by its name ("little").
        public var cue: String

        /// Whether `value` meets the target.
        public func accepts(_ value: Double) -> Bool { value >= (min ?? -.infinity) && value <= (max ?? .infinity) }

        /// How far `value` is from the target, in its units (0 when it meets it).
        public func shortfall(_ value: Double) -> Double {
            if let min, value < min { return min - value }
            if let max, value > max { return value - max }
            return 0
        }

        /// The cue for `finger`.
        public func cue(for finger: Finger) -> String {
            cue.replacingOccurrences(of: "{finger}", with: finger.rawValue)
        }
    }

    /// Repetitions counted as touches of the thumb on a finger (``TouchCounter``) instead of swings of the
    /// primary measurement.
    public struct TouchSpec: Sendable, Hashable {
        /// The thumb tip within this many hand lengths of a finger touches it.
        public var distance: Double
        /// Beyond this many hand lengths, the touch is let go.
        public var release: Double
        /// A touch on another finger counts without letting go in between (fingertip to fingertip in turn).
        public var newFinger: Bool
        /// Only the fingertips are targets (else every keypoint of the finger, MCP to tip).
        public var fingertipsOnly: Bool
    }

    public var id: String
    public var name: String
    public var summary: String
    public var view: CameraView
    public var side: HandSide
    /// The measurements reported, primary first.
    public var measures: [HandMeasure]
    /// The measurement repetitions are counted on.
    public var primary: HandMeasure
    public var repetition: ExerciseDefinition.RepetitionSpec
    /// The band the primary measurement should reach at each repetition's peak.
    public var target: ExerciseDefinition.TargetRange?
    /// What the coach says when a repetition falls short of ``target``.
    public var rangeCue: String
    public var fingerTargets: FingerTargets?
    /// Counted by touches, when set.
    public var touch: TouchSpec?
    public var praise: String
    /// The set-up line: how to place the hand and the camera.
    public var setUp: String

    /// The band of the primary measurement at the peak, as a range.
    public var targetBand: ClosedRange<Double>? { target.map { $0.min...$0.max } }
}

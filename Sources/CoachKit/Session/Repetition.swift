public import PoseKit

/// One counted repetition and what the coach measured in it.
///
/// Angles are clinical (neutral-zero, `clinical.md`) in degrees, or ratios where the angle kind says so.
public struct Repetition: Sendable, Hashable, Codable {
    /// The range an angle covered during the repetition.
    public struct AngleRange: Sendable, Hashable, Codable {
        public var angle: AngleKind
        /// The side measured; `nil` for midline measurements.
        public var side: BodySide?
        public var min: Double
        public var max: Double
        /// The value when the primary angle peaked.
        public var atPeak: Double
    }

    /// Seconds on each half of the repetition.
    public struct Tempo: Sendable, Hashable, Codable {
        public var toPeakSeconds: Double
        public var fromPeakSeconds: Double
        /// The concentric half (muscles shortening), when the exercise says which half that is.
        public var concentricSeconds: Double?
        public var eccentricSeconds: Double?
    }

    /// Left/right comparison of the primary angle at the peak (bilateral exercises).
    public struct Symmetry: Sendable, Hashable, Codable {
        public var left: Double
        public var right: Double
        /// |left − right|.
        public var difference: Double
    }

    public enum Verdict: String, Sendable, Hashable, Codable {
        case good
        case needsWork = "needs-work"
    }

    /// A broken form rule.
    public struct FormIssue: Sendable, Hashable, Codable {
        public var rule: String
        public var cue: String
        public var angle: AngleKind
        public var value: Double
        /// The bound that was crossed.
        public var limit: Double
        public var priority: Int
    }

    /// A safety limit crossed during the repetition.
    public struct SafetyBreach: Sendable, Hashable, Codable {
        public var angle: AngleKind
        public var value: Double
        public var limit: Double
        public var warning: String
        public var seconds: Double
    }

    /// 1-based.
    public var index: Int
    /// The exercise id, when known.
    public var exercise: String?
    public var startSeconds: Double
    public var endSeconds: Double
    /// The working side for one-sided exercises; `nil` when both sides work or the side is unknown.
    public var side: BodySide?
    public var angles: [AngleRange]
    /// The primary angle at the peak.
    public var peakAngle: Double?
    /// Fraction of the target excursion reached (1 = target reached).
    public var rangeOfMotion: Double?
    public var tempo: Tempo
    public var symmetry: Symmetry?
    public var verdict: Verdict
    public var issues: [FormIssue]
    public var safetyBreaches: [SafetyBreach]
    /// False when the camera view does not suit the exercise and no depth was available (angles may be off by tens of degrees).
    public var measurementReliable: Bool

    /// Seconds from start to end.
    public var durationSeconds: Double { endSeconds - startSeconds }
}

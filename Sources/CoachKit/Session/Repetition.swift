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

    /// Seconds on the way to the peak, held there, and on the way back.
    public struct Tempo: Sendable, Hashable, Codable {
        /// From the start to when the peak is reached (within ``RepCounter/plateauFraction`` of the excursion).
        public var toPeakSeconds: Double
        /// From when the peak is left to the end.
        public var fromPeakSeconds: Double
        /// The concentric half (muscles shortening), when the exercise says which half that is.
        public var concentricSeconds: Double?
        public var eccentricSeconds: Double?
        /// How long the peak was held (`nil` in summaries written before it was measured).
        public var atPeakSeconds: Double?

        public init(
            toPeakSeconds: Double,
            fromPeakSeconds: Double,
            concentricSeconds: Double? = nil,
            eccentricSeconds: Double? = nil,
            atPeakSeconds: Double? = nil
        ) {
            self.toPeakSeconds = toPeakSeconds
            self.fromPeakSeconds = fromPeakSeconds
            self.concentricSeconds = concentricSeconds
            self.eccentricSeconds = eccentricSeconds
            self.atPeakSeconds = atPeakSeconds
        }

        /// The tempo of a counted repetition: up to its plateau at the peak (the counter's own, or `plateau`), held
        /// there, and back; the halves named by `towardPeak`.
        init(
            _ completed: RepCounter.Completed,
            plateau: (start: Double, end: Double)? = nil,
            towardPeak: ExerciseDefinition.Contraction?
        ) {
            let start = Swift.max(completed.startSeconds, plateau?.start ?? completed.plateauStartSeconds)
            let end = Swift.min(completed.endSeconds, Swift.max(start, plateau?.end ?? completed.plateauEndSeconds))
            let toPeak = start - completed.startSeconds
            let fromPeak = completed.endSeconds - end
            let concentric = towardPeak.map { $0 == .concentric }
            self.init(
                toPeakSeconds: toPeak,
                fromPeakSeconds: fromPeak,
                concentricSeconds: concentric.map { $0 ? toPeak : fromPeak },
                eccentricSeconds: concentric.map { $0 ? fromPeak : toPeak },
                atPeakSeconds: end - start
            )
        }
    }

    /// Left/right comparison of the primary angle at the peak (bilateral exercises).
    public struct Symmetry: Sendable, Hashable, Codable {
        public var left: Double
        public var right: Double
        /// |left − right|.
        public var difference: Double
    }

    /// The form verdict: from the form rules that could be checked (and safety, a hold at the peak, symmetry).
    public enum Verdict: String, Sendable, Hashable, Codable {
        /// Every check made passed.
        case good
        /// A form rule broken, a safety limit crossed, a hold too short, uneven sides.
        case needsWork = "needs-work"
        /// Nothing could be checked (the camera view does not suit the exercise, the joints were not seen, or no
        /// exercise was recognised): never "good". ``Repetition/uncheckedReason`` says why.
        case notChecked = "not-checked"

        /// In words, saying that it is about form (beside "30% of target", a bare "good" read as praise for the
        /// range): "good form", "form needs work", "form not checked".
        public var text: String {
            switch self {
            case .good: "good form"
            case .needsWork: "form needs work"
            case .notChecked: "form not checked"
            }
        }
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

    /// What a hand exercise's repetition reached (``HandSessionSummary/Repetition``): the exercise's primary hand
    /// measurement at rest and at the peak, each finger's reach, and the cues it earned.
    public struct HandReach: Sendable, Hashable, Codable {
        public var measure: HandMeasure
        public var rest: Double
        public var peak: Double
        /// Each finger's reach, by finger name: flexion in degrees, or the thumb's distance in hand lengths.
        public var fingers: [String: Double]
        /// The cues the repetition earned, most important first (a hand exercise's issues are not form rules).
        public var issues: [String]
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
    /// The range against the target, judged once (``RangeJudgement``); `nil` when the exercise has no target, or
    /// for a summary written before it was judged.
    public var range: RangeJudgement?
    public var tempo: Tempo
    public var symmetry: Symmetry?
    public var verdict: Verdict
    public var issues: [FormIssue]
    public var safetyBreaches: [SafetyBreach]
    /// False when the camera view does not suit the exercise and no depth was available (angles may be off by tens of degrees).
    public var measurementReliable: Bool
    /// The form rules (their ids) that could not be checked in this repetition: their angle was not seen (the
    /// joints out of the picture or not found), the rule needs another camera view, or the view does not suit
    /// the exercise. The ``verdict`` is from the rules that were checked; empty when all were.
    public var uncheckedRules: [String] = []
    /// Why ``uncheckedRules`` were not checked, in words: "feet out of the picture", "knees-out needs a front
    /// view", "the camera view does not suit the exercise", and "too close to call from this view" for
    /// ``closeCalls`` (several joined by "; "); `nil` when all were checked and called.
    public var uncheckedReason: String?
    /// The longest stretch in the repetition, in seconds, in which the person could not be measured (the pose
    /// lost, joints out of the picture) and that was bridged because the angle after it continued the
    /// repetition; 0 when there was none. Stretches shorter than the glitch time are not counted.
    public var gapSeconds: Double = 0
    /// The form rules (their ids) checked in this repetition whose value was too close to the rule's bound to
    /// call from this camera (within ``ExerciseDefinition/FormRule/CloseCallMargin``): the rule is neither kept
    /// nor broken, so the verdict is not "good" (``Verdict/notChecked`` unless another rule is clearly broken),
    /// and ``uncheckedReason`` says "too close to call from this view". `nil` when there was none.
    public var closeCalls: [String]?
    /// A hand exercise's repetition: what the hand reached; `nil` for a body exercise.
    public var hand: HandReach?

    /// Seconds from start to end.
    public var durationSeconds: Double { endSeconds - startSeconds }
}

extension Repetition {
    /// Decodes a repetition, also one written before ``uncheckedRules``, ``uncheckedReason``, ``gapSeconds``,
    /// ``range`` and ``hand`` existed (they are then empty, `nil`, 0, `nil` and `nil`).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        index = try c.decode(Int.self, forKey: .index)
        exercise = try c.decodeIfPresent(String.self, forKey: .exercise)
        startSeconds = try c.decode(Double.self, forKey: .startSeconds)
        endSeconds = try c.decode(Double.self, forKey: .endSeconds)
        side = try c.decodeIfPresent(BodySide.self, forKey: .side)
        angles = try c.decode([AngleRange].self, forKey: .angles)
        peakAngle = try c.decodeIfPresent(Double.self, forKey: .peakAngle)
        rangeOfMotion = try c.decodeIfPresent(Double.self, forKey: .rangeOfMotion)
        range = try c.decodeIfPresent(RangeJudgement.self, forKey: .range)
        tempo = try c.decode(Tempo.self, forKey: .tempo)
        symmetry = try c.decodeIfPresent(Symmetry.self, forKey: .symmetry)
        verdict = try c.decode(Verdict.self, forKey: .verdict)
        issues = try c.decode([FormIssue].self, forKey: .issues)
        safetyBreaches = try c.decode([SafetyBreach].self, forKey: .safetyBreaches)
        measurementReliable = try c.decode(Bool.self, forKey: .measurementReliable)
        uncheckedRules = try c.decodeIfPresent([String].self, forKey: .uncheckedRules) ?? []
        uncheckedReason = try c.decodeIfPresent(String.self, forKey: .uncheckedReason)
        gapSeconds = try c.decodeIfPresent(Double.self, forKey: .gapSeconds) ?? 0
        hand = try c.decodeIfPresent(HandReach.self, forKey: .hand)
        closeCalls = try c.decodeIfPresent([String].self, forKey: .closeCalls)
    }
}

/// When the coach names the exercise it recognised, and when it says it cannot tell.
///
/// The recogniser's confidence (winner / (winner + runner-up + background), ``ExerciseRecognizer``) is not a
/// probability of being right; this threshold makes it one kind of promise: at or above it, the name was right at
/// least 95 % of the time on development sources the threshold was not fitted on. Below it the coach says
/// ``unsureSentence`` instead of naming an exercise, and the person picks it.
///
/// ```swift
/// if RecognitionConfidence.fitted.isUnsure(snapshot.confidence) { say(RecognitionConfidence.unsureSentence) }
/// ```
///
/// `docs/evaluation-protocol.md` says how it was fitted (leave one source out) and gives the held-out precision
/// and coverage; `scripts/evaluate-feedback.py --only recognition` refits it.
public struct RecognitionConfidence: Sendable, Hashable {
    /// The lowest confidence at which a recognised exercise is named. The default, 0.71, is the smallest threshold
    /// (in 0.01 steps) whose named clips were at least 95 % right over all five development sources together
    /// (calimiro, kaiakol, Pose Trainer, UI-PRMD, KIMORE: 313 clips; there 0.954 right at coverage 0.415). Fitted on
    /// four sources and applied to the fifth, in turn, it gave precision 0.924 at coverage 0.419 (every name given:
    /// 0.763 at 0.955): `scripts/evaluate-feedback.py --only recognition`.
    public var namedAtLeast: Double

    public init(namedAtLeast: Double = 0.71) {
        precondition(namedAtLeast >= 0 && namedAtLeast <= 1, "namedAtLeast (\(namedAtLeast)) must be in [0, 1]")
        self.namedAtLeast = namedAtLeast
    }

    /// The threshold fitted on all development sources together.
    public static let fitted = RecognitionConfidence()

    /// What the coach says instead of naming an exercise it is unsure of.
    public static let unsureSentence = "I can't tell which exercise this is: pick it"

    /// Whether an exercise recognised with this confidence is not to be named.
    public func isUnsure(_ confidence: Double) -> Bool { !(confidence >= namedAtLeast) }
}

extension CoachSnapshot {
    /// An exercise is recognised (not given: a given exercise has confidence 1) with a confidence below
    /// ``RecognitionConfidence/fitted``: the coach says ``RecognitionConfidence/unsureSentence`` rather than its name.
    public var recognitionUnsure: Bool {
        exerciseID != nil && RecognitionConfidence.fitted.isUnsure(confidence)
    }
}

extension SessionSummary {
    /// The confidence the recognised exercise was named with: the highest of its segments'; `nil` unless the
    /// exercise was recognised.
    public var recognitionConfidence: Double? {
        guard exerciseSource == .recognized, let exercise else { return nil }
        return segments.filter { $0.exercise == exercise }.map(\.confidence).max()
    }

    /// The exercise was recognised below ``RecognitionConfidence/fitted``: reports say
    /// ``RecognitionConfidence/unsureSentence`` rather than its name.
    public var recognitionUnsure: Bool {
        recognitionConfidence.map { RecognitionConfidence.fitted.isUnsure($0) } ?? false
    }
}

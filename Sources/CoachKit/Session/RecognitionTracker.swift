/// Which exercise the session takes the recogniser's decisions to name, with no exercise given: a new exercise
/// takes over after winning two decisions in a row, and the one recognised is dropped after four decisions in a
/// row that name none (nobody there, or nothing that fits).
///
/// The tracker says when to switch; the session switches (closing the segment of the exercise before) and then
/// tells it (``switched(to:confidence:)``).
///
/// ```swift
/// var tracker = RecognitionTracker()
/// if case .switchExercise(let index, let confidence) = tracker.ingest(decision, bestIndex: recognizer.bestIndex) {
///     tracker.switched(to: index, confidence: confidence)
/// }
/// ```
struct RecognitionTracker: Sendable {
    struct Configuration: Sendable, Hashable {
        /// Decisions in a row that must name a new exercise before it takes over: one decision can be a transition
        /// between exercises.
        var decisionsToSwitch = 2
        /// Decisions in a row naming none after which the exercise recognised is dropped: a pause between
        /// repetitions is not the end of the exercise.
        var decisionsToDrop = 4
    }

    let configuration: Configuration
    enum Event: Sendable, Hashable {
        /// The exercise recognised, named again with this confidence.
        case sameExercise(confidence: Double)
        /// Time to switch to another exercise (`nil`: none).
        case switchExercise(to: Int?, confidence: Double)
        /// Nothing recognised, and this decision names nothing either.
        case nothingRecognised
    }

    /// The exercise recognised (its index in the library), and the confidence of the last decision naming it.
    private(set) var recognizedIndex: Int?
    private(set) var confidence = 0.0
    /// The exercise (`nil`: none) that would take over, and the decisions in a row for it.
    private var candidate: Int?
    private var votes = 0
    /// The last decision, when it named an exercise (index, state).
    private(set) var lastNamed: (index: Int, state: RecognitionState)?
    /// The decisions that named an exercise.
    private(set) var decisions = 0

    init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    /// One decision of the recogniser, and the exercise it ranked best.
    mutating func ingest(_ decision: RecognitionState, bestIndex index: Int?) -> Event? {
        note(decision, bestIndex: index)
        if case .exercise = decision, index != nil { decisions += 1 }
        switch decision {
        case .exercise(_, let confidence):
            if index == recognizedIndex {
                votes = 0
                self.confidence = confidence
                return .sameExercise(confidence: confidence)
            } else if index == candidate {
                votes += 1
                if votes >= configuration.decisionsToSwitch {
                    return .switchExercise(to: index, confidence: confidence)
                }
            } else {
                candidate = index
                votes = 1
            }
        case .noPerson, .lowConfidence:
            guard recognizedIndex != nil else { return .nothingRecognised }
            if candidate == nil {
                votes += 1
                if votes >= configuration.decisionsToDrop { return .switchExercise(to: nil, confidence: 0) }
            } else {
                candidate = nil
                votes = 1
            }
        }
        return nil
    }

    /// A decision that only names (the recogniser's last, at the end of the recording): counts toward nothing.
    mutating func note(_ decision: RecognitionState, bestIndex index: Int?) {
        if case .exercise = decision, let index { lastNamed = (index, decision) } else { lastNamed = nil }
    }

    /// The session switched to exercise `index` (`nil`: none).
    mutating func switched(to index: Int?, confidence: Double) {
        recognizedIndex = index
        self.confidence = confidence
        votes = 0
    }
}

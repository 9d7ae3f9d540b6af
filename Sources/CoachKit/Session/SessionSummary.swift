/// The outcome of a session, for reports and `ptcoach analyze --json`.
public struct SessionSummary: Sendable, Hashable, Codable {
    /// A stretch of the recording in which one exercise was done.
    public struct Segment: Sendable, Hashable, Codable {
        /// `nil` when no library exercise was recognised (counted by the exercise-agnostic counter).
        public var exercise: String?
        public var startSeconds: Double
        public var endSeconds: Double
        public var reps: Int
        public var confidence: Double
    }

    /// A hold: how long the position was kept.
    public struct Hold: Sendable, Hashable, Codable {
        public var startSeconds: Double
        public var endSeconds: Double
        public var heldSeconds: Double
        public var targetSeconds: Double
        public var completed: Bool
    }

    /// A form issue, when it happened.
    public struct FormIssueEvent: Sendable, Hashable, Codable {
        public var seconds: Double
        public var repetition: Int
        public var rule: String
        public var cue: String
    }

    public struct Averages: Sendable, Hashable, Codable {
        public var peakAngle: Double?
        public var rangeOfMotion: Double?
        public var repetitionSeconds: Double?
        /// Share of repetitions with a good verdict.
        public var goodFraction: Double?
    }

    /// The exercise (given, or the one recognised for most repetitions); `nil` if none.
    public var exercise: String?
    public var exerciseName: String?
    /// How the exercise was known: "given", "recognized" (by the built-in recognizer), "model" (by a trained
    /// classifier, `ptcoach analyze --model`) or "none".
    public var exerciseSource: String
    /// What the repetitions were counted from: "angle" (the definition's primary angle), "movement"
    /// (the dominant movement of the body, or of the exercise's joints when the angle proved unreliable), "hold".
    public var countedBy: String
    public var reps: Int
    public var repetitions: [Repetition]
    public var holds: [Hold]
    public var segments: [Segment]
    public var formIssues: [FormIssueEvent]
    public var safetyWarnings: [SafetyWarning]
    public var cues: [Cue]
    public var averages: Averages
    public var durationSeconds: Double
    /// Seconds in which the person was seen.
    public var secondsWithPerson: Double
}

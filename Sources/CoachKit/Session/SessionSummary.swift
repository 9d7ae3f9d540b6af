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
        /// Share of the repetitions whose form was checked (verdict not ``Repetition/Verdict/notChecked``) with a
        /// good verdict; `nil` when none was checked.
        public var goodFraction: Double?
    }

    /// The exercise (given, or the one recognised for most repetitions); `nil` if none.
    public var exercise: String?
    public var exerciseName: String?
    /// How the exercise was known.
    public var exerciseSource: ExerciseSource
    /// What the repetitions were counted from.
    public var countedBy: CountingSource
    public var reps: Int
    public var repetitions: [Repetition]
    public var holds: [Hold]
    public var segments: [Segment]
    public var formIssues: [FormIssueEvent]
    public var safetyWarnings: [SafetyWarning]
    /// The cues given, in order; cues about repetitions that were later withdrawn are in ``withdrawnCues``.
    public var cues: [Cue]
    /// Form cues and praise that were given live about repetitions the session later withdrew (counted on a
    /// guessed depth, then recounted in the image plane; or replaced when another signal took over the count).
    /// They were said and cannot be unsaid, but they are about repetitions that are not in ``repetitions``, so
    /// they are not in ``cues`` and their issues are not in ``formIssues``.
    public var withdrawnCues: [Cue] = []
    public var averages: Averages
    public var durationSeconds: Double
    /// Seconds in which the person was seen.
    public var secondsWithPerson: Double
}

extension SessionSummary {
    /// Decodes a summary, also one written before ``withdrawnCues`` existed (then empty).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        exercise = try c.decodeIfPresent(String.self, forKey: .exercise)
        exerciseName = try c.decodeIfPresent(String.self, forKey: .exerciseName)
        exerciseSource = try c.decode(ExerciseSource.self, forKey: .exerciseSource)
        countedBy = try c.decode(CountingSource.self, forKey: .countedBy)
        reps = try c.decode(Int.self, forKey: .reps)
        repetitions = try c.decode([Repetition].self, forKey: .repetitions)
        holds = try c.decode([Hold].self, forKey: .holds)
        segments = try c.decode([Segment].self, forKey: .segments)
        formIssues = try c.decode([FormIssueEvent].self, forKey: .formIssues)
        safetyWarnings = try c.decode([SafetyWarning].self, forKey: .safetyWarnings)
        cues = try c.decode([Cue].self, forKey: .cues)
        withdrawnCues = try c.decodeIfPresent([Cue].self, forKey: .withdrawnCues) ?? []
        averages = try c.decode(Averages.self, forKey: .averages)
        durationSeconds = try c.decode(Double.self, forKey: .durationSeconds)
        secondsWithPerson = try c.decode(Double.self, forKey: .secondsWithPerson)
    }
}

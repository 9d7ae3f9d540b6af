/// What a therapist prescribes for one exercise of a programme: sets, repetitions or hold seconds, rest, side,
/// the target range of motion and a safety limit. ``prescribed(_:)`` turns the library's definition into the one
/// the coach follows, so the live cues and the verdicts use the patient's own numbers.
public struct Prescription: Sendable, Hashable, Codable {
    /// The library exercise id.
    public var exercise: String
    public var sets: Int
    /// Repetitions per set (repetition exercises).
    public var reps: Int?
    /// Seconds each repetition is held at its peak, or a hold exercise's seconds.
    public var holdSeconds: Double?
    public var restSeconds: Double
    /// `left` or `right` to coach one side only; `nil` for the library's choice.
    public var side: ExerciseDefinition.SideMode?
    /// The range of motion aimed at, in degrees of the primary angle at the peak.
    public var targetMin: Double?
    public var targetMax: Double?
    /// The primary angle must not go past this (a warning at once, and the repetition needs work).
    public var safetyMax: Double?
    public var note: String

    public init(
        exercise: String,
        sets: Int = 3,
        reps: Int? = 10,
        holdSeconds: Double? = nil,
        restSeconds: Double = 60,
        side: ExerciseDefinition.SideMode? = nil,
        targetMin: Double? = nil,
        targetMax: Double? = nil,
        safetyMax: Double? = nil,
        note: String = ""
    ) {
        self.exercise = exercise
        self.sets = sets
        self.reps = reps
        self.holdSeconds = holdSeconds
        self.restSeconds = restSeconds
        self.side = side
        self.targetMin = targetMin
        self.targetMax = targetMax
        self.safetyMax = safetyMax
        self.note = note
    }

    /// Checks the numbers against the library and returns the definition the coach follows: the target range,
    /// the safety limit on the primary angle, the hold and the side replaced by the prescription's.
    public func prescribed(from library: [ExerciseDefinition]) throws(CoachKitError) -> ExerciseDefinition {
        guard var definition = library.first(where: { $0.id == exercise }) else {
            throw CoachKitError(.unknownExercise, "unknown exercise '\(exercise)': `ptcoach exercises` lists the ids")
        }
        func invalid(_ text: String) -> CoachKitError { Self.invalid(definition.name, text) }
        try checkSetsRestAndNote(name: definition.name)
        if definition.isHold {
            guard reps == nil || reps == 1 else { throw invalid("a hold is prescribed in seconds, not repetitions") }
            if let holdSeconds {
                guard holdSeconds >= 1, holdSeconds <= 600 else {
                    throw invalid("a hold must last 1 to 600 seconds, got \(holdSeconds)")
                }
                definition.hold?.seconds = holdSeconds
            }
        } else {
            try checkRepetitions(name: definition.name, spec: definition.repetition)
            if let holdSeconds { definition.repetition?.holdSeconds = holdSeconds }
        }
        for (name, value) in [
            ("target minimum", targetMin), ("target maximum", targetMax), ("safety limit", safetyMax),
        ]
        where value.map({ !$0.isFinite || $0 < -180 || $0 > 180 }) == true {
            throw invalid("the \(name) must be an angle from -180 to 180 degrees")
        }
        switch (targetMin, targetMax) {
        case (let low?, let high?):
            guard low < high else { throw invalid("the target minimum \(low)° must be below the maximum \(high)°") }
            definition.target = .init(min: low, max: high)
        case (let low?, nil):
            definition.target = .init(min: low, max: max(low + 1, definition.target?.max ?? 180))
        case (nil, let high?):
            definition.target = .init(min: min(high - 1, definition.target?.min ?? -180), max: high)
        case (nil, nil):
            break
        }
        if let safetyMax {
            if let target = definition.target, safetyMax <= target.min {
                throw invalid("the safety limit \(safetyMax)° must be above the target's minimum \(target.min)°")
            }
            definition.safetyLimits.append(
                .init(
                    angle: definition.primaryAngle,
                    min: nil,
                    max: safetyMax,
                    warning: "Stop: past the \(Int(safetyMax.rounded()))° your therapist set"
                )
            )
        }
        if let side {
            guard side == .left || side == .right else { throw invalid("the side must be left or right") }
            definition.side = side
        }
        return definition
    }

    /// Checks the numbers against the hand library and returns the hand exercise the coach follows: the target band
    /// of the primary measure (in its unit: degrees, or hand lengths for the thumb's distance), the hold at the peak
    /// and the hand replaced by the prescription's. A hand exercise has no safety limit.
    public func prescribed(hands library: [HandExerciseDefinition]) throws(CoachKitError) -> HandExerciseDefinition {
        guard var definition = library.first(where: { $0.id == exercise }) else {
            throw CoachKitError(.unknownExercise, "unknown exercise '\(exercise)': `ptcoach exercises` lists the ids")
        }
        func invalid(_ text: String) -> CoachKitError { Self.invalid(definition.name, text) }
        try checkSetsRestAndNote(name: definition.name)
        try checkRepetitions(name: definition.name, spec: definition.repetition)
        if let holdSeconds { definition.repetition.holdSeconds = holdSeconds }
        guard safetyMax == nil else {
            throw invalid("a safety limit is for body exercises; leave it empty for a hand exercise")
        }
        let measure = definition.primary
        let bounds: ClosedRange<Double> = measure.isDegrees ? -180...360 : 0...3
        let unit = measure.isDegrees ? "degrees" : "hand lengths"
        for (name, value) in [("target minimum", targetMin), ("target maximum", targetMax)]
        where value.map({ !$0.isFinite || !bounds.contains($0) }) == true {
            throw invalid(
                "the \(name) must be \(measure.displayName) from \(Int(bounds.lowerBound)) to \(Int(bounds.upperBound)) \(unit)"
            )
        }
        switch (targetMin, targetMax) {
        case (let low?, let high?):
            guard low < high else { throw invalid("the target minimum \(low) must be below the maximum \(high)") }
            definition.target = .init(min: low, max: high)
        case (let low?, nil):
            definition.target = .init(min: low, max: max(low, definition.target?.max ?? bounds.upperBound))
        case (nil, let high?):
            definition.target = .init(min: min(high, definition.target?.min ?? bounds.lowerBound), max: high)
        case (nil, nil):
            break
        }
        if let side {
            guard let hand = HandExerciseDefinition.HandSide(rawValue: side.rawValue), hand != .either else {
                throw invalid("the side must be left or right")
            }
            definition.side = hand
        }
        return definition
    }

    // MARK: - Checks shared by body and hand exercises

    private static func invalid(_ name: String, _ text: String) -> CoachKitError {
        CoachKitError(.invalidDefinition, "\(name): \(text)")
    }

    private func checkSetsRestAndNote(name: String) throws(CoachKitError) {
        guard (1...20).contains(sets) else { throw Self.invalid(name, "sets must be 1 to 20, got \(sets)") }
        guard restSeconds >= 0, restSeconds <= 900 else {
            throw Self.invalid(name, "rest must be 0 to 900 seconds, got \(restSeconds)")
        }
        guard note.count <= 500 else { throw Self.invalid(name, "the note is over 500 characters") }
        // Line breaks and tabs are the note's own; a NUL or another control character is not text.
        guard !note.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\n" && $0 != "\t" || $0.value == 0x7F })
        else { throw Self.invalid(name, "the note must not contain control characters (such as a NUL)") }
    }

    /// Repetitions per set, and the hold at the peak against the exercise's repetition (`nil`: it has none).
    private func checkRepetitions(name: String, spec: ExerciseDefinition.RepetitionSpec?) throws(CoachKitError) {
        guard let reps, (1...100).contains(reps) else {
            throw Self.invalid(name, "repetitions per set must be 1 to 100, got \(reps.map(String.init) ?? "none")")
        }
        if let holdSeconds, spec?.acceptsHold(holdSeconds) != true {
            throw Self.invalid(
                name,
                "a hold at the peak must be above 0 and below \(Int(spec?.maximumSeconds ?? 0)) s"
            )
        }
    }
}

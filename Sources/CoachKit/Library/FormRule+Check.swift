extension ExerciseDefinition.FormRule {
    /// The first breach of this rule among a repetition's angle ranges (the maximum is checked before the
    /// minimum), or `nil` when the repetition keeps to it.
    ///
    /// With `at: .peak` the value at the peak is checked, with `.range` the change over the repetition;
    /// otherwise the extreme reached over the repetition.
    func firstIssue(in angles: [Repetition.AngleRange]) -> Repetition.FormIssue? {
        for range in angles where range.angle == angle {
            if let max {
                let value = checked(range, high: true)
                if value > max { return issue(value: value, limit: max) }
            }
            if let min {
                let value = checked(range, high: false)
                if value < min { return issue(value: value, limit: min) }
            }
        }
        return nil
    }

    /// The value of `range` a bound is checked against: the angle at the peak, the change over the
    /// repetition, or the extreme on the bound's side (`high` for a `max`).
    private func checked(_ range: Repetition.AngleRange, high: Bool) -> Double {
        switch at {
        case .peak: range.atPeak
        case .range: range.max - range.min
        case .throughout: high ? range.max : range.min
        }
    }

    /// How far a range is past this rule's bounds, with the values ``firstIssue(in:)`` checks: the value
    /// minus `max`, or `min` minus the value (the larger when both are set). Positive when the rule is
    /// broken (then `firstIssue` reports it), zero or negative when it is kept, by that much; `nil` when
    /// the range is of another angle or the rule has no bound. Used by the classifier's rule features.
    func margin(in range: Repetition.AngleRange) -> Double? {
        guard range.angle == angle else { return nil }
        var margin: Double?
        if let max { margin = checked(range, high: true) - max }
        if let min {
            let below = min - checked(range, high: false)
            margin = Swift.max(margin ?? below, below)
        }
        return margin
    }

    private func issue(value: Double, limit: Double) -> Repetition.FormIssue {
        Repetition.FormIssue(rule: id, cue: cue, angle: angle, value: value, limit: limit, priority: priority)
    }
}

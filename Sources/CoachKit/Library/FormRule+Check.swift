extension ExerciseDefinition.FormRule {
    /// The first breach of this rule among a repetition's angle ranges (the maximum is checked before the
    /// minimum), or `nil` when the repetition keeps to it.
    ///
    /// With `at: .peak` the value at the peak is checked; otherwise the extreme reached over the repetition.
    func firstIssue(in angles: [Repetition.AngleRange]) -> Repetition.FormIssue? {
        for range in angles where range.angle == angle {
            if let max {
                let value = at == .peak ? range.atPeak : range.max
                if value > max { return issue(value: value, limit: max) }
            }
            if let min {
                let value = at == .peak ? range.atPeak : range.min
                if value < min { return issue(value: value, limit: min) }
            }
        }
        return nil
    }

    /// How far a range is past this rule's bounds, with the values ``firstIssue(in:)`` checks: the value
    /// minus `max`, or `min` minus the value (the larger when both are set). Positive when the rule is
    /// broken (then `firstIssue` reports it), zero or negative when it is kept, by that much; `nil` when
    /// the range is of another angle or the rule has no bound. Used by the classifier's rule features.
    func margin(in range: Repetition.AngleRange) -> Double? {
        guard range.angle == angle else { return nil }
        var margin: Double?
        if let max { margin = (at == .peak ? range.atPeak : range.max) - max }
        if let min {
            let below = min - (at == .peak ? range.atPeak : range.min)
            margin = Swift.max(margin ?? below, below)
        }
        return margin
    }

    private func issue(value: Double, limit: Double) -> Repetition.FormIssue {
        Repetition.FormIssue(rule: id, cue: cue, angle: angle, value: value, limit: limit, priority: priority)
    }
}

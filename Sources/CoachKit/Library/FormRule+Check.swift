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

    private func issue(value: Double, limit: Double) -> Repetition.FormIssue {
        Repetition.FormIssue(rule: id, cue: cue, angle: angle, value: value, limit: limit, priority: priority)
    }
}

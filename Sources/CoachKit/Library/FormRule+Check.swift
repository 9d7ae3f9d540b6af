extension ExerciseDefinition.FormRule {
    /// How close to a rule's bound a measured value is too close to call, from one camera: a value within it (on
    /// either side of the bound) gives no verdict for the rule, since a wrong "good" is worse than "not checked"
    /// (issue 28 item 4).
    ///
    /// Fitted by `scripts/evaluate-feedback.py` (section "form, confident"): the smallest margin, in 0.5° steps,
    /// whose confident clip verdicts are at least 95 % right, on all 21 source recordings of the Pose Trainer and
    /// kaiakol form clips; fitted on the other recordings and scored on each held-out one it gives 0.943 right at
    /// 0.757 of the clips judged (`docs/form-verdicts.md`). A ratio's margin is in hundredths of the ratio.
    enum CloseCallMargin {
        /// For an angle in degrees.
        static let degrees = 4.0
        /// For a ratio (``AngleKind/isDegrees`` false): the same number of hundredths.
        static let ratio = degrees / 100
    }

    /// What a repetition's angle ranges say of this rule: kept, broken (the first breach, as
    /// ``firstIssue(in:)``), or too close to its bound to call (within ``CloseCallMargin`` on either side).
    enum Call: Sendable, Hashable {
        case kept
        case broken(Repetition.FormIssue)
        case tooClose
    }

    /// The call on this rule for `angles`: broken when some range is past a bound by more than the close-call
    /// margin, too close when the range nearest a bound (or past it) is within the margin, else kept (also when
    /// no range is of the rule's angle).
    func call(in angles: [Repetition.AngleRange]) -> Call {
        var furthest: Double?
        for range in angles {
            if let margin = margin(in: range) { furthest = Swift.max(furthest ?? margin, margin) }
        }
        guard let furthest else { return .kept }
        let tolerance = angle.isDegrees ? CloseCallMargin.degrees : CloseCallMargin.ratio
        if furthest > tolerance, let issue = firstIssue(in: angles) { return .broken(issue) }
        return furthest >= -tolerance ? .tooClose : .kept
    }

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

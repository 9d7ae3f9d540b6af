extension SessionSummary {
    /// The repetitions whose form was judged (verdict good or needs work): the only ones a summary may call the best
    /// or the one needing most work. A repetition "not checked" was not looked at, however well it seemed to go.
    public var judgedRepetitions: [Repetition] {
        repetitions.filter { $0.verdict != .notChecked }
    }

    /// Why the form of no repetition was checked, in words, when none was; `nil` when at least one repetition was
    /// judged. Every summary, page and report says "form not checked: <reason>" then, never "no issues" or "well
    /// done" (a set with nobody in view, or every pull-up "not checked", was praised).
    ///
    /// The reasons: "nobody was seen", "no repetitions counted", else the repetitions' own reasons
    /// (``Repetition/uncheckedReason``), each once, the most frequent first.
    ///
    /// ```swift
    /// summary.formNotCheckedReason  // "the camera view does not suit the exercise"
    /// ```
    public var formNotCheckedReason: String? {
        if repetitions.isEmpty {
            return secondsWithPerson <= 0 ? Self.nobodySeenReason : Self.noRepetitionsReason
        }
        guard judgedRepetitions.isEmpty else { return nil }
        var counts: [String: Int] = [:]
        var order: [String] = []
        for rep in repetitions {
            let reasons = (rep.uncheckedReason ?? Self.noRuleCheckedReason).split(separator: "; ").map(String.init)
            for reason in reasons {
                if counts[reason] == nil { order.append(reason) }
                counts[reason, default: 0] += 1
            }
        }
        // Most frequent first; equal counts in the order they came.
        let sorted = order.enumerated().sorted {
            (counts[$0.element]!, -$0.offset) > (counts[$1.element]!, -$1.offset)
        }
        return sorted.map(\.element).joined(separator: "; ")
    }

    /// The reason when nobody was seen in the set.
    public static let nobodySeenReason = "nobody was seen"
    /// The reason when nothing was counted.
    public static let noRepetitionsReason = "no repetitions counted"
    /// The reason of a repetition "not checked" that gives none.
    static let noRuleCheckedReason = "no form rule could be checked"
}

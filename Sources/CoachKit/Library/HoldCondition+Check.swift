extension ExerciseDefinition.HoldCondition {
    /// Whether the condition holds for an exercise worked on `side`, given its angle on the left and on the
    /// right (`nil` where not measured; the same value twice for a midline angle). The coaching session's hold
    /// timer and the recogniser's score of a hold ask the same question.
    ///
    /// A named side must be in the band; `either` means one side and not the other (both knees bent is a wall
    /// sit, not a single-leg stance); `both` means every side measured, and at least one.
    func isMet(on side: ExerciseDefinition.SideMode, left l: Double?, right r: Double?) -> Bool {
        let inL = l.map { $0 >= min && $0 <= max } ?? false
        let inR = r.map { $0 >= min && $0 <= max } ?? false
        guard angle.isSided else { return inL }
        switch side {
        case .left: return inL
        case .right: return inR
        case .either: return inL != inR
        case .both: return (inL || l == nil) && (inR || r == nil) && !(l == nil && r == nil)
        }
    }

    /// ``isMet(on:left:right:)`` for angles with NaN where not measured (the recogniser's mean sample).
    func isMet(on side: ExerciseDefinition.SideMode, left l: Double, right r: Double) -> Bool {
        isMet(on: side, left: l.isNaN ? nil : l, right: r.isNaN ? nil : r)
    }
}

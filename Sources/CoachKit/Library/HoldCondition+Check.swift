extension ExerciseDefinition.HoldCondition {
    /// Whether the condition holds for an exercise worked on `side`, given its angle on the left and on the
    /// right (NaN where not measured; the same value twice for a midline angle). The coaching session's hold
    /// timer and the recogniser's score of a hold ask the same question.
    ///
    /// A named side must be in the band; `either` means one side and not the other (both knees bent is a wall
    /// sit, not a single-leg stance); `both` means every side measured, and at least one.
    func isMet(on side: ExerciseDefinition.SideMode, left l: Double, right r: Double) -> Bool {
        let inL = !l.isNaN && l >= min && l <= max
        let inR = !r.isNaN && r >= min && r <= max
        guard angle.isSided else { return inL }
        switch side {
        case .left: return inL
        case .right: return inR
        case .either: return inL != inR
        case .both: return (inL || l.isNaN) && (inR || r.isNaN) && !(l.isNaN && r.isNaN)
        }
    }
}

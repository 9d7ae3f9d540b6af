/// How a repetition compares with its exercise's target range, in the words a patient reads.
///
/// ```swift
/// rep.targetText(for: squat)  // "82% of target", "target reached (+12°)", "past the target range (+8° beyond 120°)",
///                             // "range not measurable from this camera view"
/// ```
extension Repetition {
    /// The range of motion against the target: short of it as a percentage, reached as the degrees past the
    /// target's near edge, or past its far edge. A percentage above 100 ("188% of target") says nothing a
    /// patient can use, so it is never given; nor is a number when the camera view does not suit the exercise
    /// (``measurementReliable``). `nil` when the repetition or the exercise has no target.
    public func targetText(for exercise: ExerciseDefinition) -> String? {
        guard let rom = rangeOfMotion, let peak = peakAngle, let target = exercise.target,
            let spec = exercise.repetition
        else { return nil }
        // An angle the camera cannot measure from where it stands is not held against the target.
        guard measurementReliable else { return "range not measurable from this camera view" }
        let unit = exercise.primaryAngle.unit
        func number(_ x: Double) -> String {
            unit.isEmpty ? String(Double((x * 100).rounded()) / 100) : String(Int(x.rounded()))
        }
        if rom < 1 {
            return "\(Int((rom * 100).rounded(.down)))% of target"
        }
        let (near, far) = spec.direction > 0 ? (target.min, target.max) : (target.max, target.min)
        let beyond = spec.direction > 0 ? peak - far : far - peak
        if beyond >= 1 || (unit.isEmpty && beyond > 0) {
            return "past the target range (+\(number(beyond))\(unit) beyond \(number(far))\(unit))"
        }
        let extra = abs(peak - near)
        if extra >= 1 || (unit.isEmpty && extra > 0) { return "target reached (+\(number(extra))\(unit))" }
        return "target reached"
    }
}

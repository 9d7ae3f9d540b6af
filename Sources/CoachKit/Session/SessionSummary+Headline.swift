import Foundation

extension SessionSummary {
    /// The one line a report opens with: "Squat: 8 repetitions", or for a hold "Plank: held 31.0 s" (a hold is
    /// reported by the time held, not by its (no) repetitions). `name` replaces the exercise's name (e.g.
    /// "2 exercises").
    public func headline(isHold: Bool, name: String? = nil) -> String {
        let name = name ?? exerciseName ?? "Movement"
        guard isHold else { return "\(name): \(reps) repetition\(reps == 1 ? "" : "s")" }
        let longest = holds.map(\.heldSeconds).max()
        return "\(name): " + (longest.map { "held \(String(format: "%.1f", $0)) s" } ?? "not held")
    }
}

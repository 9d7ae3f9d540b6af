public import CoachKit
import CoachPipeline

extension SessionSummary {
    /// The part of a session that one exercise took: its repetitions, and the times it was being done.
    public struct ExercisePart {
        /// The library id; `nil` for movement counted without a recognised exercise.
        public var exercise: String?
        /// The summary narrowed to this exercise: its repetitions, their form issues, the safety warnings and
        /// holds within its times.
        public var summary: SessionSummary
        /// When the exercise was being done: its recognised segments and its repetitions.
        public var spans: [ClosedRange<Double>]

        public func contains(_ seconds: Double) -> Bool { spans.contains { $0.contains(seconds) } }
    }

    /// The session split by exercise, in the order they were first done; one part when every repetition
    /// is of one exercise (or there are none), so that a report shows one section per exercise done.
    ///
    /// ```swift
    /// for part in summary.exerciseParts(names: names) { print(part.summary.exerciseName, part.summary.reps) }
    /// ```
    public func exerciseParts(names: [String: String]) -> [ExercisePart] {
        var order: [String?] = []
        for rep in repetitions where !order.contains(rep.exercise) { order.append(rep.exercise) }
        guard order.count > 1 else { return [ExercisePart(exercise: exercise, summary: self, spans: [])] }
        var parts = order.map { id in
            let reps = repetitions.filter { $0.exercise == id }
            let indices = Set(reps.map(\.index))
            let spans =
                segments.filter { $0.exercise == id }.map { $0.startSeconds...max($0.startSeconds, $0.endSeconds) }
                + reps.map { $0.startSeconds...max($0.startSeconds, $0.endSeconds) }
            var part = self
            part.exercise = id
            part.exerciseName = id.map { names[$0] ?? $0 } ?? "Unrecognised movement"
            part.repetitions = reps
            part.reps = reps.count
            part.formIssues = formIssues.filter { indices.contains($0.repetition) }
            part.safetyWarnings = safetyWarnings.filter { warning in spans.contains { $0.contains(warning.seconds) } }
            part.holds = []
            return ExercisePart(exercise: id, summary: part, spans: spans)
        }
        // A hold goes with the exercise whose times it starts in, else with the first.
        for hold in holds {
            let k = parts.firstIndex { $0.contains(hold.startSeconds) } ?? 0
            parts[k].summary.holds.append(hold)
        }
        return parts
    }
}

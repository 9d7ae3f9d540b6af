import PoseKit

extension ExerciseLearner {
    /// The repetitions of a demonstration in which the movement counter found none (a short clip, a movement that
    /// is small against the whole body): each joint angle that moved is counted as a definition with it as the
    /// primary would count it, from its 10th to its 90th percentile and the other way round, and the angle that
    /// counts the most repetitions (the larger range among equals) gives them. Empty when none counts one.
    func angleRepetitions(
        _ frames: [PoseFrame],
        samples: [Sample],
        useDepth: Bool,
        width: Double,
        height: Double
    ) -> [(start: Double, end: Double)] {
        var best: (reps: [(start: Double, end: Double)], range: Double) = ([], 0)
        for angle in DemonstrationAnalysis.primaryCandidates {
            for side in angle.isSided ? [BodySide.left, .right] : [.left] {
                let values = samples.compactMap {
                    angle.measure(
                        $0.pose,
                        side: side,
                        useDepth: useDepth,
                        minimumConfidence: configuration.minimumJointConfidence
                    )
                }
                .sorted()
                guard values.count >= 8 else { continue }
                let low = DemonstrationAnalysis.percentile(values, 0.1)
                let high = DemonstrationAnalysis.percentile(values, 0.9)
                guard high - low >= configuration.minimumPrimaryRange else { continue }
                for (start, peak) in [(low, high), (high, low)] {
                    guard let definition = Self.probe(angle, start: start, peak: peak) else { continue }
                    var session = CoachingSession(
                        configuration: .analysis(exercise: definition, library: [], width: width, height: height)
                    )
                    for frame in frames { _ = session.ingest(frame) }
                    let reps = session.summary().repetitions.map { (start: $0.startSeconds, end: $0.endSeconds) }
                    if reps.count > best.reps.count || (reps.count == best.reps.count && high - low > best.range) {
                        best = (reps, high - low)
                    }
                }
            }
        }
        return best.reps
    }

    /// A bare definition counting `angle` from `start` to `peak`, on whichever side moves.
    static func probe(_ angle: AngleKind, start: Double, peak: Double) -> ExerciseDefinition? {
        let file = LearnedExercise.Schema(
            id: "probe",
            name: "Probe",
            summary: "",
            view: "any",
            posture: "any",
            side: angle.isSided ? "either" : "both",
            angles: [angle.rawValue],
            primary: angle.rawValue,
            repetition: .init(start: start, peak: peak, towardPeak: "concentric"),
            target: .init(min: min(start, peak), max: max(start, peak)),
            formRules: []
        )
        return try? ExerciseDefinition(jsonText: file.jsonText(), file: "probe.json")
    }
}

public import PoseKit

extension ReportInput {
    /// The report's numbers as JSON (stills left out).
    public var jsonValue: JSONValue {
        func number(_ value: Double?) -> JSONValue { value.map { .number($0) } ?? .null }
        func range(_ value: ClosedRange<Double>?) -> JSONValue {
            guard let value else { return .null }
            // An open end (±infinity) is null: JSON has no infinity.
            return .array([value.lowerBound, value.upperBound].map { $0.isFinite ? .number($0) : .null })
        }
        let exercises: [JSONValue] = exercises.map { exercise in
            let stats = ExerciseStatistics(exercise)
            return .object([
                "name": .string(exercise.name),
                "angleName": .string(exercise.angleName),
                "targetRange": range(exercise.targetRange),
                "rangeOfMotionUnit": .string(exercise.rangeOfMotionUnit.rawValue),
                "targetDegrees": range(exercise.targetDegrees),
                "prescribedReps": number(exercise.prescribedReps.map(Double.init)),
                "prescribedHoldSeconds": number(exercise.prescribedHoldSeconds),
                "reps": .number(Double(stats.repsDone)),
                "repsInTarget": .number(Double(stats.repsInTarget)),
                "repsMeasured": .number(Double(stats.repsMeasured)),
                "meanRangeOfMotion": number(stats.meanRangeOfMotion),
                "formIssues": .number(Double(stats.formIssueCount)),
                "safetyWarnings": .number(Double(stats.safetyCount)),
                "repetitions": .array(
                    exercise.repetitions.map { rep in
                        .object([
                            "index": .number(Double(rep.index)),
                            "startSeconds": .number(rep.startSeconds),
                            "endSeconds": .number(rep.endSeconds),
                            "peakDegrees": number(rep.peakDegrees),
                            "rangeOfMotion": number(rep.rangeOfMotion),
                            "tempoUpSeconds": number(rep.tempoUpSeconds),
                            "tempoDownSeconds": number(rep.tempoDownSeconds),
                            "heldSeconds": number(rep.heldSeconds),
                            "verdict": .string(rep.verdict.rawValue),
                            "issues": .array(rep.issues.map { .string($0) }),
                        ])
                    }
                ),
                "events": .array(
                    exercise.events.map {
                        .object([
                            "seconds": .number($0.seconds), "text": .string($0.text), "safety": .bool($0.isSafety),
                        ])
                    }
                ),
                "holdSeconds": .array(exercise.holdSeconds.map { .number($0) }),
            ])
        }
        return .object([
            "title": .string(title),
            "subtitle": subtitle.map { .string($0) } ?? .null,
            "exercises": .array(exercises),
        ])
    }
}

import Foundation

extension ReportInput {
    /// The report's numbers as one line of JSON (stills left out), keys sorted; an unknown value is `null`.
    public var jsonText: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Optional and finite numbers, strings and booleans only: encoding cannot fail.
        guard let data = try? encoder.encode(ReportJSON(self)) else { preconditionFailure("the report did not encode") }
        return String(decoding: data, as: UTF8.self)
    }
}

/// The wire shape of `--report OUT.json` (without a session's own summary): `ReportInput`'s numbers, each exercise
/// with its statistics, repetitions and events.
private struct ReportJSON: Encodable {
    var title: String
    var subtitle: String?
    var exercises: [Exercise]

    init(_ input: ReportInput) {
        title = input.title
        subtitle = input.subtitle
        exercises = input.exercises.map(Exercise.init)
    }

    struct Exercise: Encodable {
        var name: String
        var angleName: String
        var targetRange: [Double?]?
        var rangeOfMotionUnit: String
        var targetDegrees: [Double?]?
        var prescribedReps: Int?
        var prescribedHoldSeconds: Double?
        var reps: Int
        var repsInTarget: Int
        var repsMeasured: Int
        var meanRangeOfMotion: Double?
        var formIssues: Int
        var safetyWarnings: Int
        var repetitions: [Repetition]
        var events: [Event]
        var holdSeconds: [Double?]

        init(_ exercise: ReportInput.Exercise) {
            let stats = ExerciseStatistics(exercise)
            name = exercise.name
            angleName = exercise.angleName
            targetRange = Self.range(exercise.targetRange)
            rangeOfMotionUnit = exercise.rangeOfMotionUnit.rawValue
            targetDegrees = Self.range(exercise.targetDegrees)
            prescribedReps = exercise.prescribedReps
            prescribedHoldSeconds = exercise.prescribedHoldSeconds.finite
            reps = stats.repsDone
            repsInTarget = stats.repsInTarget
            repsMeasured = stats.repsMeasured
            meanRangeOfMotion = stats.meanRangeOfMotion.finite
            formIssues = stats.formIssueCount
            safetyWarnings = stats.safetyCount
            repetitions = exercise.repetitions.map(Repetition.init)
            events = exercise.events.map { Event(seconds: $0.seconds.finite, text: $0.text, safety: $0.isSafety) }
            holdSeconds = exercise.holdSeconds.map(\.finite)
        }

        /// An open end (±infinity) is null: JSON has no infinity.
        static func range(_ value: ClosedRange<Double>?) -> [Double?]? {
            value.map { [$0.lowerBound, $0.upperBound].map { $0.isFinite ? $0 : nil } }
        }

        // Every key is written, an unknown value as null (as the report's readers expect).
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(angleName, forKey: .angleName)
            try container.encode(targetRange, forKey: .targetRange)
            try container.encode(rangeOfMotionUnit, forKey: .rangeOfMotionUnit)
            try container.encode(targetDegrees, forKey: .targetDegrees)
            try container.encode(prescribedReps, forKey: .prescribedReps)
            try container.encode(prescribedHoldSeconds, forKey: .prescribedHoldSeconds)
            try container.encode(reps, forKey: .reps)
            try container.encode(repsInTarget, forKey: .repsInTarget)
            try container.encode(repsMeasured, forKey: .repsMeasured)
            try container.encode(meanRangeOfMotion, forKey: .meanRangeOfMotion)
            try container.encode(formIssues, forKey: .formIssues)
            try container.encode(safetyWarnings, forKey: .safetyWarnings)
            try container.encode(repetitions, forKey: .repetitions)
            try container.encode(events, forKey: .events)
            try container.encode(holdSeconds, forKey: .holdSeconds)
        }

        enum CodingKeys: String, CodingKey {
            case name, angleName, targetRange, rangeOfMotionUnit, targetDegrees, prescribedReps
            case prescribedHoldSeconds, reps, repsInTarget, repsMeasured, meanRangeOfMotion, formIssues
            case safetyWarnings, repetitions, events, holdSeconds
        }
    }

    struct Repetition: Encodable {
        var index: Int
        var startSeconds: Double?
        var endSeconds: Double?
        var peakDegrees: Double?
        var rangeOfMotion: Double?
        var tempoUpSeconds: Double?
        var tempoDownSeconds: Double?
        var heldSeconds: Double?
        var verdict: String
        var issues: [String]

        init(_ rep: ReportInput.Repetition) {
            index = rep.index
            startSeconds = rep.startSeconds.finite
            endSeconds = rep.endSeconds.finite
            peakDegrees = rep.peakDegrees.finite
            rangeOfMotion = rep.rangeOfMotion.finite
            tempoUpSeconds = rep.tempoUpSeconds.finite
            tempoDownSeconds = rep.tempoDownSeconds.finite
            heldSeconds = rep.heldSeconds.finite
            verdict = rep.verdict.rawValue
            issues = rep.issues
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(index, forKey: .index)
            try container.encode(startSeconds, forKey: .startSeconds)
            try container.encode(endSeconds, forKey: .endSeconds)
            try container.encode(peakDegrees, forKey: .peakDegrees)
            try container.encode(rangeOfMotion, forKey: .rangeOfMotion)
            try container.encode(tempoUpSeconds, forKey: .tempoUpSeconds)
            try container.encode(tempoDownSeconds, forKey: .tempoDownSeconds)
            try container.encode(heldSeconds, forKey: .heldSeconds)
            try container.encode(verdict, forKey: .verdict)
            try container.encode(issues, forKey: .issues)
        }

        enum CodingKeys: String, CodingKey {
            case index, startSeconds, endSeconds, peakDegrees, rangeOfMotion, tempoUpSeconds, tempoDownSeconds
            case heldSeconds, verdict, issues
        }
    }

    struct Event: Encodable {
        var seconds: Double?
        var text: String
        var safety: Bool
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        try container.encode(subtitle, forKey: .subtitle)
        try container.encode(exercises, forKey: .exercises)
    }

    enum CodingKeys: String, CodingKey { case title, subtitle, exercises }
}

extension Double {
    /// The number, or `nil` (JSON's null) for NaN and ±infinity, which JSON cannot hold.
    fileprivate var finite: Double? { isFinite ? self : nil }
}

extension Double? {
    fileprivate var finite: Double? { flatMap(\.finite) }
}

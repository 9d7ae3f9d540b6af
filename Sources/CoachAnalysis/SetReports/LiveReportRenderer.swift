public import CoachKit
public import CoachStore
import Foundation
import MediaIO
import PoseKit

/// The reports of saved live sets: the same writers (`ReportInput`, HTML and PDF) as `ptcoach analyze --report`; a
/// hand set's section as `analyze --exercise finger-flexion --report` makes it (a chart per finger). `ptcoach serve`
/// gives it to the server as its `ReportRendering` port.
///
/// ```swift
/// let html = try LiveReportRenderer(library: .bundled()).report([reported], title: "Squat", subtitle: "", format: "html")
/// ```
public struct LiveReportRenderer: Sendable {
    let library: ExerciseLibrary
    var hands: [HandExerciseDefinition] = []

    public init(library: ExerciseLibrary, hands: [HandExerciseDefinition] = []) {
        self.library = library
        self.hands = hands
    }

    /// The report's bytes for one set, or for several (one section each); `format` is `html` or `pdf`.
    public func report(_ sets: [ReportedSet], title: String, subtitle: String, format: String) throws -> [UInt8] {
        try write(
            ReportInput(title: title, subtitle: subtitle, exercises: sections(sets), summaryJSON: nil),
            sets,
            format
        )
    }

    /// A patient's date range as a clinical summary (``ClinicalSummary``), then the sets' sections, each dated.
    public func summary(
        _ sets: [ReportedSet],
        prescribedSets: Int?,
        title: String,
        subtitle: String,
        format: String
    ) throws -> [UInt8] {
        var input = ReportInput(title: title, subtitle: subtitle, exercises: sections(sets, dated: true))
        (input.overviewLines, input.overviewTables) = ClinicalSummary(sets: sets, prescribedSets: prescribedSets).parts
        return try write(input, sets, format)
    }

    /// One section per set, in order; `dated`: each headed with its date and time (several sets).
    func sections(_ sets: [ReportedSet], dated: Bool = false) -> [ReportInput.Exercise] {
        sets.map { reported in
            var part = section(reported)
            if dated { part.name += " · " + ClinicalSummary.when(reported.set.startedAt) }
            return part
        }
    }

    private func section(_ reported: ReportedSet) -> ReportInput.Exercise {
        if let hand = reported.hand { return section(hand, of: reported) }
        // The prescription the set followed (its target band and stop-past limit), not the library's default.
        // A clinic exercise (learned after the server started) is not in `library`: the server sends its definition.
        let known = library.exercises + (reported.definition.map { [$0] } ?? [])
        let followed = Self.followed(reported.set, library: known)
        var definition = followed ?? reported.summary.exercise.flatMap { library[$0] } ?? reported.definition
        if let hold = reported.set.prescribedHoldSeconds { definition?.repetition?.holdSeconds = hold }
        var section = ReportInput.Exercise(
            summary: reported.summary,
            prescribedReps: reported.set.prescribedReps,
            prescribedHoldSeconds: reported.set.prescribedHoldSeconds,
            angleSeries: reported.angleSeries.map {
                ReportInput.AngleSample(seconds: $0.seconds, degrees: $0.degrees)
            },
            definition: definition
        )
        if followed != nil {
            section.limitDegrees = reported.set.prescription?.safetyMax
            section.prescriptionText = Self.describe(reported.set, definition: definition)
        }
        return section
    }

    private func write(_ input: ReportInput, _ sets: [ReportedSet], _ format: String) throws -> [UInt8] {
        var input = input
        input.summaryJSON = sets.count == 1 ? sets[0].set.summaryJSON : nil
        switch format {
        case "pdf":
            let path = NSTemporaryDirectory() + "ptcoach-report-\(UUID().uuidString).pdf"
            defer { unlink(path) }
            try ReportWriter.write(input, to: path, overwrite: true)
            return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        default:
            return Array(ReportWriter.html(input).utf8)
        }
    }

    /// The definition as the set's prescription had it, when the set followed one of this exercise.
    static func followed(_ set: SetRecord, library: [ExerciseDefinition]) -> ExerciseDefinition? {
        guard let prescription = set.prescription, set.exercise == nil || set.exercise == prescription.exercise
        else { return nil }
        return try? prescription.prescribed(from: library)
    }

    /// "Programme version 2, set 1 of 3: 10 repetitions, target 60–80°, stop past 85°".
    static func describe(_ set: SetRecord, definition: ExerciseDefinition?) -> String? {
        guard let prescription = set.prescription else { return nil }
        var parts: [String] = []
        if let reps = set.prescribedReps { parts.append("\(reps) repetitions") }
        if let hold = set.prescribedHoldSeconds { parts.append("hold \(String(format: "%g", hold)) s") }
        if let band = definition?.targetBand {
            parts.append("target \(Int(band.lowerBound.rounded()))–\(Int(band.upperBound.rounded()))°")
        }
        if let limit = prescription.safetyMax { parts.append("stop past \(Int(limit.rounded()))°") }
        var heading = "Prescribed"
        if let version = set.programmeVersion { heading += " (programme version \(version)" }
        if let number = set.setNumber { heading += ", set \(number) of \(prescription.sets)" }
        if set.programmeVersion != nil { heading += ")" }
        return heading + ": " + parts.joined(separator: ", ")
    }

    /// A hand set's section: the primary measure and each finger over time, from the saved series.
    private func section(_ hand: HandSessionSummary, of reported: ReportedSet) -> ReportInput.Exercise {
        var definition = hands.first { $0.id == hand.exercise }
        if let hold = reported.set.prescribedHoldSeconds { definition?.repetition.holdSeconds = hold }
        var fingers: [Finger: [ReportInput.AngleSample]] = [:]
        for sample in reported.angleSeries {
            for (finger, value) in sample.fingers {
                fingers[finger, default: []].append(.init(seconds: sample.seconds, degrees: value))
            }
        }
        return ReportInput.Exercise(
            hand: hand,
            exercise: definition,
            angleSeries: reported.angleSeries.map { .init(seconds: $0.seconds, degrees: $0.degrees) },
            fingerSeries: fingers,
            prescribedReps: reported.set.prescribedReps
        )
    }
}

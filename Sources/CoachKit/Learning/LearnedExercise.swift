import Foundation
public import PoseKit

/// An exercise definition learned from one demonstration (``ExerciseLearner``), with what it was learned from.
///
/// ```swift
/// let learned = try ExerciseLearner().learn(frames, width: 640, height: 480, name: "Step-up")
/// try learned.jsonText().write(toFile: "step-up.json", atomically: true, encoding: .utf8)
/// ```
public struct LearnedExercise: Sendable {
    /// How much one angle moved in the demonstration.
    public struct AngleScore: Sendable, Hashable {
        public var angle: AngleKind
        /// The side measured (`nil` for midline angles).
        public var side: BodySide?
        /// The lower quartile of its per-repetition ranges (p95 − p5 of each repetition), in degrees.
        public var consistentRange: Double
        /// The median of its per-repetition ranges, in degrees.
        public var medianRange: Double
    }

    /// The repetitions' timing: medians over the demonstration.
    public struct Tempo: Sendable, Hashable {
        public var repetitionSeconds: Double
        public var toPeakSeconds: Double
        public var atPeakSeconds: Double
        public var fromPeakSeconds: Double
    }

    /// The definition, as the library's own validation read it back from ``jsonText()``.
    public var definition: ExerciseDefinition
    /// The definition file, in the library's format (`Resources/Exercises/SCHEMA.md`).
    let file: Schema
    /// How many repetitions the demonstration showed.
    public var repetitions: Int
    /// The side the primary angle was measured on in the demonstration (`nil` for a midline angle).
    public var measuredSide: BodySide?
    /// The view the camera had of the demonstrator, most of the time.
    public var view: CoachingSession.View
    public var tempo: Tempo
    /// Every angle measured, largest consistent range first (the primary angle's side first among its own).
    public var scores: [AngleScore]

    /// The definition file's text: pretty-printed JSON with sorted keys, ending in a newline.
    public func jsonText() -> String { file.jsonText() }

    /// A few lines for the therapist: what was learned and from what.
    public var description: String {
        let d = definition
        func number(_ value: Double) -> String { String(format: "%g", value) }
        var lines = [
            "\(d.name) (\(d.id)): learned from \(repetitions) repetition\(repetitions == 1 ? "" : "s"), "
                + "about \(String(format: "%.1f", tempo.repetitionSeconds)) s each "
                + "(\(String(format: "%.1f", tempo.toPeakSeconds)) s to the peak, "
                + "\(String(format: "%.1f", tempo.atPeakSeconds)) s there, "
                + "\(String(format: "%.1f", tempo.fromPeakSeconds)) s back)",
            "primary angle: \(d.primaryAngle.displayName) (\(d.primaryAngle.rawValue)), measured on the "
                + (measuredSide.map { "\($0.rawValue) side" } ?? "midline")
                + "; \(number(d.repetition?.start ?? 0))° at rest, \(number(d.repetition?.peak ?? 0))° at the peak "
                + "(\(d.repetition?.towardPeak.rawValue ?? "?") on the way there)",
            "target band: \(number(d.target?.min ?? 0))–\(number(d.target?.max ?? 0))°; view \(d.view.rawValue) "
                + "(seen \(view.rawValue)); side \(d.side.rawValue); posture \(d.posture.rawValue)",
        ]
        for rule in d.formRules {
            lines.append(
                "form rule \(rule.id): \(rule.angle.rawValue) range ≤ \(number(rule.max ?? 0))° — \"\(rule.cue)\""
            )
        }
        let others = scores.prefix(4).map {
            "\($0.angle.rawValue)\($0.side.map { " \($0.rawValue)" } ?? "") \(Int($0.consistentRange.rounded()))°"
        }
        lines.append("largest consistent ranges: " + others.joined(separator: ", "))
        if repetitions < 3 {
            lines.append(
                "note: only \(repetitions) repetition\(repetitions == 1 ? "" : "s"); 3–5 show better what every repetition shares"
            )
        }
        return lines.joined(separator: "\n")
    }

    // MARK: - The file

    /// A definition file as the schema spells it (what `ExerciseDefinition(jsonText:file:)` reads).
    struct Schema: Encodable, Sendable {
        struct Repetition: Encodable, Sendable {
            var start: Double
            var peak: Double
            var towardPeak: String
            var maximumSeconds: Double?
            var holdSeconds: Double?
        }
        struct Target: Encodable, Sendable {
            var min: Double
            var max: Double
        }
        struct Rule: Encodable, Sendable {
            var id: String
            var angle: String
            var at: String
            var max: Double
            var cue: String
            var priority: Int
        }
        var id: String
        var name: String
        var summary: String
        var view: String
        var posture: String
        var side: String
        var kind = "reps"
        var angles: [String]
        var primary: String
        var repetition: Repetition
        var target: Target
        var formRules: [Rule]

        /// Pretty-printed JSON with sorted keys, ending in a newline.
        func jsonText() -> String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            // Encoding plain strings, numbers and arrays cannot fail.
            let data = (try? encoder.encode(self)) ?? Data()
            return String(decoding: data, as: UTF8.self) + "\n"
        }
    }
}

public import CoachKit
import Foundation

/// The JSON lines `ptcoach predict --json` prints: one per file, `{"file","label","confidence","warning"}` in that
/// (documented) order, a hand-pose model's `"frames"` after them; and the `{"report": …}` line.
///
/// ```swift
/// print(PredictionJSON.line(file: "a.jsonl", label: "squat", confidence: 0.91234, warning: nil))
/// // {"file":"a.jsonl","label":"squat","confidence":0.9123,"warning":null}
/// ```
public enum PredictionJSON {
    /// One file's prediction; `confidence` (and each frame's time and confidence) to four decimals.
    public static func line(
        file: String,
        label: String,
        confidence: Double,
        warning: String?,
        frames: [HandClassifier.FramePrediction]? = nil
    ) -> String {
        // Written key by key: an encoder keeps no order but the sorted one.
        var line =
            "{\"file\":\(text(file)),\"label\":\(text(label)),\"confidence\":\(text(rounded(confidence))),"
            + "\"warning\":\(text(warning))"
        if let frames {
            let encoded = frames.map {
                Frame(t: rounded($0.seconds), label: $0.label, confidence: rounded($0.confidence))
            }
            line += ",\"frames\":\(text(encoded))"
        }
        return line + "}"
    }

    /// A classification report as one line, `{key: {accuracy, weightedF1, macroF1, classes, labels, confusion}}`.
    public static func report(_ report: ClassificationReport, key: String = "report") -> String {
        let classes = report.labels.indices.map { k in
            Report.Class(
                label: report.labels[k],
                precision: report.precision(k),
                recall: report.recall(k),
                f1: report.f1(k),
                support: report.support(k)
            )
        }
        let body = Report(
            accuracy: report.accuracy,
            weightedF1: report.weightedF1,
            macroF1: report.macroF1,
            classes: classes,
            labels: report.labels,
            confusion: report.confusion
        )
        return text([key: body])
    }

    private struct Frame: Encodable {
        var t: Double
        var label: String
        var confidence: Double
    }

    private struct Report: Encodable {
        struct Class: Encodable {
            var label: String
            var precision: Double
            var recall: Double
            var f1: Double
            var support: Int
        }
        var accuracy: Double
        var weightedF1: Double
        var macroF1: Double
        var classes: [Class]
        var labels: [String]
        var confusion: [[Int]]
    }

    private static func rounded(_ value: Double) -> Double { (value * 10000).rounded() / 10000 }

    /// `value` as compact JSON, keys sorted; an optional's `nil` as `null`. A value that cannot be JSON (a NaN
    /// score) is `null`.
    private static func text(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }
}

import CoachAnalysis
import CoachKit
import CoachPipeline
import CoachTestSupport
import Foundation
import MediaIO
import Testing

@testable import PoseKit
@testable import ptcoach

/// One judgement per repetition, shown the same way everywhere: for every repetition of a few real recordings, the
/// text output, the JSON, the HTML report's row and the overlay's range gauge agree on the form verdict, the range
/// against the target and its degrees (a push-up was "good" in text and report while nothing was checked; a pull-up
/// "past the target range" in the text and "in target" in the report).
struct VerdictConsistencyTests {
    @Test(
        "Text, JSON, report and overlay agree on each repetition",
        arguments: [
            // Short of the target and reached it (UI-PRMD, side view, depth).
            ("pose-tracks/ui-prmd/m02_s01_side.jsonl", "hurdle-step"),
            // Past the target, good form; short of it, a form fault (kaiakol push-ups).
            ("pose-tracks/kaiakol/pushup_correct_002.jsonl", "push-up"),
            ("pose-tracks/kaiakol/pushup_correct_001.jsonl", "push-up"),
            // A view that does not suit the exercise: range not measurable, form not checked.
            ("pose-tracks/kaiakol/squat_correct_001.jsonl", "squat"),
        ]
    )
    func agree(file: String, exercise id: String) throws {
        let path = try SharedData.path(file)
        let library = try ExerciseLibrary.bundled()
        let exercise = try library.exercise(id: id)
        var source = try PoseTrackFrameSource(path: path)
        var session = CoachingSession(
            configuration: .analysis(
                exercise: exercise,
                library: library.exercises,
                width: source.width,
                height: source.height
            )
        )
        // The overlay at the frame each repetition is reported.
        var gaugeAtRepetition: [Int: Bool] = [:]
        while let frame = try source.next() {
            for event in session.ingest(frame) {
                guard case .repCompleted(let rep) = event else { continue }
                let overlay = OverlayState(snapshot: session.snapshot, people: frame.poses)
                gaugeAtRepetition[rep.index] = overlay.rangeOfMotion != nil
            }
        }
        let summary = session.summary()
        try #require(!summary.repetitions.isEmpty, "\(file): no repetition counted")

        let text = BodyAnalysis.report(summary, file: file)
        let json = try #require(try JSONValue.parse(summary.jsonText(file: file)).objectValue)
        let jsonReps = try #require(json["repetitions"]?.arrayValue)
        let html = ReportWriter.html(ReportInput(title: "t", exercises: [ReportInput.Exercise(summary: summary)]))
        let lines = text.split(separator: "\n").map(String.init)
        for (rep, jsonRep) in zip(summary.repetitions, jsonReps) {
            let range = try #require(rep.range, "\(file) rep \(rep.index): no range judgement")
            let line = try #require(lines.first { $0.hasPrefix("  rep \(rep.index): ") })
            // The text says the judgement's words, with the peak in degrees, and the form verdict in words.
            #expect(line.contains(range.text), "\(line)")
            #expect(line.contains(rep.verdict.text), "\(line)")
            if range.status != .notMeasurable { #expect(line.contains(range.format(range.peak)), "\(line)") }
            // The JSON carries the same words and status.
            #expect(jsonRep["range"]?["text"]?.stringValue == range.text)
            #expect(jsonRep["range"]?["status"]?.stringValue == range.status.rawValue)
            #expect(jsonRep["verdict"]?.stringValue == rep.verdict.rawValue)
            // The angle in the text is the measured side's: the one whose value at the peak is the JSON's peakAngle.
            if let measured = rep.measuredPrimaryRange, measured.isAnatomicallyPossible {
                let side = measured.side.map { " \($0.rawValue)" } ?? ""
                let words =
                    "\(measured.angle.displayName)\(side) \(String(format: "%.0f", measured.min))–"
                    + "\(String(format: "%.0f", measured.max))"
                #expect(line.contains(words), "\(line)")
                if let peak = jsonRep["peakAngle"]?.doubleValue {
                    #expect(measured.atPeak == peak || measured.max == peak || measured.min == peak, "\(line)")
                }
            }
            // The report's row: its class is the same judgement.
            let expected: String =
                if !rep.safetyBreaches.isEmpty { "unsafe" } else {
                    switch range.status {
                    case .short: "short"
                    case .beyond: "beyond"
                    case .reached: rep.verdict == .needsWork ? "needsWork" : "within"
                    case .notMeasurable:
                        switch rep.verdict {
                        case .good: "goodForm"
                        case .needsWork: "needsWork"
                        case .notChecked: "notChecked"
                        }
                    }
                }
            #expect(
                html.contains("<tr class=\"\(expected)\"><td>\(rep.index)</td>"),
                "\(file) rep \(rep.index): \(expected)"
            )
            // Never "good" with nothing checked; never a gauge for a range that is not measurable.
            if rep.verdict == .good {
                #expect(rep.uncheckedRules.count < exercise.formRules.count || exercise.formRules.isEmpty)
            }
            #expect(gaugeAtRepetition[rep.index] == (range.status != .notMeasurable), "\(file) rep \(rep.index)")
        }
        if summary.repetitions.allSatisfy({ $0.verdict == .notChecked }) {
            // With the reason, never praise, and no repetition called the best (none was judged).
            let reason = try #require(summary.formNotCheckedReason)
            #expect(text.contains("form not checked: \(reason)") && !text.contains("good form: "), "\(text)")
            // The report does not call it "no form issues" either (nobody looked), and says why.
            #expect(html.contains("form not checked: \(reason)") && !html.contains("no form issues"), "\(file)")
            #expect(
                AnalysisOutputs.stillRepetitions(summary.repetitions).allSatisfy {
                    $0.caption != "Best repetition" && $0.caption != "Needs most work"
                }
            )
        }
        // No target band on the angle chart where no repetition's range could be measured.
        let section = ReportInput.Exercise(summary: summary, definition: exercise)
        if summary.repetitions.allSatisfy({ $0.range?.status == .notMeasurable }) {
            #expect(section.targetDegrees == nil, "\(file)")
        } else {
            #expect(section.targetDegrees != nil, "\(file)")
        }
    }
}

/// With no exercise given, the text output names the exercise recognised only at or above the fitted confidence;
/// below it, it says it cannot tell and judges no repetition against the guess.
struct AnalyzeUnsureRecognitionTests {
    static func summary() throws -> SessionSummary {
        let path = try SharedData.path("pose-tracks/kaiakol/pushup_correct_001.jsonl")
        var source = try PoseTrackFrameSource(path: path)
        let library = try ExerciseLibrary.bundled()
        var session = CoachingSession(
            configuration: .analysis(
                exercise: nil,
                library: library.exercises,
                width: source.width,
                height: source.height
            )
        )
        while let frame = try source.next() { _ = session.ingest(frame) }
        return session.summary()
    }

    @Test func belowTheThresholdTheTextSaysItCannotTell() throws {
        let recognised = try Self.summary()
        try #require(recognised.exerciseSource == .recognized && !recognised.repetitions.isEmpty)
        let name = try #require(recognised.exerciseName)
        var low = recognised
        for i in low.segments.indices { low.segments[i].confidence = RecognitionConfidence.fitted.namedAtLeast - 0.1 }
        let text = BodyAnalysis.report(low, file: "clip")
        let first = try #require(text.split(separator: "\n").first)
        #expect(first.hasPrefix("clip: \(RecognitionConfidence.unsureSentence)"), "\(first)")
        #expect(!first.contains(name), "\(first)")
        for line in text.split(separator: "\n") where line.hasPrefix("  rep ") {
            #expect(line.hasSuffix("not checked (\(BodyAnalysis.unsureReason))"), "\(line)")
        }
    }

    @Test func atTheThresholdTheTextNamesTheExercise() throws {
        var high = try Self.summary()
        for i in high.segments.indices { high.segments[i].confidence = RecognitionConfidence.fitted.namedAtLeast }
        let text = BodyAnalysis.report(high, file: "clip")
        let name = try #require(high.exerciseName)
        #expect(text.hasPrefix("clip: \(name) ("), "\(text)")
        #expect(!text.contains(RecognitionConfidence.unsureSentence))
    }
}

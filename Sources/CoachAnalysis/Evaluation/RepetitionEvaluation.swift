import CoachKit
import CoachPipeline
import Foundation
import PoseKit

/// `ptcoach evaluate-reps`: repetition counting and recognition accuracy over a manifest of labelled pose-tracks
/// (the command's help says what is measured). Each file's session runs with the exercise given and without.
///
/// ```swift
/// try RepetitionEvaluation.evaluate(manifest: "reps.csv", options: .init(), output: { print($0) })
/// ```
public enum RepetitionEvaluation {
    /// What to run and what to print besides the metrics.
    public struct Options: Sendable {
        /// Comma-separated subjects reported apart as held out.
        public var heldOut = "s04,s05"
        public var perFile = false
        public var recognitionOnly = false
        /// The exercise every file is labelled with (over the header's label).
        public var expect: String?
        public var noDepth = false
        /// Every frame's state, per file.
        public var trace = false
        /// The recognizer's reasoning at its last decision, per file.
        public var explain = false

        public init() {}
    }

    public struct Result {
        var file: String
        var exercise: String
        var subject: String
        var view: String
        var truth: Int
        var given: Int
        var agnostic: Int
        var recognized: String?
        /// What each counting signal found with the exercise given (diagnostics).
        var signals: String = ""
        /// The recognizer's own last decision over the file (alone, no session), with --recognition-only.
        var last: String?
    }

    public static func evaluate(
        manifest: String,
        options: Options,
        output: @escaping (String) -> Void
    ) throws {
        let text: String
        do {
            text = try String(contentsOfFile: manifest, encoding: .utf8)
        } catch {
            throw AnalysisError("cannot read the manifest '\(manifest)': check the path")
        }
        let base = (manifest as NSString).deletingLastPathComponent
        let library = try BodyAnalysis.loadLibrary(directory: nil)
        var results: [Result] = []
        let rows: [CSVRows.Row]
        do {
            rows = try CSVRows.parse(text)
        } catch {
            throw AnalysisError("\(manifest):\(error.line): \(error.message)")
        }
        for row in rows.dropFirst() {  // the header
            results.append(
                try evaluateRow(row, manifest: manifest, base: base, library: library, options: options, output: output)
            )
        }
        guard !results.isEmpty else { throw AnalysisError("\(manifest): no rows after the header") }
        printMetrics(results, library: library, options: options, output: output)
    }

    /// One manifest row: its pose-track counted with the exercise given and with none (or only recognised).
    private static func evaluateRow(
        _ row: CSVRows.Row,
        manifest: String,
        base: String,
        library: ExerciseLibrary,
        options: Options,
        output: @escaping (String) -> Void
    ) throws -> Result {
        let number = row.line - 1
        let line = row.text
        let fields = row.fields
        let truth = fields.count >= 2 ? Int(fields[1]) : nil
        guard options.recognitionOnly || (truth ?? 0) > 0 else {
            throw AnalysisError(
                "\(manifest):\(number + 1): expected `path,reps` with a positive whole number of reps, got '\(line)'"
            )
        }
        let path = fields[0].hasPrefix("/") ? fields[0] : (base as NSString).appendingPathComponent(fields[0])
        let frames: [PoseFrame]
        let header: PoseTrackHeader
        do {
            (header, frames) = try PoseTrackReader.readAll(path: path)
        } catch {
            throw AnalysisError("\(manifest):\(number + 1): \(error.description)")
        }
        let (id, definition) = try labelledExercise(
            header: header,
            fields: fields,
            path: path,
            library: library,
            options: options
        )
        var signals = ""
        let given =
            options.recognitionOnly
            ? nil
            : Self.run(
                frames,
                exercise: definition,
                library: library,
                header: header,
                trace: options.trace ? output : nil
            ) { session in
                signals = session.signalCounts.map { "\($0.signal)=\($0.reps)" }.joined(separator: " ")
            }
        let auto = Self.run(
            frames,
            exercise: nil,
            library: library,
            header: header,
            useDepth: !options.noDepth,
            trace: options.trace ? output : nil
        )
        let result = Result(
            file: fields[0],
            exercise: id,
            subject: header.label("subject") ?? "?",
            view: header.label("view") ?? "?",
            truth: truth ?? 0,
            given: given?.reps ?? 0,
            agnostic: auto.reps,
            recognized: auto.exercise,
            signals: signals,
            last: options.recognitionOnly
                ? Self.lastDecision(frames, library: library, useDepth: !options.noDepth) : nil
        )
        if options.explain {
            Self.explain(frames, truth: id, library: library, useDepth: !options.noDepth).forEach(output)
        }
        if options.perFile {
            output(
                "\(result.file)\tgiven \(result.given)\tagnostic \(result.agnostic)\ttrue \(result.truth)\trecognized \(result.recognized ?? "-")\tlast \(result.last ?? "-")\t\(result.signals)"
            )
        }
        return result
    }

    /// The exercise a row is labelled with: `--expect`, the header's `labels.exercise`, or (with
    /// `--recognition-only`) a library exercise id in the manifest's second column.
    private static func labelledExercise(
        header: PoseTrackHeader,
        fields: [String],
        path: String,
        library: ExerciseLibrary,
        options: Options
    ) throws -> (id: String, definition: ExerciseDefinition) {
        // With --recognition-only a second column naming a library exercise is the label (a
        // `path,exercise` manifest of pose-tracks without labels, e.g. the real videos' poses).
        let column =
            options.recognitionOnly && fields.count >= 2 && library.exercises.contains { $0.id == fields[1] }
        guard let id = options.expect ?? header.label("exercise") ?? (column ? fields[1] : nil) else {
            throw AnalysisError(
                "\(path): the header has no labels.exercise; the evaluation needs it (or give --expect, or a library exercise id in the manifest's second column with --recognition-only)"
            )
        }
        do {
            return (id, try library.exercise(id: id))
        } catch {
            throw AnalysisError("\(path): \(error.description)")
        }
    }

    /// The metrics per exercise, view and confusion, on the development set and on the held-out subjects.
    private static func printMetrics(
        _ results: [Result],
        library: ExerciseLibrary,
        options: Options,
        output: @escaping (String) -> Void
    ) {
        let heldOutSubjects = Set(options.heldOut.split(separator: ",").map(String.init))
        let dev = results.filter { !heldOutSubjects.contains($0.subject) }
        let held = results.filter { heldOutSubjects.contains($0.subject) }
        output(
            "metric: off-by-one = share |pred-true|<=1; MRE = mean |pred-true|/true; recognition = share recognised == labelled (\(library.exercises.count) exercises)"
        )
        for (name, set) in [("dev (tuned on)", dev), ("held out (\(options.heldOut))", held)] where !set.isEmpty {
            output("== \(name): \(set.count) files")
            output(Self.row("exercise", "n", "obo-given", "mre-given", "obo-agn", "mre-agn", "recog"))
            let exercises = Array(Set(set.map(\.exercise))).sorted()
            for exercise in exercises {
                output(Self.metrics(exercise, set.filter { $0.exercise == exercise }))
            }
            output(Self.metrics("ALL", set))
            let views = Array(Set(set.map(\.view))).sorted()
            if views.count > 1 {
                let parts = views.map { view in
                    let files = set.filter { $0.view == view }
                    return "\(view) \(files.filter { $0.recognized == $0.exercise }.count)/\(files.count)"
                }
                output("recognised by the session, by view: " + parts.joined(separator: ", "))
            }
            output("confusion (labelled -> recognised by the session: files):")
            Self.confusion(set, exercises) { $0.recognized }.forEach(output)
            if options.recognitionOnly {
                let right = set.filter { $0.last == $0.exercise }.count
                output(
                    "recognizer's last decision over each file: \(right)/\(set.count) = \(String(format: "%.3f", Double(right) / Double(set.count)))"
                )
                Self.confusion(set, exercises) { $0.last }.forEach(output)
            }
        }
    }

    static func run(
        _ frames: [PoseFrame],
        exercise: ExerciseDefinition?,
        library: ExerciseLibrary,
        header: PoseTrackHeader,
        useDepth: Bool = true,
        trace: ((String) -> Void)? = nil,
        inspect: (CoachingSession) -> Void = { _ in }
    ) -> SessionSummary {
        var session = CoachingSession(
            configuration: .init(
                exercise: exercise,
                library: library.exercises,
                frameWidth: Double(header.width),
                frameHeight: Double(header.height),
                recognition: .init(useDepth: useDepth),
                emitsPoseEvents: false
            )
        )
        for frame in frames {
            _ = session.ingest(frame)
            if let trace {
                let s = session.snapshot
                trace(
                    String(
                        format: "%.2f\t%@\t%.2f\t%d\t%@\t%@\t%@\t%@\t%@",
                        s.seconds,
                        s.primaryAngle.map { String(format: "%.0f", $0) } ?? "-",
                        s.rangeOfMotionProgress,
                        s.repCount,
                        session.view.rawValue,
                        s.side?.rawValue ?? "-",
                        s.setupGuidance ?? "-",
                        session.lastFrameValid ? "measurable" : "not measurable",
                        exercise == nil
                            ? "movement \(session.agnosticSignal.value.map { String(format: "%.2f", $0) } ?? "-") "
                                + "component \(session.agnosticSignal.component)" : ""
                    )
                )
            }
        }
        inspect(session)
        return session.summary()
    }

    static func confusion(_ set: [Result], _ exercises: [String], _ label: (Result) -> String?) -> [String] {
        exercises.map { exercise in
            var counts: [String: Int] = [:]
            for r in set where r.exercise == exercise { counts[label(r) ?? "none", default: 0] += 1 }
            let list = counts.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }
            return "  \(exercise) -> " + list.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        }
    }

    /// The recognizer alone over the file (first pose of each frame, midpoints derived, no smoothing or
    /// gating): its last decision, or `nil` for no person / low confidence.
    static func lastDecision(_ frames: [PoseFrame], library: ExerciseLibrary, useDepth: Bool = true) -> String? {
        var recognizer = ExerciseRecognizer(exercises: library.exercises, configuration: .init(useDepth: useDepth))
        for frame in frames {
            var pose = frame.poses.first
            pose?.deriveMidpoints()
            _ = recognizer.ingest(pose, at: frame.seconds)
        }
        if case .exercise(let id, _) = recognizer.state { return id }
        return nil
    }

    /// Runs the recognizer alone over the frames (the first pose of each, no smoothing) and prints its
    /// reasoning at its last decision.
    static func explain(
        _ frames: [PoseFrame],
        truth: String,
        library: ExerciseLibrary,
        useDepth: Bool = true
    ) -> [String] {
        var recognizer = ExerciseRecognizer(exercises: library.exercises, configuration: .init(useDepth: useDepth))
        for frame in frames {
            var pose = frame.poses.first
            pose?.deriveMidpoints()
            _ = recognizer.ingest(pose, at: frame.seconds)
        }
        var lines = ["  state: \(recognizer.state)", "  swings: \(recognizer.swingSummary)"]
        let order = recognizer.scores.indices.sorted { recognizer.scores[$0] > recognizer.scores[$1] }
        var shown = Array(order.prefix(3))
        if let t = library.exercises.firstIndex(where: { $0.id == truth }), !shown.contains(t) { shown.append(t) }
        for i in shown {
            lines.append(
                "  \(library.exercises[i].id) \(String(format: "%.3f", recognizer.scores[i])): \(recognizer.explanation(of: i))"
            )
        }
        return lines
    }

    static func row(_ values: String...) -> String {
        values.enumerated().map {
            $0.offset == 0
                ? $0.element.padding(toLength: 28, withPad: " ", startingAt: 0)
                : $0.element.padding(toLength: 10, withPad: " ", startingAt: 0)
        }.joined()
    }

    static func metrics(_ name: String, _ set: [Result]) -> String {
        let n = Double(set.count)
        func f(_ x: Double) -> String { String(format: "%.3f", x) }
        let oboGiven = Double(set.filter { abs($0.given - $0.truth) <= 1 }.count) / n
        let mreGiven = set.map { Double(abs($0.given - $0.truth)) / Double($0.truth) }.reduce(0, +) / n
        let oboAgn = Double(set.filter { abs($0.agnostic - $0.truth) <= 1 }.count) / n
        let mreAgn = set.map { Double(abs($0.agnostic - $0.truth)) / Double($0.truth) }.reduce(0, +) / n
        let recognition = Double(set.filter { $0.recognized == $0.exercise }.count) / n
        return row(name, "\(set.count)", f(oboGiven), f(mreGiven), f(oboAgn), f(mreAgn), f(recognition))
    }
}

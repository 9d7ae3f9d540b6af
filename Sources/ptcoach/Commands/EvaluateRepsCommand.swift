import ArgumentParser
import CoachAnalysis
import CoachKit
import CoachPipeline
import Foundation
import PoseKit

/// `ptcoach evaluate-reps`: repetition counting and recognition accuracy on a labelled manifest.
struct EvaluateRepsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate-reps",
        abstract: "Measure repetition counting and exercise recognition on a manifest of labelled pose-tracks.",
        discussion: """
            The manifest is a CSV `path,reps` (paths relative to the manifest). Each file's header labels give \
            the exercise (and optionally subject and view). For each file the session runs twice: with the \
            exercise given (definition-driven counter) and without (exercise-agnostic counter + built-in \
            recognizer). Metrics: off-by-one accuracy = share of files with |predicted − true| ≤ 1; mean \
            relative error = mean of |predicted − true| / true; recognition accuracy = share of files whose \
            recognised exercise is the labelled one. Files of the --held-out subjects are reported separately. \
            With --recognition-only the second column may be anything (e.g. a form label; a library exercise id there is the label where the header has none), only the run without \
            an exercise is made, and a confusion list (labelled → recognised) is printed; --expect sets the \
            labelled exercise for every file (e.g. a dataset's own exercise code that means a library one).
            """
    )

    @Option(name: .long, help: "The manifest CSV (path,reps).")
    var manifest: String

    @Option(name: .long, help: "Comma-separated subjects reported as held out (not used for tuning).")
    var heldOut: String = "s04,s05"

    @Flag(name: .long, help: "Print one line per file too.")
    var perFile = false

    @Flag(name: .long, help: "Only measure recognition (no rep counts needed in the manifest).")
    var recognitionOnly = false

    @Option(name: .long, help: "The exercise id every file is labelled with (overrides the header label).")
    var expect: String?

    @Flag(name: .long, help: "Recognise from the image plane only (ignore z), as with a 2-D pose estimator.")
    var noDepth = false

    @Flag(
        name: .long,
        help:
            "Print, per file and frame (with the exercise given, then without): time, primary angle, progress, count, view, side, set-up guidance, whether the person is measurable, and without an exercise the movement's projection and component."
    )
    var trace = false

    @Flag(
        name: .long,
        help:
            "Print, per file, the recognizer's swings and the factors of the labelled and the top exercises (at its last decision over the file)."
    )
    var explain = false

    struct Result {
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

    func run() async throws {
        let text: String
        do {
            text = try String(contentsOfFile: manifest, encoding: .utf8)
        } catch {
            throw CLIError("cannot read the manifest '\(manifest)': check the path")
        }
        let base = (manifest as NSString).deletingLastPathComponent
        let library = try BodyAnalysis.loadLibrary(directory: nil)
        let heldOutSubjects = Set(heldOut.split(separator: ",").map(String.init))
        var results: [Result] = []
        let rows: [CSVRows.Row]
        do {
            rows = try CSVRows.parse(text)
        } catch {
            throw CLIError("\(manifest):\(error.line): \(error.message)")
        }
        for row in rows.dropFirst() {  // the header
            let number = row.line - 1
            let line = row.text
            let fields = row.fields
            let truth = fields.count >= 2 ? Int(fields[1]) : nil
            guard recognitionOnly || (truth ?? 0) > 0 else {
                throw CLIError(
                    "\(manifest):\(number + 1): expected `path,reps` with a positive whole number of reps, got '\(line)'"
                )
            }
            let path = fields[0].hasPrefix("/") ? fields[0] : (base as NSString).appendingPathComponent(fields[0])
            let frames: [PoseFrame]
            let header: PoseTrackHeader
            do {
                (header, frames) = try PoseTrackReader.readAll(path: path)
            } catch {
                throw CLIError("\(manifest):\(number + 1): \(error.description)")
            }
            // With --recognition-only a second column naming a library exercise is the label (a
            // `path,exercise` manifest of pose-tracks without labels, e.g. the real videos' poses).
            let column = recognitionOnly && fields.count >= 2 && library.exercises.contains { $0.id == fields[1] }
            guard let id = expect ?? header.label("exercise") ?? (column ? fields[1] : nil) else {
                throw CLIError(
                    "\(path): the header has no labels.exercise; the evaluation needs it (or give --expect, or a library exercise id in the manifest's second column with --recognition-only)"
                )
            }
            let definition: ExerciseDefinition
            do {
                definition = try library.exercise(id: id)
            } catch {
                throw CLIError("\(path): \(error.description)")
            }
            var signals = ""
            let given =
                recognitionOnly
                ? nil
                : Self.run(frames, exercise: definition, library: library, header: header, trace: trace) { session in
                    signals = session.signalCounts.map { "\($0.signal)=\($0.reps)" }.joined(separator: " ")
                }
            let auto = Self.run(
                frames,
                exercise: nil,
                library: library,
                header: header,
                useDepth: !noDepth,
                trace: trace
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
                last: recognitionOnly ? Self.lastDecision(frames, library: library, useDepth: !noDepth) : nil
            )
            if explain { Self.explain(frames, truth: id, library: library, useDepth: !noDepth) }
            if perFile {
                print(
                    "\(result.file)\tgiven \(result.given)\tagnostic \(result.agnostic)\ttrue \(result.truth)\trecognized \(result.recognized ?? "-")\tlast \(result.last ?? "-")\t\(result.signals)"
                )
            }
            results.append(result)
        }
        guard !results.isEmpty else { throw CLIError("\(manifest): no rows after the header") }
        let dev = results.filter { !heldOutSubjects.contains($0.subject) }
        let held = results.filter { heldOutSubjects.contains($0.subject) }
        print(
            "metric: off-by-one = share |pred-true|<=1; MRE = mean |pred-true|/true; recognition = share recognised == labelled (\(library.exercises.count) exercises)"
        )
        for (name, set) in [("dev (tuned on)", dev), ("held out (\(heldOut))", held)] where !set.isEmpty {
            print("== \(name): \(set.count) files")
            print(Self.row("exercise", "n", "obo-given", "mre-given", "obo-agn", "mre-agn", "recog"))
            let exercises = Array(Set(set.map(\.exercise))).sorted()
            for exercise in exercises {
                print(Self.metrics(exercise, set.filter { $0.exercise == exercise }))
            }
            print(Self.metrics("ALL", set))
            let views = Array(Set(set.map(\.view))).sorted()
            if views.count > 1 {
                let parts = views.map { view in
                    let files = set.filter { $0.view == view }
                    return "\(view) \(files.filter { $0.recognized == $0.exercise }.count)/\(files.count)"
                }
                print("recognised by the session, by view: " + parts.joined(separator: ", "))
            }
            print("confusion (labelled -> recognised by the session: files):")
            Self.confusion(set, exercises) { $0.recognized }
            if recognitionOnly {
                let right = set.filter { $0.last == $0.exercise }.count
                print(
                    "recognizer's last decision over each file: \(right)/\(set.count) = \(String(format: "%.3f", Double(right) / Double(set.count)))"
                )
                Self.confusion(set, exercises) { $0.last }
            }
        }
    }

    static func run(
        _ frames: [PoseFrame],
        exercise: ExerciseDefinition?,
        library: ExerciseLibrary,
        header: PoseTrackHeader,
        useDepth: Bool = true,
        trace: Bool = false,
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
            if trace {
                let s = session.snapshot
                print(
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

    static func confusion(_ set: [Result], _ exercises: [String], _ label: (Result) -> String?) {
        for exercise in exercises {
            var counts: [String: Int] = [:]
            for r in set where r.exercise == exercise { counts[label(r) ?? "none", default: 0] += 1 }
            let list = counts.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }
            print("  \(exercise) -> " + list.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
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
    static func explain(_ frames: [PoseFrame], truth: String, library: ExerciseLibrary, useDepth: Bool = true) {
        var recognizer = ExerciseRecognizer(exercises: library.exercises, configuration: .init(useDepth: useDepth))
        for frame in frames {
            var pose = frame.poses.first
            pose?.deriveMidpoints()
            _ = recognizer.ingest(pose, at: frame.seconds)
        }
        print("  state: \(recognizer.state)")
        print("  swings: \(recognizer.swingSummary)")
        let order = recognizer.scores.indices.sorted { recognizer.scores[$0] > recognizer.scores[$1] }
        var shown = Array(order.prefix(3))
        if let t = library.exercises.firstIndex(where: { $0.id == truth }), !shown.contains(t) { shown.append(t) }
        for i in shown {
            print(
                "  \(library.exercises[i].id) \(String(format: "%.3f", recognizer.scores[i])): \(recognizer.explanation(of: i))"
            )
        }
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

import ArgumentParser
import CoachKit
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
            recognised exercise is the labelled one. Files of the --held-out subjects are reported separately.
            """
    )

    @Option(name: .long, help: "The manifest CSV (path,reps).")
    var manifest: String

    @Option(name: .long, help: "Comma-separated subjects reported as held out (not used for tuning).")
    var heldOut: String = "s04,s05"

    @Flag(name: .long, help: "Print one line per file too.")
    var perFile = false

    struct Result {
        var file: String
        var exercise: String
        var subject: String
        var view: String
        var truth: Int
        var given: Int
        var agnostic: Int
        var recognized: String?
    }

    func run() async throws {
        let text: String
        do {
            text = try String(contentsOfFile: manifest, encoding: .utf8)
        } catch {
            throw CLIError("cannot read the manifest '\(manifest)': check the path")
        }
        let base = (manifest as NSString).deletingLastPathComponent
        let library = try AnalyzeCommand.loadLibrary(directory: nil)
        let heldOutSubjects = Set(heldOut.split(separator: ",").map(String.init))
        var results: [Result] = []
        for (number, raw) in text.split(whereSeparator: \.isNewline).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if number == 0 || line.isEmpty { continue }
            let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count >= 2, let truth = Int(fields[1]), truth > 0 else {
                throw CLIError(
                    "\(manifest):\(number + 1): expected `path,reps` with a positive whole number of reps, got '\(line)'"
                )
            }
            let path = (base as NSString).appendingPathComponent(fields[0])
            let frames: [PoseFrame]
            let header: PoseTrackHeader
            do {
                (header, frames) = try PoseTrackReader.readAll(path: path)
            } catch {
                throw CLIError("\(manifest):\(number + 1): \(error.description)")
            }
            guard let id = header.label("exercise") else {
                throw CLIError("\(path): the header has no labels.exercise; the evaluation needs it")
            }
            let definition: ExerciseDefinition
            do {
                definition = try library.exercise(id: id)
            } catch {
                throw CLIError("\(path): \(error.description)")
            }
            let given = Self.run(frames, exercise: definition, library: library, header: header)
            let auto = Self.run(frames, exercise: nil, library: library, header: header)
            let result = Result(
                file: fields[0],
                exercise: id,
                subject: header.label("subject") ?? "?",
                view: header.label("view") ?? "?",
                truth: truth,
                given: given.reps,
                agnostic: auto.reps,
                recognized: auto.exercise
            )
            if perFile {
                print(
                    "\(result.file)\tgiven \(result.given)\tagnostic \(result.agnostic)\ttrue \(truth)\trecognized \(result.recognized ?? "-")"
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
        }
    }

    static func run(
        _ frames: [PoseFrame],
        exercise: ExerciseDefinition?,
        library: ExerciseLibrary,
        header: PoseTrackHeader
    ) -> SessionSummary {
        var session = CoachingSession(
            configuration: .init(
                exercise: exercise,
                library: library.exercises,
                frameWidth: Double(header.width),
                frameHeight: Double(header.height),
                emitsPoseEvents: false
            )
        )
        for frame in frames { _ = session.ingest(frame) }
        return session.summary()
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

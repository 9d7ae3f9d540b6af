import ArgumentParser
import CoachAnalysis

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

    func run() async throws {
        var options = RepetitionEvaluation.Options()
        options.heldOut = heldOut
        options.perFile = perFile
        options.recognitionOnly = recognitionOnly
        options.expect = expect
        options.noDepth = noDepth
        options.trace = trace
        options.explain = explain
        try RepetitionEvaluation.evaluate(manifest: manifest, options: options) { print($0) }
    }
}

import ArgumentParser
import CoachAnalysis

/// `ptcoach evaluate-delays`: how late each repetition's event arrives after the repetition ended, over recordings.
struct EvaluateDelaysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate-delays",
        abstract: "Measure how late repetition events arrive (live coaching) over a folder of pose-tracks.",
        discussion: """
            Every .jsonl under FOLDER runs through a coaching session twice: with its labelled exercise given (when \
            the header names a library exercise) and with none. For each repetition of the final summary, the delay \
            is the time of the frame whose events first reported it (a `repCompleted`, or a `repetitionsRevised` \
            that holds it) minus the repetition's end; one reported only by `finish()` counts from the last frame. \
            "First shown" counts from the earliest version of it reported (one overlapping it in time); with no \
            exercise given, "shown or provisional" also counts a `provisionalRepetition` event (the count said to \
            be provisional until the movement confirms it). Prints the distribution per mode (p50, p90, p95, p99, \
            max) and the share on time (0.1 s given, 0.5 s with none), and with --per-file the late ones.
            """
    )

    @Argument(help: "A folder of pose-track files (searched recursively).")
    var folder = "../shared/data/pose-tracks"

    @Flag(name: .long, help: "List each repetition reported later than the target.")
    var perFile = false

    func run() async throws {
        try RepetitionDelayEvaluation.evaluate(folder: folder, perFile: perFile) { print($0) }
    }
}

import CoachKit
import Foundation
import PoseKit
import Testing

/// With no exercise given, once the exercise is recognised at or above ``RecognitionConfidence/fitted``, the count
/// agrees with what its own session counts over the frames it replayed (`CoachingSession+AsGiven.swift`); below
/// it nothing changes. On the calimiro pose-tracks made with the real pose model (`ptcoach poses` of
/// `../shared/data/videos/calimiro/*.mp4`, not in the repository): the folder `PTCOACH_CALIMIRO_TRACKS` names, else
/// `/tmp/pt`. The tests are skipped, with that said, where the tracks are absent.
struct RecountAsGivenTests {
    static let folder = ProcessInfo.processInfo.environment["PTCOACH_CALIMIRO_TRACKS"] ?? "/tmp/pt"

    static func track(_ name: String) -> String { (folder as NSString).appendingPathComponent(name + ".jsonl") }

    static func has(_ name: String) -> Bool { FileManager.default.fileExists(atPath: track(name)) }

    /// The summary with no exercise given, after checking that the events folded are the summary's repetitions.
    static func summary(_ name: String) throws -> SessionSummary {
        let (header, frames) = try PoseTrackReader.readAll(path: track(name))
        try CoachEventFoldTests.check(
            frames,
            exercise: nil,
            width: Double(header.width),
            height: Double(header.height),
            name
        )
        return try CoachEventFoldTests.events(
            frames,
            exercise: nil,
            width: Double(header.width),
            height: Double(header.height),
            name: name
        ).summary
    }

    @Test(
        "A first push-up the movement counter missed while it warmed up is added once push-ups are recognised",
        .enabled(if: has("push-up_12"), "push-up_12.jsonl is not in PTCOACH_CALIMIRO_TRACKS (default /tmp/pt)")
    )
    func firstPushUpAdded() throws {
        // `--exercise push-up` counts 0.7–1.9 s and 2.8–3.9 s; recognised at 2.1 s (confidence 0.84), the movement
        // counted only the second, and the count stayed 1.
        let summary = try Self.summary("push-up_12")
        #expect(summary.exercise == "push-up")
        #expect(summary.recognitionUnsure == false)
        #expect(summary.reps == 2, "\(summary.repetitions.map { ($0.startSeconds, $0.endSeconds) })")
        let first = try #require(summary.repetitions.first)
        #expect(first.startSeconds < 1.0 && first.endSeconds < 2.1, "\(first.startSeconds)–\(first.endSeconds)")
        #expect(first.exercise == "push-up")
        #expect(summary.repetitions.map(\.index) == Array(1...summary.reps))
    }

    @Test(
        "An arm raise before a squat recognised below the fitted confidence stays counted: nothing changes there",
        .enabled(if: has("squat_17"), "squat_17.jsonl is not in PTCOACH_CALIMIRO_TRACKS (default /tmp/pt)")
    )
    func belowTheConfidenceNothingChanges() throws {
        // The arm raise (0.2–1.7 s) overlaps no squat of the squat's own session (1.4–3.4 s), but the squat is
        // recognised at 0.49 only: the movement's count stands (recounting below the threshold lost 5 of 90
        // UI-PRMD recordings' exact counts).
        let summary = try Self.summary("squat_17")
        #expect(summary.recognitionUnsure)
        #expect(summary.reps == 2, "\(summary.repetitions.map { ($0.startSeconds, $0.endSeconds) })")
        #expect(summary.repetitions.first.map { $0.startSeconds < 0.5 } == true)
    }
}

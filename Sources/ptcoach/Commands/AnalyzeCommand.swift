import ArgumentParser
import CoachKit
import Foundation
import PoseKit

/// A source of pose frames for analysis: a pose-track file today, a video through the pose estimator later.
protocol PoseFrameSource {
    /// The image size the keypoints refer to and the nominal frame rate.
    var width: Double { get }
    var height: Double { get }
    var fps: Double { get }
    /// The next frame, or `nil` at the end.
    mutating func next() throws -> PoseFrame?
}

/// Frames read from a pose-track file.
struct PoseTrackFrameSource: PoseFrameSource {
    var reader: PoseTrackReader
    var width: Double { Double(reader.header.width) }
    var height: Double { Double(reader.header.height) }
    var fps: Double { reader.header.fps }

    init(path: String) throws {
        do {
            reader = try PoseTrackReader(path: path)
        } catch {
            throw CLIError(error.description)
        }
    }

    mutating func next() throws -> PoseFrame? {
        do {
            return try reader.next()
        } catch {
            throw CLIError(error.description)
        }
    }
}

struct AnalyzeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Count repetitions, measure angles and check form in a recording.",
        discussion: """
            INPUT is a pose-track file (.jsonl). With --exercise the exercise's definition drives the counting, \
            the angles and the form rules; without it the exercise is recognised from the library and any \
            periodic movement is counted. --json prints one JSON object (exercise, reps, repetitions, …).
            """
    )

    @Argument(help: "A pose-track file (.jsonl).")
    var input: String

    @Option(name: .long, help: "The exercise id (see `ptcoach exercises`); recognised when left out.")
    var exercise: String?

    @Option(name: .long, help: "A directory of exercise definition JSON files to use instead of the bundled library.")
    var exercisesDirectory: String?

    @Flag(name: .long, help: "Print one JSON object instead of a report.")
    var json = false

    func run() async throws {
        let library = try Self.loadLibrary(directory: exercisesDirectory)
        var definition: ExerciseDefinition?
        if let exercise {
            do {
                definition = try library.exercise(id: exercise)
            } catch {
                throw CLIError(error.description)
            }
        }
        var source = try PoseTrackFrameSource(path: input)
        let summary = try Self.analyze(source: &source, exercise: definition, library: library, name: input)
        if json {
            print(try Self.jsonText(summary, file: input))
        } else {
            print(Self.report(summary, file: input))
        }
    }

    static func loadLibrary(directory: String?) throws -> ExerciseLibrary {
        do {
            if let directory { return try ExerciseLibrary(directory: directory) }
            return try ExerciseLibrary.bundled()
        } catch {
            throw CLIError(error.description)
        }
    }

    /// Runs a coaching session over every frame of `source`.
    ///
    /// - Throws: ``CLIError`` when nobody is seen, or the joints the exercise needs never are.
    static func analyze(
        source: inout some PoseFrameSource, exercise: ExerciseDefinition?, library: ExerciseLibrary, name: String
    ) throws -> SessionSummary {
        var session = CoachingSession(
            configuration: .init(
                exercise: exercise, library: library.exercises, frameWidth: source.width, frameHeight: source.height,
                emitsPoseEvents: false
            )
        )
        var frames = 0
        while let frame = try source.next() {
            frames += 1
            _ = session.ingest(frame)
        }
        guard frames > 0 else { throw CLIError("\(name): the file has no frames after its header; nothing to analyse") }
        guard session.personFrames > 0 else {
            throw CLIError("\(name): no person was seen in any of the \(frames) frames; check the recording")
        }
        let never = session.jointsNeverSeen
        if !never.isEmpty {
            let what = exercise.map { "the \($0.id) exercise" } ?? "the analysis"
            throw CLIError(
                "\(name): \(what) needs \(never.map(\.name).joined(separator: ", ")), never seen in the recording; "
                    + "film the whole body\(exercise == nil ? "" : " or choose another exercise")"
            )
        }
        return session.summary()
    }

    static func jsonText(_ summary: SessionSummary, file: String) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let data = try encoder.encode(summary)
        var text = String(decoding: data, as: UTF8.self)
        // Put the file name first for readers that scan many outputs.
        let escaped = String(decoding: try JSONEncoder().encode(file), as: UTF8.self)
        text = "{\"file\":\(escaped)," + text.dropFirst()
        return text
    }

    static func report(_ summary: SessionSummary, file: String) -> String {
        func f(_ x: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", x) }
        var lines: [String] = []
        let exercise = summary.exerciseName.map { "\($0) (\(summary.exercise!), \(summary.exerciseSource))" } ?? "no library exercise recognised"
        lines.append("\(file): \(exercise)")
        lines.append("  \(summary.reps) repetition\(summary.reps == 1 ? "" : "s") in \(f(summary.durationSeconds)) s")
        for rep in summary.repetitions {
            var line = "  rep \(rep.index): \(f(rep.startSeconds))–\(f(rep.endSeconds)) s"
            if let primary = rep.angles.first {
                let side = primary.side.map { " \($0.rawValue)" } ?? ""
                line += ", \(primary.angle.displayName)\(side) \(f(primary.min, 0))–\(f(primary.max, 0))\(primary.angle.unit)"
            }
            if let rom = rep.rangeOfMotion { line += ", \(Int((rom * 100).rounded()))% of target" }
            line += ", \(rep.verdict.rawValue)"
            if let issue = rep.issues.first { line += ": \(issue.cue)" }
            if !rep.safetyBreaches.isEmpty { line += " [safety: \(rep.safetyBreaches[0].warning)]" }
            lines.append(line)
        }
        for hold in summary.holds {
            lines.append("  hold: \(f(hold.heldSeconds)) s of \(f(hold.targetSeconds, 0)) s\(hold.completed ? " (done)" : "")")
        }
        if summary.segments.count > 1 {
            lines.append("  segments:")
            for s in summary.segments {
                lines.append("    \(f(s.startSeconds))–\(f(s.endSeconds)) s: \(s.exercise ?? "—") (\(s.reps) reps)")
            }
        }
        if let good = summary.averages.goodFraction { lines.append("  good form: \(Int((good * 100).rounded()))% of repetitions") }
        return lines.joined(separator: "\n")
    }
}

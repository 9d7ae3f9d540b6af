import CoachKit
import CoachPipeline
import Foundation
import PoseKit

/// `ptcoach evaluate-delays`: how late each repetition's event arrives after the repetition ended, over a folder of
/// pose-tracks (the command's help says how each delay is measured), with the exercise given and with none.
///
/// ```swift
/// try RepetitionDelayEvaluation.evaluate(folder: "../shared/data/pose-tracks", perFile: false) { print($0) }
/// ```
public enum RepetitionDelayEvaluation {
    public static func evaluate(folder: String, perFile: Bool, output: (String) -> Void) throws {
        let library = try BodyAnalysis.loadLibrary(directory: nil)
        let files = try poseTracks(under: folder)
        var delays = Delays()
        for path in files {
            let (header, frames): (PoseTrackHeader, [PoseFrame])
            do {
                (header, frames) = try PoseTrackReader.readAll(path: path)
            } catch {
                throw AnalysisError(error.description)
            }
            let given = header.label("exercise").flatMap { library[$0] }
            for (mode, exercise) in [("given", given), ("none", nil)] where mode == "none" || exercise != nil {
                let configuration = CoachingSession.Configuration.analysis(
                    exercise: exercise,
                    library: library.exercises,
                    width: Double(header.width),
                    height: Double(header.height)
                )
                let file = perFile ? (path as NSString).lastPathComponent : nil
                delays.measure(frames, configuration: configuration, mode: mode, file: file, output: output)
            }
        }
        delays.report(files: files.count, output: output)
    }

    /// The `.jsonl` files under `folder`, sorted.
    private static func poseTracks(under folder: String) throws -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder) else {
            throw AnalysisError("cannot read the folder \(folder): check the path")
        }
        var files: [String] = []
        while let relative = enumerator.nextObject() as? String {
            if relative.hasSuffix(".jsonl") { files.append(folder + "/" + relative) }
        }
        files.sort()
        guard !files.isEmpty else { throw AnalysisError("no .jsonl pose-track files under \(folder)") }
        return files
    }
}

// MARK: - The delays

/// The delays gathered over every file, by mode ("given": the exercise given; "none": recognised).
private struct Delays {
    /// A repetition as shown, by its start and end, with the time it was shown.
    typealias Shown = (start: Double, end: Double, at: Double)

    var finallyJudged: [String: [Double]] = ["given": [], "none": []]
    var atEnd: [String: Int] = ["given": 0, "none": 0]
    var firstShown: [String: [Double]] = ["given": [], "none": []]
    var firstShownOrProvisional: [String: [Double]] = ["given": [], "none": []]
    // Each provisional repetition: how long after its end it was shown; and how many were confirmed, withdrawn.
    var provisionalDelays: [Double] = []
    var provisionalEnded = (confirmed: 0, withdrawn: 0)

    /// What one session showed over time.
    struct Timeline {
        // When each repetition (by start and end) was first reported, and every repetition shown with the
        // time it was shown (a repetition recounted later was shown as an earlier version of itself).
        var reported: [String: Double] = [:]
        var shown: [Shown] = []
        var provisional: [Shown] = []
    }

    /// The delay target of `mode`, in seconds.
    static func target(_ mode: String) -> Double { mode == "given" ? 0.1 : 0.5 }

    /// Runs one session over `frames` and adds its delays; with `file`, prints each repetition later than the target.
    mutating func measure(
        _ frames: [PoseFrame],
        configuration: CoachingSession.Configuration,
        mode: String,
        file: String?,
        output: (String) -> Void
    ) {
        var session = CoachingSession(configuration: configuration)
        var timeline = Timeline()
        for frame in frames { note(session.ingest(frame), at: frame.seconds, in: &timeline) }
        let last = frames.last?.seconds ?? 0
        let endEvents = session.finish()
        let before = timeline.reported.count
        note(endEvents, at: last, in: &timeline)
        atEnd[mode, default: 0] += timeline.reported.count - before
        let target = Self.target(mode)
        for rep in session.summary().repetitions {
            guard let t = timeline.reported["\(rep.startSeconds)-\(rep.endSeconds)"] else { continue }
            let delay = max(0, t - rep.endSeconds)
            finallyJudged[mode, default: []].append(delay)
            // First shown: the earliest repetition shown that overlaps this one in time.
            func earliest(_ list: [Shown]) -> Double? {
                list.filter { $0.start < rep.endSeconds && rep.startSeconds < $0.end }.map(\.at).min()
            }
            let first = earliest(timeline.shown) ?? t
            firstShown[mode, default: []].append(max(0, first - rep.endSeconds))
            let firstOrProvisional = min(first, earliest(timeline.provisional) ?? first)
            firstShownOrProvisional[mode, default: []].append(max(0, firstOrProvisional - rep.endSeconds))
            if let file, delay > target {
                output(
                    "\(mode) \(file) rep \(rep.index) "
                        + "(ends \(String(format: "%.2f", rep.endSeconds)) s): \(String(format: "%.2f", delay)) s late; "
                        + "first shown or provisional after \(String(format: "%.2f", max(0, firstOrProvisional - rep.endSeconds))) s"
                )
            }
        }
    }

    /// Notes the repetitions `events` show at `t`.
    private mutating func note(_ events: [CoachEvent], at t: Double, in timeline: inout Timeline) {
        for event in events {
            if case .provisionalRepetition(let r) = event {
                // A new one, not the one shown renumbered.
                if timeline.provisional.last.map({ $0.start != r.startSeconds || $0.end != r.endSeconds }) ?? true {
                    provisionalDelays.append(max(0, t - r.endSeconds))
                }
                timeline.provisional.append((r.startSeconds, r.endSeconds, t))
            }
            if case .provisionalRepetitionEnded(let confirmed) = event {
                if confirmed { provisionalEnded.confirmed += 1 } else { provisionalEnded.withdrawn += 1 }
            }
            let reps: [Repetition]
            switch event {
            case .repCompleted(let r): reps = [r]
            case .repetitionsRevised(let r): reps = r
            default: reps = []
            }
            for r in reps where timeline.reported["\(r.startSeconds)-\(r.endSeconds)"] == nil {
                timeline.reported["\(r.startSeconds)-\(r.endSeconds)"] = t
                timeline.shown.append((r.startSeconds, r.endSeconds, t))
            }
        }
    }

    /// Prints the delay quantiles per mode, and the provisional repetitions'.
    func report(files: Int, output: (String) -> Void) {
        for mode in ["given", "none"] {
            let target = Self.target(mode)
            var tables = [("as finally judged", finallyJudged), ("first shown (any version)", firstShown)]
            if mode == "none" { tables.append(("first shown or provisional", firstShownOrProvisional)) }
            for (what, table) in tables {
                let values = (table[mode] ?? []).sorted()
                guard !values.isEmpty else { continue }
                func q(_ p: Double) -> String {
                    String(format: "%.2f", values[min(values.count - 1, Int(p * Double(values.count)))])
                }
                let onTime = values.filter { $0 <= target + 1e-9 }.count
                output(
                    "exercise \(mode), \(what): \(values.count) repetitions over \(files) files; delay p50 \(q(0.5)) s, "
                        + "p90 \(q(0.9)) s, p95 \(q(0.95)) s, p99 \(q(0.99)) s, max \(String(format: "%.2f", values.last!)) s; "
                        + "within \(target) s: \(onTime) (\(String(format: "%.1f", 100 * Double(onTime) / Double(values.count)))%)"
                )
            }
            output("exercise \(mode): repetitions reported only by finish(): \(atEnd[mode] ?? 0)")
        }
        let onTime = provisionalDelays.filter { $0 <= 0.5 + 1e-9 }.count
        output(
            "exercise none, provisional repetitions: \(provisionalDelays.count) shown, "
                + "\(onTime) (\(String(format: "%.1f", 100 * Double(onTime) / Double(max(1, provisionalDelays.count))))%) "
                + "within 0.5 s of their end; \(provisionalEnded.confirmed) confirmed, \(provisionalEnded.withdrawn) withdrawn"
        )
    }
}

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
        guard let enumerator = FileManager.default.enumerator(atPath: folder) else {
            throw AnalysisError("cannot read the folder \(folder): check the path")
        }
        var files: [String] = []
        while let relative = enumerator.nextObject() as? String {
            if relative.hasSuffix(".jsonl") { files.append(folder + "/" + relative) }
        }
        files.sort()
        guard !files.isEmpty else { throw AnalysisError("no .jsonl pose-track files under \(folder)") }
        var delays: [String: [Double]] = ["given": [], "none": []]
        var atEnd: [String: Int] = ["given": 0, "none": 0]
        var firstShown: [String: [Double]] = ["given": [], "none": []]
        var firstShownOrProvisional: [String: [Double]] = ["given": [], "none": []]
        // Each provisional repetition: how long after its end it was shown; and how many were confirmed, withdrawn.
        var provisionalDelays: [Double] = []
        var provisionalEnded = (confirmed: 0, withdrawn: 0)
        for path in files {
            let (header, frames): (PoseTrackHeader, [PoseFrame])
            do {
                (header, frames) = try PoseTrackReader.readAll(path: path)
            } catch {
                throw AnalysisError(error.description)
            }
            let given = header.label("exercise").flatMap { library[$0] }
            for (mode, exercise) in [("given", given), ("none", nil)] where mode == "none" || exercise != nil {
                var session = CoachingSession(
                    configuration: .analysis(
                        exercise: exercise,
                        library: library.exercises,
                        width: Double(header.width),
                        height: Double(header.height)
                    )
                )
                // When each repetition (by start and end) was first reported, and every repetition shown with the
                // time it was shown (a repetition recounted later was shown as an earlier version of itself).
                var reported: [String: Double] = [:]
                var shown: [(start: Double, end: Double, at: Double)] = []
                var provisional: [(start: Double, end: Double, at: Double)] = []
                func note(_ events: [CoachEvent], at t: Double) {
                    for event in events {
                        if case .provisionalRepetition(let r) = event {
                            // A new one, not the one shown renumbered.
                            if provisional.last.map({ $0.start != r.startSeconds || $0.end != r.endSeconds }) ?? true {
                                provisionalDelays.append(max(0, t - r.endSeconds))
                            }
                            provisional.append((r.startSeconds, r.endSeconds, t))
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
                        for r in reps where reported["\(r.startSeconds)-\(r.endSeconds)"] == nil {
                            reported["\(r.startSeconds)-\(r.endSeconds)"] = t
                            shown.append((r.startSeconds, r.endSeconds, t))
                        }
                    }
                }
                for frame in frames { note(session.ingest(frame), at: frame.seconds) }
                let last = frames.last?.seconds ?? 0
                let endEvents = session.finish()
                let before = reported.count
                note(endEvents, at: last)
                atEnd[mode, default: 0] += reported.count - before
                let target = mode == "given" ? 0.1 : 0.5
                for rep in session.summary().repetitions {
                    guard let t = reported["\(rep.startSeconds)-\(rep.endSeconds)"] else { continue }
                    let delay = max(0, t - rep.endSeconds)
                    delays[mode, default: []].append(delay)
                    // First shown: the earliest repetition shown that overlaps this one in time.
                    func earliest(_ list: [(start: Double, end: Double, at: Double)]) -> Double? {
                        list.filter { $0.start < rep.endSeconds && rep.startSeconds < $0.end }.map(\.at).min()
                    }
                    let first = earliest(shown) ?? t
                    firstShown[mode, default: []].append(max(0, first - rep.endSeconds))
                    let firstOrProvisional = min(first, earliest(provisional) ?? first)
                    firstShownOrProvisional[mode, default: []].append(max(0, firstOrProvisional - rep.endSeconds))
                    if perFile, delay > target {
                        output(
                            "\(mode) \((path as NSString).lastPathComponent) rep \(rep.index) "
                                + "(ends \(String(format: "%.2f", rep.endSeconds)) s): \(String(format: "%.2f", delay)) s late; "
                                + "first shown or provisional after \(String(format: "%.2f", max(0, firstOrProvisional - rep.endSeconds))) s"
                        )
                    }
                }
            }
        }
        for mode in ["given", "none"] {
            let target = mode == "given" ? 0.1 : 0.5
            var tables = [("as finally judged", delays), ("first shown (any version)", firstShown)]
            if mode == "none" { tables.append(("first shown or provisional", firstShownOrProvisional)) }
            for (what, table) in tables {
                let values = (table[mode] ?? []).sorted()
                guard !values.isEmpty else { continue }
                func q(_ p: Double) -> String {
                    String(format: "%.2f", values[min(values.count - 1, Int(p * Double(values.count)))])
                }
                let onTime = values.filter { $0 <= target + 1e-9 }.count
                output(
                    "exercise \(mode), \(what): \(values.count) repetitions over \(files.count) files; delay p50 \(q(0.5)) s, "
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

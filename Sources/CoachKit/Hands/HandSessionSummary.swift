import Foundation

/// What a hand exercise session found: repetitions with each finger's reach, each finger's range over the set
/// against its target, TAM, the Kapandji score, the cues given and the time lost to set-up issues. What
/// `ptcoach analyze --exercise finger-flexion --json` prints.
public struct HandSessionSummary: Sendable, Hashable, Codable {
    public enum Verdict: String, Sendable, Hashable, Codable {
        case good, needsWork
    }

    /// One repetition.
    public struct Repetition: Sendable, Hashable, Codable {
        public var index: Int
        public var startSeconds: Double
        public var peakSeconds: Double
        public var endSeconds: Double
        /// The primary measurement at the peak and at rest before it.
        public var peak: Double
        public var rest: Double
        /// Seconds held near the peak.
        public var heldSeconds: Double
        /// Each finger's reach in the repetition (flexion: the largest; opposition: the smallest distance).
        public var fingers: [String: Double]
        /// The cues it earned, most important first.
        public var issues: [String]
        public var verdict: Verdict
    }

    /// A finger's best over the set against its target.
    public struct FingerRange: Sendable, Hashable, Codable {
        public var finger: String
        public var measure: HandExerciseDefinition.FingerMeasure
        public var best: Double
        public var targetMin: Double?
        public var targetMax: Double?
        /// Whether `best` meets the target; `nil` without one.
        public var reached: Bool?
    }

    /// Seconds lost to one set-up issue.
    public struct SetUpTime: Sendable, Hashable, Codable {
        public var issue: HandSetUp.Issue
        public var cue: String
        public var seconds: Double
    }

    public var exercise: String
    public var exerciseName: String
    public var durationSeconds: Double
    public var reps: Int
    public var frames: Int
    /// Frames in which the coached hand was measured.
    public var framesMeasured: Int
    /// Of those, the frames measured on the body pose (``BodyWrist``) for want of a hand from the hand model; `nil`
    /// for an exercise not measured that way.
    public var framesOnBody: Int?
    /// `depth` (3-D, each finger in its flexion plane) or `image` (2-D), as ``HandAngles/Basis``.
    public var basis: String?
    /// How the hand mostly faced the camera (``HandView``).
    public var view: String?
    public var primary: HandMeasure
    public var repetitions: [Repetition]
    public var fingers: [FingerRange]
    /// Each finger's total active motion (degrees), for flexion exercises.
    public var totalActiveMotion: [String: Double]?
    /// The Kapandji score (1–10), for opposition exercises.
    public var kapandji: Int?
    public var cues: [Cue]
    public var setUp: [SetUpTime]

    /// The `--json` object: the file first, then the summary (sorted keys, as the body summary).
    public func jsonText(file: String, prescribedReps: Int? = nil) throws -> String {
        var text = String(decoding: try JSONEncoder.coach().encode(self), as: UTF8.self)
        let fileEncoder = JSONEncoder()
        fileEncoder.outputFormatting = [.withoutEscapingSlashes]
        let escaped = String(decoding: try fileEncoder.encode(file), as: UTF8.self)
        let prescribed = prescribedReps.map { "\"prescribedReps\":\($0)," } ?? ""
        text = "{\"file\":\(escaped),\(prescribed)" + text.dropFirst()
        return text
    }

    /// The text report `ptcoach analyze` prints.
    public func text(file: String, prescribedReps: Int? = nil) -> String {
        func f(_ x: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", x) }
        func value(_ x: Double, _ measure: HandMeasure) -> String {
            measure.isDegrees ? "\(f(x, 0))°" : "\(f(x, 2)) hand lengths"
        }
        var lines = ["\(file): \(exerciseName) (\(exercise), given; hand)"]
        let done =
            prescribedReps.map { "\(reps) of \($0) prescribed repetitions" }
            ?? "\(reps) repetition\(reps == 1 ? "" : "s")"
        let onBody = framesOnBody.map { $0 > 0 ? " (\($0) on the body pose)" : "" } ?? ""
        lines.append(
            "  \(done) in \(f(durationSeconds)) s; hand measured in \(framesMeasured) of \(frames) frames\(onBody)"
        )
        for rep in repetitions {
            var line = "  rep \(rep.index): \(f(rep.startSeconds))–\(f(rep.endSeconds)) s, \(primary.displayName) "
            line += "\(value(rep.rest, primary)) → \(value(rep.peak, primary))"
            // A touch reached one finger: say which.
            if rep.fingers.count == 1, let finger = rep.fingers.keys.first { line += " (\(finger))" }
            if rep.heldSeconds >= 1 { line += ", held \(f(rep.heldSeconds)) s" }
            line += rep.verdict == .good ? ", good" : ", needs work: \(rep.issues[0])"
            lines.append(line)
        }
        if !fingers.isEmpty {
            let parts = fingers.map { range in
                let v = range.measure == .flexion ? "\(f(range.best, 0))°" : f(range.best, 2)
                let mark = range.reached.map { $0 ? " ✓" : " ✗" } ?? ""
                return "\(range.finger) \(v)\(mark)"
            }
            let what =
                fingers[0].measure == .flexion
                ? "flexion (MCP+PIP+DIP) best" : "thumb to fingertip, closest (hand lengths)"
            lines.append("  per finger, \(what): " + parts.joined(separator: ", "))
        }
        if let tam = totalActiveMotion {
            let order = ["thumb", "index", "middle", "ring", "little"].filter { tam[$0] != nil }
            lines.append("  TAM: " + order.map { "\($0) \(f(tam[$0]!, 0))°" }.joined(separator: ", "))
        }
        if let kapandji { lines.append("  Kapandji score: \(kapandji) / 10") }
        if let worst = setUp.max(by: { $0.seconds < $1.seconds }), worst.seconds >= 1 {
            lines.append("  set-up: \(f(worst.seconds)) s with \"\(worst.cue)\"")
        }
        return lines.joined(separator: "\n")
    }
}

import CoachKit
import CoachStore
import Foundation
import MediaIO

/// The first page of a patient's date-range report, as a therapist reads it: adherence in words, then the trend of
/// range and pain per exercise (first set to last), then each set with its date and time.
///
/// ```swift
/// let (lines, tables) = ClinicalSummary(sets: reported, prescribedSets: 18).parts
/// ```
struct ClinicalSummary {
    /// The sets, oldest first.
    let sets: [ReportedSet]
    /// What the programme asked for over the range, or `nil` without a programme.
    let prescribedSets: Int?

    var parts: (lines: [String], tables: [ReportInput.Table]) {
        ([adherence] + stops, [trend, each])
    }

    /// "5 sets on 3 days (18 prescribed: 28 %); pain rated after 4 of them."
    private var adherence: String {
        let records = sets.map(\.set)
        let days = Set(records.map { Self.day($0.startedAt) }).count
        var line = "\(records.count) set\(records.count == 1 ? "" : "s") on \(days) day\(days == 1 ? "" : "s")"
        if let prescribedSets, prescribedSets > 0 {
            let share = Int((Double(records.filter { $0.programmeItem != nil }.count) / Double(prescribedSets) * 100))
            line += " (\(prescribedSets) prescribed by the programme over these dates: \(share) % done)"
        }
        let rated = records.filter { $0.pain != nil }.count
        return line + "; pain rated after \(rated) of them."
    }

    /// A line per set that stopped its exercise (pain 7 or more, a safety stop), and whether it was seen.
    private var stops: [String] {
        sets.map(\.set).compactMap { set in
            guard let reason = set.stopReason else { return nil }
            let seen = set.reviewedAt.map { "seen \(Self.when($0))" } ?? "not yet seen by the therapist"
            return
                "Stopped: \(set.exerciseName ?? set.exercise ?? "a set") on \(Self.when(set.startedAt)), \(reason) (\(seen))."
        }
    }

    /// Per exercise: sets, the peak angle first → last and its best, pain first → last and its highest, warnings.
    private var trend: ReportInput.Table {
        var order: [String] = []
        var groups: [String: [SetRecord]] = [:]
        for set in sets.map(\.set) {
            let name = set.exerciseName ?? set.exercise ?? "Unrecognised"
            if groups[name] == nil { order.append(name) }
            groups[name, default: []].append(set)
        }
        let rows = order.map { name -> [String] in
            let list = groups[name] ?? []
            let peaks = list.compactMap(\.peakAngle)
            let pains = list.compactMap(\.pain)
            let target = list.last?.prescription.flatMap { p in
                p.targetMin.flatMap { low in p.targetMax.map { "\(Int(low))–\(Int($0))°" } }
            }
            return [
                name, "\(list.count)",
                peaks.isEmpty ? "–" : "\(Self.degrees(peaks.first!)) → \(Self.degrees(peaks.last!))",
                peaks.max().map(Self.degrees) ?? "–", target ?? "–",
                pains.isEmpty ? "–" : "\(pains.first!) → \(pains.last!)", pains.max().map { "\($0)" } ?? "–",
                "\(list.reduce(0) { $0 + $1.safetyWarnings })",
            ]
        }
        return ReportInput.Table(
            title: "Trend per exercise (first set → last)",
            header: ["Exercise", "Sets", "Peak angle", "Best", "Target", "Pain", "Highest pain", "Warnings"],
            rows: rows
        )
    }

    /// Each set with its date and time, what was done against what was prescribed, and the patient's ratings.
    private var each: ReportInput.Table {
        let rows = sets.map(\.set).map { set -> [String] in
            let number = set.setNumber.map { n in set.prescription.map { "\(n) of \($0.sets)" } ?? "\(n)" } ?? "–"
            return [
                Self.when(set.startedAt), set.exerciseName ?? set.exercise ?? "–", number,
                set.prescribedReps.map { "\(set.reps) of \($0)" } ?? "\(set.reps)",
                set.peakAngle.map(Self.degrees) ?? "–", set.pain.map { "\($0)/10" } ?? "–",
                set.difficulty.map { "\($0)/10" } ?? "–", "\(set.safetyWarnings)",
            ]
        }
        return ReportInput.Table(
            title: "Each set",
            header: [
                "Date and time (UTC)", "Exercise", "Set", "Repetitions", "Peak angle", "Pain", "Difficulty", "Warnings",
            ],
            rows: rows
        )
    }

    private static func degrees(_ value: Double) -> String { "\(Int(value.rounded()))°" }

    /// "Sat 28 Nov 14:05" in UTC, as the clinic's days are.
    static func when(_ date: Date) -> String { format(date, "EEE d MMM HH:mm") }

    private static func day(_ date: Date) -> String { format(date, "yyyy-MM-dd") }

    private static func format(_ date: Date, _ pattern: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_GB")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = pattern
        return formatter.string(from: date)
    }
}

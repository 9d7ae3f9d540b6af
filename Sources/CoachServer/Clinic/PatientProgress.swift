import CoachKit
import CoachStore
import Foundation
import PoseKit

/// What a therapist follows for one patient: adherence this week, progress per exercise, and flags. Computed from
/// the saved sets and the programme, nothing else (the same on every server instance).
struct PatientProgress: Sendable {
    struct Flag: Sendable, Hashable {
        /// `stop` (a set waiting for the therapist: pain 7 or more, or a safety stop) sorts first.
        enum Kind: String, Sendable { case stop, safety, painRising, daysMissed }
        var kind: Kind
        var message: String
        /// The exercise, and the set to review, where the flag is about one.
        var exercise: String? = nil
        var setID: String? = nil
    }

    struct Point: Sendable {
        var date: Date
        var setID: String
        var peakAngle: Double?
        var reps: Int
        var prescribedReps: Int?
        var pain: Int?
        var difficulty: Int?
        /// The prescription the set followed (its target band and stop-past limit), when it followed one.
        var prescription: Prescription?
    }

    /// Days this week (Monday to Sunday, UTC) with at least one completed set, and days prescribed.
    var daysDone: Int
    var daysPrescribed: Int
    /// Completed sets this week that followed the programme, and sets prescribed for the week.
    var setsDone: Int
    var setsPrescribed: Int
    var lastSession: Date?
    var flags: [Flag]
    /// Per exercise id, the sets in time order.
    var progress: [String: [Point]]

    static var calendar: Calendar {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }

    /// `sets` newest first, as the store gives them (the last 90 days is plenty).
    init(sets: [SetRecord], programme: Programme?, now: Date) {
        let calendar = Self.calendar
        // Practice sets (a sample video, or not from the programme and not kept) never count.
        let done = sets.filter { $0.status != .open && $0.practice == nil && ($0.reps > 0 || $0.summaryJSON != nil) }
        let weekStart = calendar.dateInterval(of: .weekOfYear, for: now)?.start ?? now
        let thisWeek = done.filter { $0.startedAt >= weekStart }
        daysDone = Set(thisWeek.map { calendar.startOfDay(for: $0.startedAt) }).count
        daysPrescribed = programme?.daysPerWeek ?? 0
        setsDone = thisWeek.filter { $0.programmeItem != nil }.count
        setsPrescribed = (programme?.items.reduce(0) { $0 + $1.sets } ?? 0) * daysPrescribed
        lastSession = done.first?.startedAt

        let flags =
            Self.exerciseFlags(sets, now: now) + Self.missedDaysFlags(programme, lastSession: lastSession, now: now)
        self.flags = flags.filter { $0.kind == .stop } + flags.filter { $0.kind != .stop }

        self.progress = Self.progress(of: done)
    }

    /// Per exercise, newest first: a set waiting for the therapist; else pain rising over its last three rated
    /// sets, or its latest pain high; safety warnings in the last 7 days.
    private static func exerciseFlags(_ sets: [SetRecord], now: Date) -> [Flag] {
        let counted = sets.filter { $0.practice != .sampleVideo && $0.status != .open }
        let exercises = Dictionary(grouping: counted.filter { $0.exercise != nil }, by: { $0.exercise! })
        return exercises.sorted(by: { $0.key < $1.key }).flatMap { exercise, list in
            exerciseFlags(exercise, sets: list, now: now)
        }
    }

    /// The flags of one exercise's `sets` (newest first): a stop awaiting review, or pain, and safety warnings.
    private static func exerciseFlags(_ exercise: String, sets list: [SetRecord], now: Date) -> [Flag] {
        var flags: [Flag] = []
        let name = list.first?.exerciseName ?? exercise
        if let stop = list.first(where: \.awaitsReview) {
            flags.append(
                .init(
                    kind: .stop,
                    message:
                        "\(name) stopped: \(stop.stopReason ?? "") at the set of \(Self.when(stop.startedAt)); "
                        + "not offered again until you mark it seen",
                    exercise: exercise,
                    setID: stop.id
                )
            )
            return flags
        }
        let pains = list.filter { $0.practice == nil }.compactMap(\.pain)
        if pains.count >= 3, pains[0] > pains[1], pains[1] > pains[2] {
            flags.append(
                .init(
                    kind: .painRising,
                    message: "\(name): pain rising \(pains[2]) → \(pains[1]) → \(pains[0]) over its last 3 sets",
                    exercise: exercise
                )
            )
        } else if let latest = pains.first, latest >= SetRecord.stoppingPain {
            flags.append(
                .init(
                    kind: .painRising,
                    message: "\(name): pain \(latest)/10 at its last set (seen)",
                    exercise: exercise
                )
            )
        }
        let warnings = list.filter { now.timeIntervalSince($0.startedAt) < 7 * 86400 }
            .reduce(0) { $0 + $1.safetyWarnings }
        if warnings > 0 {
            flags.append(
                .init(
                    kind: .safety,
                    message:
                        "\(name): \(warnings) safety limit warning\(warnings == 1 ? "" : "s") in the last 7 days",
                    exercise: exercise
                )
            )
        }
        return flags
    }

    /// A flag when the days since the last session (or since the programme was set) pass its spacing.
    private static func missedDaysFlags(_ programme: Programme?, lastSession: Date?, now: Date) -> [Flag] {
        var flags: [Flag] = []
        if let programme, programme.daysPerWeek > 0 {
            // Allowed gap between sessions: a week's spacing plus a day.
            let allowed = 7.0 / Double(programme.daysPerWeek) + 1
            let since = lastSession ?? programme.createdAt
            let days = now.timeIntervalSince(since) / 86400
            if days >= allowed.rounded(.up) {
                flags.append(
                    .init(
                        kind: .daysMissed,
                        message: lastSession == nil
                            ? "no session in the \(Int(days)) days since the programme was set"
                            : "no session for \(Int(days)) days (\(programme.daysPerWeek) a week prescribed)"
                    )
                )
            }
        }
        return flags
    }

    /// Each exercise's done sets, oldest first, as points of its progress chart.
    private static func progress(of done: [SetRecord]) -> [String: [Point]] {
        var progress: [String: [Point]] = [:]
        for set in done.reversed() {
            guard let exercise = set.exercise else { continue }
            progress[exercise, default: []].append(
                Point(
                    date: set.startedAt,
                    setID: set.id,
                    peakAngle: set.peakAngle,
                    reps: set.reps,
                    prescribedReps: set.prescribedReps,
                    pain: set.pain,
                    difficulty: set.difficulty,
                    prescription: set.prescription
                )
            )
        }
        return progress
    }

    /// Whether a set waits for the therapist (the patient list shows such patients first).
    var needsReview: Bool { flags.contains { $0.kind == .stop } }

    /// "28 Nov 14:05" (UTC, as the reports' dates).
    static func when(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_GB")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "d MMM HH:mm"
        return formatter.string(from: date)
    }
}

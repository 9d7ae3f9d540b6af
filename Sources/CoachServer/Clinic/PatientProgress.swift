import CoachKit
import CoachStore
import Foundation
import PoseKit

/// What a therapist follows for one patient: adherence this week, progress per exercise, and flags. Computed from
/// the saved sets and the programme, nothing else (the same on every server instance).
struct PatientProgress: Sendable {
    struct Flag: Sendable, Hashable {
        enum Kind: String, Sendable { case safety, painRising, daysMissed }
        var kind: Kind
        var message: String
    }

    struct Point: Sendable {
        var date: Date
        var setID: String
        var peakAngle: Double?
        var reps: Int
        var prescribedReps: Int?
        var pain: Int?
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
        let done = sets.filter { $0.status != .open && ($0.reps > 0 || $0.summaryJSON != nil) }
        let weekStart = calendar.dateInterval(of: .weekOfYear, for: now)?.start ?? now
        let thisWeek = done.filter { $0.startedAt >= weekStart }
        daysDone = Set(thisWeek.map { calendar.startOfDay(for: $0.startedAt) }).count
        daysPrescribed = programme?.daysPerWeek ?? 0
        setsDone = thisWeek.filter { $0.programmeItem != nil }.count
        setsPrescribed = (programme?.items.reduce(0) { $0 + $1.sets } ?? 0) * daysPrescribed
        lastSession = done.first?.startedAt

        var flags: [Flag] = []
        let lastWeek = done.filter { now.timeIntervalSince($0.startedAt) < 7 * 86400 }
        let warnings = lastWeek.reduce(0) { $0 + $1.safetyWarnings }
        if warnings > 0 {
            flags.append(.init(kind: .safety, message: "\(warnings) safety limit warning(s) in the last 7 days"))
        }
        // Pain rising: the last three ratings each higher than the one before, or the latest 7 or more.
        let pains = done.compactMap(\.pain)  // newest first
        if let latest = pains.first, latest >= 7 {
            flags.append(.init(kind: .painRising, message: "pain \(latest)/10 at the last rated set"))
        } else if pains.count >= 3, pains[0] > pains[1], pains[1] > pains[2] {
            flags.append(
                .init(kind: .painRising, message: "pain rising: \(pains[2]) → \(pains[1]) → \(pains[0]) over 3 sets")
            )
        }
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
        self.flags = flags

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
                    pain: set.pain
                )
            )
        }
        self.progress = progress
    }

    var json: JSONValue {
        let formatter = ISO8601DateFormatter()
        func number(_ x: Int?) -> JSONValue { x.map { .number(Double($0)) } ?? .null }
        func point(_ p: Point) -> JSONValue {
            .object([
                "date": .string(formatter.string(from: p.date)), "set": .string(p.setID),
                "peakAngle": p.peakAngle.map(JSONValue.number) ?? .null, "reps": number(p.reps),
                "prescribedReps": number(p.prescribedReps), "pain": number(p.pain),
            ])
        }
        let adherence: JSONValue = .object([
            "daysDone": number(daysDone), "daysPrescribed": number(daysPrescribed),
            "setsDone": number(setsDone), "setsPrescribed": number(setsPrescribed),
        ])
        let flagList: [JSONValue] = flags.map {
            .object(["kind": .string($0.kind.rawValue), "message": .string($0.message)])
        }
        let series: [String: JSONValue] = progress.mapValues { .array($0.map(point)) }
        return .object([
            "adherence": adherence,
            "lastSession": lastSession.map { .string(formatter.string(from: $0)) } ?? .null,
            "flags": .array(flagList),
            "progress": .object(series),
        ])
    }
}

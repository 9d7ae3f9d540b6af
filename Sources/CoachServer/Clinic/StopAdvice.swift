import CoachStore
import Foundation

/// The pain and safety rule a therapist signs: after pain 7 or more, or a safety stop, the patient is told plainly
/// to stop that exercise and contact their therapist, and its next set is not offered until the therapist has seen
/// the set (``CoachStore/SetRecord/awaitsReview``).
///
/// ```swift
/// if let stop = StopAdvice.blocking(sets, exercise: "squat") { say(StopAdvice.text(for: stop, name: "Squat")) }
/// ```
enum StopAdvice {
    /// The newest set of `exercise` still waiting for the therapist, or `nil` when the exercise may go on.
    ///
    /// - Parameter sets: the patient's sets, newest first.
    static func blocking(_ sets: [SetRecord], exercise: String) -> SetRecord? {
        sets.first { $0.exercise == exercise && $0.awaitsReview }
    }

    /// What the patient is told, in plain words.
    static func text(for set: SetRecord, name: String?) -> String {
        let exercise = name ?? set.exerciseName ?? "this exercise"
        let why = set.stopReason.map { " (\($0) at your set of \(day(set.startedAt)))" } ?? ""
        return "Stop doing \(exercise) for now and contact your therapist\(why). Your therapist has been told; "
            + "this exercise will be offered again once they have seen it. Your other exercises are not affected."
    }

    /// The sets of programme item `item` (version `version`) done today (UTC) that count: practice sets do not.
    static func setsDoneToday(_ sets: [SetRecord], item: Int, version: Int, now: Date = .now) -> Int {
        let today = PatientProgress.calendar.startOfDay(for: now)
        return sets.filter {
            $0.startedAt >= today && $0.practice == nil && $0.programmeItem == item && $0.programmeVersion == version
        }.count
    }

    private static func day(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_GB")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "d MMM, HH:mm"
        return formatter.string(from: date)
    }
}

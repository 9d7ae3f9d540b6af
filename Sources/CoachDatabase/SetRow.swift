import CoachKit
import CoachStore
import Foundation

/// A set's row as both stores keep it (SQLite's `liveSet`, PostgreSQL's `live_set`, each in its own column names): a
/// set as it was opened, then closed, rated, reviewed, and the one mapping to and from the port's ``SetRecord``. Its
/// peak angle is the highest of its repetitions', read beside it.
struct SetRow: Codable, Sendable {
    var id: String
    var startedAt: Date
    var endedAt: Date?
    var input: String
    var exercise: String?
    var exerciseName: String?
    var prescribedReps: Int?
    var prescribedHoldSeconds: Double?
    var reps: Int
    var status: String
    var summaryJSON: String?
    var angleSeriesJSON: String?
    var patientID: String?
    var programmeVersion: Int?
    var programmeItem: Int?
    var setNumber: Int?
    var pain: Int?
    var difficulty: Int?
    var safetyWarnings: Int
    var practice: String?
    var prescriptionJSON: String?
    var reviewedAt: Date?
    var reviewedBy: String?

    /// The port's record; `peak`: the highest angle of its repetitions.
    ///
    /// - Throws: ``CoachStore/StoreError`` for a status or practice this version does not know.
    func record(peak: Double?) throws(StoreError) -> SetRecord {
        var record = SetRecord(
            id: id,
            startedAt: startedAt,
            input: input,
            exercise: exercise,
            exerciseName: exerciseName,
            prescribedReps: prescribedReps,
            prescribedHoldSeconds: prescribedHoldSeconds
        )
        record.endedAt = endedAt
        record.reps = reps
        record.status = try StoreCoding.status(status, setID: id)
        record.summaryJSON = summaryJSON
        record.angleSeriesJSON = angleSeriesJSON
        record.patientID = patientID
        record.programmeVersion = programmeVersion
        record.programmeItem = programmeItem
        record.setNumber = setNumber
        record.pain = pain
        record.difficulty = difficulty
        record.safetyWarnings = safetyWarnings
        record.peakAngle = peak
        record.practice = try StoreCoding.practice(practice, setID: id)
        record.prescription = StoreCoding.prescription(prescriptionJSON)
        record.reviewedAt = reviewedAt
        record.reviewedBy = reviewedBy
        return record
    }
}

extension SetRow {
    /// A set just opened: no repetition yet, `open`.
    init(opening set: SetRecord) throws(StoreError) {
        id = set.id
        startedAt = set.startedAt
        input = set.input
        exercise = set.exercise
        exerciseName = set.exerciseName
        prescribedReps = set.prescribedReps
        prescribedHoldSeconds = set.prescribedHoldSeconds
        reps = 0
        status = SetRecord.Status.open.rawValue
        patientID = set.patientID
        programmeVersion = set.programmeVersion
        programmeItem = set.programmeItem
        setNumber = set.setNumber
        safetyWarnings = 0
        practice = set.practice?.rawValue
        prescriptionJSON = try StoreCoding.json(set.prescription)
    }
}

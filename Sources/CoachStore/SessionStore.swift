public import CoachKit
public import Foundation

/// A set coached live: saved when it starts, repetition by repetition while it runs, and with its summary when
/// it ends, so that a crash or a restart loses at most the repetition in progress.
public struct SetRecord: Sendable, Hashable, Codable {
    public enum Status: String, Sendable, Hashable, Codable {
        /// Running now (or left so by a crash until the next start-up marks it ``interrupted``).
        case open
        /// Ended by the patient, the client closing its socket, or the server shutting down.
        case completed
        /// Found open at start-up: the server stopped without finishing it; its saved repetitions stand.
        case interrupted
    }

    public var id: String
    public var startedAt: Date
    public var endedAt: Date?
    /// `camera` (JPEG frames, poses found by the server) or `keypoints` (poses sent by the client).
    public var input: String
    /// The exercise given, or recognised (once the set ends); `nil` when none.
    public var exercise: String?
    public var exerciseName: String?
    public var prescribedReps: Int?
    public var prescribedHoldSeconds: Double?
    public var reps: Int
    public var status: Status
    /// The set's ``CoachKit/SessionSummary`` as `ptcoach analyze --json` prints it; `nil` while open.
    public var summaryJSON: String?
    /// The primary angle over time, `[[seconds, degrees], …]` at up to 10 Hz, for the report's chart.
    public var angleSeriesJSON: String?

    public init(
        id: String,
        startedAt: Date,
        input: String,
        exercise: String?,
        exerciseName: String?,
        prescribedReps: Int?,
        prescribedHoldSeconds: Double?
    ) {
        self.id = id
        self.startedAt = startedAt
        self.input = input
        self.exercise = exercise
        self.exerciseName = exerciseName
        self.prescribedReps = prescribedReps
        self.prescribedHoldSeconds = prescribedHoldSeconds
        self.reps = 0
        self.status = .open
    }
}

/// Where live sets are kept. One protocol, so that the server does not care which database is behind it.
public protocol SessionStore: Sendable {
    /// Saves a set that starts now.
    func open(_ set: SetRecord) async throws(StoreError)
    /// Saves one completed repetition (replacing one of the same index: a repetition can be judged again).
    func save(_ repetition: Repetition, setID: String) async throws(StoreError)
    /// Ends a set with its summary: the repetitions saved are replaced by the summary's. Without a summary (nobody
    /// was coached) the set is only marked completed.
    func close(
        setID: String,
        summary: SessionSummary?,
        summaryJSON: String?,
        angleSeriesJSON: String?,
        at date: Date
    ) async throws(StoreError)
    /// The sets, newest first.
    func sets(limit: Int) async throws(StoreError) -> [SetRecord]
    /// One set, or `nil`.
    func set(id: String) async throws(StoreError) -> SetRecord?
    /// A set's repetitions, in order.
    func repetitions(setID: String) async throws(StoreError) -> [Repetition]
    /// Marks sets left open by a crash as interrupted; returns how many.
    func markInterrupted() async throws(StoreError) -> Int
}

/// A storage failure, with one line saying what to do.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var cause: String?

    public init(_ message: String, cause: (any Error)? = nil) {
        self.message = message
        self.cause = cause.map { "\($0)" }
    }

    public var description: String { cause.map { "\(message) (\($0))" } ?? message }
}

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

    /// Why a set is practice: it never counts for adherence, progress or exports, and is not listed as the
    /// patient's set unless they keep it (``ClinicStore/setPractice(setID:_:)`` with `nil`).
    public enum Practice: String, Sendable, Hashable, Codable {
        /// The frames came from a sample video, not the patient: never theirs to keep.
        case sampleVideo = "sample-video"
        /// The patient's own camera, not a set of their programme: theirs to keep if they choose.
        case unprescribed
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
    /// The patient whose set it is; `nil` for a set coached without logging in.
    public var patientID: String?
    /// The programme version and item (0-based) the set followed, and which set of that item it was (1-based).
    public var programmeVersion: Int?
    public var programmeItem: Int?
    public var setNumber: Int?
    /// The patient's ratings at the end: pain 0–10, difficulty 0–10.
    public var pain: Int?
    public var difficulty: Int?
    /// Safety warnings raised during the set (saved with its summary).
    public var safetyWarnings: Int
    /// The largest primary angle reached in a counted repetition, in degrees (read from the repetitions).
    public var peakAngle: Double?
    /// Practice (a sample video, or not from the programme), or `nil` for a set that counts.
    public var practice: Practice?
    /// The programme item the set followed, as it was then (its target, stop-past limit, hold and repetitions).
    public var prescription: Prescription?
    /// When, and by which therapist, a set that stopped its exercise (pain 7 or more, a safety limit) was seen.
    public var reviewedAt: Date?
    public var reviewedBy: String?

    /// Pain at or above this stops the exercise until the therapist has seen the set.
    public static let stoppingPain = 7

    /// Why this set stops its exercise until the therapist has seen it (pain 7 or more, or a safety limit
    /// crossed), or `nil`. A sample video's set never does: the patient did not move.
    public var stopReason: String? {
        guard practice != .sampleVideo, status != .open else { return nil }
        if let pain, pain >= Self.stoppingPain { return "pain \(pain)/10" }
        if safetyWarnings > 0 { return "\(safetyWarnings) safety stop\(safetyWarnings == 1 ? "" : "s")" }
        return nil
    }

    /// A set whose ``stopReason`` the therapist has not seen yet.
    public var awaitsReview: Bool { stopReason != nil && reviewedAt == nil }

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
        self.safetyWarnings = 0
    }
}

/// How often an instance says it is alive (``ClinicStore/markInterrupted()``), and how long after its last heartbeat
/// another instance takes it for stopped. Times compared are the database's own, never one instance's clock against
/// another's.
public enum ClinicStoreHeartbeat {
    public static let interval: TimeInterval = 10
    public static let staleAfter: TimeInterval = 45
}

/// Where the clinic is kept: accounts, programmes, live sets and their repetitions, the audit log. One protocol, so
/// that the server does not care which database is behind it.
public protocol ClinicStore: Sendable {
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
    /// Says this instance is alive (its heartbeat), then marks interrupted the open sets that no live instance owns
    /// (a set is owned by the instance that opened it); returns how many. Run at start-up and every
    /// ``ClinicStoreHeartbeat/interval`` (docs/live-watch.md, "Several instances"). A set another instance is coaching
    /// now is never touched; one whose instance stopped beating for ``ClinicStoreHeartbeat/staleAfter`` is.
    func markInterrupted() async throws(StoreError) -> Int
    /// The patients with a set that a live instance is coaching now (an open set of a crashed instance is not).
    func patientsCoachedNow() async throws(StoreError) -> Set<String>

    // MARK: Clinic

    /// A patient's sets since a date, newest first.
    func sets(patientID: String, since: Date?, limit: Int) async throws(StoreError) -> [SetRecord]
    /// Saves the patient's pain and difficulty ratings for a set.
    func rate(setID: String, pain: Int?, difficulty: Int?) async throws(StoreError)
    /// Marks a set as practice, or (`nil`) keeps it as the patient's set.
    func setPractice(setID: String, _ practice: SetRecord.Practice?) async throws(StoreError)
    /// Records that a therapist has seen a set that stopped its exercise.
    func review(setID: String, by therapistID: String, at date: Date) async throws(StoreError)

    /// Adds an account; throws when its login is taken.
    func add(_ user: User) async throws(StoreError)
    func user(id: String) async throws(StoreError) -> User?
    func user(login: String) async throws(StoreError) -> User?
    /// A therapist's patients, by name.
    func patients(therapistID: String) async throws(StoreError) -> [User]
    /// The therapists, by name (the first is made with `ptcoach users add`).
    func therapists() async throws(StoreError) -> [User]

    func add(_ session: LoginSession) async throws(StoreError)
    /// A login session that has not expired, or `nil`.
    func loginSession(tokenHash: String, at date: Date) async throws(StoreError) -> LoginSession?
    func removeLoginSession(tokenHash: String) async throws(StoreError)

    func add(_ invitation: Invitation) async throws(StoreError)
    /// Whether an invitation code can be used now (known, unused, not expired): checked before a password is hashed,
    /// so that made-up codes cost no bcrypt.
    func invitationIsOpen(codeHash: String, at date: Date) async throws(StoreError) -> Bool
    /// Uses an invitation once: sets the patient's login and password and marks the code used, together. Returns
    /// the patient, or `nil` when the code is unknown, used or expired; throws when the login is taken.
    func redeem(codeHash: String, login: String, passwordHash: String, at date: Date) async throws(StoreError) -> User?

    /// Saves a new version of the patient's programme; returns it with its version number.
    func save(_ programme: Programme) async throws(StoreError) -> Programme
    /// The patient's current programme, or one version of it.
    func programme(patientID: String, version: Int?) async throws(StoreError) -> Programme?

    /// Saves an exercise of the clinic's own library (replacing one of the same id).
    func save(_ exercise: ClinicExercise) async throws(StoreError)
    /// The clinic's own exercises, by name.
    func clinicExercises() async throws(StoreError) -> [ClinicExercise]

    func record(_ entry: AuditEntry) async throws(StoreError)
    /// The audit entries about a patient, newest first.
    func audit(patientID: String, limit: Int) async throws(StoreError) -> [AuditEntry]
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

public import CoachKit
public import CoachStore
public import Foundation
public import Logging
import NIOSSL
import PostgresNIO

/// The clinic in PostgreSQL (PostgresNIO's connection pool): what several `ptcoach serve` instances share with
/// `--postgres URL`. The same contract as ``SQLiteClinicStore`` (the same test suite runs on both).
///
/// ```swift
/// let store = try await PostgresClinicStore(url: "postgres://ptcoach:secret@db.example:5432/ptcoach")
/// ```
public final class PostgresClinicStore: ClinicStore {
    private let client: PostgresClient
    private let runner: Task<Void, Never>
    private let logger: Logger
    /// The URL without its password, for messages.
    public let location: String
    /// This instance (this store, one server run): the owner of the sets it opens.
    public let instanceID = UUID().uuidString.lowercased()
    /// How long after its last heartbeat another instance is taken for stopped (tests shorten it).
    let staleAfter: TimeInterval

    /// Connects (`postgres://user:password@host:port/database`, `?sslmode=disable|prefer|require`, default
    /// prefer) and brings the schema up to date; several instances may start at once.
    public init(
        url: String,
        logger: Logger = PostgresClinicStore.quietLogger,
        staleAfter: TimeInterval = ClinicStoreHeartbeat.staleAfter
    ) async throws(StoreError) {
        self.staleAfter = staleAfter
        let address = try PostgresURL(url)
        let probeConfiguration = try address.connection()
        location = address.location
        self.logger = logger
        let configuration = address.client()
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        runner = Task { await client.run() }
        do {
            // The pool retries a server it cannot reach for ever: one connection first, so that a wrong address or
            // password is an error at start-up.
            let probe = try await PostgresConnection.connect(
                configuration: probeConfiguration,
                id: 0,
                logger: logger
            )
            try await probe.close()
            try await migrate()
        } catch {
            runner.cancel()
            // PostgresNIO hides what went wrong behind its description; its reflection says (refused, bad password).
            var failure = StoreError(
                "cannot use the PostgreSQL database \(location); check that it runs and the user may create tables"
            )
            failure.cause = String(String(reflecting: error).prefix(300))
            throw failure
        }
    }

    deinit { runner.cancel() }

    /// The pool logs each failed connection attempt at `info`; the store's own errors say what went wrong.
    public static var quietLogger: Logger {
        var logger = Logger(label: "ptcoach.postgres")
        logger.logLevel = .warning
        return logger
    }

    /// Migrations are never edited once shipped: a change is a new entry. Applied under an advisory lock, so that
    /// instances starting together apply each once.
    private static let migrations: [(String, [String])] = [
        (
            "v1: clinic",
            [
                """
                CREATE TABLE app_user (id TEXT PRIMARY KEY, role TEXT NOT NULL, name TEXT NOT NULL, login TEXT UNIQUE,
                    password_hash TEXT, therapist_id TEXT REFERENCES app_user(id), created_at TIMESTAMPTZ NOT NULL)
                """,
                "CREATE INDEX app_user_therapist ON app_user (therapist_id)",
                """
                CREATE TABLE live_set (id TEXT PRIMARY KEY, started_at TIMESTAMPTZ NOT NULL, ended_at TIMESTAMPTZ,
                    input TEXT NOT NULL, exercise TEXT, exercise_name TEXT, prescribed_reps BIGINT,
                    prescribed_hold_seconds DOUBLE PRECISION, reps BIGINT NOT NULL DEFAULT 0, status TEXT NOT NULL,
                    summary_json TEXT, angle_series_json TEXT, patient_id TEXT REFERENCES app_user(id),
                    programme_version BIGINT, programme_item BIGINT, set_number BIGINT, pain BIGINT, difficulty BIGINT,
                    safety_warnings BIGINT NOT NULL DEFAULT 0)
                """,
                "CREATE INDEX live_set_started ON live_set (started_at)",
                "CREATE INDEX live_set_patient ON live_set (patient_id, started_at)",
                """
                CREATE TABLE repetition (set_id TEXT NOT NULL REFERENCES live_set(id) ON DELETE CASCADE,
                    rep_index BIGINT NOT NULL, start_seconds DOUBLE PRECISION NOT NULL,
                    end_seconds DOUBLE PRECISION NOT NULL, verdict TEXT NOT NULL, range_of_motion DOUBLE PRECISION,
                    peak_angle DOUBLE PRECISION, json TEXT NOT NULL, PRIMARY KEY (set_id, rep_index))
                """,
                """
                CREATE TABLE login_session (token_hash TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES app_user(id) ON DELETE CASCADE, csrf_token TEXT NOT NULL,
                    created_at TIMESTAMPTZ NOT NULL, expires_at TIMESTAMPTZ NOT NULL)
                """,
                """
                CREATE TABLE invitation (code_hash TEXT PRIMARY KEY,
                    patient_id TEXT NOT NULL REFERENCES app_user(id) ON DELETE CASCADE,
                    expires_at TIMESTAMPTZ NOT NULL, used_at TIMESTAMPTZ)
                """,
                """
                CREATE TABLE programme (patient_id TEXT NOT NULL REFERENCES app_user(id) ON DELETE CASCADE,
                    version BIGINT NOT NULL, items_json TEXT NOT NULL, days_per_week BIGINT NOT NULL,
                    created_at TIMESTAMPTZ NOT NULL, created_by TEXT NOT NULL, PRIMARY KEY (patient_id, version))
                """,
                """
                CREATE TABLE audit (id BIGSERIAL PRIMARY KEY, at TIMESTAMPTZ NOT NULL, actor_id TEXT NOT NULL,
                    actor_name TEXT NOT NULL, patient_id TEXT NOT NULL, action TEXT NOT NULL)
                """,
                "CREATE INDEX audit_patient ON audit (patient_id, at)",
            ]
        ),
        (
            "v2: practice sets, the prescription followed, the therapist's review",
            [
                """
                ALTER TABLE live_set ADD COLUMN practice TEXT, ADD COLUMN prescription_json TEXT,
                    ADD COLUMN reviewed_at TIMESTAMPTZ, ADD COLUMN reviewed_by TEXT
                """
            ]
        ),
        (
            "v3: the clinic's own exercises",
            [
                """
                CREATE TABLE clinic_exercise (id TEXT PRIMARY KEY, name TEXT NOT NULL, definition_json TEXT NOT NULL,
                    preview_json TEXT NOT NULL, created_by TEXT NOT NULL, created_at TIMESTAMPTZ NOT NULL)
                """
            ]
        ),
        (
            "v4: the instance that coaches each set, and each instance's heartbeat",
            [
                "ALTER TABLE live_set ADD COLUMN instance_id TEXT",
                "CREATE TABLE live_instance (id TEXT PRIMARY KEY, heartbeat_at TIMESTAMPTZ NOT NULL)",
            ]
        ),
    ]

    private func migrate() async throws {
        let logger = self.logger
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(7130521)", logger: logger)
            try await connection.query(
                "CREATE TABLE IF NOT EXISTS ptcoach_migration (name TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL)",
                logger: logger
            )
            var applied: Set<String> = []
            for try await name in try await connection.query("SELECT name FROM ptcoach_migration", logger: logger)
                .decode(String.self)
            {
                applied.insert(name)
            }
            for (name, statements) in Self.migrations where !applied.contains(name) {
                for statement in statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query(
                    "INSERT INTO ptcoach_migration (name, applied_at) VALUES (\(name), \(Date.now))",
                    logger: logger
                )
            }
        }
    }

    // MARK: - Sets

    /// A set's columns in ``SetRow``'s order, then its peak angle (the highest of its repetitions'), as
    /// ``records(_:_:)`` decodes them.
    private static let setColumns = """
        id, started_at, ended_at, input, exercise, exercise_name, prescribed_reps, prescribed_hold_seconds, reps,
        status, summary_json, angle_series_json, patient_id, programme_version, programme_item, set_number, pain,
        difficulty, safety_warnings, practice, prescription_json, reviewed_at, reviewed_by,
        (SELECT MAX(peak_angle) FROM repetition WHERE repetition.set_id = live_set.id) AS peak
        """

    public func open(_ set: SetRecord) async throws(StoreError) {
        let prescription = try StoreCoding.json(set.prescription)
        try await run("save the new set") { client, logger in
            try await client.query(
                """
                INSERT INTO live_set (id, started_at, input, exercise, exercise_name, prescribed_reps,
                    prescribed_hold_seconds, reps, status, patient_id, programme_version, programme_item, set_number,
                    practice, prescription_json, instance_id)
                VALUES (\(set.id), \(set.startedAt), \(set.input), \(set.exercise), \(set.exerciseName),
                    \(set.prescribedReps), \(set.prescribedHoldSeconds), 0, 'open', \(set.patientID),
                    \(set.programmeVersion), \(set.programmeItem), \(set.setNumber), \(set.practice?.rawValue),
                    \(prescription), \(instanceID))
                """,
                logger: logger
            )
        }
    }

    public func save(_ repetition: Repetition, setID: String) async throws(StoreError) {
        let json = try StoreCoding.json(repetition)
        try await run("save repetition \(repetition.index)") { client, logger in
            try await client.withTransaction(logger: logger) { connection in
                try await Self.insert(repetition, json: json, setID: setID, on: connection, logger: logger)
                try await connection.query(
                    "UPDATE live_set SET reps = (SELECT COUNT(*) FROM repetition WHERE set_id = \(setID)) WHERE id = \(setID)",
                    logger: logger
                )
            }
        }
    }

    public func close(
        setID: String,
        summary: SessionSummary?,
        summaryJSON: String?,
        angleSeriesJSON: String?,
        at date: Date
    ) async throws(StoreError) {
        guard let summary else {
            try await run("end the set") { client, logger in
                try await client.query(
                    "UPDATE live_set SET ended_at = \(date), status = 'completed' WHERE id = \(setID)",
                    logger: logger
                )
            }
            return
        }
        var encoded: [(Repetition, String)] = []
        for repetition in summary.repetitions { encoded.append((repetition, try StoreCoding.json(repetition))) }
        let repetitions = encoded
        try await run("save the set's summary") { client, logger in
            try await client.withTransaction(logger: logger) { connection in
                try await connection.query("DELETE FROM repetition WHERE set_id = \(setID)", logger: logger)
                for (repetition, json) in repetitions {
                    try await Self.insert(repetition, json: json, setID: setID, on: connection, logger: logger)
                }
                try await connection.query(
                    """
                    UPDATE live_set SET ended_at = \(date), status = 'completed', reps = \(summary.reps),
                        exercise = \(summary.exercise), exercise_name = \(summary.exerciseName),
                        summary_json = \(summaryJSON), angle_series_json = \(angleSeriesJSON),
                        safety_warnings = \(summary.safetyWarnings.count) WHERE id = \(setID)
                    """,
                    logger: logger
                )
            }
        }
    }

    public func sets(limit: Int) async throws(StoreError) -> [SetRecord] {
        try await records(
            "read the sets",
            "SELECT \(unescaped: Self.setColumns) FROM live_set ORDER BY started_at DESC LIMIT \(limit)"
        )
    }

    public func set(id: String) async throws(StoreError) -> SetRecord? {
        try await records("read set \(id)", "SELECT \(unescaped: Self.setColumns) FROM live_set WHERE id = \(id)").first
    }

    public func repetitions(setID: String) async throws(StoreError) -> [Repetition] {
        let texts: [String] = try await run("read the repetitions of set \(setID)") { client, logger in
            var texts: [String] = []
            let rows = try await client.query(
                "SELECT json FROM repetition WHERE set_id = \(setID) ORDER BY rep_index",
                logger: logger
            )
            for try await text in rows.decode(String.self) { texts.append(text) }
            return texts
        }
        return try StoreCoding.repetitions(texts, setID: setID)
    }

    public func sets(patientID: String, since: Date?, limit: Int) async throws(StoreError) -> [SetRecord] {
        let since = since ?? Date(timeIntervalSince1970: 0)
        return try await records(
            "read the patient's sets",
            """
            SELECT \(unescaped: Self.setColumns) FROM live_set WHERE patient_id = \(patientID) AND started_at >= \(since)
            ORDER BY started_at DESC LIMIT \(limit)
            """
        )
    }

    public func rate(setID: String, pain: Int?, difficulty: Int?) async throws(StoreError) {
        try await run("save the ratings") { client, logger in
            try await client.query(
                "UPDATE live_set SET pain = \(pain), difficulty = \(difficulty) WHERE id = \(setID)",
                logger: logger
            )
        }
    }

    public func setPractice(setID: String, _ practice: SetRecord.Practice?) async throws(StoreError) {
        try await run("mark the set") { client, logger in
            try await client.query(
                "UPDATE live_set SET practice = \(practice?.rawValue) WHERE id = \(setID)",
                logger: logger
            )
        }
    }

    public func review(setID: String, by therapistID: String, at date: Date) async throws(StoreError) {
        try await run("save the review") { client, logger in
            try await client.query(
                "UPDATE live_set SET reviewed_at = \(date), reviewed_by = \(therapistID) WHERE id = \(setID)",
                logger: logger
            )
        }
    }

    // MARK: - Programmes and audit

    public func save(_ programme: Programme) async throws(StoreError) -> Programme {
        let itemsJSON = try StoreCoding.json(programme.items)
        let version: Int = try await run("save the programme") { client, logger in
            try await client.withTransaction(logger: logger) { connection in
                // Serialises versions of one patient's programme across instances.
                try await connection.query(
                    "SELECT pg_advisory_xact_lock(hashtext(\(programme.patientID)))",
                    logger: logger
                )
                var latest = 0
                let rows = try await connection.query(
                    "SELECT COALESCE(MAX(version), 0) FROM programme WHERE patient_id = \(programme.patientID)",
                    logger: logger
                )
                for try await value in rows.decode(Int.self) { latest = value }
                try await connection.query(
                    """
                    INSERT INTO programme (patient_id, version, items_json, days_per_week, created_at, created_by)
                    VALUES (\(programme.patientID), \(latest + 1), \(itemsJSON), \(programme.daysPerWeek),
                        \(programme.createdAt), \(programme.createdBy))
                    """,
                    logger: logger
                )
                return latest + 1
            }
        }
        var saved = programme
        saved.version = version
        return saved
    }

    public func programme(patientID: String, version: Int?) async throws(StoreError) -> Programme? {
        let found: (Programme, String)? = try await run("read the programme") { client, logger in
            let rows =
                if let version {
                    try await client.query(
                        """
                        SELECT version, items_json, days_per_week, created_at, created_by FROM programme
                        WHERE patient_id = \(patientID) AND version = \(version)
                        """,
                        logger: logger
                    )
                } else {
                    try await client.query(
                        """
                        SELECT version, items_json, days_per_week, created_at, created_by FROM programme
                        WHERE patient_id = \(patientID) ORDER BY version DESC LIMIT 1
                        """,
                        logger: logger
                    )
                }
            for try await (version, items, days, created, by) in rows.decode((Int, String, Int, Date, String).self) {
                return (
                    Programme(
                        patientID: patientID,
                        version: version,
                        items: [],
                        daysPerWeek: days,
                        createdAt: created,
                        createdBy: by
                    ), items
                )
            }
            return nil
        }
        guard let (found, itemsJSON) = found else { return nil }
        return try StoreCoding.programme(found, itemsJSON: itemsJSON)
    }

    public func record(_ entry: AuditEntry) async throws(StoreError) {
        try await run("write the audit log") { client, logger in
            try await client.query(
                """
                INSERT INTO audit (at, actor_id, actor_name, patient_id, action)
                VALUES (\(entry.at), \(entry.actorID), \(entry.actorName), \(entry.patientID), \(entry.action))
                """,
                logger: logger
            )
        }
    }

    public func audit(patientID: String, limit: Int) async throws(StoreError) -> [AuditEntry] {
        try await run("read the audit log") { client, logger in
            var entries: [AuditEntry] = []
            let rows = try await client.query(
                """
                SELECT at, actor_id, actor_name, patient_id, action FROM audit WHERE patient_id = \(patientID)
                ORDER BY at DESC, id DESC LIMIT \(limit)
                """,
                logger: logger
            )
            for try await (at, actor, name, patient, action) in rows.decode((Date, String, String, String, String).self)
            {
                entries.append(AuditEntry(at: at, actorID: actor, actorName: name, patientID: patient, action: action))
            }
            return entries
        }
    }

    // MARK: - Helpers

    static func binds(_ values: any PostgresThrowingDynamicTypeEncodable...) -> PostgresBindings {
        var bindings = PostgresBindings()
        for value in values { try? bindings.append(value, context: .default) }
        return bindings
    }

    private static func insert(
        _ repetition: Repetition,
        json: String,
        setID: String,
        on connection: PostgresConnection,
        logger: Logger
    ) async throws {
        let rom = repetition.rangeOfMotion.flatMap { $0.isFinite ? $0 : nil }
        let peak = repetition.peakAngle.flatMap { $0.isFinite ? $0 : nil }
        try await connection.query(
            """
            INSERT INTO repetition (set_id, rep_index, start_seconds, end_seconds, verdict, range_of_motion, peak_angle, json)
            VALUES (\(setID), \(repetition.index), \(repetition.startSeconds), \(repetition.endSeconds),
                \(repetition.verdict.rawValue), \(rom), \(peak), \(json))
            ON CONFLICT (set_id, rep_index) DO UPDATE SET start_seconds = EXCLUDED.start_seconds,
                end_seconds = EXCLUDED.end_seconds, verdict = EXCLUDED.verdict,
                range_of_motion = EXCLUDED.range_of_motion, peak_angle = EXCLUDED.peak_angle, json = EXCLUDED.json
            """,
            logger: logger
        )
    }

    /// The sets `query` selects (``setColumns``), through PostgresNIO's typed decoding and ``SetRow``'s mapping.
    private func records(_ what: String, _ query: PostgresQuery) async throws(StoreError) -> [SetRecord] {
        try await run(what) { client, logger in
            var records: [SetRecord] = []
            let rows = try await client.query(query, logger: logger)
            for try await columns in rows.decode(
                (
                    String, Date, Date?, String, String?, String?, Int?, Double?, Int, String, String?, String?,
                    String?, Int?, Int?, Int?, Int?, Int?, Int, String?, String?, Date?, String?, Double?
                ).self
            ) {
                let row = SetRow(
                    id: columns.0,
                    startedAt: columns.1,
                    endedAt: columns.2,
                    input: columns.3,
                    exercise: columns.4,
                    exerciseName: columns.5,
                    prescribedReps: columns.6,
                    prescribedHoldSeconds: columns.7,
                    reps: columns.8,
                    status: columns.9,
                    summaryJSON: columns.10,
                    angleSeriesJSON: columns.11,
                    patientID: columns.12,
                    programmeVersion: columns.13,
                    programmeItem: columns.14,
                    setNumber: columns.15,
                    pain: columns.16,
                    difficulty: columns.17,
                    safetyWarnings: columns.18,
                    practice: columns.19,
                    prescriptionJSON: columns.20,
                    reviewedAt: columns.21,
                    reviewedBy: columns.22
                )
                records.append(try row.record(peak: columns.23))
            }
            return records
        }
    }

    /// Runs `body` with the pool, turning its error into a ``StoreError`` saying what could not be done.
    @discardableResult
    func run<T: Sendable>(
        _ what: String,
        _ body: (PostgresClient, Logger) async throws -> T
    ) async throws(StoreError) -> T {
        do {
            return try await body(client, logger)
        } catch {
            throw StoreError("could not \(what) in \(location)", cause: error)
        }
    }
}

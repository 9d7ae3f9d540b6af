public import CoachStore
import Foundation
import PostgresNIO

/// Several instances on one database: each set is owned by the instance that opened it, and each instance says it
/// is alive every ``ClinicStoreHeartbeat/interval`` (a row of `live_instance`). A set is interrupted only when its
/// owner has stopped beating; all times are the database's `now()`, so instances' clocks need not agree.
extension PostgresClinicStore {
    public func markInterrupted() async throws(StoreError) -> Int {
        let me = instanceID
        let stale = staleAfter
        return try await run("mark unfinished sets") { client, logger in
            try await client.withTransaction(logger: logger) { connection in
                try await connection.query(
                    """
                    INSERT INTO live_instance (id, heartbeat_at) VALUES (\(me), now())
                    ON CONFLICT (id) DO UPDATE SET heartbeat_at = now()
                    """,
                    logger: logger
                )
                // A set with no owner was opened by a version that did not record one: no live instance owns it.
                let rows = try await connection.query(
                    """
                    UPDATE live_set SET status = 'interrupted' WHERE status = 'open' AND (instance_id IS NULL
                        OR instance_id NOT IN (SELECT id FROM live_instance
                            WHERE heartbeat_at > now() - \(stale) * INTERVAL '1 second'))
                    RETURNING id
                    """,
                    logger: logger
                )
                var count = 0
                for try await _ in rows.decode(String.self) { count += 1 }
                // Their sets are closed now: the rows of stopped instances are not needed any more.
                try await connection.query(
                    "DELETE FROM live_instance WHERE heartbeat_at <= now() - \(stale) * INTERVAL '1 second'",
                    logger: logger
                )
                return count
            }
        }
    }

    public func patientsCoachedNow() async throws(StoreError) -> Set<String> {
        let stale = staleAfter
        return try await run("read the sets coached now") { client, logger in
            let rows = try await client.query(
                """
                SELECT DISTINCT s.patient_id FROM live_set s JOIN live_instance i ON i.id = s.instance_id
                WHERE s.status = 'open' AND s.patient_id IS NOT NULL
                    AND i.heartbeat_at > now() - \(stale) * INTERVAL '1 second'
                """,
                logger: logger
            )
            var patients: Set<String> = []
            for try await id in rows.decode(String.self) { patients.insert(id) }
            return patients
        }
    }
}

public import CoachStore
import Foundation
import Logging
import PostgresNIO

// The clinic's own exercises (learned from demonstrations).
extension PostgresClinicStore {
    public func save(_ exercise: ClinicExercise) async throws(StoreError) {
        try await run("save the exercise \(exercise.id)") { client, logger in
            try await client.query(
                """
                INSERT INTO clinic_exercise (id, name, definition_json, preview_json, created_by, created_at)
                VALUES (\(exercise.id), \(exercise.name), \(exercise.definitionJSON), \(exercise.previewJSON),
                    \(exercise.createdBy), \(exercise.createdAt))
                ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, definition_json = EXCLUDED.definition_json,
                    preview_json = EXCLUDED.preview_json, created_by = EXCLUDED.created_by,
                    created_at = EXCLUDED.created_at
                """,
                logger: logger
            )
        }
    }

    public func clinicExercises() async throws(StoreError) -> [ClinicExercise] {
        try await run("read the clinic's exercises") { client, logger in
            var exercises: [ClinicExercise] = []
            let rows = try await client.query(
                "SELECT id, name, definition_json, preview_json, created_by, created_at FROM clinic_exercise ORDER BY lower(name)",
                logger: logger
            )
            for try await (id, name, definition, preview, by, at) in rows.decode(
                (String, String, String, String, String, Date).self
            ) {
                exercises.append(
                    ClinicExercise(
                        id: id,
                        name: name,
                        definitionJSON: definition,
                        previewJSON: preview,
                        createdBy: by,
                        createdAt: at
                    )
                )
            }
            return exercises
        }
    }
}

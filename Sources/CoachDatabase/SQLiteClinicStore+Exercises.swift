public import CoachStore
import Foundation
import GRDB

// The clinic's own exercises (learned from demonstrations).
extension SQLiteClinicStore {
    public func save(_ exercise: ClinicExercise) async throws(StoreError) {
        try await write("save the exercise \(exercise.id)") { db in
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO clinicExercise (id, name, definitionJSON, previewJSON, createdBy, createdAt)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    exercise.id, exercise.name, exercise.definitionJSON, exercise.previewJSON, exercise.createdBy,
                    exercise.createdAt,
                ]
            )
        }
    }

    public func clinicExercises() async throws(StoreError) -> [ClinicExercise] {
        try await read("read the clinic's exercises") { db in
            try Row.fetchAll(db, sql: "SELECT * FROM clinicExercise ORDER BY lower(name)").map { row in
                ClinicExercise(
                    id: row["id"],
                    name: row["name"],
                    definitionJSON: row["definitionJSON"],
                    previewJSON: row["previewJSON"],
                    createdBy: row["createdBy"],
                    createdAt: row["createdAt"]
                )
            }
        }
    }
}

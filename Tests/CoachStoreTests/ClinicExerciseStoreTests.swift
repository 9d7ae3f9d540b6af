import CoachDatabase
import CoachStore
import CoachTestSupport
import Foundation
import Testing

/// The clinic's own exercises, on every store (SQLite, and PostgreSQL when the test command gives a server).
struct ClinicExerciseStoreTests {
    @Test("The clinic's exercises are kept, listed by name, and one saved again under its id replaces it")
    func keptAndReplaced() async throws {
        for store in try await ClinicStoreTests.stores() {
            #expect(try await store.clinicExercises().isEmpty)
            let at = Date(timeIntervalSince1970: 1_800_000_000)
            try await store.save(
                ClinicExercise(id: "step-up", name: "Step-up", definitionJSON: "{}", previewJSON: "{}", createdBy: "t1")
            )
            try await store.save(
                ClinicExercise(
                    id: "arm-raise",
                    name: "arm raise",
                    definitionJSON: #"{"id":"arm-raise"}"#,
                    previewJSON: #"{"width":640}"#,
                    createdBy: "t2",
                    createdAt: at
                )
            )
            try await store.save(
                ClinicExercise(
                    id: "step-up",
                    name: "Step-up",
                    definitionJSON: #"{"v":2}"#,
                    previewJSON: "{}",
                    createdBy: "t1"
                )
            )
            let listed = try await store.clinicExercises()
            #expect(listed.map(\.id) == ["arm-raise", "step-up"], "by name, case aside: \(listed.map(\.id))")
            #expect(listed.last?.definitionJSON == #"{"v":2}"#, "the second save replaced the first")
            #expect(listed.first?.previewJSON == #"{"width":640}"# && listed.first?.createdBy == "t2")
            #expect(abs((listed.first?.createdAt.timeIntervalSince1970 ?? 0) - at.timeIntervalSince1970) < 0.001)
        }
    }
}

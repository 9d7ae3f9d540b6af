import CoachKit
import Testing

/// A therapist's numbers become the definition the coach follows, and bad numbers are refused with a clear line.
struct PrescriptionTests {
    static func library() throws -> [ExerciseDefinition] { try ExerciseLibrary.bundled().exercises }

    @Test("Target, safety limit, hold and side replace the library's")
    func applied() throws {
        let squat = try Prescription(
            exercise: "squat",
            reps: 8,
            holdSeconds: 2,
            side: .left,
            targetMin: 60,
            targetMax: 90,
            safetyMax: 100
        ).prescribed(from: Self.library())
        #expect(squat.target?.min == 60 && squat.target?.max == 90)
        #expect(squat.repetition?.holdSeconds == 2)
        #expect(squat.side == .left)
        let limit = try #require(squat.safetyLimits.last)
        #expect(limit.max == 100 && limit.angle == squat.primaryAngle)
        #expect(limit.warning.contains("100°"))
    }

    @Test(
        "Impossible prescriptions are refused",
        arguments: [
            Prescription(exercise: "no-such-exercise"),
            Prescription(exercise: "squat", sets: 0),
            Prescription(exercise: "squat", reps: nil),
            Prescription(exercise: "squat", targetMin: 100, targetMax: 90),
            Prescription(exercise: "squat", targetMin: 80, targetMax: 120, safetyMax: 70),
            Prescription(exercise: "squat", holdSeconds: 1000),
            Prescription(exercise: "squat", side: .both),
            Prescription(exercise: "squat", restSeconds: -1),
        ]
    )
    func refused(_ prescription: Prescription) throws {
        let library = try Self.library()
        #expect(throws: CoachKitError.self) { try prescription.prescribed(from: library) }
    }

    @Test("A hold is prescribed in seconds")
    func hold() throws {
        let library = try Self.library()
        let hold = try #require(library.first { $0.isHold })
        let prescribed = try Prescription(exercise: hold.id, reps: nil, holdSeconds: 45).prescribed(from: library)
        #expect(prescribed.hold?.seconds == 45)
        #expect(throws: CoachKitError.self) { try Prescription(exercise: hold.id, reps: 10).prescribed(from: library) }
    }
}

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

/// A hand exercise prescribed: its numbers become the hand definition the hand coach follows.
struct HandPrescriptionTests {
    static func hands() throws -> [HandExerciseDefinition] { try HandExerciseLibrary.bundled().exercises }

    @Test("Repetitions, hold, target band and hand replace the hand library's")
    func applied() throws {
        let fist = try Prescription(
            exercise: "finger-flexion",
            sets: 2,
            reps: 8,
            holdSeconds: 2,
            side: .right,
            targetMin: 150,
            targetMax: 270
        ).prescribed(hands: Self.hands())
        #expect(fist.repetition.holdSeconds == 2)
        #expect(fist.target?.min == 150 && fist.target?.max == 270)
        #expect(fist.side == .right)
        // A distance in hand lengths: the thumb within 0.1 of a fingertip.
        let kapandji = try Prescription(exercise: "kapandji", reps: 7, targetMax: 0.1).prescribed(hands: Self.hands())
        #expect(kapandji.target?.max == 0.1)
    }

    @Test(
        "Impossible hand prescriptions are refused with one line naming the exercise",
        arguments: [
            (Prescription(exercise: "finger-flexion", reps: 0), "repetitions per set must be 1 to 100, got 0"),
            (Prescription(exercise: "finger-flexion", holdSeconds: 60), "a hold at the peak must be above 0 and below"),
            (Prescription(exercise: "finger-flexion", safetyMax: 200), "a safety limit is for body exercises"),
            (Prescription(exercise: "finger-flexion", targetMin: 400), "from -180 to 360 degrees"),
            (Prescription(exercise: "kapandji", targetMin: 0.3, targetMax: 0.2), "must be below the maximum"),
            (Prescription(exercise: "kapandji", targetMin: 5), "from 0 to 3 hand lengths"),
            (Prescription(exercise: "finger-flexion", side: .both), "the side must be left or right"),
            (Prescription(exercise: "finger-flexion", sets: 30), "sets must be 1 to 20"),
        ]
    )
    func refused(_ prescription: Prescription, _ words: String) throws {
        let error = try #require(throws: CoachKitError.self) { try prescription.prescribed(hands: Self.hands()) }
        #expect(error.message.contains(words), "\(error.message)")
        #expect(!error.message.contains("\n"))
        #expect(error.message.hasPrefix(try #require(Self.hands().first { $0.id == prescription.exercise }).name))
    }
}

import CoachKit
import CoachTestSupport
import Foundation
import PoseKit
import Testing

/// ``ExerciseLearner`` on generated demonstrations whose joint angles are known: the angle that moves is found with
/// its range, band, view and direction; the parts held still become rules; bad demonstrations are refused clearly.
struct ExerciseLearnerTests {
    static func learn(_ exercise: SyntheticExercise, reps: Int = 5, name: String = "Test") throws -> LearnedExercise {
        try ExerciseLearner().learn(
            exercise.frames(reps: reps),
            width: SyntheticExercise.width,
            height: SyntheticExercise.height,
            name: name
        )
    }

    @Test func aCurlIsLearnedAsElbowFlexionWithItsRangeBandAndStillParts() throws {
        // Given both elbows bending 10° → 135° five times, seen from the side, the body still
        let learned = try Self.learn(SyntheticExercise(kind: .bicepCurl), name: "Curl")
        let d = learned.definition
        // Then
        #expect(learned.repetitions == 5)
        #expect(d.id == "curl" && d.name == "Curl")
        #expect(d.primaryAngle == .elbowFlexion)
        let repetition = try #require(d.repetition)
        #expect(abs(repetition.start - 10) <= 4, "rest \(repetition.start)")
        #expect(abs(repetition.peak - 135) <= 6, "peak \(repetition.peak)")
        #expect(repetition.towardPeak == .concentric)
        // The band: short of the peak by 15 % of the 125° excursion, beyond it up to the elbow's anatomical limit.
        let target = try #require(d.target)
        #expect(abs(target.min - (repetition.peak - 0.15 * 125)) <= 2, "band \(target)")
        #expect(target.max == 165)
        #expect(d.view == .side)
        #expect(d.side == .both)
        #expect(d.posture == .upright)
        let rules = Dictionary(uniqueKeysWithValues: d.formRules.map { ($0.angle, $0) })
        #expect(rules[.trunkLean]?.at == .range && rules[.trunkLean]?.cue == "Keep your trunk still")
        #expect(rules[.kneeFlexion]?.cue == "Keep your knee straight")
        #expect(rules[.trunkLean].map { $0.max ?? 0 } == 15)
        #expect(d.formRules.count <= ExerciseLearner.Configuration().maximumStillRules)
        #expect(d.formRules.allSatisfy { d.angles.contains($0.angle) })
        #expect(abs(learned.tempo.repetitionSeconds - 2.4) <= 0.6, "tempo \(learned.tempo)")
    }

    @Test func theWrittenFileLoadsThroughTheLibrarysOwnValidation() throws {
        let learned = try Self.learn(SyntheticExercise(kind: .bicepCurl), name: "Curl")
        let folder = NSTemporaryDirectory() + "learner-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try learned.jsonText().write(toFile: folder + "/curl.json", atomically: true, encoding: .utf8)
        let library = try ExerciseLibrary(directory: folder)
        #expect(library["curl"] == learned.definition)
    }

    @Test func aSquatLowersTheBodySoItsWayDownIsEccentricAndTheTrunkIsNotStill() throws {
        // Knees 5° → 95°, the trunk leaning 0.3 × the knee angle
        let d = try Self.learn(SyntheticExercise(kind: .squat)).definition
        #expect(d.primaryAngle == .kneeFlexion)
        #expect(abs((d.repetition?.peak ?? 0) - 95) <= 6)
        #expect(d.repetition?.towardPeak == .eccentric)
        #expect(!d.formRules.contains { $0.angle == .trunkLean })
        #expect(d.side == .both)
    }

    @Test func theTherapistMayNameThePrimaryAngle() throws {
        // The squat's knees move most, but the therapist wants the hip measured
        let frames = SyntheticExercise(kind: .squat).frames(reps: 5)
        let learner = ExerciseLearner()
        let d = try learner.learn(frames, width: 640, height: 480, name: "Hip hinge", primary: .hipFlexion).definition
        #expect(d.primaryAngle == .hipFlexion)
        #expect(d.angles.first == .hipFlexion)
        // A ratio, or an angle that did not move, is refused
        #expect(throws: CoachKitError.self) {
            try learner.learn(frames, width: 640, height: 480, name: "X", primary: .kneeWidthRatio)
        }
        #expect {
            try learner.learn(frames, width: 640, height: 480, name: "X", primary: .elbowFlexion)
        } throws: { error in
            ((error as? CoachKitError)?.message ?? "").contains("elbowFlexion moved by only")
        }
    }

    @Test func anArmRaisedSidewaysSeenFromTheFrontIsShoulderAbduction() throws {
        let d = try Self.learn(SyntheticExercise(kind: .shoulderAbduction, peakDegrees: 100)).definition
        #expect(d.primaryAngle == .shoulderAbduction)
        #expect(d.view == .front)
        // The arm turns 15° → 100° from the vertical; against the trunk line, which slants from the shoulder to the
        // narrower hip, the clinical angle is what the library measures on the generator's own poses.
        func measured(_ degrees: Double) throws -> Double {
            let pose = SyntheticExercise.body(cx: 320, view: .front, abduction: (degrees, degrees))
            return try #require(AngleKind.shoulderAbduction.measure(pose, side: .right))
        }
        #expect(abs((d.repetition?.peak ?? 0) - (try measured(100))) <= 4)
        #expect(abs((d.repetition?.start ?? 0) - (try measured(15))) <= 4)
        #expect(d.repetition?.towardPeak == .concentric)
    }

    @Test func oneLegMovingIsLearnedOnThatSideAsEitherSide() throws {
        // The right knee bends to 90° (a standing leg curl), the left leg stays
        let learned = try Self.learn(SyntheticExercise(kind: .legCurl))
        #expect(learned.definition.primaryAngle == .kneeFlexion)
        #expect(learned.measuredSide == .right)
        #expect(learned.definition.side == .either)
    }

    @Test func aHeldPeakIsPrescribedAsAHold() throws {
        let d = try Self.learn(SyntheticExercise(kind: .bicepCurl, holdSeconds: 3)).definition
        let hold = try #require(d.repetition?.holdSeconds)
        #expect(hold >= 2.5 && hold <= 4, "hold \(hold)")
    }

    @Test func standingStillIsRefusedWithWhatToDo() throws {
        #expect {
            try Self.learn(SyntheticExercise(kind: .standStill))
        } throws: { error in
            let message = (error as? CoachKitError)?.message ?? ""
            return message.contains("no repetition found") && message.contains("3–5 times")
        }
    }

    @Test func nobodyInThePictureIsRefusedWithWhatToDo() throws {
        let frames = (0..<90).map { PoseFrame(seconds: Double($0) / 30, poses: []) }
        #expect {
            try ExerciseLearner().learn(frames, width: 640, height: 480, name: "Test")
        } throws: { error in
            let message = (error as? CoachKitError)?.message ?? ""
            return message.contains("no person was seen") && message.contains("whole body")
        }
    }

    @Test(arguments: [("Step-up", "step-up"), ("Knee lift (left)", "knee-lift-left"), ("  Squat 2 ", "squat-2")])
    func theIDComesFromTheName(name: String, id: String) throws {
        #expect(try ExerciseLearner.id(forName: name) == id)
    }

    @Test func aNameWithoutLettersGivesNoID() {
        #expect(throws: CoachKitError.self) { try ExerciseLearner.id(forName: "!!!") }
    }
}

import CoachKit
import Foundation
import PoseKit
import Testing

// The motion blocks of the library: every repetition exercise has one, and a bad one names its field.
extension ExerciseRecognizerTests {
    @Test func everyBundledRepetitionExerciseHasAMotionSignature() throws {
        let library = try ExerciseLibrary.bundled()
        for exercise in library.exercises where !exercise.isHold {
            #expect(!exercise.motion.also.contains(exercise.motion.segment), "\(exercise.id)")
        }
        #expect(library["shoulder-scaption"]?.motion.direction == .scapular)
        #expect(library["seated-knee-extension"]?.posture == .seated)
    }

    @Test func aBadMotionBlockNamesTheField() throws {
        let text = """
            {"id": "x", "name": "X", "view": "front", "side": "either", "kind": "reps",
             "angles": ["shoulderAbduction"], "primary": "shoulderAbduction",
             "motion": {"segment": "wing", "direction": "sideways"},
             "repetition": {"start": 10, "peak": 90, "towardPeak": "concentric"}, "target": {"min": 80, "max": 120}}
            """
        let error = #expect(throws: CoachKitError.self) { try ExerciseDefinition(jsonText: text, file: "x.json") }
        #expect(error?.message.contains("motion.segment") == true)
        #expect(error?.message.contains("wing") == true)
        let derived = try ExerciseDefinition(
            jsonText: text.replacingOccurrences(
                of: "\"motion\": {\"segment\": \"wing\", \"direction\": \"sideways\"},",
                with: ""
            ),
            file: "x.json"
        )
        #expect(derived.motion == .derived(primary: .shoulderAbduction))
    }

    @Test(arguments: ["0", "200", "\"far\""])
    func aBadReachNamesTheFieldAndValue(reach: String) throws {
        let text = """
            {"id": "x", "name": "X", "view": "front", "side": "either", "kind": "reps",
             "angles": ["shoulderAbduction"], "primary": "shoulderAbduction",
             "motion": {"segment": "upperArm", "direction": "sideways", "reach": \(reach)},
             "repetition": {"start": 10, "peak": 90, "towardPeak": "concentric"}, "target": {"min": 80, "max": 120}}
            """
        Self.expectRejected(text, naming: "motion.reach", reach.replacingOccurrences(of: "\"", with: ""))
        let fine = try ExerciseDefinition(
            jsonText: text.replacingOccurrences(of: "\"reach\": \(reach)", with: "\"reach\": 120"),
            file: "x.json"
        )
        #expect(fine.motion.reach == 120)
    }

    /// Loading the definition `text` fails with a message naming the `field` and the `value` given.
    static func expectRejected(
        _ text: String,
        naming field: String,
        _ value: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let error = #expect(throws: CoachKitError.self, sourceLocation: sourceLocation) {
            try ExerciseDefinition(jsonText: text, file: "x.json")
        }
        #expect(error?.message.contains(field) == true, "\(error?.message ?? "")", sourceLocation: sourceLocation)
        #expect(error?.message.contains(value) == true, "\(error?.message ?? "")", sourceLocation: sourceLocation)
    }

    /// `motion.hinge` is `straight` or `bends`, and only for a thigh (the knee) or an upper arm (the elbow).
    @Test(arguments: [
        ("thigh", "\"bent\"", "bent"), ("forearm", "\"straight\"", "forearm"), ("thigh", "\"bends\"", nil),
        ("upperArm", "\"bends\"", nil),
    ])
    func aBadHingeNamesTheFieldAndValue(segment: String, hinge: String, named: String?) throws {
        let text = """
            {"id": "x", "name": "X", "view": "side", "side": "either", "kind": "reps",
             "angles": ["hipFlexion"], "primary": "hipFlexion",
             "motion": {"segment": "\(segment)", "direction": "forward", "hinge": \(hinge)},
             "repetition": {"start": 0, "peak": 70, "towardPeak": "concentric"}, "target": {"min": 60, "max": 90}}
            """
        guard let named else {
            #expect(try ExerciseDefinition(jsonText: text, file: "x.json").motion.hinge == .bends)
            return
        }
        Self.expectRejected(text, naming: "motion.hinge", named)
    }

    /// `motion.hands` is `anchored` or `move`.
    @Test(arguments: [("\"fixed\"", "fixed"), ("1", "1"), ("\"anchored\"", nil)])
    func aBadHandsNamesTheFieldAndValue(hands: String, named: String?) throws {
        let text = """
            {"id": "x", "name": "X", "view": "front", "side": "both", "kind": "reps",
             "angles": ["elbowFlexion"], "primary": "elbowFlexion",
             "motion": {"segment": "upperArm", "direction": "sideways", "hips": "move", "hands": \(hands)},
             "repetition": {"start": 15, "peak": 110, "towardPeak": "concentric"}, "target": {"min": 100, "max": 150}}
            """
        guard let named else {
            #expect(try ExerciseDefinition(jsonText: text, file: "x.json").motion.hands == .anchored)
            return
        }
        Self.expectRejected(text, naming: "motion.hands", named)
    }
}

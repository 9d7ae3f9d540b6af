import CoachKit
import Foundation
import Testing

struct ExerciseLibraryTests {
    static let requiredIDs = [
        "squat", "deep-squat", "sit-to-stand", "lunge", "inline-lunge", "side-lunge", "hurdle-step",
        "standing-straight-leg-raise", "standing-hip-abduction", "heel-raise", "bridge", "seated-knee-extension",
        "shoulder-flexion", "shoulder-abduction", "shoulder-scaption", "shoulder-extension", "shoulder-rotation",
        "front-raise", "lateral-raise", "bicep-curl", "shoulder-press", "shoulder-shrug", "push-up", "pull-up", "dip",
        "jumping-jack", "burpee", "wall-sit", "plank", "single-leg-stance", "high-plank",
    ]

    @Test func bundledLibraryLoadsAllRequiredExercises() throws {
        let library = try ExerciseLibrary.bundled()
        #expect(library.exercises.count >= 25)
        for id in Self.requiredIDs { #expect(library[id] != nil, "missing \(id)") }
        for id in ["wall-sit", "plank", "single-leg-stance", "high-plank"] { #expect(library[id]?.isHold == true) }
        for exercise in library.exercises {
            #expect(exercise.angles.first == exercise.primaryAngle)
            #expect(exercise.isHold == (exercise.repetition == nil))
            #expect(!exercise.requiredJoints.isEmpty)
        }
    }

    /// The live page's hands-up gesture (end the set) is not offered for these: their own movement puts the hands
    /// above the head (a pull-up hangs from the bar the whole set).
    @Test func exercisesThatRaiseTheHandsOverheadAreKnownFromTheirDefinition() throws {
        let library = try ExerciseLibrary.bundled()
        let overhead = Set(library.exercises.filter(\.raisesHandsOverhead).map(\.id))
        #expect(
            overhead == [
                "pull-up", "shoulder-press", "jumping-jack", "burpee", "shoulder-flexion", "shoulder-abduction",
                "shoulder-scaption",
            ]
        )
    }

    @Test func unknownIDListsValidOnes() throws {
        let library = try ExerciseLibrary.bundled()
        let error = #expect(throws: CoachKitError.self) { try library.exercise(id: "sqaut") }
        #expect(error?.code == .unknownExercise)
        #expect(error?.message.contains("squat") == true)
    }

    static let valid = """
        {"id": "mini-squat", "name": "Mini squat", "view": "side", "side": "both", "kind": "reps",
         "angles": ["kneeFlexion", "trunkLean"], "primary": "kneeFlexion",
         "repetition": {"start": 5, "peak": 45, "towardPeak": "eccentric"}, "target": {"min": 40, "max": 60}}
        """

    @Test func userDirectoryLoadsWithTheSameValidation() throws {
        let directory = try Self.directory(["mini-squat.json": Self.valid])
        defer { Self.remove(directory) }
        let library = try ExerciseLibrary(directory: directory)
        #expect(library.ids == ["mini-squat"])
        #expect(library["mini-squat"]?.repetition?.minimumRange == 12)  // default 0.3 × 40
        #expect(library["mini-squat"]?.repetition?.holdSeconds == nil)
        // A prescription holding each repetition's peak.
        let held = Self.valid.replacingOccurrences(
            of: "\"towardPeak\": \"eccentric\"",
            with: "\"towardPeak\": \"eccentric\", \"holdSeconds\": 5"
        )
        let heldDirectory = try Self.directory(["mini-squat.json": held])
        defer { Self.remove(heldDirectory) }
        #expect(try ExerciseLibrary(directory: heldDirectory)["mini-squat"]?.repetition?.holdSeconds == 5)
    }

    @Test(arguments: [
        ("{not json", "not valid JSON"),
        (valid.replacingOccurrences(of: "\"kneeFlexion\", \"trunkLean\"", with: "\"kneeBend\""), "angles[0]"),
        (valid.replacingOccurrences(of: "\"peak\": 45", with: "\"peak\": \"deep\""), "repetition.peak"),
        (valid.replacingOccurrences(of: "\"view\": \"side\"", with: "\"view\": \"top\""), "\"view\""),
        (valid.replacingOccurrences(of: "\"kind\": \"reps\"", with: "\"kind\": \"reps\", \"colour\": 1"), "\"colour\""),
        (valid.replacingOccurrences(of: ", \"target\": {\"min\": 40, \"max\": 60}", with: ""), "\"target\""),
        (
            valid.replacingOccurrences(
                of: "\"towardPeak\": \"eccentric\"",
                with: "\"towardPeak\": \"eccentric\", \"holdSeconds\": -2"
            ),
            "repetition.holdSeconds"
        ),
        (
            valid.replacingOccurrences(of: "\"primary\": \"kneeFlexion\"", with: "\"primary\": \"trunkLean\""),
            "\"primary\""
        ),
    ])
    func invalidDefinitionNamesFileAndField(text: String, field: String) throws {
        let directory = try Self.directory(["broken.json": text])
        defer { Self.remove(directory) }
        let error = #expect(throws: CoachKitError.self) { try ExerciseLibrary(directory: directory) }
        #expect(error?.code == .invalidDefinition)
        #expect(error?.description.contains("broken.json") == true)
        #expect(error?.description.contains(field) == true, "\(error?.description ?? "")")
    }

    @Test func missingDirectoryIsAClearError() {
        let error = #expect(throws: CoachKitError.self) { try ExerciseLibrary(directory: "/nonexistent/exercises") }
        #expect(error?.message.contains("/nonexistent/exercises") == true)
        // The file system's own error is kept as the cause.
        #expect(error?.cause?.isEmpty == false)
    }

    @Test func aDefinitionThatIsNotJSONKeepsTheParsersErrorAsItsCause() {
        let error = #expect(throws: CoachKitError.self) {
            try ExerciseDefinition(jsonText: "{\"id\": ", file: "x.json")
        }
        #expect(error?.code == .invalidDefinition)
        #expect(error?.cause != nil)
        #expect(error?.cause.map { error?.message.contains($0) == true } == true, "\(String(describing: error))")
    }

    /// A new folder under the temporary directory holding `files`; the caller removes it with ``remove(_:)``.
    static func directory(_ files: [String: String]) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("coachkit-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for (name, text) in files {
            try text.write(to: url.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return url.path
    }

    static func remove(_ directory: String) {
        try? FileManager.default.removeItem(atPath: directory)
    }
}

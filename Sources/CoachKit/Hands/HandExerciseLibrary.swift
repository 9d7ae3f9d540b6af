import Foundation

/// The hand exercises the coach knows: the bundled definitions (`Resources/Exercises/hands`), or a directory of
/// JSON files. Kept apart from ``ExerciseLibrary``: hand exercises are measured on a hand pose-track, not a body.
///
/// ```swift
/// let hands = try HandExerciseLibrary.bundled()
/// let fist = try hands.exercise(id: "finger-flexion")
/// ```
public struct HandExerciseLibrary: Sendable {
    /// The definitions, sorted by id.
    public let exercises: [HandExerciseDefinition]

    /// A library of the given definitions.
    ///
    /// - Throws: ``CoachKitError`` `.invalidDefinition` when two share an id.
    public init(exercises: [HandExerciseDefinition]) throws(CoachKitError) {
        let sorted = exercises.sorted { $0.id < $1.id }
        for (a, b) in zip(sorted, sorted.dropFirst()) where a.id == b.id {
            throw CoachKitError(.invalidDefinition, "two hand definitions have the id '\(a.id)'; ids must be unique")
        }
        self.exercises = sorted
    }

    /// Loads every `*.json` file of `directory` (not recursive).
    ///
    /// - Throws: ``CoachKitError`` `.library` when the directory cannot be read, `.invalidDefinition` for the first
    ///   invalid file.
    public init(directory: String) throws(CoachKitError) {
        var exercises: [HandExerciseDefinition] = []
        for file in try ExerciseLibrary.jsonFiles(in: directory, what: "hand exercise") {
            exercises.append(try HandExerciseDefinition(jsonText: file.text, file: file.path))
        }
        try self.init(exercises: exercises)
    }

    /// The hand exercises shipped with CoachKit (`Resources/Exercises/hands`).
    public static func bundled() throws(CoachKitError) -> HandExerciseLibrary {
        guard let url = Bundle.module.url(forResource: "Exercises", withExtension: nil) else {
            throw CoachKitError(
                .library,
                "the bundled exercise definitions are missing from CoachKit's resources; rebuild the package"
            )
        }
        return try HandExerciseLibrary(directory: url.appendingPathComponent("hands").path)
    }

    /// The ids, sorted.
    public var ids: [String] { exercises.map(\.id) }

    /// The definition with `id`, or `nil`.
    public subscript(id: String) -> HandExerciseDefinition? { exercises.first { $0.id == id } }
}

import Foundation

/// The exercises the coach knows: the bundled definitions, or a directory of JSON files.
///
/// Every file is validated when the library loads; the first invalid one stops the load with a
/// ``CoachKitError`` naming the file and the field.
///
/// ```swift
/// let library = try ExerciseLibrary.bundled()
/// let squat = try library.exercise(id: "squat")
/// let mine = try ExerciseLibrary(directory: "/etc/ptcoach/exercises")
/// ```
public struct ExerciseLibrary: Sendable {
    /// The definitions, sorted by id.
    public let exercises: [ExerciseDefinition]
    private let byID: [String: Int]

    /// A library of the given definitions.
    ///
    /// - Throws: ``CoachKitError`` `.invalidDefinition` when two definitions share an id.
    public init(exercises: [ExerciseDefinition]) throws(CoachKitError) {
        let sorted = exercises.sorted { $0.id < $1.id }
        var byID: [String: Int] = [:]
        for (index, exercise) in sorted.enumerated() {
            if byID[exercise.id] != nil {
                throw CoachKitError(
                    .invalidDefinition,
                    "two definitions have the id '\(exercise.id)'; ids must be unique"
                )
            }
            byID[exercise.id] = index
        }
        self.exercises = sorted
        self.byID = byID
    }

    /// Loads every `*.json` file of `directory` (not recursive).
    ///
    /// - Throws: ``CoachKitError`` `.library` when the directory cannot be read or holds no JSON file,
    ///   `.invalidDefinition` for the first invalid file.
    public init(directory: String) throws(CoachKitError) {
        let files = try Self.jsonFiles(in: directory, what: "exercise")
        guard !files.isEmpty else {
            throw CoachKitError(
                .library,
                "no *.json exercise definition in '\(directory)' (see SCHEMA.md for the format)"
            )
        }
        var exercises: [ExerciseDefinition] = []
        for file in files { exercises.append(try ExerciseDefinition(jsonText: file.text, file: file.path)) }
        try self.init(exercises: exercises)
    }

    /// The definitions shipped with CoachKit (`Resources/Exercises`).
    public static func bundled() throws(CoachKitError) -> ExerciseLibrary {
        guard let url = Bundle.module.url(forResource: "Exercises", withExtension: nil) else {
            throw CoachKitError(
                .library,
                "the bundled exercise definitions are missing from CoachKit's resources; rebuild the package"
            )
        }
        return try ExerciseLibrary(directory: url.path)
    }

    /// The ids, sorted.
    public var ids: [String] { exercises.map(\.id) }

    /// The definition with `id`, or `nil`.
    public subscript(id: String) -> ExerciseDefinition? { byID[id].map { exercises[$0] } }

    /// The definition with `id`.
    ///
    /// - Throws: ``CoachKitError`` `.unknownExercise` listing a few valid ids (the closest first).
    public func exercise(id: String) throws(CoachKitError) -> ExerciseDefinition {
        if let exercise = self[id] { return exercise }
        let suggestions = ids.sorted { Self.distance($0, id) < Self.distance($1, id) }.prefix(5)
        throw CoachKitError(
            .unknownExercise,
            "unknown exercise '\(id)'; valid ids include \(suggestions.joined(separator: ", ")) (`ptcoach exercises` lists them all)"
        )
    }

    /// The `*.json` files of `directory` (not recursive), sorted, with their text.
    ///
    /// - Throws: ``CoachKitError`` `.library` when the directory cannot be read (`what` names its exercises),
    ///   `.invalidDefinition` for a file that is not UTF-8 text.
    static func jsonFiles(in directory: String, what: String) throws(CoachKitError) -> [(path: String, text: String)] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw CoachKitError(
                .library,
                "cannot read the \(what) directory '\(directory)': check the path",
                cause: error
            )
        }
        var files: [(path: String, text: String)] = []
        for name in names.filter({ $0.hasSuffix(".json") }).sorted() {
            let path = (directory as NSString).appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
            else {
                throw CoachKitError(.invalidDefinition, "cannot read the file as UTF-8 text", file: path)
            }
            files.append((path, text))
        }
        return files
    }

    /// Levenshtein distance, for suggestions.
    private static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}

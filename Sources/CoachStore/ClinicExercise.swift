public import Foundation

/// An exercise of the clinic's own library: learned from a therapist's demonstration (docs/learn.md, "In the
/// clinic"), prescribed, coached and reported like a library exercise.
public struct ClinicExercise: Sendable, Hashable, Codable {
    /// The exercise id (lower-case letters, digits, `-`), unique among the library's and the clinic's.
    public var id: String
    public var name: String
    /// The definition, in the library's format (`SCHEMA.md`).
    public var definitionJSON: String
    /// What the clinic page draws of the demonstration: its skeleton at the peak with the angle and band (JSON).
    public var previewJSON: String
    /// The therapist who made it.
    public var createdBy: String
    public var createdAt: Date

    public init(
        id: String,
        name: String,
        definitionJSON: String,
        previewJSON: String,
        createdBy: String,
        createdAt: Date = Date()
    ) {
        self.id = id
        self.name = name
        self.definitionJSON = definitionJSON
        self.previewJSON = previewJSON
        self.createdBy = createdBy
        self.createdAt = createdAt
    }
}

/// A recoverable error in CoachKit: an invalid exercise definition, an unknown exercise id, a recording
/// the coach cannot measure.
///
/// `message` is one line that says what was wrong, which value, and what to do.
public struct CoachKitError: Error, Sendable, CustomStringConvertible, Equatable {
    public enum Code: String, Sendable, Equatable {
        /// An exercise definition file is not valid JSON or breaks the schema.
        case invalidDefinition
        /// No exercise with the id asked for.
        case unknownExercise
        /// The exercise library could not be found or read.
        case library
        /// The recording cannot be measured (e.g. the joints the exercise needs were never seen).
        case unmeasurable
        // The trainable classifier.
        case malformedManifest
        case missingFile
        case unusableTrainingSet
        case malformedModel
        case unsupportedInput
    }

    public var code: Code
    public var message: String
    /// The file the error is about, when there is one.
    public var file: String?
    /// The underlying error, described, where one caused this (the JSON parser's, the file system's); `message`
    /// already says what it means for the user.
    public var cause: String?

    public init(_ code: Code, _ message: String, file: String? = nil, cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.file = file
        self.cause = cause.map { "\($0)" }
    }

    public var description: String { file.map { "\($0): \(message)" } ?? message }
}

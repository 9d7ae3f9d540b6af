/// A recoverable error of the sequence classifier: bad manifests, unusable training sets, model files that
/// are not models.
///
/// `message` is one line that says what was wrong, which value, and what to do.
///
/// ```swift
/// do { _ = try ClassifierManifest(text: csv, path: "train.csv") }
/// catch { print(error) }   // "train.csv:1: the header must be `path,label`, found `file,lab`"
/// ```
public struct ClassifierError: Error, Sendable, CustomStringConvertible, Equatable {
    public enum Code: String, Sendable, Equatable {
        /// The manifest CSV is malformed (header, quoting, columns, empty).
        case malformedManifest
        /// A file named by the manifest (or given to `predict`) cannot be used.
        case missingFile
        /// The training set cannot train a classifier (one class, no usable frames).
        case unusableTrainingSet
        /// A model file is not a classifier model, or of a version this code does not read.
        case malformedModel
        /// An input file has a kind the classifier cannot read (for example a video).
        case unsupportedInput
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}

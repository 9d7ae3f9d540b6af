/// A recoverable error of a pose estimator: runtime or model missing, the model refused, a frame rejected.
///
/// `message` is one line that says what went wrong, which value caused it, and what to do about it.
///
/// ```swift
/// do {
///     let estimator = try MediaPipePoseEstimator(configuration: .init(runningMode: .video))
/// } catch {
///     print(error)   // "pose runtime not installed: no libmediapipe.so at … Run scripts/setup.sh."
/// }
/// ```
public struct PoseEstimationError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
        /// `libmediapipe.so` was not found or could not be loaded.
        case runtimeNotInstalled
        /// The library loaded but lacks a function this binding needs (another MediaPipe version).
        case runtimeIncompatible
        /// The `.task` model bundle was not found.
        case modelNotFound
        /// A configuration value is out of range.
        case invalidConfiguration
        /// The model refused to start (MediaPipe: the landmarker was not created) (e.g. a damaged model bundle).
        case creationFailed
        /// MediaPipe failed on a frame.
        case detectionFailed
        /// In video or live mode, a frame's time was not after the previous frame's.
        case timestampNotIncreasing
        /// MediaPipe returned something this binding does not understand.
        case unexpectedOutput
    }

    public var code: Code
    public var message: String
    /// MediaPipe's status code (an `absl::StatusCode`) when the error came from the library.
    public var status: Int32?

    public init(_ code: Code, _ message: String, status: Int32? = nil) {
        self.code = code
        self.message = message
        self.status = status
    }

    public var description: String { message }
}

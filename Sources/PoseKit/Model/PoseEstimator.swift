/// The port for anything that finds body poses in an image: the counterpart of Vision's
/// `VNDetectHumanBodyPoseRequest`.
///
/// Implementations hold a model and tracking state, so they are used from one task at a time.
///
/// ```swift
/// var estimator = try MediaPipePoseEstimator(configuration: .init(runningMode: .video))
/// let frame = try estimator.poses(in: image, at: 0.033)
/// ```
public protocol PoseEstimator: ~Copyable {
    /// Finds the people in `image`, taken `seconds` after the start of the stream.
    ///
    /// In tracking modes `seconds` must increase from call to call.
    /// - Returns: a frame with keypoints in pixels of `image`, one pose per person found.
    mutating func poses(in image: RGBImage, at seconds: Double) throws -> PoseFrame
}

/// The port for anything that finds poses in the frames of a stream: the counterpart of Vision's
/// `VNDetectHumanBodyPoseRequest` (a body's ``PoseFrame``) and `VNDetectHumanHandPoseRequest` (hands,
/// a ``HandFrame``).
///
/// One port for every driver: `ptcoach poses` and `analyze` give it a video's decoded frames with their
/// timestamps; the live server gives it a camera's frames (decoded from JPEG at the edge) with their capture
/// times. An estimator holds a model and tracking state, so it is used by one caller at a time, and it is a
/// reference: the server keeps idle estimators for the next session (a model is slow to load).
///
/// ```swift
/// let estimator: any PoseEstimator<PoseFrame> = try MediaPipePoseEstimator(configuration: .init(runningMode: .video))
/// let frame = try estimator.estimate(in: image, at: 0.033)
/// estimator.startStream()                              // another video or session: its times start again at 0
/// ```
public protocol PoseEstimator<Frame>: AnyObject {
    /// What one image gives: a ``PoseFrame`` (people) or a ``HandFrame`` (hands).
    associatedtype Frame: Sendable

    /// Finds the people (or hands) in `image`, captured `seconds` after the start of the stream.
    ///
    /// In tracking modes `seconds` must increase from call to call within a stream.
    /// - Returns: a frame at `seconds`, keypoints in pixels of `image`.
    /// - Throws: ``PoseEstimationError``: `timestampNotIncreasing` for a time that goes back (the caller's
    ///   fault), `detectionFailed` or `unexpectedOutput` when the model failed.
    func estimate(in image: RGBImage, at seconds: Double) throws(PoseEstimationError) -> Frame

    /// Another stream begins: its times start again from 0, and the last stream's track is no guide.
    func startStream()
}

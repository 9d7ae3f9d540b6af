import CoachKit
public import CoachStore
public import PoseKit

/// A live session's way from a camera frame (JPEG bytes) to what the model finds in it: the JPEG decoder, then the
/// one pose-estimator port (``PoseKit/PoseEstimator``), the same port `ptcoach poses` and `analyze` drive with a
/// video's frames. One per session, so that the model can track the person (or the hands) from frame to frame;
/// used by one inference worker at a time, and reused by later sessions (``startStream()``).
///
/// ```swift
/// let camera = CameraEstimator(decode: { try decoder.decode($0) }, estimator: try MediaPipePoseEstimator(...))
/// let (frame, width, height) = try camera.frame(inJPEG: bytes, at: 0.5)
/// ```
public final class CameraEstimator<Frame: Sendable> {
    /// Decodes a frame's JPEG bytes (the adapter at the edge: libjpeg-turbo in `ptcoach serve`).
    public typealias Decode = (UnsafeRawBufferPointer) throws -> RGBImage

    private let decode: Decode
    private let estimator: any PoseEstimator<Frame>

    public init(decode: @escaping Decode, estimator: any PoseEstimator<Frame>) {
        self.decode = decode
        self.estimator = estimator
    }

    /// Decodes `jpeg` and finds the poses (or hands) in it.
    ///
    /// - Parameter seconds: the frame's capture time; it never goes back from call to call within a session.
    /// - Returns: the frame, in pixels of the decoded image, and its size.
    /// - Throws: ``LiveFrameError`` `.badImage` for bytes that are not a usable JPEG or a time that goes back (the
    ///   client's fault: the session goes on), `.model` when the model failed.
    func frame(
        inJPEG jpeg: UnsafeRawBufferPointer,
        at seconds: Double
    ) throws(LiveFrameError) -> (
        frame: Frame, width: Int, height: Int
    ) {
        let image: RGBImage
        do {
            image = try decode(jpeg)
        } catch {
            throw LiveFrameError(.badImage, "\(error)")
        }
        do {
            return (try estimator.estimate(in: image, at: seconds), image.width, image.height)
        } catch {
            throw LiveFrameError(error.code == .timestampNotIncreasing ? .badImage : .model, error.message)
        }
    }

    /// Another session's stream begins: its times start again from 0, and the last person's track is no guide.
    func startStream() { estimator.startStream() }
}

/// Why a camera frame gave no poses.
public struct LiveFrameError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable { case badImage, model }
    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}

/// Makes a fresh body estimator when no idle one can be reused.
public typealias CameraPoseEstimatorFactory = @Sendable () throws(LiveFrameError) -> CameraEstimator<PoseFrame>

/// Makes a fresh hand estimator when no idle one can be reused.
public typealias CameraHandEstimatorFactory = @Sendable () throws(LiveFrameError) -> CameraEstimator<HandFrame>

/// Writes the report of a saved set: the same HTML and PDF reports `ptcoach analyze --report` writes.
public protocol ReportRendering: Sendable {
    /// The report's bytes for one set, or for several (a patient's date range: one section each); `format` is
    /// `html` or `pdf`.
    func report(_ sets: [ReportedSet], title: String, subtitle: String, format: String) throws -> [UInt8]

    /// A patient's date range as a clinical summary: adherence, the trend of range and pain per exercise and each
    /// set with its date and time, then the sets' details. `prescribedSets` is what the programme asked for in the
    /// range (`nil` without a programme).
    func summary(
        _ sets: [ReportedSet],
        prescribedSets: Int?,
        title: String,
        subtitle: String,
        format: String
    ) throws -> [UInt8]
}

extension ReportRendering {
    /// By default the sets' reports one after the other.
    public func summary(
        _ sets: [ReportedSet],
        prescribedSets: Int?,
        title: String,
        subtitle: String,
        format: String
    ) throws -> [UInt8] {
        try report(sets, title: title, subtitle: subtitle, format: format)
    }
}

/// Finds the poses in a demonstration video the clinic learns an exercise from (`POST /api/library/learn`): the
/// pose model in video mode over every frame, as `ptcoach learn` does. A pose-track upload needs none.
public protocol DemonstrationPoses: Sendable {
    /// The video's poses, one person a frame.
    ///
    /// - Throws: an error whose description says, in one line, why the file gave no poses (not a video, unreadable).
    func poses(inVideoAt path: String) async throws -> (header: PoseTrackHeader, frames: [PoseFrame])
}

public import CoachKit
public import CoachStore
public import PoseKit

/// Finds the poses in a live session's camera frames: one per session, so that it can track the person from
/// frame to frame (the pose model's video mode). Used by one inference worker at a time.
public protocol CameraPoseEstimator: AnyObject {
    /// Decodes `jpeg` and finds the people in it.
    ///
    /// - Parameter seconds: the frame's capture time; it never goes back from call to call.
    /// - Returns: the frame's poses, in pixels of the decoded image, and its size.
    /// - Throws: ``LiveFrameError`` `.badImage` for bytes that are not a usable JPEG (the client's fault: the
    ///   session goes on), `.model` when the pose model failed.
    func poses(
        inJPEG jpeg: UnsafeRawBufferPointer,
        at seconds: Double
    ) throws(LiveFrameError) -> (
        frame: PoseFrame, width: Int, height: Int
    )

    /// Another session's stream begins: its times start again from 0, and the last person's track is no guide.
    /// (Estimators are reused across sessions: a pose model is slow to load and, with MediaPipe, leaks some
    /// memory each time one is closed.)
    func startStream()
}

/// Finds the hands in a live hand-exercise session's camera frames: the hand model's counterpart of
/// ``CameraPoseEstimator``, one per session (video mode, tracking the hands), used by one worker at a time.
public protocol CameraHandEstimator: AnyObject {
    /// Decodes `jpeg` and finds the hands in it (up to three: the patient's two and someone else's).
    ///
    /// - Returns: the frame's hands, in pixels of the decoded image, and its size.
    /// - Throws: ``LiveFrameError`` as ``CameraPoseEstimator/poses(inJPEG:at:)`` does.
    func hands(
        inJPEG jpeg: UnsafeRawBufferPointer,
        at seconds: Double
    ) throws(LiveFrameError) -> (
        frame: HandFrame, width: Int, height: Int
    )

    /// Another session's stream begins (as ``CameraPoseEstimator/startStream()``).
    func startStream()
}

/// Makes a fresh hand estimator when no idle one can be reused.
public typealias CameraHandEstimatorFactory = @Sendable () throws(LiveFrameError) -> any CameraHandEstimator

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

/// Makes a fresh estimator when no idle one can be reused.
public typealias CameraPoseEstimatorFactory = @Sendable () throws(LiveFrameError) -> any CameraPoseEstimator

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

/// A saved set with what its report shows.
public struct ReportedSet: Sendable {
    public var set: SetRecord
    /// The set's summary; a hand set's as the store keeps it (``CoachKit/HandSessionSummary/stored``).
    public var summary: SessionSummary
    public var angleSeries: [AngleSample]
    /// A hand set's own summary (its report shows it, with a chart per finger); `nil` for a body set.
    public var hand: HandSessionSummary?
    /// The definition of the set's exercise as the server coached it, when the report writer's library may not have
    /// it (an exercise of the clinic's own library, learned after the server started).
    public var definition: ExerciseDefinition?

    public init(
        set: SetRecord,
        summary: SessionSummary,
        angleSeries: [AngleSample],
        hand: HandSessionSummary? = nil,
        definition: ExerciseDefinition? = nil
    ) {
        self.set = set
        self.summary = summary
        self.angleSeries = angleSeries
        self.hand = hand
        self.definition = definition
    }
}

/// The primary angle at one moment, for the report's chart; of a hand set, each finger's measurement too.
public struct AngleSample: Sendable, Hashable, Codable {
    public var seconds: Double
    /// The primary measurement (of a hand set: in its unit, degrees or hand lengths).
    public var degrees: Double
    /// A hand set's fingers (flexion, or the thumb's distance to each), for the report's chart per finger.
    public var fingers: [Finger: Double]

    public init(seconds: Double, degrees: Double, fingers: [Finger: Double] = [:]) {
        self.seconds = seconds
        self.degrees = degrees
        self.fingers = fingers
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

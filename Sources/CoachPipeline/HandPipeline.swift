public import CoachKit
public import PoseKit

/// The one loop that coaches a hand exercise frame by frame (``CoachKit/HandCoachingSession``): `ptcoach analyze`'s
/// counting pass, its drawing pass and the live server's hand sets (`LiveHandCoach`) step it, each frame with the
/// body pose found at the same time, if any.
///
/// ```swift
/// var pipeline = HandPipeline(exercise: exercise, width: 1280, height: 720)
/// for frame in frames { let snapshot = pipeline.step(frame); print(snapshot.reps) }
/// let summary = pipeline.summary
/// ```
public struct HandPipeline {
    public private(set) var session: HandCoachingSession

    public init(exercise: HandExerciseDefinition, width: Double, height: Double) {
        session = HandCoachingSession(exercise: exercise, width: width, height: height)
    }

    /// Coaches `frame`; `body` is the body pose of the same moment (the wrist's inclination needs the forearm).
    /// - Returns: the coach's state after it.
    @discardableResult
    public mutating func step(_ frame: HandFrame, body: Pose? = nil) -> HandCoachingSession.Snapshot {
        session.ingest(frame, body: body)
    }

    /// The set's summary so far.
    public var summary: HandSessionSummary { session.summary() }
}

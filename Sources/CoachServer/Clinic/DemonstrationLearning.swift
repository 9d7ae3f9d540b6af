import CoachKit
import CoachPipeline
import Foundation
import PoseKit

/// What the clinic page shows of a learned exercise: the demonstration's skeleton at the repetition's peak, with the
/// learned angle and band as the coaching overlay draws them, and the repetitions the learned definition counts in it.
struct DemonstrationPreview: Codable, Hashable, Sendable {
    var width: Int
    var height: Int
    /// The frame shown, seconds into the demonstration.
    var seconds: Double
    /// Keypoints by joint name, `[x, y, c]`, pixels of the demonstration (as a live `frame` message's `pose`).
    var pose: [String: [Double]]
    /// The coach's state at that frame (as a live `frame` message's `state`): the angle, its joint, the band.
    var state: LiveState
    /// Repetitions the learned definition counts in its own demonstration.
    var repetitions: Int
    /// The learner's account of what it learned (as `ptcoach learn` prints it).
    var description: String
}

/// Learns an exercise from a demonstration's poses (``CoachKit/ExerciseLearner``, as `ptcoach learn`), then coaches
/// the demonstration with it (``CoachPipeline/BodyPipeline``) for the preview.
enum DemonstrationLearning {
    /// - Throws: ``CoachKit/CoachKitError`` with the learner's one line (nobody seen, no repetition, no angle moved).
    static func learn(
        _ frames: [PoseFrame],
        width: Int,
        height: Int,
        name: String,
        id: String,
        primary: AngleKind?,
        source: String
    ) throws(CoachKitError) -> (learned: LearnedExercise, preview: DemonstrationPreview) {
        let learned = try ExerciseLearner().learn(
            frames,
            width: Double(width),
            height: Double(height),
            name: name,
            id: id,
            primary: primary,
            source: source
        )
        let definition = learned.definition
        var pipeline = BodyPipeline(
            configuration: .analysis(
                exercise: definition,
                library: [definition],
                width: Double(width),
                height: Double(height)
            )
        )
        // The frame whose angle is nearest the learned peak (the first such): what the band is about.
        let peak = definition.repetition?.peak
        var best: (score: Double, seconds: Double, snapshot: CoachSnapshot)?
        for frame in frames {
            _ = pipeline.step(frame)
            let snapshot = pipeline.snapshot
            guard snapshot.pose != nil, let angle = snapshot.primaryAngle, angle.isFinite else { continue }
            let score = peak.map { abs(angle - $0) } ?? -angle
            if best == nil || score < best!.score { best = (score, frame.seconds, snapshot) }
        }
        _ = pipeline.finish()
        let reps = pipeline.session.summary().reps
        let shown = best?.snapshot ?? pipeline.snapshot
        let preview = DemonstrationPreview(
            width: width,
            height: height,
            seconds: best?.seconds ?? 0,
            pose: shown.pose.map(ServerMessage.Frame.keypoints) ?? [:],
            state: LiveState(shown, prescribedReps: nil),
            repetitions: reps,
            description: learned.description
        )
        return (learned, preview)
    }
}

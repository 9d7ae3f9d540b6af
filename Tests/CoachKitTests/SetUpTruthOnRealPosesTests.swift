import Foundation
import PoseKit
import Testing

@testable import CoachKit

/// Set-up guidance on the calimiro pose-tracks made with the real pose model (``RecountAsGivenTests/folder``; the
/// tests are skipped, with that said, where the tracks are absent): every sentence true of the picture.
struct SetUpTruthOnRealPosesTests {
    /// The set-up sentences of a session given `exercise` on the track `name`, each with the repetitions counted
    /// when it was said (`nil`: the line taken back), and the summary.
    static func guidance(
        _ name: String,
        exercise: String
    ) throws -> (said: [(reps: Int, text: String?)], summary: SessionSummary) {
        let (header, frames) = try PoseTrackReader.readAll(path: RecountAsGivenTests.track(name))
        let library = try ExerciseLibrary.bundled()
        var session = CoachingSession(
            configuration: .analysis(
                exercise: try library.exercise(id: exercise),
                library: library.exercises,
                width: Double(header.width),
                height: Double(header.height)
            )
        )
        var said: [(reps: Int, text: String?)] = []
        var reps = 0
        for frame in frames {
            for event in session.ingest(frame) {
                switch event {
                case .repCompleted: reps += 1
                case .repetitionsRevised(let revised): reps = revised.count
                default: break
                }
            }
            let shown = session.snapshot.setupGuidance
            if shown != said.last?.text ?? nil || said.isEmpty && shown != nil { said.append((reps, shown)) }
        }
        _ = session.finish()
        return (said, session.summary())
    }

    @Test(
        "pull-up_9, a pull-up filmed from the side: counted, and never asked to face the camera once counting",
        .enabled(if: RecountAsGivenTests.has("pull-up_9"), "pull-up_9.jsonl is not in PTCOACH_CALIMIRO_TRACKS")
    )
    func sideViewPullUp() throws {
        let (said, summary) = try Self.guidance("pull-up_9", exercise: "pull-up")
        // The shoulders 4–36 px apart over a 160–173 px torso: a side view, not a rear one (the bar runs away from
        // the camera); the exercise names the front view.
        #expect(summary.reps >= 3, "the side view counts the pull-ups")
        let face = SetUpIssue.needsView(.front).sentence
        let afterFirst = said.filter { $0.reps >= 1 && $0.text == face }
        #expect(afterFirst.isEmpty, "said while counting: \(said)")
        #expect(said.last?.text == nil, "a set-up line left up over the set: \(said)")
        #expect(said.allSatisfy { $0.text == nil || $0.reps == 0 }, "\(said)")
        // What the side view cannot judge is in the summary, not in a set-up line.
        #expect(summary.repetitions.allSatisfy { $0.uncheckedReason == RepetitionJudge.wrongViewReason })
    }
}

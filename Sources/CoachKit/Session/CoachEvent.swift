public import PoseKit

/// What the coach recognises as being done.
public enum RecognitionState: Sendable, Hashable, Codable {
    /// Nobody in view.
    case noPerson
    /// Someone is there but no exercise fits well enough (standing still, setting up, something else).
    case lowConfidence
    /// This exercise, with this confidence (0…1).
    case exercise(id: String, confidence: Double)
}

/// A safety limit crossed: one per crossing, however often the angle wavers about the limit or both sides cross
/// (``SafetyMonitor``).
public struct SafetyWarning: Sendable, Hashable, Codable {
    public var angle: AngleKind
    public var side: BodySide?
    /// The value when the limit was crossed.
    public var value: Double
    public var limit: Double
    public var text: String
    /// When the limit was crossed.
    public var seconds: Double
    /// The furthest past the limit the angle went in this crossing, as far as it is known (a warning event is sent
    /// as the limit is crossed; the summary's has the whole crossing). `nil` in summaries written before.
    public var peak: Double? = nil
    /// From the crossing to the last frame past the limit, as far as it is known. `nil` in summaries written before.
    public var durationSeconds: Double? = nil
}

/// Progress of a hold.
public struct HoldProgress: Sendable, Hashable, Codable {
    /// Seconds held so far in this hold.
    public var heldSeconds: Double
    public var targetSeconds: Double
    /// Whether the position is held right now.
    public var holding: Bool
}

/// What a ``CoachingSession`` reports for a frame.
public enum CoachEvent: Sendable, Hashable {
    /// The selected, smoothed pose of the person coached.
    case pose(Pose)
    case repCompleted(Repetition)
    /// The repetitions counted so far are now these, replacing all those reported before: some were withdrawn
    /// (counted on a guessed depth, then recounted in the image plane; or replaced when another signal took over
    /// the count), renumbered, or judged again once the exercise was named. Repetitions completed later come as
    /// ``repCompleted`` after it. Folding the events in order (``CoachEvent/fold(_:)``) gives the session's
    /// repetitions.
    case repetitionsRevised([Repetition])
    /// With no exercise given: the recognised exercise's own counter completed this repetition and the movement,
    /// which does the counting, has not counted it yet. The count is provisionally one more (``CoachSnapshot/provisionalReps``):
    /// show it as such. At most one at a time; a later one replaces it (with new times, or a new index). Numbered as
    /// the next repetition counted, measured and judged as the exercise given would have it. Not folded: it is no
    /// repetition of the session until counted.
    case provisionalRepetition(Repetition)
    /// The provisional repetition shown is no longer provisional. `confirmed`: the repetitions counted now number
    /// at least its index (the movement counted it; its ``repCompleted``, usually with the provisional one's
    /// times and judgement, or a ``repetitionsRevised``, comes in the same frame or came before). Otherwise it was
    /// withdrawn: the exercise's counter revised it away, the recognised exercise changed, or the set ended
    /// without the movement counting it.
    case provisionalRepetitionEnded(confirmed: Bool)
    case cue(Cue)
    case warning(SafetyWarning)
    case holdProgress(HoldProgress)
    /// The recognised exercise changed (or the state: no person, low confidence).
    case recognized(RecognitionState)
    /// What the person should do so the coach can see them (also given as a ``Cue`` of kind `.setup`).
    case setupGuidance(String)
}

extension CoachEvent {
    /// The repetitions a stream of events reports, in order: each ``repCompleted`` adds one, each
    /// ``repetitionsRevised`` replaces them all; provisional ones (``provisionalRepetition(_:)``) are not counted.
    /// After ``CoachingSession/finish()`` it is the summary's.
    public static func fold(_ events: some Sequence<CoachEvent>) -> [Repetition] {
        var repetitions: [Repetition] = []
        for event in events {
            switch event {
            case .repCompleted(let repetition): repetitions.append(repetition)
            case .repetitionsRevised(let revised): repetitions = revised
            default: break
            }
        }
        return repetitions
    }
}

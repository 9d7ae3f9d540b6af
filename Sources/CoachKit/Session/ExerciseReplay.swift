import PoseKit

/// With no exercise given, the exercise recognised coached as if it had been given: the frames of the last
/// ``Configuration/replaySeconds`` are kept, and once an exercise is recognised a ``CoachingCore`` given it (a session
/// less the recogniser, so that no type holds itself) replays them and follows the frames after; its repetitions are
/// what the session with no exercise given adopts (`CoachingSession+AsGiven.swift`).
///
/// ```swift
/// var replay = ExerciseReplay()
/// for frame in frames { replay.ingest(frame, pose: nil) }
/// replay.start(squat, configuration: configuration, at: frames.last!.seconds)
/// if replay.takePending() { adopt(replay.repetitions) }
/// ```
struct ExerciseReplay: Sendable {
    /// The replay's numbers (judgements, not read off a recording).
    enum Configuration {
        /// How far back the exercise's session starts when the exercise is recognised.
        static let replaySeconds = 20.0
        /// A repetition of the exercise's session is shown as provisional unless one of this many latest repetitions
        /// counted took its measurement already (the adoption looks at the latest only).
        static let takenLookback = 3
        /// It may begin this fraction of its own length before the last counted repetition ended: the movement's
        /// repetition and the exercise's overlap by about that much where they are the same one.
        static let provisionalOverlapFraction = 0.5
        /// The repetitions adopted or recounted are those of the last this many ``replaySeconds``: older ones had
        /// their chance, and the work per frame does not grow with the set.
        static let adoptionHorizonReplays = 2.0
        /// The frames let go of are dropped from the front of the buffer once this many have gathered (and they are
        /// at least half of it): the array shifts about once per thousand frames, not on every frame.
        static let framesDroppedAtOnce = 1024
    }

    /// The frames of the last ``Configuration/replaySeconds``, oldest first from `start`.
    private var frames: [PoseFrame] = []
    private var start = 0
    /// How many frames were let go of (the frames kept begin with the session's first while none were).
    private var framesDropped = 0
    /// Whether the exercise's session was started over every frame from the session's first: its selector and
    /// smoother then did exactly what the movement's did, and it takes the movement's pose instead of selecting
    /// and smoothing the same frames again.
    private var followsPose = false
    /// The coaching of the recognised exercise as given (a ``CoachingCore``: a session less the recogniser).
    private var core: CoachingCore?
    /// Its repetitions (its events folded).
    private(set) var repetitions: [Repetition] = []
    /// Whether a repetition was counted or revised, here or by the movement, since the last adoption.
    private(set) var pending = false
    /// The repetition shown as provisional (``CoachingSession/updateProvisionalRepetition()``).
    private(set) var provisional: Repetition?
    /// The id of the exercise it is given.
    private(set) var exerciseID: String?
    /// When it was recognised, and the time of the first frame its session replayed (`nil` before the first).
    private(set) var recognizedAt: Double?
    private(set) var replayedFrom: Double?

    /// Keeps `frame`, and coaches it in the exercise's session when there is one. `pose`: the movement's
    /// session's selected and smoothed pose of it.
    mutating func ingest(_ frame: PoseFrame, pose: Pose?) {
        frames.append(frame)
        while start < frames.count, frames[start].seconds < frame.seconds - Configuration.replaySeconds { start += 1 }
        // Let go of the old frames now and then (amortised: the array shifts once per thousand frames).
        if start >= Configuration.framesDroppedAtOnce, start * 2 >= frames.count {
            frames.removeFirst(start)
            framesDropped += start
            start = 0
        }
        guard core != nil else { return }
        if followsPose {
            if let events = core?.ingest(frame, smoothed: pose) { collect(events) }
        } else {
            if let events = core?.ingest(frame) { collect(events) }
        }
    }

    /// Starts the session given `exercise` over the frames kept; with none (or a hold, timed as given
    /// already), ends it.
    mutating func start(_ exercise: ExerciseDefinition?, configuration: CoachingSession.Configuration, at t: Double) {
        core = nil
        repetitions.removeAll()
        exerciseID = nil
        followsPose = false
        guard let exercise, exercise.repetition != nil else { return }
        var given = configuration
        given.exercise = exercise
        given.emitsPoseEvents = false
        core = CoachingCore(configuration: given, mode: .given(GivenDefinition(exercise)))
        exerciseID = exercise.id
        recognizedAt = t
        replayedFrom = start < frames.count ? frames[start].seconds : t
        for i in start..<frames.count {
            if let events = core?.ingest(frames[i]) { collect(events) }
        }
        followsPose = start == 0 && framesDropped == 0
    }

    /// The overlay's angle, side and joint as the exercise's session shows them (`nil` while there is none): the
    /// side whose repetitions count, before the first the side that moves more, held as with the exercise given.
    var overlay: (angle: Double?, side: BodySide?, joint: Joint?)? {
        guard let shown = core?.snapshot else { return nil }
        return (shown.primaryAngle, shown.side, shown.primaryJoint)
    }

    /// A repetition was counted or revised by the movement: the repetitions are to be adopted again.
    mutating func notePending() {
        pending = true
    }

    /// Whether a repetition was counted or revised since the last call (``pending``), which it clears.
    mutating func takePending() -> Bool {
        defer { pending = false }
        return pending
    }

    /// Keeps `repetition` as the one shown as provisional (`nil`: none).
    mutating func keep(provisional repetition: Repetition?) {
        provisional = repetition
    }

    /// Keeps the repetitions the exercise's session reports.
    private mutating func collect(_ events: [CoachEvent]) {
        for event in events {
            switch event {
            case .repCompleted(let repetition):
                repetitions.append(repetition)
                pending = true
            case .repetitionsRevised(let revised):
                repetitions = revised
                pending = true
            default: break
            }
        }
    }
}

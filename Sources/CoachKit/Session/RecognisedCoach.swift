import PoseKit

/// The coach with no exercise given: the recogniser deciding over a sliding window which library exercise the
/// movement is, the tracker that turns its decisions into the exercise recognised, the dominant movement of the body
/// counted whatever the exercise, and the replay that coaches the exercise recognised as if it had been given
/// (``ExerciseReplay``, a session given that exercise).
///
/// The session with no exercise given owns one and composes it with its set-up check, counting and judging.
///
/// ```swift
/// var recognised = RecognisedCoach(library: library.exercises, configuration: .init())
/// if let decision = recognised.observe(pose, at: t, steady: true),
///     case .switchExercise(let index, let confidence) = recognised.decide(decision)
/// {
///     recognised.switched(to: index, confidence: confidence)
/// }
/// if let reps = recognised.countMovement(pose, at: t, valid: true, useDepth: false) { count(reps) }
/// ```
struct RecognisedCoach: Sendable {
    /// Decides which library exercise the movement is, over a sliding window.
    private var recognizer: ExerciseRecognizer
    /// The dominant movement of the body, counted whatever the exercise.
    private var movement = PeriodicMotionCounter()
    /// The exercise recognised, from the recogniser's decisions.
    private var recognition = RecognitionTracker()
    /// The frames of the last ``ExerciseReplay/Configuration/replaySeconds`` and the session given the exercise
    /// recognised.
    var replay = ExerciseReplay()

    init(library: [ExerciseDefinition], configuration: ExerciseRecognizer.Configuration) {
        recognizer = ExerciseRecognizer(exercises: library, configuration: configuration)
    }

    // MARK: - Recognition

    /// The recogniser's decision for this frame (`pose`: `nil` when nobody is seen), when it makes one.
    mutating func observe(_ pose: Pose?, at t: Double, steady: Bool) -> RecognitionState? {
        recognizer.ingest(pose, at: t, steady: steady)
    }

    /// The body's angles in the recogniser's latest 10-Hz sample (NaN where not measured).
    var sample: [Double] { recognizer.sample }

    /// What a decision changes: the same exercise, a switch, nothing recognised.
    mutating func decide(_ decision: RecognitionState) -> RecognitionTracker.Event? {
        recognition.ingest(decision, bestIndex: recognizer.bestIndex)
    }

    /// The exercise recognised is now `index` (`nil`: none) at `confidence`.
    mutating func switched(to index: Int?, confidence: Double) {
        recognition.switched(to: index, confidence: confidence)
    }

    /// The exercise recognised (its index in the library).
    var recognizedIndex: Int? { recognition.recognizedIndex }
    /// The confidence of the exercise recognised.
    var confidence: Double { recognition.confidence }
    /// How many decisions named an exercise.
    var decisions: Int { recognition.decisions }
    /// The last decision, when it named an exercise.
    var lastNamed: (index: Int, state: RecognitionState)? { recognition.lastNamed }
    /// The recogniser's window.
    var windowSeconds: Double { recognizer.configuration.windowSeconds }

    /// The end of the recording: the recogniser's last decision over what it has, noted when it names an exercise (a
    /// last decision that names nothing does not undo the one before).
    mutating func finishRecognition() {
        if let final = recognizer.finish(), case .exercise = final {
            recognition.note(final, bestIndex: recognizer.bestIndex)
        }
    }

    // MARK: - The movement

    /// Counts the movement in this frame (`pose`: `nil` when nobody is seen); the repetitions it completed so far
    /// when this frame completed one.
    mutating func countMovement(_ pose: Pose?, at t: Double, valid: Bool, useDepth: Bool) -> [RepCounter.Completed]? {
        movement.ingest(pose, at: t, valid: valid, useDepth: useDepth) > 0 ? movement.completed : nil
    }

    /// The end of the recording: what the movement counter finds in what it has (its window needs 3 s); the
    /// repetitions completed so far when it found more.
    mutating func finishMovement() -> [RepCounter.Completed]? {
        movement.finish() > 0 ? movement.completed : nil
    }

    /// How far the movement's repetition under way is from rest to peak (0...1).
    var movementProgress: Double { movement.progress }
    /// Whether the movement is known yet (its window has seen enough).
    var hasMovement: Bool { movement.hasMovement }
    /// The projection of the pose on the movement counted (torso lengths), and which principal component it is.
    var movementSignal: (value: Double?, component: Int) { (movement.signal, movement.lastChoice) }

    /// Whether the movement's signal, measured again after a gap, continues where it was.
    func continues(with pose: Pose, useDepth: Bool) -> Bool {
        movement.continues(with: pose, useDepth: useDepth)
    }
}

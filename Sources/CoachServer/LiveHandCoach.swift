import CoachKit
import CoachPipeline
import CoachStore
import Foundation
import PoseKit

/// The hand side of a live set (a hand exercise): each camera frame through the session's hand estimator (video
/// mode, up to three hands), a ``CoachKit/HandCoachingSession`` that counts and cues while the set runs, and a
/// ``CoachKit/HandGestureControl`` that obeys the gestures: a held pinch starts, pauses and resumes the set, a held
/// open palm ends it. The gestures are read from the hand not coached; while nothing is counted (before the start,
/// paused), a hand alone in view gives them too. The server decides; the page only shows the state (docs/live-protocol.md, "Hand exercises").
///
/// `@unchecked Sendable`: used by one inference worker at a time, as ``LiveSet``'s coaching state is (it is that
/// state's hand part, reached only through its set); it holds no lock of its own.
final class LiveHandCoach: @unchecked Sendable {
    /// How long a cue stays on the page after it was given.
    static let cueSeconds = 3.0

    let exercise: HandExerciseDefinition
    private let estimators: CameraEstimatorPool<HandFrame>?
    private var estimator: (CameraEstimator<HandFrame>)?
    private var estimatorFailed = false
    private var control: HandGestureControl
    private var session: HandPipeline?
    private var lastCue: Cue?
    private var repsSeen = 0
    private(set) var series: [AngleSample] = []
    /// Frames coached while the set ran.
    private(set) var framesCoached = 0
    /// Frames the hand model answered while the set waited for its first pinch.
    private(set) var framesWaited = 0

    /// - Parameter startOnPinch: the set waits for a held pinch before it counts; otherwise it runs at once.
    init(
        exercise: HandExerciseDefinition,
        startOnPinch: Bool,
        estimators: CameraEstimatorPool<HandFrame>?
    ) {
        self.exercise = exercise
        self.estimators = estimators
        control = HandGestureControl(setState: startOnPinch ? .idle : .running)
    }

    /// The last frame's picture, in pixels (what the hands' keypoints are measured in), for a therapist watching.
    private(set) var pictureSize: (width: Int, height: Int)?

    /// One camera frame: its answer (a `frame` message, or an `error` one), whether an open palm ended the set, and
    /// the repetition it completed (to be saved as it comes, as a body set's are).
    func coach(
        _ frame: LiveSet.CameraFrame,
        dropped: Int,
        prescribedReps: Int?
    ) -> (message: String?, ended: Bool, repetition: Repetition?) {
        do throws(LiveFrameError) {
            if estimator == nil {
                guard !estimatorFailed, let estimators else { return (nil, false, nil) }
                do throws(LiveFrameError) {
                    estimator = try estimators.take()
                } catch {
                    estimatorFailed = true
                    throw error
                }
            }
            let found = try hands(frame)
            pictureSize = (found.width, found.height)
            let before = control.setState
            let step = ingest(found.frame, width: found.width, height: found.height)
            let elapsed = ContinuousClock.now - frame.received
            let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
            let message = ServerMessage.frame(
                .init(
                    id: frame.id,
                    seconds: frame.seconds,
                    dropped: dropped,
                    serverMilliseconds: milliseconds,
                    step: step,
                    coach: self,
                    prescribedReps: prescribedReps
                )
            ).jsonText
            let repetition = step.repetition.map { Repetition($0, exercise: exercise.id, measure: exercise.primary) }
            return (message, before != .ended && control.setState == .ended, repetition)
        } catch {
            let code: LiveProtocolError.Code = error.kind == .badImage ? .badFrame : .handModel
            return (ServerMessage.error(.init(code, "frame \(frame.id): \(error.message)")).jsonText, false, nil)
        }
    }

    private func hands(
        _ frame: LiveSet.CameraFrame
    ) throws(LiveFrameError) -> (frame: HandFrame, width: Int, height: Int) {
        guard let estimator else { throw LiveFrameError(.model, "no hand estimator") }
        return try frame.withJPEG { bytes throws(LiveFrameError) in
            try estimator.frame(inJPEG: bytes, at: frame.seconds)
        }
    }

    /// What one frame gave.
    struct Step {
        var hands: [HandPose]
        var snapshot: HandCoachingSession.Snapshot?
        /// The coached hand (an index in `hands`), and the hand the gestures are read from.
        var coached: Int?
        var gestureHand: Int?
        var openPalm: Bool
        var command: HandGestureControl.Command?
        var setState: HandGestureControl.SetState
        var pinch: PinchGesture.State
        /// The cue on show (given in the last ``cueSeconds``), and the one given in this frame (to be said).
        var cue: Cue?
        var newCues: [Cue]
        /// The repetition completed at this frame, if any.
        var repetition: HandSessionSummary.Repetition?
    }

    /// Coaches one frame of hands (a frame is counted only while the set runs) and reads the gestures.
    func ingest(_ frame: HandFrame, width: Int, height: Int) -> Step {
        if session == nil {
            session = HandPipeline(exercise: exercise, width: Double(width), height: Double(height))
        }
        var snapshot: HandCoachingSession.Snapshot?
        var coached: Int?
        switch control.setState {
        case .running:
            let s = session!.step(frame)
            snapshot = s
            coached = s.coachedIndex
            framesCoached += 1
            if let value = s.value, value.isFinite, frame.seconds >= (series.last?.seconds ?? -.infinity) + 0.1 {
                series.append(AngleSample(seconds: frame.seconds, degrees: value, fingers: s.fingers))
            }
        case .idle, .paused:
            if control.setState == .idle { framesWaited += 1 }
            // Not counting: one hand alone gives the gestures; of two, the one the coach would not coach.
            coached =
                frame.hands.count < 2
                ? nil
                : HandSetUp.check(frame.hands, width: Double(width), height: Double(height), side: exercise.side).index
        case .ended:
            coached = nil
        }
        let command = control.ingest(frame.hands, coached: coached, at: frame.seconds)
        let gestureHand = HandGestureControl.gestureHandIndex(frame.hands, coached: coached)
        var newCues: [Cue] = []
        if let cue = snapshot?.cue { newCues.append(cue) }
        if let command {
            let text =
                switch command {
                case .start: "Set started"
                case .pause: "Paused: pinch again to go on"
                case .resume: "Go on"
                case .end: "Set ended"
                }
            newCues.append(Cue(kind: .timing, text: text, priority: 1, seconds: frame.seconds))
        }
        var repetition: HandSessionSummary.Repetition?
        if let reps = snapshot?.reps, reps > repsSeen {
            repsSeen = reps
            repetition = session!.summary.repetitions.last
        }
        if let cue = newCues.last { lastCue = cue }
        if let cue = lastCue, frame.seconds - cue.seconds > Self.cueSeconds { lastCue = nil }
        return Step(
            hands: frame.hands,
            snapshot: snapshot,
            coached: coached,
            gestureHand: gestureHand,
            openPalm: gestureHand.map { OpenPalm.isShown(frame.hands[$0]) } ?? false,
            command: command,
            setState: control.setState,
            pinch: control.pinch.state,
            cue: lastCue,
            newCues: newCues,
            repetition: repetition
        )
    }

    /// The repetitions counted so far.
    var reps: Int { repsSeen }

    /// The set-up line in force: the coach's set-up issue while the set runs; before it starts, no hand.
    func setUpLine(_ step: Step) -> String? {
        if let issue = step.snapshot?.setUp { return issue.cue(side: exercise.side) }
        return step.setState == .idle && step.hands.isEmpty ? HandSetUp.Issue.noHand.cue(side: exercise.side) : nil
    }

    /// What the gestures do now.
    static func gestureHint(_ state: HandGestureControl.SetState) -> String {
        switch state {
        case .idle: "Pinch thumb and index together and hold to start"
        case .running: "Pinch with your other hand to pause; hold an open palm up to end"
        case .paused: "Paused: pinch to go on, or hold an open palm up to end"
        case .ended: "Set ended"
        }
    }

    /// Gives the estimator back for another session (once no worker is on the set).
    func releaseEstimator() {
        if let estimator { estimators?.give(estimator) }
        estimator = nil
    }

    /// The set's summary (`analyze --json`'s hand object) and what the store keeps of it
    /// (``CoachKit/HandSessionSummary/stored``: the count, the duration, the exercise, the repetitions as rows), or
    /// `nil` if the set never ran.
    /// Why the set coached nothing when it waited for a pinch that never came (`nil` otherwise): the summary's
    /// message, instead of "no frame was coached".
    var neverStarted: String? {
        guard framesCoached == 0, control.setState == .idle, framesWaited > 0 else { return nil }
        return "no pinch seen: the set never started (\(framesWaited) frames watched for one)"
    }

    func outcome(id: String, prescribedReps: Int?) -> (stored: SessionSummary, json: String, problem: String?)? {
        guard let session, framesCoached > 0 else { return nil }
        let summary = session.summary
        guard let json = try? summary.jsonText(file: "live:\(id)", prescribedReps: prescribedReps) else { return nil }
        let stored = summary.stored
        var problem: String?
        if summary.framesMeasured == 0 {
            let cue = summary.setUp.max { $0.seconds < $1.seconds }?.cue ?? HandSetUp.Issue.noHand.cue()
            problem =
                "this set: the hand was not measured in any of the \(summary.frames) frames; the coach said: \(cue)"
        }
        return (stored, json, problem)
    }
}

extension ServerMessage.Frame {
    /// The answer to one frame of a hand set: the hands, the coach's state and the gesture state.
    init(
        id: Int,
        seconds: Double,
        dropped: Int,
        serverMilliseconds: Double,
        step: LiveHandCoach.Step,
        coach: LiveHandCoach,
        prescribedReps: Int?
    ) {
        var events: [LiveEvent] = step.newCues.map { .cue(kind: $0.kind, text: $0.text, seconds: $0.seconds) }
        if let repetition = step.repetition { events.append(.handRep(repetition)) }
        if let command = step.command { events.append(.gesture(command: command)) }
        self.init(
            id: id,
            t: seconds,
            dropped: dropped,
            serverMs: (serverMilliseconds * 10).rounded() / 10,
            pose: nil,
            hands: step.hands.enumerated().map { Hand($1, index: $0, step: step) },
            gesture: Gesture(step),
            state: LiveState(step, coach: coach, prescribedReps: prescribedReps),
            events: events
        )
    }
}

extension ServerMessage.Frame.Hand {
    /// A hand found: its side, whether it is the coached one and the one the gestures are read from, its keypoints
    /// `[x, y, c]` to a tenth of a pixel.
    init(_ hand: HandPose, index: Int, step: LiveHandCoach.Step) {
        var joints: [String: [Double]] = [:]
        for joint in HandJoint.allCases {
            let k = hand[joint]
            guard k.confidence > 0, k.x.isFinite, k.y.isFinite else { continue }
            joints[joint.name] = [
                (k.x * 10).rounded() / 10, (k.y * 10).rounded() / 10, (k.confidence * 100).rounded() / 100,
            ]
        }
        self.init(
            side: hand.chirality.rawValue,
            coached: index == step.coached,
            gesture: index == step.gestureHand,
            keypoints: joints
        )
    }
}

extension ServerMessage.Frame.Gesture {
    /// The gesture state a frame left: the open palm's evidence, else the pinch's.
    init(_ step: LiveHandCoach.Step) {
        let state =
            if step.openPalm {
                "openPalm"
            } else {
                switch step.pinch {
                case .possiblePinch: "possiblePinch"
                case .pinched: "pinched"
                case .unknown, .apart, .possibleApart: "none"
                }
            }
        self.init(
            state: state,
            pinch: step.pinch.rawValue,
            hand: step.gestureHand,
            set: step.setState,
            command: step.command,
            hint: LiveHandCoach.gestureHint(step.setState)
        )
    }
}

extension LiveState {
    /// A hand set's state after a frame: the body state's fields from the hand coach, `hand: true`.
    init(_ step: LiveHandCoach.Step, coach: LiveHandCoach, prescribedReps: Int?) {
        let exercise = coach.exercise
        self.init(
            hand: true,
            exercise: exercise.id,
            exerciseName: exercise.name,
            confidence: nil,
            recognition: "exercise",
            unsure: nil,
            reps: step.snapshot?.reps ?? coach.reps,
            provisionalReps: 0,
            prescribedReps: prescribedReps,
            angle: Self.rounded(step.snapshot?.value, exercise.primary.isDegrees ? 10 : 100),
            angleKind: exercise.primary.rawValue,
            angleName: exercise.primary.displayName,
            angleUnit: exercise.primary.isDegrees ? "°" : "",
            angleJoint: nil,
            side: nil,
            target: exercise.target.map { [$0.min, $0.max] },
            rangeOfMotion: step.setState == .running ? Self.rounded(step.snapshot?.progress, 100) : nil,
            cue: step.cue?.text,
            cueKind: step.cue?.kind,
            warning: nil,
            setup: coach.setUpLine(step),
            hold: nil,
            peakHold: nil
        )
    }
}

import CoachKit
import CoachPipeline
import CoachStore
import Foundation
import PoseKit
import Synchronization

/// One set coached live: the `CoachingSession` fed with the frames of one socket, and what it needs to see
/// them (a pose estimator that tracks this person, for camera frames; a pose-track frame decoder, for keypoint
/// frames). Camera frames wait in a one-frame slot for the ``InferencePool``; keypoint frames are coached at
/// once on the socket's task. Either way one frame is coached at a time, in the order sent.
///
/// `@unchecked Sendable`: the coaching state (the session, the estimator, the series) is touched by one inference
/// worker, or the socket's task for keypoint frames, at a time (``InferencePool`` runs a set on one worker at
/// once); the slot and counters the socket's task and the workers share are under a `Mutex`.
final class LiveSet: FrameQueueing, @unchecked Sendable {
    typealias Input = LiveInput

    struct CameraFrame: Sendable {
        var id: Int
        var seconds: Double
        var jpeg: [UInt8]
        var received: ContinuousClock.Instant

        /// Runs `body` on the JPEG's bytes (`withUnsafeBytes` with a typed error).
        func withJPEG<T>(
            _ body: (UnsafeRawBufferPointer) throws(LiveFrameError) -> T
        ) throws(LiveFrameError) -> T {
            var result: Result<T, LiveFrameError> = .failure(.init(.model, "not run"))
            jpeg.withUnsafeBytes { bytes in
                do throws(LiveFrameError) {
                    result = .success(try body(bytes))
                } catch {
                    result = .failure(error)
                }
            }
            return try result.get()
        }
    }

    let id: String
    let input: Input
    let exercise: ExerciseDefinition?
    let library: [ExerciseDefinition]
    let prescribedReps: Int?
    let prescribedHoldSeconds: Double?
    let startedAt = Date()
    /// Sends one text message to the client.
    private let send: @Sendable (String) -> Void
    /// A logged-in patient's set: its frames for the therapist watching (docs/live-watch.md).
    private let watch: LiveWatchFeed?
    /// Called with each repetition as it completes (to save it).
    private let completed: @Sendable (Repetition) -> Void

    /// The waiting slot and the counters, shared by the socket's task and the workers.
    private struct Slot {
        var waiting: CameraFrame?
        var dropped = 0
        /// The capture time of the last frame offered.
        var lastSentSeconds: Double?
        var ended = false
        var finishClaimed = false
    }

    private let slot = Mutex(Slot())

    // The coaching state: touched by one worker (or the socket's task) at a time.
    private var coach: BodyPipeline?
    private var estimator: (CameraEstimator<PoseFrame>)?
    private let estimators: CameraEstimatorPool<PoseFrame>?
    /// A hand exercise's coach, for a hand set (then `exercise` is `nil` and no body is coached).
    let hands: LiveHandCoach?
    /// Called once when the gestures ended the set (a held open palm).
    private let gestureEnded: @Sendable () -> Void
    private var keypoints: PoseTrackFrameDecoder?
    private var series: [AngleSample] = []
    /// The repetitions told to the client, so that a `rep` adds one exactly once (``LiveRepetitionLedger``).
    private var ledger = LiveRepetitionLedger()
    /// The coach's events of frames coached after ``stop()``: not sent with their frame, sent with the set's end.
    private var unsent: [CoachEvent] = []
    private var framesCoached = 0
    private var estimatorFailed = false

    init(
        id: String,
        input: Input,
        exercise: ExerciseDefinition?,
        library: [ExerciseDefinition],
        prescribedReps: Int?,
        prescribedHoldSeconds: Double?,
        keypointHeader: PoseTrackHeader?,
        estimators: CameraEstimatorPool<PoseFrame>?,
        hands: LiveHandCoach? = nil,
        send: @escaping @Sendable (String) -> Void,
        watch: LiveWatchFeed? = nil,
        completed: @escaping @Sendable (Repetition) -> Void,
        gestureEnded: @escaping @Sendable () -> Void = {}
    ) {
        self.hands = hands
        self.gestureEnded = gestureEnded
        self.id = id
        self.input = input
        var exercise = exercise
        if let hold = prescribedHoldSeconds { exercise?.repetition?.holdSeconds = hold }
        self.exercise = exercise
        self.library = library
        self.prescribedReps = prescribedReps
        self.prescribedHoldSeconds = prescribedHoldSeconds
        self.estimators = estimators
        self.send = send
        self.watch = watch
        self.completed = completed
        if let keypointHeader {
            keypoints = PoseTrackFrameDecoder(header: keypointHeader)
            coach = BodyPipeline(
                configuration: .analysis(
                    exercise: exercise,
                    library: library,
                    width: Double(keypointHeader.width),
                    height: Double(keypointHeader.height)
                )
            )
        }
    }

    // MARK: - Camera frames

    /// Takes a camera frame into the waiting slot (replacing, and counting as dropped, one still waiting).
    ///
    /// - Returns: an error message for the client when the frame is refused, else `nil`.
    func offer(_ frame: CameraFrame) -> String? {
        slot.withLock { slot in
            guard !slot.ended else { return nil }
            if let last = slot.lastSentSeconds, frame.seconds < last {
                return "frame \(frame.id) was captured at \(frame.seconds) s, before the previous frame (\(last) s); "
                    + "capture times must not go back"
            }
            slot.lastSentSeconds = frame.seconds
            if slot.waiting != nil { slot.dropped += 1 }
            slot.waiting = frame
            return nil
        }
    }

    var hasWaitingFrame: Bool { slot.withLock { $0.waiting != nil } }

    @discardableResult func processWaitingFrame() -> Bool {
        let frame = slot.withLock { slot in
            defer { slot.waiting = nil }
            return slot.waiting
        }
        guard let frame else { return false }
        if let hands {
            let answer = hands.coach(frame, dropped: droppedFrames, prescribedReps: prescribedReps)
            if let message = answer.message, !slot.withLock({ $0.ended }) {
                send(message)
                // The hand coach's events are inside its message: a frame with some is always passed on.
                watch?.coached(
                    message,
                    seconds: frame.seconds,
                    width: hands.pictureSize?.width,
                    height: hands.pictureSize?.height,
                    events: [],
                    hasEvents: !message.contains(#""events":[]"#)
                )
            }
            if let repetition = answer.repetition { completed(repetition) }
            if answer.ended { gestureEnded() }
            return true
        }
        do throws(LiveFrameError) {
            if estimator == nil {
                guard !estimatorFailed, let estimators else { return false }
                do throws(LiveFrameError) {
                    estimator = try estimators.take()
                } catch {
                    estimatorFailed = true
                    throw error
                }
            }
            let found = try jpegPoses(frame)
            coach(found.frame, id: frame.id, width: found.width, height: found.height, received: frame.received)
            return true
        } catch {
            let code: LiveProtocolError.Code = error.kind == .badImage ? .badFrame : .poseModel
            send(ServerMessage.error(.init(code, "frame \(frame.id): \(error.message)")).jsonText)
            return false
        }
    }

    private func jpegPoses(_ frame: CameraFrame) throws(LiveFrameError) -> (frame: PoseFrame, width: Int, height: Int) {
        guard let estimator else { throw LiveFrameError(.model, "no pose estimator") }
        return try frame.withJPEG { bytes throws(LiveFrameError) in
            try estimator.frame(inJPEG: bytes, at: frame.seconds)
        }
    }

    // MARK: - Keypoint frames

    /// Coaches a keypoint frame at once (`{"type":"frame","id":…,"t":…,"poses":[…]}`, its `id` read).
    ///
    /// - Returns: an error message for the client when the frame is refused, else `nil`.
    func coachKeypoints(id: Int, text: String, received: ContinuousClock.Instant) -> String? {
        guard var decoder = keypoints, let header = keypoints?.header else {
            return "this set was started with input \"camera\": send JPEG frames as binary messages"
        }
        let frame: PoseFrame
        do {
            frame = try decoder.decode(line: text)
        } catch {
            return "frame \(id): \(error.message)"
        }
        keypoints = decoder
        coach(frame, id: id, width: header.width, height: header.height, received: received)
        return nil
    }

    // MARK: - Coaching

    private func coach(_ frame: PoseFrame, id: Int, width: Int, height: Int, received: ContinuousClock.Instant) {
        if coach == nil {
            coach = BodyPipeline(
                configuration: .analysis(
                    exercise: exercise,
                    library: library,
                    width: Double(width),
                    height: Double(height)
                )
            )
        }
        let events = coach!.step(frame)
        framesCoached += 1
        let snapshot = coach!.snapshot
        // The report's angle chart, at up to 10 Hz.
        if let degrees = snapshot.primaryAngle, snapshot.primaryAngleKind?.isDegrees == true, degrees.isFinite,
            frame.seconds >= (series.last?.seconds ?? -.infinity) + 0.1
        {
            series.append(AngleSample(seconds: frame.seconds, degrees: degrees))
        }
        let (droppedSoFar, isEnded) = slot.withLock { ($0.dropped, $0.ended) }
        guard !isEnded else {
            // The set's end sends them (with the summary), so that the events sent still fold to its repetitions;
            // they are saved now, as they would have been (the summary's save replaces them all).
            unsent += events
            for event in events { saveRepetitions(of: event) }
            return
        }
        let sent = ledger.translate(events)
        for event in sent { saveRepetitions(of: event) }
        let elapsed = ContinuousClock.now - received
        let text =
            ServerMessage.frame(
                .init(
                    id: id,
                    seconds: frame.seconds,
                    dropped: droppedSoFar,
                    serverMilliseconds: Double(elapsed.components.attoseconds) / 1e15 + Double(
                        elapsed.components.seconds
                    )
                        * 1000,
                    snapshot: snapshot,
                    prescribedReps: prescribedReps,
                    events: sent
                )
            ).jsonText
        send(text)
        if let watch {
            let events = sent.compactMap(LiveEvent.init)
            watch.coached(
                text,
                seconds: frame.seconds,
                width: width,
                height: height,
                events: events,
                hasEvents: !events.isEmpty
            )
        }
    }

    /// Saves the repetitions an event reports (a revision saves them all again).
    private func saveRepetitions(of event: CoachEvent) {
        switch event {
        case .repCompleted(let repetition): completed(repetition)
        case .repetitionsRevised(let repetitions): repetitions.forEach(completed)
        default: break
        }
    }

    // MARK: - The end

    /// Whether the caller is the one to finish and save the set (its socket, or the shutdown's sweep): `true` once.
    func claimFinish() -> Bool {
        slot.withLock { slot in
            defer { slot.finishClaimed = true }
            return !slot.finishClaimed
        }
    }

    /// Stops taking frames: the one waiting is dropped; one being processed finishes.
    func stop() {
        slot.withLock { slot in
            slot.ended = true
            if slot.waiting != nil { slot.dropped += 1 }
            slot.waiting = nil
        }
    }

    /// Gives the estimator back for another session, once ``stop()`` was called and no worker is on the set.
    func releaseEstimator() {
        hands?.releaseEstimator()
        if let estimator { estimators?.give(estimator) }
        estimator = nil
    }

    /// The set's outcome, once ``stop()`` was called and no worker is on it: the events of its end
    /// (`CoachingSession.finish()`: repetitions found, named or judged only then), its summary; `nil` if nobody was
    /// ever coached.
    func outcome() -> (
        events: [CoachEvent], summary: SessionSummary, json: String, series: [AngleSample], problem: String?
    )? {
        if let hands {
            guard let outcome = hands.outcome(id: id, prescribedReps: prescribedReps) else { return nil }
            return ([], outcome.stored, outcome.json, hands.series, outcome.problem)
        }
        guard var coach, framesCoached > 0 else { return nil }
        let events = ledger.translate(unsent + coach.finish())
        unsent = []
        self.coach = coach
        let summary = coach.session.summary()
        // The checks `ptcoach analyze` makes: nobody seen, or the joints the exercise needs never seen.
        var problem: String?
        do {
            try coach.session.checkCoached(frames: framesCoached, name: "this set")
        } catch {
            problem = error.message
        }
        guard
            let json = try? summary.jsonText(
                file: "live:\(id)",
                prescribedReps: prescribedReps,
                prescribedHoldSeconds: prescribedHoldSeconds
            )
        else { return nil }
        return (events, summary, json, series, problem)
    }

    var droppedFrames: Int { slot.withLock { $0.dropped } }
}

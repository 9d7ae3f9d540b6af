import PoseKit

/// With no exercise given, the exercise recognised is coached as if it had been given, and the movement's
/// repetitions take their measurement from it.
///
/// The movement counter finds repetitions of any exercise, but its repetition need not be the exercise's: a squat
/// clip that starts rising from a half squat had its repetition from 0.2 to 1.8 s, 7–66°, "squat a little deeper",
/// where the exercise given found it from 1.4 to 3.4 s, 91°, good (the bottom is at 2.4 s). Once an exercise is
/// recognised, a session given it replays the frames kept (the last ``AsGiven/replaySeconds``) and follows the
/// frames after. The count stays the movement's (recounting as the exercise was measured and not adopted: it
/// counts a wrongly recognised movement with the wrong angle); each movement repetition that overlaps one of the
/// exercise's takes that one's times, angles, range and verdict, as `--exercise` would give them, and keeps its
/// number (and its count: ``SessionLog/countedSpans`` keep the movement's times). One that the exercise's session
/// has not (yet) counted keeps the movement's measurement.
extension CoachingSession {
    /// The frames kept and the session given the recognised exercise.
    struct AsGiven: Sendable {
        /// How far back the exercise's session starts when the exercise is recognised.
        static let replaySeconds = 20.0

        /// The frames of the last ``replaySeconds``, oldest first from `start`.
        private var frames: [PoseFrame] = []
        private var start = 0
        /// The session given the recognised exercise (at most one: an array, so that a session can hold one).
        private var sessions: [CoachingSession] = []
        /// Its repetitions (its events folded).
        private(set) var repetitions: [Repetition] = []
        /// Whether a repetition was counted or revised, here or by the movement, since the last adoption.
        var pending = false
        /// The id of the exercise it is given.
        var exerciseID: String? { sessions.first?.mode.exercise?.id }

        /// Keeps `frame`, and coaches it in the exercise's session when there is one.
        mutating func ingest(_ frame: PoseFrame) {
            frames.append(frame)
            while start < frames.count, frames[start].seconds < frame.seconds - Self.replaySeconds { start += 1 }
            // Let go of the old frames now and then (amortised: the array shifts once per thousand frames).
            if start >= 1024, start * 2 >= frames.count {
                frames.removeFirst(start)
                start = 0
            }
            if !sessions.isEmpty { coach(frame) }
        }

        /// Starts the session given `exercise` over the frames kept; with none (or a hold, timed as given
        /// already), ends it.
        mutating func start(_ exercise: ExerciseDefinition?, configuration: Configuration) {
            sessions.removeAll()
            repetitions.removeAll()
            guard let exercise, exercise.repetition != nil else { return }
            var given = configuration
            given.exercise = exercise
            given.emitsPoseEvents = false
            sessions = [CoachingSession(configuration: given)]
            for i in start..<frames.count { coach(frames[i]) }
        }

        private mutating func coach(_ frame: PoseFrame) {
            for event in sessions[0].ingest(frame) {
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

    /// Whether two repetitions span the same times: a movement repetition that took the exercise's measurement
    /// has that repetition's times exactly.
    private static func sameTimes(_ a: Repetition, _ b: Repetition) -> Bool {
        a.startSeconds == b.startSeconds && a.endSeconds == b.endSeconds
    }

    /// Starts coaching `exercise`, just recognised (or none), as if it had been given.
    mutating func startAsGiven(_ exercise: ExerciseDefinition?) {
        asGiven.start(exercise, configuration: configuration)
    }

    /// Each repetition of the recognised exercise that overlaps one the exercise's session counted, and has not
    /// taken its measurement yet, takes it (keeping its number); the repetitions reported before are revised.
    ///
    /// Only when either side counted or revised a repetition since, and only over the repetitions of the last
    /// 2 × ``AsGiven/replaySeconds`` (older ones had their chance): the work per frame does not grow with the set.
    mutating func adoptMeasurementsAsGiven() {
        guard asGiven.pending else { return }
        asGiven.pending = false
        guard let id = asGiven.exerciseID, !asGiven.repetitions.isEmpty else { return }
        let horizon = lastSeconds - 2 * AsGiven.replaySeconds
        let theirs = asGiven.repetitions
        var firstTheirs = theirs.count
        while firstTheirs > 0, theirs[firstTheirs - 1].endSeconds >= horizon { firstTheirs -= 1 }
        var firstOurs = repetitions.count
        while firstOurs > 0, repetitions[firstOurs - 1].endSeconds >= horizon { firstOurs -= 1 }
        guard firstTheirs < theirs.count, firstOurs < repetitions.count else { return }
        var used = [Bool](repeating: false, count: theirs.count - firstTheirs)
        let same = Self.sameTimes
        // Those taken already.
        for rep in repetitions[firstOurs...] where rep.exercise == id {
            if let k = (firstTheirs..<theirs.count).first(where: { !used[$0 - firstTheirs] && same(theirs[$0], rep) }) {
                used[k - firstTheirs] = true
            }
        }
        var revised = false
        // The repetitions whose events are in this frame's (the last ones recorded).
        var reportedNow = 0
        for event in events { if case .repCompleted = event { reportedNow += 1 } }
        for i in firstOurs..<repetitions.count where repetitions[i].exercise == id {
            let rep = repetitions[i]
            if theirs[firstTheirs...].contains(where: { same($0, rep) }) { continue }
            var best: Int?
            var bestOverlap = 0.0
            for k in firstTheirs..<theirs.count where !used[k - firstTheirs] {
                let overlap =
                    Swift.min(rep.endSeconds, theirs[k].endSeconds)
                    - Swift.max(rep.startSeconds, theirs[k].startSeconds)
                if overlap > bestOverlap {
                    bestOverlap = overlap
                    best = k
                }
            }
            guard let best else { continue }
            used[best - firstTheirs] = true
            var adopted = theirs[best]
            adopted.index = rep.index
            log.replace(i, with: adopted, at: lastSeconds)
            if i < repetitions.count - reportedNow { revised = true }
        }
        // Those reported in this frame: their events carry the measurement adopted. One reported before is revised
        // (all of them, as the event says).
        if revised {
            reportRevision(completedNow: reportedNow)
        } else if reportedNow > 0 {
            var k = repetitions.count - reportedNow
            for e in events.indices {
                guard case .repCompleted = events[e] else { continue }
                events[e] = .repCompleted(repetitions[k])
                k += 1
            }
        }
    }

    /// A repetition the exercise's session counted that the movement has not (yet): shown on the overlay as
    /// provisional (``CoachSnapshot/provisionalReps``), at most one, until the movement confirms it. The movement
    /// confirms its first repetition late, a cycle or two into the set (a pull-up's first came 1.9 s after its end,
    /// with the second: the counter went from 0 to 2).
    mutating func updateProvisionalCount() {
        var pending = 0
        if let id = asGiven.exerciseID, id == recognizedExercise?.id {
            let lastCounted = log.countedSpans.last?.end ?? -.infinity
            let recent = repetitions.suffix(3)
            for theirs in asGiven.repetitions.reversed() {
                guard theirs.endSeconds > lastCounted else { break }
                let taken = recent.contains { Self.sameTimes($0, theirs) }
                if !taken, theirs.startSeconds >= lastCounted - 0.5 * (theirs.endSeconds - theirs.startSeconds) {
                    pending = 1
                    break
                }
            }
        }
        snapshot.provisionalReps = pending
    }
}

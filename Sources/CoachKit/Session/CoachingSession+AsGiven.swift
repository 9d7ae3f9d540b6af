public import PoseKit

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
/// number. One that the exercise's session has not (yet) counted keeps the movement's measurement.
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
        /// The id of the exercise it is given.
        var exerciseID: String? { sessions.first?.mode.exercise?.id }
        /// The movement's own times of the repetitions that took the exercise's measurement, by number: what is
        /// counted stays what the movement counted (``CountingSource`` compares its signals with these).
        private(set) var movementTimes: [Int: (start: Double, end: Double)] = [:]

        /// The repetitions were withdrawn (a recount): their times go with them.
        mutating func forgetMovementTimes() { movementTimes.removeAll() }

        mutating func noteMovementTimes(of rep: Repetition) {
            if movementTimes[rep.index] == nil { movementTimes[rep.index] = (rep.startSeconds, rep.endSeconds) }
        }

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
                case .repCompleted(let repetition): repetitions.append(repetition)
                case .repetitionsRevised(let revised): repetitions = revised
                default: break
                }
            }
        }
    }

    /// Starts coaching `exercise`, just recognised (or none), as if it had been given.
    mutating func startAsGiven(_ exercise: ExerciseDefinition?) {
        asGiven.start(exercise, configuration: configuration)
    }

    /// Each repetition of the recognised exercise that overlaps one the exercise's session counted, and has not
    /// taken its measurement yet, takes it (keeping its number); the repetitions reported before are revised.
    mutating func adoptMeasurementsAsGiven() {
        guard let id = asGiven.exerciseID, !asGiven.repetitions.isEmpty else { return }
        let theirs = asGiven.repetitions
        var used = [Bool](repeating: false, count: theirs.count)
        func same(_ a: Repetition, _ b: Repetition) -> Bool {
            a.startSeconds == b.startSeconds && a.endSeconds == b.endSeconds
        }
        // Those taken already.
        for rep in repetitions where rep.exercise == id {
            if let k = theirs.indices.first(where: { !used[$0] && same(theirs[$0], rep) }) { used[k] = true }
        }
        var revised = false
        for i in repetitions.indices where repetitions[i].exercise == id {
            let rep = repetitions[i]
            if theirs.contains(where: { same($0, rep) }) { continue }
            var best: Int?
            var bestOverlap = 0.0
            for k in theirs.indices where !used[k] {
                let overlap =
                    Swift.min(rep.endSeconds, theirs[k].endSeconds)
                    - Swift.max(rep.startSeconds, theirs[k].startSeconds)
                if overlap > bestOverlap {
                    bestOverlap = overlap
                    best = k
                }
            }
            guard let best else { continue }
            used[best] = true
            var adopted = theirs[best]
            adopted.index = rep.index
            asGiven.noteMovementTimes(of: rep)
            log.replace(i, with: adopted, at: lastSeconds)
            revised = true
        }
        guard revised else { return }
        // Reported in this frame already: its event carries the measurement adopted.
        let reportedNow = events.reduce(into: 0) { count, event in
            if case .repCompleted = event { count += 1 }
        }
        events.removeAll { if case .repCompleted = $0 { true } else { false } }
        events.append(.repetitionsRevised(Array(repetitions.dropLast(reportedNow))))
        events += repetitions.suffix(reportedNow).map(CoachEvent.repCompleted)
    }

    /// The repetitions counted, at the movement's own times (those that took the exercise's measurement have
    /// the exercise's): what a fallback signal is compared with, so that the count is the movement's.
    var countedRepetitions: [Repetition] {
        guard !asGiven.movementTimes.isEmpty else { return repetitions }
        return repetitions.map { rep in
            guard let times = asGiven.movementTimes[rep.index] else { return rep }
            var counted = rep
            counted.startSeconds = times.start
            counted.endSeconds = times.end
            return counted
        }
    }
}

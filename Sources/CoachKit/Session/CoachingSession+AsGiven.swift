import PoseKit

/// With no exercise given, the exercise recognised is coached as if it had been given, and the movement's
/// repetitions take their measurement from it.
///
/// The movement counter finds repetitions of any exercise, but its repetition need not be the exercise's: a squat
/// clip that starts rising from a half squat had its repetition from 0.2 to 1.8 s, 7–66°, "squat a little deeper",
/// where the exercise given found it from 1.4 to 3.4 s, 91°, good (the bottom is at 2.4 s). Once an exercise is
/// recognised, a session given it replays the frames kept (``ExerciseReplay``) and follows the
/// frames after. The count stays the movement's (recounting as the exercise was measured and not adopted: it
/// counts a wrongly recognised movement with the wrong angle); each movement repetition that overlaps one of the
/// exercise's takes that one's times, angles, range and verdict, as `--exercise` would give them, and keeps its
/// number (and its count: ``SessionLog/countedSpans`` keep the movement's times). One that the exercise's session
/// has not (yet) counted keeps the movement's measurement. Once recognised at or above ``RecognitionConfidence``, the
/// count agrees with the exercise's session before the movement's first repetitions too
/// (``recountAsGiven(from:reportedNow:at:)``).
extension CoachingSession {
    /// Whether two repetitions span the same times: a movement repetition that took the exercise's measurement
    /// has that repetition's times exactly.
    static func sameTimes(_ a: Repetition, _ b: Repetition) -> Bool {
        a.startSeconds == b.startSeconds && a.endSeconds == b.endSeconds
    }

    /// Each repetition of the recognised exercise that overlaps one the exercise's session counted, and has not
    /// taken its measurement yet, takes it (keeping its number); the repetitions reported before are revised.
    ///
    /// Only when either side counted or revised a repetition since, and only over the repetitions of the last
    /// 2 × ``ExerciseReplay/Configuration/replaySeconds`` (older ones had their chance): the work per frame does not grow with the set.
    mutating func adoptMeasurementsAsGiven() {
        guard takePendingAdoption() else { return }
        guard let id = recognised?.replay.exerciseID, let theirs = recognised?.replay.repetitions, !theirs.isEmpty,
            let now = core.clock.last
        else { return }
        let horizon =
            now - ExerciseReplay.Configuration.adoptionHorizonReplays * ExerciseReplay.Configuration.replaySeconds
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
        for event in core.output.events { if case .repCompleted = event { reportedNow += 1 } }
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
            core.replaceRepetition(i, with: adopted, at: now)
            if i < repetitions.count - reportedNow { revised = true }
        }
        // Those reported in this frame: their events carry the measurement adopted. One reported before is revised
        // (all of them, as the event says); so are all when the count changed.
        if let reportedNowKept = recountAsGiven(from: firstOurs, reportedNow: reportedNow, at: now) {
            core.reportRevision(completedNow: reportedNowKept)
            core.showRepCount(repetitions.count)
        } else if revised {
            core.reportRevision(completedNow: reportedNow)
        } else if reportedNow > 0 {
            core.updateReported(reportedNow)
        }
    }

    /// Once the exercise is recognised at or above ``RecognitionConfidence/fitted``, the count agrees with its
    /// session's over the frames that session replayed: a movement repetition (from `firstOurs`) that began before
    /// the exercise's first, ended before the recognition, took no measurement of the exercise's and overlaps none
    /// of its repetitions that another has not taken, is withdrawn once the exercise's session counted past its end
    /// (an arm raise before a squat; one in the middle of the set stays: a hurdle step's session given the exercise
    /// missed one that the movement counted, m02_s03_oblique 10 of 10 would become 9); the
    /// exercise's repetitions that ended before the movement's first began are added in front (a first push-up the
    /// movement counter missed while it warmed up). Returns how many of the last `reportedNow` repetitions (reported
    /// in this frame) stay, or `nil` when nothing changed.
    private mutating func recountAsGiven(from firstOurs: Int, reportedNow: Int, at now: Double) -> Int? {
        guard let replay = recognised?.replay, let id = replay.exerciseID, let index = recognizedIndex,
            id == core.configuration.library[index].id,
            !RecognitionConfidence.fitted.isUnsure(recognised?.confidence ?? 0),
            let firstTheirs = replay.repetitions.first, let lastTheirs = replay.repetitions.last,
            let recognizedAt = replay.recognizedAt, let replayedFrom = replay.replayedFrom
        else { return nil }
        let theirs = replay.repetitions
        var withdrawn = Set<Int>()
        for i in firstOurs..<repetitions.count {
            let rep = repetitions[i]
            guard rep.startSeconds < firstTheirs.startSeconds, rep.endSeconds <= recognizedAt,
                rep.startSeconds >= replayedFrom,
                lastTheirs.endSeconds >= rep.endSeconds, !theirs.contains(where: { Self.sameTimes($0, rep) })
            else { continue }
            let overlapsFree = theirs.contains { other in
                other.startSeconds < rep.endSeconds && other.endSeconds > rep.startSeconds
                    && !repetitions.contains { Self.sameTimes($0, other) }
            }
            if !overlapsFree { withdrawn.insert(i) }
        }
        var earlier: [Repetition] = []
        // With none counted by the movement (only at the end: until then its first may still come), all of them.
        let firstStart = repetitions.first?.startSeconds
        for other in theirs {
            guard firstStart.map({ other.endSeconds <= $0 }) ?? true else { break }
            earlier.append(other)
        }
        guard !withdrawn.isEmpty || !earlier.isEmpty else { return nil }
        let firstReportedNow = repetitions.count - reportedNow
        // A form cue or praise waiting for its turn was about a repetition withdrawn or renumbered ("Rep 1"): not given.
        core.recountRepetitions(withdrawing: withdrawn, adding: earlier, at: now)
        return reportedNow - withdrawn.filter { $0 >= firstReportedNow }.count
    }

    /// ``recountAsGiven(from:reportedNow:at:)`` once more at the end of the recording, over what its end counted.
    mutating func recountAsGivenAtEnd() {
        guard let now = core.clock.last else { return }
        var reportedNow = 0
        for event in core.output.events { if case .repCompleted = event { reportedNow += 1 } }
        var firstOurs = repetitions.count
        let horizon =
            now - ExerciseReplay.Configuration.adoptionHorizonReplays * ExerciseReplay.Configuration.replaySeconds
        while firstOurs > 0, repetitions[firstOurs - 1].endSeconds >= horizon { firstOurs -= 1 }
        guard let kept = recountAsGiven(from: firstOurs, reportedNow: reportedNow, at: now) else { return }
        core.reportRevision(completedNow: kept)
        core.showRepCount(repetitions.count)
    }

    /// A repetition the exercise's session counted that the movement has not (yet): shown as provisional
    /// (``CoachSnapshot/provisionalReps``, ``CoachEvent/provisionalRepetition(_:)``), at most one, until the movement
    /// confirms it. The movement confirms its first repetition late, a cycle or two into the set (a pull-up's first
    /// came 1.9 s after its end, with the second: the counter went from 0 to 2); the exercise's session, given the
    /// exercise, counts it as it ends.
    mutating func updateProvisionalRepetition() {
        var found: Int?
        let theirs = recognised?.replay.repetitions ?? []
        if let id = recognised?.replay.exerciseID, let index = recognizedIndex,
            id == core.configuration.library[index].id
        {
            let lastCounted = core.output.log.countedSpans.last?.end
            // By index, newest first: most frames, the newest ended before the last one counted and nothing is copied.
            var k = theirs.count - 1
            while k >= 0, lastCounted.map({ theirs[k].endSeconds > $0 }) ?? true {
                let start = theirs[k].startSeconds
                let end = theirs[k].endSeconds
                let taken = core.output.log.repetitions.suffix(ExerciseReplay.Configuration.takenLookback).contains {
                    $0.startSeconds == start && $0.endSeconds == end
                }
                let overlapsLast = lastCounted.map {
                    start < $0 - ExerciseReplay.Configuration.provisionalOverlapFraction * (end - start)
                }
                if !taken, overlapsLast != true {
                    found = k
                    break
                }
                k -= 1
            }
        }
        guard found != nil || recognised?.replay.provisional != nil else { return }
        var repetition = found.map { theirs[$0] }
        repetition?.index = repetitions.count + 1
        showProvisional(repetition)
    }
}

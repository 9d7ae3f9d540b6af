import PoseKit

extension HandSessionSummary {
    /// What the clinic keeps of a hand set in its body-summary columns: the exercise, the count, the duration, the
    /// cues, and each repetition as a ``CoachKit/Repetition`` with its ``CoachKit/Repetition/hand`` reach, so that
    /// a hand set has repetition rows (and a peak in degrees) as a body set has. The hand summary itself is kept
    /// whole beside it (its JSON), for the report.
    ///
    /// ```swift
    /// try await store.close(setID: id, summary: hand.stored, summaryJSON: try hand.jsonText(file: "live:\(id)"), …)
    /// ```
    public var stored: SessionSummary {
        let repetitions: [CoachKit.Repetition] = self.repetitions.map {
            CoachKit.Repetition($0, exercise: exercise, measure: primary)
        }
        let peaks = repetitions.compactMap(\.peakAngle)
        let count = Double(repetitions.count)
        let good = Double(repetitions.count { $0.verdict == .good })
        let seconds = repetitions.map(\.durationSeconds).reduce(0, +)
        let averages = SessionSummary.Averages(
            peakAngle: peaks.isEmpty ? nil : peaks.reduce(0, +) / Double(peaks.count),
            rangeOfMotion: nil,
            repetitionSeconds: repetitions.isEmpty ? nil : seconds / count,
            goodFraction: repetitions.isEmpty ? nil : good / count
        )
        let seen = frames > 0 ? durationSeconds * Double(framesMeasured) / Double(frames) : 0
        return SessionSummary(
            exercise: exercise,
            exerciseName: exerciseName,
            exerciseSource: .given,
            countedBy: .angle,
            reps: reps,
            repetitions: repetitions,
            holds: [],
            segments: [],
            formIssues: [],
            safetyWarnings: [],
            cues: cues,
            averages: averages,
            durationSeconds: durationSeconds,
            secondsWithPerson: seen
        )
    }

    /// The headline figures of a hand set, for a report's subtitle: "TAM thumb 95°, index 210° · Kapandji 7/10";
    /// `nil` when it has neither.
    public var figures: String? {
        var parts: [String] = []
        if let tam = totalActiveMotion {
            let order = Finger.allCases.map(\.rawValue).filter { tam[$0] != nil }
            parts.append("TAM " + order.map { "\($0) \(Int(tam[$0]!.rounded()))°" }.joined(separator: ", "))
        }
        if let kapandji { parts.append("Kapandji \(kapandji)/10") }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }
}

extension Repetition {
    /// A hand exercise's repetition in the body's shape: its times, the tempo to and from the peak and the hold, the
    /// verdict, and the primary measurement at the peak as ``peakAngle`` when it is in degrees (a distance in hand
    /// lengths is no angle); what the hand reached is in ``hand``.
    public init(_ repetition: HandSessionSummary.Repetition, exercise: String, measure: HandMeasure) {
        self.init(
            index: repetition.index,
            exercise: exercise,
            startSeconds: repetition.startSeconds,
            endSeconds: repetition.endSeconds,
            side: nil,
            angles: [],
            peakAngle: measure.isDegrees ? repetition.peak : nil,
            rangeOfMotion: nil,
            range: nil,
            tempo: Tempo(
                toPeakSeconds: repetition.peakSeconds - repetition.startSeconds,
                fromPeakSeconds: repetition.endSeconds - repetition.peakSeconds,
                atPeakSeconds: repetition.heldSeconds
            ),
            symmetry: nil,
            verdict: repetition.verdict == .good ? .good : .needsWork,
            issues: [],
            safetyBreaches: [],
            measurementReliable: true,
            hand: HandReach(
                measure: measure,
                rest: repetition.rest,
                peak: repetition.peak,
                fingers: repetition.fingers,
                issues: repetition.issues
            )
        )
    }
}

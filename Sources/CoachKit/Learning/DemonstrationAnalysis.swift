import Foundation
import PoseKit

/// The measurements of one demonstration that ``ExerciseLearner`` turns into a definition: every angle over every
/// repetition, the primary angle chosen, its band, the tempo, the posture and the parts that stayed still.
struct DemonstrationAnalysis {
    typealias Sample = ExerciseLearner.Sample

    /// One angle over one repetition.
    struct RepetitionStats {
        /// p95 − p5 of the values in the repetition.
        var range: Double
        /// The value at rest: the mean of the repetition's trajectory at its two ends.
        var rest: Double
        /// The value at the phase where the shared trajectory peaks.
        var peak: Double
    }

    /// One angle on one side over the whole demonstration.
    struct Series {
        var angle: AngleKind
        var side: BodySide?
        var values: [Double?]
        /// `nil` for a repetition where the angle was measurable in too few poses.
        var repetitions: [RepetitionStats?]
        /// The repetitions' median trajectory, at ``DemonstrationAnalysis/phases`` phases.
        var shared: [Double]
        /// The shared trajectory at its ends (rest) and farthest from them (peak).
        var rest: Double
        var peak: Double
        /// The range of the shared trajectory: what every repetition moves.
        var consistentRange: Double
        /// The median of the repetitions' own ranges (p95 − p5).
        var medianRange: Double
        /// The mean confidence of the keypoints the angle needs.
        var seen: Double
    }

    let samples: [Sample]
    let repetitions: [(start: Double, end: Double)]
    let useDepth: Bool
    let configuration: ExerciseLearner.Configuration
    /// Each repetition with half the pause on either side (at most half its length; 0.3 of it before the first
    /// and after the last): the counter's start and end lie between rest and peak, the rest lies in the pauses.
    let windows: [(start: Double, end: Double)]
    /// The samples of each window (indices into ``samples``).
    let ranges: [Range<Int>]
    private var cache: [String: Series] = [:]

    init(
        samples: [Sample],
        repetitions: [(start: Double, end: Double)],
        useDepth: Bool,
        configuration: ExerciseLearner.Configuration
    ) {
        self.samples = samples
        self.repetitions = repetitions
        self.useDepth = useDepth
        self.configuration = configuration
        var windows: [(start: Double, end: Double)] = []
        for (index, rep) in repetitions.enumerated() {
            let length = rep.end - rep.start
            let before = index > 0 ? (rep.start - repetitions[index - 1].end) / 2 : 0.3 * length
            let after = index + 1 < repetitions.count ? (repetitions[index + 1].start - rep.end) / 2 : 0.3 * length
            windows.append(
                (rep.start - min(max(0, before), 0.5 * length), rep.end + min(max(0, after), 0.5 * length))
            )
        }
        self.windows = windows
        ranges = windows.map { window in
            let lower = samples.firstIndex { $0.seconds >= window.start } ?? samples.count
            let upper = samples.lastIndex { $0.seconds <= window.end }.map { $0 + 1 } ?? lower
            return lower..<max(lower, upper)
        }
    }

    // MARK: - Measuring

    /// The angles measured for the choice of the primary: the shoulder's four planes measure one angle (named
    /// afterwards from the view and the direction), so only `shoulderFlexion` stands for them.
    static let primaryCandidates: [AngleKind] = AngleKind.allCases.filter {
        $0.countsRepetitions && ![.shoulderAbduction, .shoulderScaption, .shoulderExtension].contains($0)
    }

    static let shoulderFamily: Set<AngleKind> = [
        .shoulderFlexion, .shoulderAbduction, .shoulderScaption, .shoulderExtension,
    ]

    /// How many points a repetition's trajectory is resampled to (phase 0 … 1).
    static let phases = 21

    mutating func series(_ angle: AngleKind, _ side: BodySide?) -> Series {
        let key = angle.rawValue + (side?.rawValue ?? "")
        if let cached = cache[key] { return cached }
        let measureSide = side ?? .left
        // A value no joint can take says the keypoints were guessed or swapped: not measured.
        let possible = angle.anatomicalRange ?? -Double.infinity...Double.infinity
        let values = samples.map {
            angle.measure(
                $0.pose,
                side: measureSide,
                useDepth: useDepth,
                minimumConfidence: configuration.minimumJointConfidence
            ).flatMap { possible.contains($0) ? $0 : nil }
        }
        // Each repetition's trajectory, resampled at fixed phases; their median at each phase is the movement the
        // repetitions share (a glitch or a joint guessed in one repetition does not move it).
        var trajectories: [[Double]?] = []
        var spans: [Double?] = []
        for (index, range) in ranges.enumerated() {
            let measured = range.compactMap { i in values[i].map { (seconds: samples[i].seconds, value: $0) } }
            guard !range.isEmpty, Double(measured.count) >= configuration.minimumMeasuredShare * Double(range.count)
            else {
                trajectories.append(nil)
                spans.append(nil)
                continue
            }
            let sorted = measured.map(\.value).sorted()
            spans.append(Self.percentile(sorted, 0.95) - Self.percentile(sorted, 0.05))
            let window = windows[index]
            var trajectory: [Double] = []
            var next = 0
            for phase in 0..<Self.phases {
                let t = window.start + (window.end - window.start) * Double(phase) / Double(Self.phases - 1)
                while next + 1 < measured.count, abs(measured[next + 1].seconds - t) <= abs(measured[next].seconds - t)
                {
                    next += 1
                }
                trajectory.append(measured[next].value)
            }
            trajectories.append(trajectory)
        }
        let present = trajectories.compactMap { $0 }
        var shared: [Double] = []
        if !present.isEmpty {
            for phase in 0..<Self.phases { shared.append(Self.median(present.map { $0[phase] })) }
        }
        let rest = shared.isEmpty ? 0 : (shared[0] + shared[Self.phases - 1]) / 2
        let peakPhase = shared.indices.max { abs(shared[$0] - rest) < abs(shared[$1] - rest) } ?? 0
        let stats: [RepetitionStats?] = zip(trajectories, spans).map { trajectory, span in
            guard let trajectory, let span else { return nil }
            return RepetitionStats(
                range: span,
                rest: (trajectory[0] + trajectory[Self.phases - 1]) / 2,
                peak: trajectory[peakPhase]
            )
        }
        let joints = angle.joints(side: measureSide)
        var confidence = 0.0
        for sample in samples { for joint in joints { confidence += sample.pose[joint].confidence } }
        let series = Series(
            angle: angle,
            side: side,
            values: values,
            repetitions: stats,
            shared: shared,
            rest: rest,
            peak: shared.isEmpty ? rest : shared[peakPhase],
            consistentRange: shared.isEmpty ? 0 : (shared.max() ?? 0) - (shared.min() ?? 0),
            medianRange: Self.median(spans.map { $0 ?? 0 }),
            seen: samples.isEmpty ? 0 : confidence / Double(samples.count * joints.count)
        )
        cache[key] = series
        return series
    }

    /// The side an angle is measured on, and whether both sides moved together: the side seen best when both
    /// move about as much, else the side that moves.
    mutating func measuredSide(of angle: AngleKind) -> (series: Series, bilateral: Bool) {
        guard angle.isSided else { return (series(angle, nil), true) }
        let left = series(angle, .left)
        let right = series(angle, .right)
        let larger = max(left.consistentRange, right.consistentRange)
        let smaller = min(left.consistentRange, right.consistentRange)
        if larger > 0, smaller >= configuration.bilateralShare * larger {
            return (left.seen >= right.seen ? left : right, true)
        }
        return (left.consistentRange >= right.consistentRange ? left : right, false)
    }

    // MARK: - The primary angle

    /// Whether an angle's plane is not the one the camera sees: these are passed over when another angle moved
    /// about as much (``ExerciseLearner/Configuration/tieFraction``).
    static func suits(_ angle: AngleKind, view: CoachingSession.View) -> Bool {
        switch view {
        case .side: ![.hipAbduction, .shoulderRotation].contains(angle)
        case .front: ![.hipFlexion, .anklePlantarFlexion, .bodyLine].contains(angle)
        case .oblique, .unknown: true
        }
    }

    /// The view most poses were seen in (`unknown` when none was told).
    var view: CoachingSession.View {
        var counts: [CoachingSession.View: Int] = [:]
        for sample in samples where sample.view != .unknown { counts[sample.view, default: 0] += 1 }
        return counts.max { $0.value < $1.value || ($0.value == $1.value && $0.key.rawValue > $1.key.rawValue) }?
            .key ?? .unknown
    }

    /// The primary angle: the largest consistent range, the view's own plane preferred among near-equals.
    mutating func primary() -> (series: Series, bilateral: Bool, scores: [LearnedExercise.AngleScore]) {
        let view = self.view
        var chosen: [(series: Series, bilateral: Bool)] = []
        for angle in Self.primaryCandidates { chosen.append(measuredSide(of: angle)) }
        chosen.sort { $0.series.consistentRange > $1.series.consistentRange }
        // The trunk's lean is the whole body's orientation, not a joint: a swing on a bar or a pose flipped for a
        // moment turns it by more than any joint. It leads only when it moves far more than every joint does.
        if let trunk = chosen.firstIndex(where: { $0.series.angle == .trunkLean }),
            let joint = chosen.first(where: { $0.series.angle != .trunkLean }),
            chosen[trunk].series.consistentRange < configuration.trunkLeadFactor * joint.series.consistentRange
        {
            chosen.append(chosen.remove(at: trunk))
        }
        let best = chosen.first?.series.consistentRange ?? 0
        let near = chosen.filter { $0.series.consistentRange >= configuration.tieFraction * best }
        let pick = near.first { Self.suits($0.series.angle, view: view) } ?? chosen[0]
        let scores = chosen.map {
            LearnedExercise.AngleScore(
                angle: $0.series.angle,
                side: $0.series.side,
                consistentRange: $0.series.consistentRange,
                medianRange: $0.series.medianRange
            )
        }
        return (pick.series, pick.bilateral, scores)
    }

    /// The name of a shoulder angle: abduction seen from the front, scaption from 45°, from the side flexion or
    /// extension as the elbow goes in front of or behind the body at the peak (the feet, or the nose, say where
    /// the front is).
    func shoulderName(_ series: Series, view: CoachingSession.View) -> AngleKind {
        switch view {
        case .front: return .shoulderAbduction
        case .oblique, .unknown: return .shoulderScaption
        case .side: break
        }
        let l = series.side != .right
        var facing = 0.0
        var forward = 0.0
        for (index, range) in ranges.enumerated() {
            guard let stats = series.repetitions[index] else { continue }
            for i in range {
                let pose = samples[i].pose
                let ankle = pose[l ? .leftAnkle : .rightAnkle]
                let toe =
                    pose[l ? .leftFootIndex : .rightFootIndex].confidence > 0
                    ? pose[l ? .leftFootIndex : .rightFootIndex] : pose[l ? .leftToes : .rightToes]
                if toe.confidence > 0, ankle.confidence > 0 {
                    facing += toe.x - ankle.x
                } else if pose[.nose].confidence > 0, pose[.neck].confidence > 0 {
                    facing += pose[.nose].x - pose[.neck].x
                }
                if let value = series.values[i], abs(value - stats.peak) <= 0.1 * max(1, abs(stats.peak - stats.rest)) {
                    forward += pose[l ? .leftElbow : .rightElbow].x - pose[l ? .leftShoulder : .rightShoulder].x
                }
            }
        }
        return facing * forward >= 0 ? .shoulderFlexion : .shoulderExtension
    }

    // MARK: - Helpers

    static func percentile(_ sorted: [Double], _ q: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let position = q * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = min(sorted.count - 1, lower + 1)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - Double(lower))
    }

    static func median(_ values: [Double]) -> Double { percentile(values.sorted(), 0.5) }

    /// The torso length of a pose in the image (shoulder midpoint to hip midpoint), `nil` when not seen.
    static func torso(_ pose: Pose) -> Double? {
        let points = [Joint.leftShoulder, .rightShoulder, .leftHip, .rightHip].map { pose[$0] }
        guard points.allSatisfy({ $0.confidence > 0 }) else { return nil }
        let dx = (points[0].x + points[1].x - points[2].x - points[3].x) / 2
        let dy = (points[0].y + points[1].y - points[2].y - points[3].y) / 2
        let length = (dx * dx + dy * dy).squareRoot()
        return length > 1e-6 ? length : nil
    }

    /// The image y of the hips' midpoint, `nil` when not seen.
    static func hipsY(_ pose: Pose) -> Double? {
        let l = pose[.leftHip]
        let r = pose[.rightHip]
        guard l.confidence > 0, r.confidence > 0 else { return nil }
        return (l.y + r.y) / 2
    }
}

import Foundation
import PoseKit

/// The definition written from a demonstration's measurements.
extension DemonstrationAnalysis {
    /// The learned definition, read back through the library's own validation.
    ///
    /// - Throws: ``CoachKitError`` `.unmeasurable` when no angle moved enough to count on.
    mutating func definition(
        id: String,
        name: String,
        source: String,
        given: AngleKind? = nil
    ) throws(CoachKitError) -> LearnedExercise {
        let view = self.view
        var (primary, bilateral, scores) = self.primary()
        if let given {
            // The therapist named the angle: measured as the chosen one would be, on its own best side.
            let measured = Self.shoulderFamily.contains(given) ? AngleKind.shoulderFlexion : given
            (primary, bilateral) = measuredSide(of: measured)
        }
        guard primary.consistentRange >= configuration.minimumPrimaryRange else {
            if let given {
                throw CoachKitError(
                    .unmeasurable,
                    "\(source): \(given.rawValue) moved by only \(Int(primary.consistentRange.rounded()))° in every "
                        + "repetition (under \(Int(configuration.minimumPrimaryRange))°); choose the angle that "
                        + "carries the movement, or leave the choice to the learner"
                )
            }
            throw CoachKitError(
                .unmeasurable,
                "\(source): no joint angle moved consistently in the \(repetitions.count) repetitions found (the "
                    + "largest, \(primary.angle.rawValue), by \(Int(primary.consistentRange.rounded()))°, under "
                    + "\(Int(configuration.minimumPrimaryRange))°); film the movement so that the moving joint is "
                    + "seen side-on, and move through the whole range"
            )
        }
        var angle = primary.angle
        if let given {
            angle = given
        } else if Self.shoulderFamily.contains(angle) {
            angle = shoulderName(primary, view: view)
        }
        let stats = primary.repetitions.compactMap { $0 }
        let rest = primary.rest
        let peak = primary.peak
        let band = targetBand(rest: rest, peak: peak, peaks: stats.map(\.peak), angle: angle)
        let tempo = self.tempo(primary)
        let posture = self.posture()
        let rules = stillRules(primary: primary, angle: angle, posture: posture)
        let longest = repetitions.map { $0.end - $0.start }.max() ?? 0
        let maximumSeconds = 3 * longest > 20 ? (3 * longest).rounded(.up) : nil
        // A hold must be shorter than the longest repetition counted (the schema's rule).
        let held = (tempo.atPeakSeconds * 2).rounded(.down) / 2
        let hold =
            tempo.atPeakSeconds >= configuration.holdFromSeconds && held < (maximumSeconds ?? 20) ? held : nil
        var angles = [angle.rawValue]
        for rule in rules where !angles.contains(rule.angle) { angles.append(rule.angle) }
        let file = LearnedExercise.Schema(
            id: id,
            name: name,
            summary:
                "Learned from a demonstration: \(repetitions.count) repetition\(repetitions.count == 1 ? "" : "s") of about "
                + "\(String(format: "%.0f", tempo.repetitionSeconds.rounded())) s, \(angle.displayName) "
                + "from \(Int(rest.rounded()))° to \(Int(peak.rounded()))°.",
            view: view == .front ? "front" : view == .side ? "side" : "any",
            posture: posture.rawValue,
            side: bilateral ? "both" : "either",
            angles: angles,
            primary: angle.rawValue,
            repetition: .init(
                start: rest.rounded(),
                peak: peak.rounded(),
                towardPeak: towardPeak(primary).rawValue,
                maximumSeconds: maximumSeconds,
                holdSeconds: hold
            ),
            target: .init(min: band.lowerBound, max: band.upperBound),
            formRules: rules
        )
        let definition: ExerciseDefinition
        do {
            definition = try ExerciseDefinition(jsonText: file.jsonText(), file: "\(id).json")
        } catch {
            // The learner writes only what the schema allows; a refusal here is a bug in it, said as such.
            var error = error
            error.message =
                "the definition learned from \(source) does not pass the library's validation "
                + "(please report it): " + error.message
            throw error
        }
        let learned = LearnedExercise(
            definition: definition,
            file: file,
            repetitions: repetitions.count,
            measuredSide: primary.side,
            view: view,
            tempo: tempo,
            scores: scores
        )
        return learned
    }

    // MARK: - Parts

    /// The default target band: the demonstration's peak, short by a margin on the near side and with room beyond.
    func targetBand(rest: Double, peak: Double, peaks: [Double], angle: AngleKind) -> ClosedRange<Double> {
        let excursion = abs(peak - rest)
        let direction: Double = peak >= rest ? 1 : -1
        let mean = peaks.reduce(0, +) / Double(max(1, peaks.count))
        let spread = (peaks.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(max(1, peaks.count))).squareRoot()
        let nearMargin = min(
            0.5 * excursion,
            max(configuration.nearMarginDegrees, configuration.nearMarginFraction * excursion, 2 * spread)
        )
        let farMargin = max(configuration.farMarginDegrees, configuration.farMarginFraction * excursion)
        var near = peak - direction * nearMargin
        var far = peak + direction * farMargin
        // The values the measurement can take: a joint's anatomical range, else what its geometry allows.
        let bounds = angle.anatomicalRange ?? (angle == .shoulderRotation ? -90...90 : 0...180)
        near = min(max(near, bounds.lowerBound), bounds.upperBound)
        far = min(max(far, bounds.lowerBound), bounds.upperBound)
        return min(near, far).rounded()...max(near, far).rounded()
    }

    /// The repetitions' timing on the primary angle, medians over the repetitions: from leaving the rest (10 % of
    /// the excursion) to the plateau at the peak (within 10 % of it), the time there, and back to the rest.
    func tempo(_ primary: Series) -> LearnedExercise.Tempo {
        var durations: [Double] = []
        var toPeak: [Double] = []
        var atPeak: [Double] = []
        var fromPeak: [Double] = []
        for (index, range) in ranges.enumerated() {
            guard let stats = primary.repetitions[index] else { continue }
            let near = 0.1 * max(1, abs(stats.peak - stats.rest))
            let moving = range.filter { primary.values[$0].map { abs($0 - stats.rest) > near } ?? false }
            let at = range.filter { primary.values[$0].map { abs($0 - stats.peak) <= near } ?? false }
            guard let leave = moving.first, let back = moving.last, let first = at.first, let last = at.last else {
                continue
            }
            durations.append(samples[back].seconds - samples[leave].seconds)
            toPeak.append(max(0, samples[first].seconds - samples[leave].seconds))
            atPeak.append(samples[last].seconds - samples[first].seconds)
            fromPeak.append(max(0, samples[back].seconds - samples[last].seconds))
        }
        return .init(
            repetitionSeconds: Self.median(durations),
            toPeakSeconds: Self.median(toPeak),
            atPeakSeconds: Self.median(atPeak),
            fromPeakSeconds: Self.median(fromPeak)
        )
    }

    /// The contraction on the way to the peak: eccentric when the body lowers (squat, push-up, lunge), concentric
    /// when it rises or the moving limb is lifted (curl, raises, heel raise); a limb lowered is eccentric.
    func towardPeak(_ primary: Series) -> ExerciseDefinition.Contraction {
        var hips: [Double] = []
        var limb: [Double] = []
        let distal = Self.distalJoint(of: primary.angle, side: primary.side ?? .left)
        for (index, range) in ranges.enumerated() {
            guard let stats = primary.repetitions[index], range.count >= 6 else { continue }
            let near = 0.1 * max(1, abs(stats.peak - stats.rest))
            let edge = max(1, range.count / 6)
            let restIndices = Array(range.prefix(edge)) + Array(range.suffix(edge))
            let peakIndices = range.filter { primary.values[$0].map { abs($0 - stats.peak) <= near } ?? false }
            func change(_ y: (Pose) -> Double?) -> Double? {
                let before = restIndices.compactMap { i in
                    y(samples[i].pose).flatMap { v in Self.torso(samples[i].pose).map { v / $0 } }
                }
                let after = peakIndices.compactMap { i in
                    y(samples[i].pose).flatMap { v in Self.torso(samples[i].pose).map { v / $0 } }
                }
                guard !before.isEmpty, !after.isEmpty else { return nil }
                return Self.median(after) - Self.median(before)  // image y grows downward: > 0 lowered
            }
            if let h = change(Self.hipsY) { hips.append(h) }
            if let d = change({ $0[distal].confidence > 0 ? $0[distal].y : nil }) { limb.append(d) }
        }
        let lowered = hips.isEmpty ? 0 : Self.median(hips)
        if lowered > configuration.loweringTorsoShare { return .eccentric }
        if lowered < -configuration.loweringTorsoShare { return .concentric }
        let limbLowered = limb.isEmpty ? 0 : Self.median(limb)
        return limbLowered > configuration.loweringTorsoShare ? .eccentric : .concentric
    }

    /// The joint at the far end of the segment an angle moves.
    static func distalJoint(of angle: AngleKind, side: BodySide) -> Joint {
        let l = side == .left
        switch angle {
        case .kneeFlexion, .anklePlantarFlexion: return l ? .leftAnkle : .rightAnkle
        case .hipFlexion, .hipAbduction: return l ? .leftKnee : .rightKnee
        case .shoulderFlexion, .shoulderAbduction, .shoulderScaption, .shoulderExtension, .upperArmInclination:
            return l ? .leftElbow : .rightElbow
        case .shoulderRotation, .elbowFlexion: return l ? .leftWrist : .rightWrist
        case .trunkLean, .headShoulderRatio: return .neck
        case .bodyLine, .kneeWidthRatio: return l ? .leftHip : .rightHip
        }
    }

    /// The body position: the trunk's lean over the whole demonstration; upright with the thighs forward is
    /// seated, upright with the hands above the head most of the time is hanging.
    mutating func posture() -> ExerciseDefinition.Posture {
        let lean = series(.trunkLean, nil).values.compactMap { $0 }
        guard !lean.isEmpty else { return .any }
        let trunk = Self.median(lean)
        if trunk > configuration.horizontalFromLean { return .horizontal }
        if trunk > configuration.uprightUpToLean { return .any }
        let thighs = [series(.hipFlexion, .left), series(.hipFlexion, .right)].map {
            Self.median($0.values.compactMap { $0 })
        }
        if thighs.allSatisfy({ $0 >= configuration.seatedHipFlexion }) { return .seated }
        var above = 0
        for sample in samples {
            let pose = sample.pose
            guard let torso = Self.torso(pose), pose[.leftShoulder].confidence > 0 else { continue }
            let head = pose[.leftShoulder].y - 0.5 * torso
            let wrists = [pose[.leftWrist], pose[.rightWrist]].filter { $0.confidence > 0 }
            if !wrists.isEmpty, wrists.allSatisfy({ $0.y < head }) { above += 1 }
        }
        return Double(above) >= configuration.hangingShare * Double(samples.count) ? .hanging : .upright
    }

    /// Form rules for the parts that stayed still (`at: range`), most important first.
    mutating func stillRules(
        primary: Series,
        angle: AngleKind,
        posture: ExerciseDefinition.Posture
    )
        -> [LearnedExercise.Schema.Rule]
    {
        var candidates: [AngleKind] = [.trunkLean, posture == .horizontal ? .bodyLine : .hipFlexion, .kneeFlexion]
        candidates += [.elbowFlexion]
        if !Self.shoulderFamily.contains(angle) && angle != .shoulderRotation {
            candidates.append(.upperArmInclination)
        }
        var rules: [LearnedExercise.Schema.Rule] = []
        for kind in candidates where kind != primary.angle && rules.count < configuration.maximumStillRules {
            let part =
                kind.isSided ? series(kind, primary.side ?? measuredSide(of: kind).series.side) : series(kind, nil)
            let stats = part.repetitions
            guard !stats.isEmpty, stats.allSatisfy({ $0 != nil }) else { continue }
            let spans = stats.compactMap { $0?.range }.sorted()
            let typical = Self.percentile(spans, 0.5)
            guard typical <= configuration.stillRange,
                Self.percentile(spans, 0.75) <= configuration.stillRuleMinimum
            else { continue }
            let limit = (max(configuration.stillRuleMinimum, 2 * typical) / 5).rounded(.up) * 5
            let held = Self.median(stats.compactMap { $0?.rest })
            let straight = abs(held) < configuration.straightBelow
            let (id, cue): (String, String) =
                switch kind {
                case .trunkLean: ("trunk-still", "Keep your trunk still")
                case .hipFlexion: ("hips-still", "Keep your hips still")
                case .bodyLine:
                    straight
                        ? ("body-line", "Keep your body in a straight line") : ("hips-still", "Keep your hips still")
                case .kneeFlexion:
                    straight ? ("knee-straight", "Keep your knee straight") : ("knee-still", "Keep your knee still")
                case .elbowFlexion:
                    straight ? ("arm-straight", "Keep your arm straight") : ("elbow-still", "Keep your elbow still")
                default: ("upper-arm-still", "Keep your upper arm still")
                }
            rules.append(
                .init(
                    id: id,
                    angle: kind.rawValue,
                    at: "range",
                    max: limit,
                    cue: cue,
                    priority: kind == .trunkLean ? 1 : 2
                )
            )
        }
        return rules
    }
}

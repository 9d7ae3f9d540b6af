import PoseKit
import RealModule

extension ExerciseRecognizer {
    /// How an exercise is scored against the window: a product of named factors (``Factor``), each computed by
    /// one function of ``ExerciseRecognizer+Factors.swift`` from what the window measured, with every tuned
    /// number in ``Configuration``. The factors are the explanation: ``ExerciseRecognizer/factors(of:)``.
    ///
    /// ```swift
    /// let factors = recognizer.factors(of: library.exercises[i])
    /// let score = ExerciseRecognizer.Scoring.product(factors)  // == recognizer.scores[i]
    /// ```
    public enum Scoring {
        /// One factor of a score: which, its value (0…1), and the measurements it was computed from.
        public struct Factor: Sendable, Hashable {
            public enum Name: String, Sendable, Hashable, CaseIterable {
                /// The declared segment swings far enough.
                case swing
                /// `side: both`: both sides swing alike.
                case bothSides
                /// Segments the definition does not name stay well below the declared one.
                case othersStill
                /// Segments that may move too do not outswing the declared one.
                case companions
                /// `direction: around`: the upper arm stays while the forearm sweeps.
                case upperArmStill
                /// The trunk (thighs, hands) fit the posture.
                case posture
                /// The hips stay or move, as declared.
                case hips
                /// The hands stay put or travel, as declared.
                case hands
                /// The swing goes where the definition says.
                case direction
                /// The knee (elbow) bends or stays straight, as declared.
                case hinge
                /// The segment turns as far as the definition's reach.
                case reach
                /// The primary angle's range against its start → peak.
                case excursion
                /// The `throughout` form rules on other angles.
                case formRules
                /// A hold: nothing swings and the hips stay.
                case stillness
                /// The most a hold scores.
                case holdPrior
                /// A hold: every condition is met.
                case holdConditions
            }

            public var name: Name
            public var value: Double
            /// What the factor was computed from, by name (degrees, chords or torso lengths; NaN: not measured).
            public var evidence: [String: Double]

            package init(_ name: Name, _ value: Double, _ evidence: [String: Double]) {
                self.name = name
                self.value = value
                self.evidence = evidence
            }
        }

        /// The score: the factors' product, in their order.
        public static func product(_ factors: [Factor]) -> Double {
            factors.reduce(1.0) { $0 * $1.value }
        }
    }
}

extension ExerciseRecognizer {
    private func range(_ kind: AngleKind, _ side: Int) -> Double {
        let f = Self.index(kind) * 2 + side
        return high[f] - low[f]
    }

    static func index(_ kind: AngleKind) -> Int {
        switch kind {
        case .kneeFlexion: 0
        case .hipFlexion: 1
        case .hipAbduction: 2
        case .shoulderFlexion: 3
        case .shoulderAbduction: 4
        case .shoulderScaption: 5
        case .shoulderExtension: 6
        case .shoulderRotation: 7
        case .elbowFlexion: 8
        case .anklePlantarFlexion: 9
        case .trunkLean: 10
        case .bodyLine: 11
        case .kneeWidthRatio: 12
        case .headShoulderRatio: 13
        case .upperArmInclination: 14
        }
    }

    /// A range of degrees as the chord between unit directions that far apart (comparable to a swing).
    private static func chord(_ degrees: Double) -> Double {
        degrees.isFinite ? 2 * Double.sin(min(180, max(0, degrees)) * .pi / 360) : 0
    }

    /// How much a "segment" moves over the window, on the chord scale of the limb swings (0…2).
    private func amplitude(_ segment: Motion.Segment, side: Int) -> Double {
        if let slot = Self.slot(segment, side: side) { return swing[slot] }
        switch segment {
        case .trunk: return Self.chord(range(.trunkLean, 0))
        case .shoulders:
            let r = high[Self.shouldersSlot] - low[Self.shouldersSlot]
            return r.isFinite ? configuration.scoring.shouldersSwingScale * r : 0
        default:
            let r = high[Self.hipsSlot] - low[Self.hipsSlot]
            return r.isFinite ? configuration.scoring.hipsSwingScale * r : 0
        }
    }

    /// The horizontal heading (outward, forward) a direction sends the segment's far end toward, unit
    /// length; `nil` where the heading does not matter.
    private func heading(_ direction: Motion.Direction) -> (Double, Double)? {
        switch direction {
        case .forward: (0, 1)
        case .backward: (0, -1)
        case .sideways: (1, 0)
        case .scapular: (configuration.scoring.scapularHeading.outward, configuration.scoring.scapularHeading.forward)
        case .inward: (-1, 0)
        case .up, .around: nil
        }
    }

    /// How well a swing's heading matches: the cosine between the expected heading and the observed one,
    /// taken as 2 × (higher end) − (lower end) in the horizontal plane of the trunk (the raised end, pushed
    /// away from where the swing started, so that a rest position held slightly out does not dominate).
    private func headingCosine(slot: Int, expected e: (Double, Double), reversed: Bool) -> Double {
        let c = configuration.scoring
        let b = slot * 6
        let lo = reversed ? 3 : 0
        let hi = reversed ? 0 : 3
        let ho = 2 * swingEnds[b + hi] - swingEnds[b + lo]
        let hf = 2 * swingEnds[b + hi + 1] - swingEnds[b + lo + 1]
        let norm = (ho * ho + hf * hf).squareRoot()
        guard norm > c.clearHeading else { return c.unclearHeadingCosine }
        // In 2-D the hidden axis is only a magnitude, from foreshortening, and noisy: it counts less.
        switch viewMode {
        case 1:
            let h = c.hiddenAxisWeight * abs(hf)
            return (ho * e.0 + h * abs(e.1)) / max(c.clearHeading, (ho * ho + h * h).squareRoot())
        case 2:
            let h = c.hiddenAxisWeight * abs(ho)
            return (h * abs(e.0) + hf * e.1) / max(c.clearHeading, (h * h + hf * hf).squareRoot())
        default: return (ho * e.0 + hf * e.1) / norm
        }
    }

    private static let limbSegments: [Motion.Segment] = [.upperArm, .forearm, .thigh, .shank]

    /// Why an exercise scored what it did at the last decision: each factor with what it was computed from
    /// (for tuning and for `ptcoach evaluate-reps --explain`).
    package func explanation(of index: Int) -> String {
        func f(_ x: Double) -> String { x.isFinite ? String((x * 100).rounded() / 100) : "-" }
        return factors(of: exercises[index]).map { factor in
            let evidence = factor.evidence.sorted { $0.key < $1.key }.map { "\($0.key) \(f($0.value))" }
            return "\(factor.name.rawValue) \(f(factor.value))"
                + (evidence.isEmpty ? "" : " (\(evidence.joined(separator: ", ")))")
        }.joined(separator: " ")
    }

    /// The swings of the last decision: per segment slot (upper arm, forearm, thigh, shank; left, right)
    /// the swing and its direction (outward, forward, up), plus the hip-height range and the view mode.
    package var swingSummary: String {
        let names = ["uaL", "uaR", "faL", "faR", "thL", "thR", "shL", "shR"]
        var parts: [String] = []
        for slot in 0..<Self.segmentSlots {
            let d = (0..<6).map {
                swingEnds[slot * 6 + $0].isFinite ? Int((swingEnds[slot * 6 + $0] * 10).rounded()) : 0
            }
            parts.append(
                "\(names[slot]) \(swing[slot].isFinite ? Int((swing[slot] * 100).rounded()) : 0) [\(d[0]),\(d[1]),\(d[2])→\(d[3]),\(d[4]),\(d[5])]"
            )
        }
        let hips = high[Self.hipsSlot] - low[Self.hipsSlot]
        let percent = { (x: Double) in x.isFinite ? String(Int((x * 100).rounded())) : "-" }
        return parts.joined(separator: " ")
            + " hips \(percent(hips)) trunk \(percent(amplitude(.trunk, side: 0))) view \(viewMode)"
    }

    func score(_ d: ExerciseDefinition) -> Double { Scoring.product(factors(of: d)) }

    /// The factors of an exercise's score over the last decision's window, in the order they multiply.
    package func factors(of d: ExerciseDefinition) -> [Scoring.Factor] {
        let c = configuration.scoring
        let thighs = (Self.slot(.thigh, side: 0) ?? 0, Self.slot(.thigh, side: 1) ?? 0)
        let posture = Scoring.posture(
            d.posture,
            trunkLean: mean[Self.index(.trunkLean) * 2],
            thighForward: max(forwardMean[thighs.0], forwardMean[thighs.1]),
            overheadShare: mean[Self.overheadSlot],
            handTravel: handTravel,
            c
        )
        let hipsRange = high[Self.hipsSlot] - low[Self.hipsSlot]
        if let hold = d.hold { return holdFactors(hold, posture: posture, hipsRange: hipsRange, side: d.side) }
        guard let rep = d.repetition else { return [Scoring.Factor(.swing, 0, [:]), posture] }
        let motion = d.motion
        let segment = motion.segment
        let sided = Self.slot(segment, side: 0) != nil

        // Activity: the declared segment swings, on the declared side(s).
        let a0 = amplitude(segment, side: 0)
        let a1 = amplitude(segment, side: 1)
        let side: Int
        switch d.side {
        case .left: side = 0
        case .right: side = 1
        case .both, .either: side = a1 > a0 ? 1 : 0
        }
        // A side that could not be measured (hidden in a side view) neither confirms nor rules out `both`.
        let seen0 = Self.slot(segment, side: 0).map { swingEnds[$0 * 6].isFinite } ?? true
        let seen1 = Self.slot(segment, side: 1).map { swingEnds[$0 * 6].isFinite } ?? true
        // Seen from the side in the image plane, the far arm is behind the trunk: its keypoints are the pose
        // estimator's guesses, often a fraction of the near arm's swing (a push-up's far upper arm 0.47 against
        // 1.12). Like an unseen side, it neither confirms nor rules out `both`: the near one tells. (The legs are
        // side by side, not behind the body.)
        let hiddenBehindTrunk = viewMode == 2 && (segment == .upperArm || segment == .forearm)
        let bothApply = d.side == .both && sided && seen0 && seen1 && !hiddenBehindTrunk
        let main = bothApply ? min(a0, a1) : (side == 0 ? a0 : a1)
        let swingFactor = Scoring.swing(main, c)
        guard swingFactor.value > 0 else { return [swingFactor, posture] }

        // Everything the definition does not name stays well below it.
        var other = 0.0
        for limb in Self.limbSegments where !motion.also.contains(limb) {
            for s in 0..<2 {
                if limb == segment, d.side == .both || s == side { continue }
                other = max(other, amplitude(limb, side: s))
            }
        }
        if segment != .trunk, !motion.also.contains(.trunk) { other = max(other, amplitude(.trunk, side: 0)) }
        var companion = 0.0
        for limb in motion.also {
            for s in 0..<2 where Self.slot(limb, side: s) != nil {
                companion = max(companion, amplitude(limb, side: s))
            }
        }
        let upperArm = motion.direction == .around ? Self.slot(.upperArm, side: side).map { swing[$0] } : nil

        let expected = abs(rep.peak - rep.start)
        let primary = d.primaryAngle
        return [
            swingFactor,
            Scoring.bothSides(left: a0, right: a1, applies: bothApply, c),
            Scoring.othersStill(largestOther: other, main: main, c),
            Scoring.companions(largestCompanion: companion, main: main, c),
            Scoring.upperArmStill(upperArmSwing: upperArm, main: main, c),
            posture,
            Scoring.hips(motion.hips, range: hipsRange, c),
            Scoring.hands(motion.hands, travel: handTravel, c),
        ] + segmentFactors(d, side: side) + [
            Scoring.excursion(range: primary.isSided ? range(primary, side) : range(primary, 0), expected: expected, c),
            Scoring.formRules(
                d.formRules.filter { $0.at == .throughout && $0.angle != primary }.map { rule in
                    let k = Self.index(rule.angle) * 2 + (rule.angle.isSided ? side : 0)
                    return Scoring.RuleReading(max: rule.max, min: rule.min, high: high[k], low: low[k])
                },
                c
            ),
        ]
    }

    private func holdFactors(
        _ hold: ExerciseDefinition.HoldSpec,
        posture: Scoring.Factor,
        hipsRange: Double,
        side: ExerciseDefinition.SideMode
    ) -> [Scoring.Factor] {
        var most = amplitude(.trunk, side: 0)
        for slot in 0..<Self.segmentSlots { most = max(most, swing[slot]) }
        // As the session checks it, on the window's mean angles.
        let met = hold.conditions.allSatisfy { condition in
            let k = Self.index(condition.angle) * 2
            return condition.isMet(on: side, left: mean[k], right: mean[k + 1])
        }
        let c = configuration.scoring
        return [
            Scoring.stillness(largestSwing: most, hipsRange: hipsRange, c), Scoring.holdPrior(c),
            Scoring.holdConditions(met: met), posture,
        ]
    }

    /// Direction, hinge and reach: what the declared limb segment does (all 1 for the trunk, shoulders, hips).
    private func segmentFactors(_ d: ExerciseDefinition, side: Int) -> [Scoring.Factor] {
        let c = configuration.scoring
        let motion = d.motion
        let segment = motion.segment
        guard let slot = Self.slot(segment, side: side), let rep = d.repetition else {
            return [
                Scoring.direction(motion.direction, elbowBend: nil, headingCosine: nil, thigh: false, c),
                Scoring.hinge(nil, bend: nil, c), Scoring.reach(turned: .nan, expected: .nan, c),
            ]
        }
        var elbowBend: Double?
        if segment == .forearm {
            // A forearm either folds at the elbow (the elbow angle changes as much as the forearm swings) or
            // sweeps around the upper arm (the elbow angle stays). The elbow angle between the reconstructed
            // directions, except from the side, where the camera sees an arm moving forward square-on and the
            // image-plane angle is the better one (the reconstructed out/in axis is only a magnitude there).
            let elbow = viewMode == 2 ? range(.elbowFlexion, side) : hingeRange[side]
            elbowBend = Self.chord(elbow) / max(1e-6, swing[slot])
        }
        var hingeBend: Double?
        if segment == .thigh || segment == .upperArm, motion.hinge != nil {
            // The knee, as a physical therapist tells a straight-leg raise (the shank turns with the thigh) from
            // a knee lift (the knee bends about as far as the thigh comes up); the elbow, as they tell a
            // straight-arm raise from a press. From the side the image-plane angle is the better one, as for the
            // forearm above.
            let knee = segment == .thigh
            let joint =
                viewMode == 2
                ? range(knee ? .kneeFlexion : .elbowFlexion, side) : hingeRange[(knee ? 2 : 0) + side]
            hingeBend = Self.chord(joint) / max(1e-6, swing[slot])
        }
        var cosine: Double?
        if let e = heading(motion.direction), swingEnds[slot * 6].isFinite {
            var observed = headingCosine(slot: slot, expected: e, reversed: false)
            if swingEnds[slot * 6 + 5] - swingEnds[slot * 6 + 2] < c.levelSwingRise * swing[slot] {
                // A level swing: which end is the start is unknown.
                observed = max(observed, headingCosine(slot: slot, expected: e, reversed: true))
            }
            cosine = observed
        }
        // How far the segment turns against the definition's reach.
        var expectedTurn = Double.nan
        if let reach = motion.reach {
            expectedTurn = reach
        } else if Self.measuresTurn(of: segment, d.primaryAngle) {
            expectedTurn = abs(rep.peak - rep.start)
        }
        return [
            Scoring.direction(
                motion.direction,
                elbowBend: elbowBend,
                headingCosine: cosine,
                thigh: segment == .thigh,
                c
            ),
            Scoring.hinge(motion.hinge, bend: hingeBend, c),
            Scoring.reach(turned: turnedDegrees(slot: slot), expected: expectedTurn, c),
        ]
    }

    /// How far the hands travel in the picture over the window against the shoulders' midpoint (both as the
    /// length of their 10–90 % x and y ranges, the shoulders' at least ``Scoring/Configuration/leastShoulderTravel``
    /// torso lengths); NaN when the hands were not seen in enough samples. About 0.05–0.5 for pull-ups and
    /// push-ups (hands on the bar or the floor), about 1 where the hands go along with the body, 3–5 in jumping
    /// jacks.
    func measuredHandTravel() -> Double {
        func travel(_ slot: Int) -> Double {
            let dx = high[slot] - low[slot]
            let dy = high[slot + 1] - low[slot + 1]
            return (dx * dx + dy * dy).squareRoot()
        }
        let hands = travel(Self.handsSlot)
        let shoulders = travel(Self.shoulderPositionSlot)
        guard hands.isFinite, shoulders.isFinite else { return .nan }
        return hands / max(shoulders, configuration.scoring.leastShoulderTravel)
    }

    /// Whether the primary angle is the moving segment's own turn (then |peak − start| is the default
    /// reach): the upper arm's against the trunk, the thigh's, the forearm's about the elbow, the
    /// shank's about the knee. A squat's knee angle is not its thigh's turn (the shank tilts too), so
    /// there the reach is only used when declared.
    static func measuresTurn(of segment: Motion.Segment, _ primary: AngleKind) -> Bool {
        switch (segment, primary) {
        case (.upperArm, .shoulderFlexion), (.upperArm, .shoulderAbduction), (.upperArm, .shoulderScaption),
            (.upperArm, .shoulderExtension), (.thigh, .hipFlexion), (.thigh, .hipAbduction),
            (.forearm, .elbowFlexion), (.forearm, .shoulderRotation), (.shank, .kneeFlexion):
            true
        default: false
        }
    }

    /// The angle in degrees between a segment's mean directions at the two ends of its swing (NaN when
    /// unknown): how far it turns, wherever the swing starts.
    private func turnedDegrees(slot: Int) -> Double {
        let b = slot * 6
        let a = (swingEnds[b], swingEnds[b + 1], swingEnds[b + 2])
        let c = (swingEnds[b + 3], swingEnds[b + 4], swingEnds[b + 5])
        let na = (a.0 * a.0 + a.1 * a.1 + a.2 * a.2).squareRoot()
        let nc = (c.0 * c.0 + c.1 * c.1 + c.2 * c.2).squareRoot()
        guard na > 1e-6, nc > 1e-6 else { return .nan }
        let cosine = (a.0 * c.0 + a.1 * c.1 + a.2 * c.2) / (na * nc)
        return Double.acos(min(1, max(-1, cosine))) * 180 / .pi
    }
}

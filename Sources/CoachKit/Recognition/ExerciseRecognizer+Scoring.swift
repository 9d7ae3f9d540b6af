import PoseKit
import RealModule

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
            return r.isFinite ? 4 * r : 0
        default:
            let r = high[Self.hipsSlot] - low[Self.hipsSlot]
            return r.isFinite ? 1.5 * r : 0
        }
    }

    /// The horizontal heading (outward, forward) a direction sends the segment's far end toward, unit
    /// length; `nil` where the heading does not matter.
    private static func heading(_ direction: Motion.Direction) -> (Double, Double)? {
        switch direction {
        case .forward: (0, 1)
        case .backward: (0, -1)
        case .sideways: (1, 0)
        case .scapular: (0.87, 0.5)
        case .inward: (-1, 0)
        case .up, .around: nil
        }
    }

    /// How well a swing's heading matches: the cosine between the expected heading and the observed one,
    /// taken as 2 × (higher end) − (lower end) in the horizontal plane of the trunk (the raised end, pushed
    /// away from where the swing started, so that a rest position held slightly out does not dominate).
    private func headingCosine(slot: Int, expected e: (Double, Double), reversed: Bool) -> Double {
        let b = slot * 6
        let lo = reversed ? 3 : 0
        let hi = reversed ? 0 : 3
        let ho = 2 * swingEnds[b + hi] - swingEnds[b + lo]
        let hf = 2 * swingEnds[b + hi + 1] - swingEnds[b + lo + 1]
        let norm = (ho * ho + hf * hf).squareRoot()
        guard norm > 0.15 else { return 0.3 }  // no clear heading (e.g. a raise straight overhead)
        // In 2-D the hidden axis is only a magnitude, from foreshortening, and noisy: it counts half.
        switch viewMode {
        case 1:
            let h = 0.5 * abs(hf)
            return (ho * e.0 + h * abs(e.1)) / max(0.15, (ho * ho + h * h).squareRoot())
        case 2:
            let h = 0.5 * abs(ho)
            return (h * abs(e.0) + hf * e.1) / max(0.15, (h * h + hf * hf).squareRoot())
        default: return (ho * e.0 + hf * e.1) / norm
        }
    }

    private static let limbSegments: [Motion.Segment] = [.upperArm, .forearm, .thigh, .shank]

    private func closeness(_ observed: Double, expected: Double) -> Double {
        guard observed.isFinite, observed > 0, expected > 0 else { return 0 }
        let l = Double.log(observed / expected)
        return Double.exp(-(l * l) / (2 * 0.6 * 0.6))
    }

    /// Why an exercise scored what it did at the last decision: each factor, and the swing of every
    /// segment (for tuning and for `ptcoach evaluate-reps --explain`).
    package func explanation(of index: Int) -> String {
        var text = ""
        _ = score(exercises[index], explain: &text)
        return text
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

    func score(_ d: ExerciseDefinition) -> Double {
        var ignored = ""
        return score(d, explain: &ignored, explaining: false)
    }

    func score(_ d: ExerciseDefinition, explain: inout String, explaining: Bool = true) -> Double {
        // Posture.
        let trunk = mean[Self.index(.trunkLean) * 2]
        var postureFactor = 1.0
        if trunk.isFinite {
            switch d.posture {
            case .upright, .hanging: if trunk > 40 { postureFactor = 0.15 }
            case .horizontal: if trunk < 45 { postureFactor = 0.15 }
            case .seated:
                // Upright trunk and at least one thigh pointing forward most of the window; both thighs
                // hanging (standing) all but rule it out.
                let thighForward = max(forwardMean[4], forwardMean[5])
                if thighForward < 0.25 {
                    postureFactor = 0.03
                } else if trunk > 40 || !(thighForward > 0.5) {
                    postureFactor = 0.15
                }
            case .any:
                // Less specific: when an upright and an any-posture exercise explain the motion equally
                // (squat vs sit-to-stand), the specific one wins.
                postureFactor = 0.9
            }
        }
        // Hanging from a bar: the hands beyond the head much of the time, and staying put. Nothing done standing,
        // sitting or lying looks like that (a patient holding on to a chair holds it lower).
        if d.posture != .hanging, mean[Self.overheadSlot] >= Self.hangingOverhead,
            handTravel <= Self.anchoredHands
        {
            postureFactor = min(postureFactor, 0.15)
        }
        // And hanging needs the hands overhead some of the time, where they are seen.
        if d.posture == .hanging, mean[Self.overheadSlot] < Self.hangingOverheadAtLeast {
            postureFactor = min(postureFactor, 0.15)
        }
        let hipsRange = high[Self.hipsSlot] - low[Self.hipsSlot]

        if let hold = d.hold {
            // Nothing swings, the hips stay, and every condition holds.
            var most = amplitude(.trunk, side: 0)
            for slot in 0..<Self.segmentSlots { most = max(most, swing[slot]) }
            guard most < 0.35, !(hipsRange > 0.15) else { return 0 }
            var satisfied = 1.0
            for condition in hold.conditions {
                // As the session checks it, on the window's mean angles.
                let k = Self.index(condition.angle) * 2
                if !condition.isMet(on: d.side, left: mean[k], right: mean[k + 1]) { satisfied = 0 }
            }
            return 0.8 * satisfied * postureFactor
        }
        guard let rep = d.repetition else { return 0 }
        let motion = d.motion
        let segment = motion.segment
        let sided = Self.slot(segment, side: 0) != nil

        // Activity: the declared segment swings, on the declared side(s).
        let a0 = amplitude(segment, side: 0)
        let a1 = amplitude(segment, side: 1)
        var side: Int
        switch d.side {
        case .left: side = 0
        case .right: side = 1
        case .both, .either: side = a1 > a0 ? 1 : 0
        }
        // A side that could not be measured (hidden in a side view) neither confirms nor rules out `both`.
        let seen0 = !sided || swingEnds[Self.slot(segment, side: 0)! * 6].isFinite
        let seen1 = !sided || swingEnds[Self.slot(segment, side: 1)! * 6].isFinite
        // Seen from the side in the image plane, the far arm is behind the trunk: its keypoints are the pose
        // estimator's guesses, often a fraction of the near arm's swing (a push-up's far upper arm 0.47 against
        // 1.12). Like an unseen side, it neither confirms nor rules out `both`: the near one tells. (The legs are
        // side by side, not behind the body.)
        let hiddenBehindTrunk = viewMode == 2 && (segment == .upperArm || segment == .forearm)
        let bothSeen = seen0 && seen1 && !hiddenBehindTrunk
        let main = d.side == .both && sided && bothSeen ? min(a0, a1) : (side == 0 ? a0 : a1)
        guard main > 0.12 else { return 0 }
        var activity = min(1, (main / 0.3) * (main / 0.3))
        if d.side == .both, sided, bothSeen {
            let q = min(a0, a1) / max(a0, a1)
            if q < 0.6 { activity *= Double.exp(-(0.6 - q) / 0.15) }
        }
        // Everything the definition does not name stays well below it.
        var other = 0.0
        for limb in Self.limbSegments where !motion.also.contains(limb) {
            for s in 0..<2 {
                if limb == segment, d.side == .both || s == side { continue }
                other = max(other, amplitude(limb, side: s))
            }
        }
        if segment != .trunk, !motion.also.contains(.trunk) { other = max(other, amplitude(.trunk, side: 0)) }
        let ratio = other / main
        if ratio > 0.6 { activity *= Double.exp(-(ratio - 0.6) / 0.3) }
        // Segments that may move too should not move far more than the declared one (then the movement
        // is theirs: a forearm sweeping around a still upper arm is not an arm raise).
        var companion = 0.0
        for limb in motion.also {
            for s in 0..<2 where Self.slot(limb, side: s) != nil {
                companion = max(companion, amplitude(limb, side: s))
            }
        }
        let lead = companion / main
        if lead > 1.3 { activity *= Double.exp(-(lead - 1.3) / 0.3) }
        if motion.direction == .around, let upper = Self.slot(.upperArm, side: side) {
            // A sweep around the upper arm's own axis: the upper arm itself stays where it is.
            let still = swing[upper] / main
            if still > 0.4 { activity *= Double.exp(-(still - 0.4) / 0.15) }
        }

        // Hips.
        var hipsFactor = 1.0
        if hipsRange.isFinite {
            switch motion.hips {
            case .still: if hipsRange > 0.2 { hipsFactor = Double.exp(-(hipsRange - 0.2) / 0.1) }
            case .move: if hipsRange < 0.15 { hipsFactor = max(0.05, (hipsRange / 0.15) * (hipsRange / 0.15)) }
            }
        }

        // Hands: how far they travel in the picture against the shoulders' own travel (10–90 % ranges, in
        // torso lengths; the shoulders' at least 0.1, so that a body standing still cannot make any hand
        // movement look large).
        var handsFactor = 1.0
        if let hands = motion.hands {
            let travel = handTravel
            if travel.isFinite {
                switch hands {
                case .anchored:
                    if travel > Self.anchoredHands {
                        handsFactor = Double.exp(-(travel - Self.anchoredHands) / Self.handsTolerance)
                    }
                case .move:
                    if travel < Self.movingHands {
                        handsFactor = Double.exp(-(Self.movingHands - travel) / (2 * Self.handsTolerance))
                    }
                }
                handsFactor = max(Self.handsFloor, handsFactor)
            }
        }

        // Direction of the swing, and how far it turns.
        var directionFactor = 1.0
        var reachFactor = 1.0
        var hingeFactor = 1.0
        var bend = Double.nan
        if let slot = Self.slot(segment, side: side) {
            if segment == .forearm {
                // A forearm either folds at the elbow (the elbow angle changes as much as the forearm
                // swings) or sweeps around the upper arm (the elbow angle stays).
                // The elbow angle between the reconstructed directions, except from the side, where the
                // camera sees an arm moving forward square-on and the image-plane angle is the better one
                // (the reconstructed out/in axis is only a magnitude there).
                let elbow = viewMode == 2 ? range(.elbowFlexion, side) : hingeRange[side]
                let bend = Self.chord(elbow) / max(1e-6, swing[slot])
                if motion.direction == .around {
                    if bend > 0.5 { directionFactor *= Double.exp(-(bend - 0.5) / 0.3) }
                } else if bend < 0.5 {
                    directionFactor *= Double.exp(-(0.5 - bend) / 0.3)
                }
            }
            if segment == .thigh || segment == .upperArm, let hinge = motion.hinge {
                // The knee, as a physical therapist tells a straight-leg raise (the shank turns with the
                // thigh) from a knee lift (the knee bends about as far as the thigh comes up); the elbow, as
                // they tell a straight-arm raise from a press. From the side the image-plane angle is the
                // better one, as for the forearm above.
                let knee = segment == .thigh
                let joint =
                    viewMode == 2
                    ? range(knee ? .kneeFlexion : .elbowFlexion, side) : hingeRange[(knee ? 2 : 0) + side]
                bend = Self.chord(joint) / max(1e-6, swing[slot])
                var fit = 1.0
                switch hinge {
                case .straight: if bend > 0.5 { fit = Double.exp(-(bend - 0.5) / Self.hingeTolerance) }
                case .bends: if bend < 0.5 { fit = Double.exp(-(0.5 - bend) / Self.hingeTolerance) }
                }
                hingeFactor = Self.hingeFloor + (1 - Self.hingeFloor) * fit
            }
            if let e = Self.heading(motion.direction), swingEnds[slot * 6].isFinite {
                var cosine = headingCosine(slot: slot, expected: e, reversed: false)
                if swingEnds[slot * 6 + 5] - swingEnds[slot * 6 + 2] < 0.3 * swing[slot] {
                    // A level swing: which end is the start is unknown.
                    cosine = max(cosine, headingCosine(slot: slot, expected: e, reversed: true))
                }
                var sense = 1.0
                if segment == .thigh, cosine < 0 {
                    // A lifted knee seen going backward: the plane is right, the sense is not trusted
                    // (distorted or mislabelled skeletons); no library exercise swings a thigh backward.
                    cosine = -cosine
                    sense = Self.reversedThighSense
                }
                directionFactor *=
                    Self.directionFloor + (1 - Self.directionFloor) * sense
                    * Double.exp(-(1 - cosine) / Self.headingTolerance)
            }
            // How far the segment turns against the definition's reach.
            let turned = turnedDegrees(slot: slot)
            var expectedTurn = Double.nan
            if let reach = motion.reach {
                expectedTurn = reach
            } else if Self.measuresTurn(of: segment, d.primaryAngle) {
                expectedTurn = abs(rep.peak - rep.start)
            }
            if turned.isFinite, expectedTurn > 0 {
                let l = Double.log(max(1, turned) / expectedTurn)
                reachFactor =
                    Self.reachFloor + (1 - Self.reachFloor)
                    * Double.exp(-(l * l) / (2 * Self.reachTolerance * Self.reachTolerance))
            }
        }

        // Excursion of the primary angle (weak: 2-D angles and distorted skeletons mislead it).
        let expected = abs(rep.peak - rep.start)
        let primary = d.primaryAngle
        let pr = primary.isSided ? range(primary, side) : range(primary, 0)
        let excursion = pr.isFinite ? 0.4 + 0.6 * closeness(pr, expected: expected) : 0.6

        // Bounds from `throughout` form rules on other angles: only a tie-breaker (at most halves the
        // score), since a badly done exercise is still that exercise.
        var rules = 1.0
        for rule in d.formRules where rule.at == .throughout && rule.angle != primary {
            let k = Self.index(rule.angle) * 2 + (rule.angle.isSided ? side : 0)
            if let max = rule.max, high[k].isFinite, high[k] > max + 25 {
                rules *= Double.exp(-(high[k] - max - 25) / 25)
            }
            if let min = rule.min, low[k].isFinite, low[k] < min - 25 { rules *= Double.exp(-(min - 25 - low[k]) / 25) }
        }
        rules = 0.5 + 0.5 * rules
        if explaining {
            func f(_ x: Double) -> String { x.isFinite ? String(Int((x * 100).rounded())) : "-" }
            explain =
                "activity \(f(activity)) (main \(f(main)) other \(f(other))) posture \(f(postureFactor)) hips \(f(hipsFactor)) "
                + "hands \(f(handsFactor)) (travel \(f(handTravel))) direction \(f(directionFactor)) "
                + "hinge \(f(hingeFactor)) (bend \(f(bend))) reach \(f(reachFactor)) "
                + "(turned \(Self.slot(segment, side: side).map { f(turnedDegrees(slot: $0) / 100) } ?? "-")°) "
                + "excursion \(f(excursion)) rules \(f(rules))"
        }
        return activity * postureFactor * hipsFactor * handsFactor * directionFactor * hingeFactor * reachFactor
            * excursion * rules
    }

    /// How far the hands travel in the picture over the window against the shoulders' midpoint (both as the
    /// length of their 10–90 % x and y ranges, the shoulders' at least 0.1 torso lengths); NaN when the
    /// hands were not seen in enough samples. About 0.05–0.5 for pull-ups and push-ups (hands on the bar or
    /// the floor), about 1 where the hands go along with the body, 3–5 in jumping jacks.
    func measuredHandTravel() -> Double {
        func travel(_ slot: Int) -> Double {
            let dx = high[slot] - low[slot]
            let dy = high[slot + 1] - low[slot + 1]
            return (dx * dx + dy * dy).squareRoot()
        }
        let hands = travel(Self.handsSlot)
        let shoulders = travel(Self.shoulderPositionSlot)
        guard hands.isFinite, shoulders.isFinite else { return .nan }
        return hands / max(shoulders, 0.1)
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

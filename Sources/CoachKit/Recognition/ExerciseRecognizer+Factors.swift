import RealModule

/// The factors of an exercise's score, one function each: what was measured over the window in, a named
/// ``ExerciseRecognizer/Scoring/Factor`` out. They are pure, so each can be tested on its own; the recogniser
/// gathers the measurements (``ExerciseRecognizer/factors(of:)``) and multiplies the factors in the order given.
extension ExerciseRecognizer.Scoring {
    package typealias Motion = ExerciseDefinition.Motion

    // MARK: - Posture

    /// Whether the trunk (and for seated exercises the thighs, for hanging ones the hands) fits the posture.
    ///
    /// - Parameters:
    ///   - trunkLean: the window's mean trunk lean from vertical, degrees (NaN: not measured, no judgement).
    ///   - thighForward: the mean forward component of the more forward thigh's direction.
    ///   - overheadShare: the share of the window with every wrist seen beyond the head.
    ///   - handTravel: the hands' travel against the shoulders' (``ExerciseRecognizer/measuredHandTravel()``).
    package static func posture(
        _ posture: ExerciseDefinition.Posture,
        trunkLean trunk: Double,
        thighForward: Double,
        overheadShare: Double,
        handTravel: Double,
        _ c: Configuration
    ) -> Factor {
        var value = 1.0
        if trunk.isFinite {
            switch posture {
            case .upright, .hanging: if trunk > c.uprightTrunkAtMost { value = c.wrongPosture }
            case .horizontal: if trunk < c.horizontalTrunkAtLeast { value = c.wrongPosture }
            case .seated:
                // Upright trunk and at least one thigh pointing forward most of the window; both thighs hanging
                // (standing) all but rule it out.
                if thighForward < c.seatedThighForward {
                    value = c.standingForSeated
                } else if trunk > c.uprightTrunkAtMost || !(thighForward > c.seatedThighForwardFull) {
                    value = c.wrongPosture
                }
            case .any: value = c.anyPosture
            }
        }
        // Hanging from a bar: the hands beyond the head much of the time, and staying put. Nothing done standing,
        // sitting or lying looks like that (a patient holding on to a chair holds it lower).
        if posture != .hanging, overheadShare >= c.hangingOverhead, handTravel <= c.anchoredHands {
            value = min(value, c.wrongPosture)
        }
        // And hanging needs the hands overhead some of the time, where they are seen.
        if posture == .hanging, overheadShare < c.hangingOverheadAtLeast { value = min(value, c.wrongPosture) }
        return Factor(
            .posture,
            value,
            ["trunk": trunk, "thighForward": thighForward, "overhead": overheadShare]
        )
    }

    // MARK: - Holds

    /// A hold: nothing swings and the hips stay (1), else 0.
    ///
    /// - Parameters:
    ///   - largestSwing: the largest swing of any segment, the trunk included (chord).
    ///   - hipsRange: the hips' height range, torso lengths.
    package static func stillness(largestSwing: Double, hipsRange: Double, _ c: Configuration) -> Factor {
        let still = largestSwing < c.holdStillSwing && !(hipsRange > c.holdStillHips)
        return Factor(.stillness, still ? 1 : 0, ["largestSwing": largestSwing, "hips": hipsRange])
    }

    /// The most a hold scores (``Configuration/holdPrior``).
    package static func holdPrior(_ c: Configuration) -> Factor { Factor(.holdPrior, c.holdPrior, [:]) }

    /// Whether every condition of the hold is met on the window's mean angles (1), else 0.
    package static func holdConditions(met: Bool) -> Factor { Factor(.holdConditions, met ? 1 : 0, [:]) }

    // MARK: - Activity

    /// The declared segment swings: 0 up to ``Configuration/minimumSwing``, then rising with the square of the
    /// swing to 1 at ``Configuration/fullSwing``.
    package static func swing(_ main: Double, _ c: Configuration) -> Factor {
        let value = main > c.minimumSwing ? min(1, (main / c.fullSwing) * (main / c.fullSwing)) : 0
        return Factor(.swing, value, ["main": main])
    }

    /// `side: both`: both sides swing alike. `nil` amplitudes: not applicable (one side, or a side not seen).
    package static func bothSides(left: Double, right: Double, applies: Bool, _ c: Configuration) -> Factor {
        guard applies else { return Factor(.bothSides, 1, [:]) }
        let q = min(left, right) / max(left, right)
        let value = q < c.bothSidesShare ? Double.exp(-(c.bothSidesShare - q) / c.bothSidesTolerance) : 1
        return Factor(.bothSides, value, ["weakerShare": q])
    }

    /// Everything the definition does not name stays well below the declared swing.
    ///
    /// - Parameter largestOther: the largest swing of a segment the definition does not name (chord).
    package static func othersStill(largestOther other: Double, main: Double, _ c: Configuration) -> Factor {
        let ratio = other / main
        let value = ratio > c.othersShare ? Double.exp(-(ratio - c.othersShare) / c.othersTolerance) : 1
        return Factor(.othersStill, value, ["other": other])
    }

    /// The segments that may move too (`also`) do not move far more than the declared one.
    package static func companions(largestCompanion companion: Double, main: Double, _ c: Configuration) -> Factor {
        let lead = companion / main
        let value = lead > c.companionsShare ? Double.exp(-(lead - c.companionsShare) / c.companionsTolerance) : 1
        return Factor(.companions, value, ["companion": companion])
    }

    /// `direction: around`: the upper arm stays while the forearm sweeps around its axis. `nil`: not applicable.
    package static func upperArmStill(upperArmSwing: Double?, main: Double, _ c: Configuration) -> Factor {
        guard let upperArmSwing else { return Factor(.upperArmStill, 1, [:]) }
        let still = upperArmSwing / main
        let value =
            still > c.aroundUpperArmShare ? Double.exp(-(still - c.aroundUpperArmShare) / c.aroundUpperArmTolerance) : 1
        return Factor(.upperArmStill, value, ["upperArm": upperArmSwing])
    }

    // MARK: - Hips and hands

    /// The hips stay or move, as declared (NaN range: not measured, no judgement).
    package static func hips(_ hips: Motion.Hips, range: Double, _ c: Configuration) -> Factor {
        var value = 1.0
        if range.isFinite {
            switch hips {
            case .still:
                if range > c.stillHips { value = Double.exp(-(range - c.stillHips) / c.stillHipsTolerance) }
            case .move:
                if range < c.movingHips {
                    value = max(c.movingHipsFloor, (range / c.movingHips) * (range / c.movingHips))
                }
            }
        }
        return Factor(.hips, value, ["range": range])
    }

    /// The hands stay put or travel, as declared (`nil`: nothing declared; NaN travel: not seen).
    package static func hands(_ hands: Motion.Hands?, travel: Double, _ c: Configuration) -> Factor {
        guard let hands, travel.isFinite else { return Factor(.hands, 1, ["travel": travel]) }
        var value = 1.0
        switch hands {
        case .anchored:
            if travel > c.anchoredHands { value = Double.exp(-(travel - c.anchoredHands) / c.handsTolerance) }
        case .move:
            if travel < c.movingHands { value = Double.exp(-(c.movingHands - travel) / (2 * c.handsTolerance)) }
        }
        return Factor(.hands, max(c.handsFloor, value), ["travel": travel])
    }

    // MARK: - Direction, hinge, reach

    /// Where the swing goes: for a forearm, whether it folds at the elbow or sweeps around the upper arm; then
    /// the heading of the raised end against the declared direction, with a floor.
    ///
    /// - Parameters:
    ///   - elbowBend: a forearm's elbow-angle change against its swing (chords); `nil` for other segments.
    ///   - headingCosine: the cosine between the declared heading and the observed one; `nil` when the
    ///     direction has no heading or the swing's ends are unknown.
    ///   - thigh: whether the segment is a thigh (a backward thigh counts as forward, at reduced weight).
    package static func direction(
        _ direction: Motion.Direction,
        elbowBend: Double?,
        headingCosine: Double?,
        thigh: Bool,
        _ c: Configuration
    ) -> Factor {
        var value = 1.0
        var evidence: [String: Double] = [:]
        if let bend = elbowBend {
            evidence["elbowBend"] = bend
            if direction == .around {
                if bend > c.forearmFold { value *= Double.exp(-(bend - c.forearmFold) / c.forearmFoldTolerance) }
            } else if bend < c.forearmFold {
                value *= Double.exp(-(c.forearmFold - bend) / c.forearmFoldTolerance)
            }
        }
        if var cosine = headingCosine {
            evidence["cosine"] = cosine
            var sense = 1.0
            if thigh, cosine < 0 {
                // A lifted knee seen going backward: the plane is right, the sense is not trusted (distorted or
                // mislabelled skeletons); no library exercise swings a thigh backward.
                cosine = -cosine
                sense = c.reversedThighSense
            }
            value *=
                c.directionFloor + (1 - c.directionFloor) * sense * Double.exp(-(1 - cosine) / c.headingTolerance)
        }
        return Factor(.direction, value, evidence)
    }

    /// For a thigh or upper-arm movement that declares it: the knee (elbow) bends about as far as the segment
    /// turns, or stays straight. `nil` bend: not applicable.
    ///
    /// - Parameter bend: the joint's range against the segment's swing, both as chords.
    package static func hinge(_ hinge: Motion.Hinge?, bend: Double?, _ c: Configuration) -> Factor {
        guard let hinge, let bend else { return Factor(.hinge, 1, [:]) }
        var fit = 1.0
        switch hinge {
        case .straight: if bend > c.hingeBend { fit = Double.exp(-(bend - c.hingeBend) / c.hingeTolerance) }
        case .bends: if bend < c.hingeBend { fit = Double.exp(-(c.hingeBend - bend) / c.hingeTolerance) }
        }
        return Factor(.hinge, c.hingeFloor + (1 - c.hingeFloor) * fit, ["bend": bend])
    }

    /// How far the segment turns (degrees between the two ends of its swing) against the expected turn
    /// (the definition's `reach`, or the primary angle's start → peak where that is the segment's own turn).
    package static func reach(turned: Double, expected: Double, _ c: Configuration) -> Factor {
        guard turned.isFinite, expected > 0 else { return Factor(.reach, 1, ["turned": turned]) }
        let l = Double.log(max(1, turned) / expected)
        let value =
            c.reachFloor + (1 - c.reachFloor) * Double.exp(-(l * l) / (2 * c.reachTolerance * c.reachTolerance))
        return Factor(.reach, value, ["turned": turned, "expected": expected])
    }

    // MARK: - Excursion and form rules

    /// The primary angle's range (degrees; NaN: not measured) against its start → peak: weak evidence.
    package static func excursion(range: Double, expected: Double, _ c: Configuration) -> Factor {
        let value: Double
        if range.isFinite {
            var closeness = 0.0
            if range > 0, expected > 0 {
                let l = Double.log(range / expected)
                closeness = Double.exp(-(l * l) / (2 * c.excursionTolerance * c.excursionTolerance))
            }
            value = (1 - c.excursionWeight) + c.excursionWeight * closeness
        } else {
            value = c.unmeasuredExcursion
        }
        return Factor(.excursion, value, ["range": range, "expected": expected])
    }

    /// One `throughout` form rule's bound on an angle other than the primary, and the window's 10–90 % range of it.
    package struct RuleReading: Sendable, Hashable {
        package var max: Double?
        package var min: Double?
        package var high: Double
        package var low: Double

        package init(max: Double?, min: Double?, high: Double, low: Double) {
            self.max = max
            self.min = min
            self.high = high
            self.low = low
        }
    }

    /// The `throughout` form rules on other angles: a tie-breaker that at most halves the score (a badly done
    /// exercise is still that exercise).
    package static func formRules(_ readings: [RuleReading], _ c: Configuration) -> Factor {
        var rules = 1.0
        for r in readings {
            if let max = r.max, r.high.isFinite, r.high > max + c.ruleSlack {
                rules *= Double.exp(-(r.high - max - c.ruleSlack) / c.ruleTolerance)
            }
            if let min = r.min, r.low.isFinite, r.low < min - c.ruleSlack {
                rules *= Double.exp(-(min - c.ruleSlack - r.low) / c.ruleTolerance)
            }
        }
        return Factor(.formRules, (1 - c.rulesWeight) + c.rulesWeight * rules, [:])
    }
}

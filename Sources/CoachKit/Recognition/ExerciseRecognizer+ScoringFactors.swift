extension ExerciseRecognizer.Scoring.Configuration {
    /// A factor's name that is not one of ``named``, or a value that is not a finite number.
    public struct UnknownFactor: Error, Sendable, Hashable, CustomStringConvertible {
        public var description: String
    }

    /// Every number of the configuration by the name of its property (the scapular heading as
    /// `scapularHeadingOutward`, `scapularHeadingForward`), in declaration order: what a fitter sets without
    /// recompiling (`ptcoach analyze --recogniser-factors FILE`, `scripts/fit-recogniser.py`).
    public static var named: [(name: String, path: WritableKeyPath<Self, Double>)] {
        [
            ("uprightTrunkAtMost", \.uprightTrunkAtMost),
            ("horizontalTrunkAtLeast", \.horizontalTrunkAtLeast),
            ("wrongPosture", \.wrongPosture),
            ("standingForSeated", \.standingForSeated),
            ("seatedThighForward", \.seatedThighForward),
            ("seatedThighForwardFull", \.seatedThighForwardFull),
            ("anyPosture", \.anyPosture),
            ("hangingOverhead", \.hangingOverhead),
            ("hangingOverheadAtLeast", \.hangingOverheadAtLeast),
            ("holdStillSwing", \.holdStillSwing),
            ("holdStillHips", \.holdStillHips),
            ("holdPrior", \.holdPrior),
            ("minimumSwing", \.minimumSwing),
            ("fullSwing", \.fullSwing),
            ("bothSidesShare", \.bothSidesShare),
            ("bothSidesTolerance", \.bothSidesTolerance),
            ("othersShare", \.othersShare),
            ("othersTolerance", \.othersTolerance),
            ("companionsShare", \.companionsShare),
            ("companionsTolerance", \.companionsTolerance),
            ("aroundUpperArmShare", \.aroundUpperArmShare),
            ("aroundUpperArmTolerance", \.aroundUpperArmTolerance),
            ("shouldersSwingScale", \.shouldersSwingScale),
            ("hipsSwingScale", \.hipsSwingScale),
            ("stillHips", \.stillHips),
            ("stillHipsTolerance", \.stillHipsTolerance),
            ("movingHips", \.movingHips),
            ("movingHipsFloor", \.movingHipsFloor),
            ("anchoredHands", \.anchoredHands),
            ("movingHands", \.movingHands),
            ("handsTolerance", \.handsTolerance),
            ("handsFloor", \.handsFloor),
            ("leastShoulderTravel", \.leastShoulderTravel),
            ("directionFloor", \.directionFloor),
            ("headingTolerance", \.headingTolerance),
            ("reversedThighSense", \.reversedThighSense),
            ("clearHeading", \.clearHeading),
            ("unclearHeadingCosine", \.unclearHeadingCosine),
            ("hiddenAxisWeight", \.hiddenAxisWeight),
            ("levelSwingRise", \.levelSwingRise),
            ("forearmFold", \.forearmFold),
            ("forearmFoldTolerance", \.forearmFoldTolerance),
            ("hingeBend", \.hingeBend),
            ("hingeTolerance", \.hingeTolerance),
            ("hingeFloor", \.hingeFloor),
            ("reachTolerance", \.reachTolerance),
            ("reachFloor", \.reachFloor),
            ("excursionWeight", \.excursionWeight),
            ("excursionTolerance", \.excursionTolerance),
            ("unmeasuredExcursion", \.unmeasuredExcursion),
            ("ruleSlack", \.ruleSlack),
            ("ruleTolerance", \.ruleTolerance),
            ("rulesWeight", \.rulesWeight),
            ("background", \.background),
            ("otherKindRunnerUp", \.otherKindRunnerUp),
            ("scapularHeadingOutward", \.scapularHeading.outward),
            ("scapularHeadingForward", \.scapularHeading.forward),
        ]
    }

    /// Every number by name (``named``).
    public var values: [String: Double] {
        Dictionary(uniqueKeysWithValues: Self.named.map { ($0.name, self[keyPath: $0.path]) })
    }

    /// This configuration with the numbers `values` names set; the others unchanged.
    ///
    /// ```swift
    /// let fitted = try ExerciseRecognizer.Scoring.Configuration().overriding(["holdPrior": 0.7])
    /// ```
    /// - Throws: ``UnknownFactor`` for a name that is not one of ``named`` or a value that is not finite.
    public func overriding(_ values: [String: Double]) throws(UnknownFactor) -> Self {
        let paths = Dictionary(uniqueKeysWithValues: Self.named.map { ($0.name, $0.path) })
        var result = self
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            guard let path = paths[name] else {
                throw UnknownFactor(
                    description: "no recogniser factor '\(name)'; known: "
                        + Self.named.map(\.name).joined(separator: ", ")
                )
            }
            guard value.isFinite else {
                throw UnknownFactor(description: "recogniser factor '\(name)' must be a finite number, got \(value)")
            }
            result[keyPath: path] = value
        }
        return result
    }
}

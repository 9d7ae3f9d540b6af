/// How a repetition compares with its exercise's target range: judged once, when the repetition is judged, and
/// shown the same way by the text output, the JSON, the overlay, the reports and the live page.
///
/// ```swift
/// rep.range?.text  // "82% of target (74° of 90–120°)", "target reached (97° in 90–120°)",
///                  // "past the target range (158°, beyond 150°)", "range not measurable from this camera view"
/// ```
extension Repetition {
    public struct RangeJudgement: Sendable, Hashable, Codable {
        public enum Status: String, Sendable, Hashable, Codable {
            /// Short of the target's near edge.
            case short
            /// Inside the target range (or past its near edge when it is open-ended).
            case reached
            /// Past the target's far edge.
            case beyond
            /// The camera view does not suit the exercise: the angle may be off by tens of degrees, so it is not
            /// held against the target (no percentage, no gauge, no "in target").
            case notMeasurable = "not-measurable"
        }

        public var status: Status
        /// The primary angle at the peak.
        public var peak: Double
        /// The target range at the peak (`ExerciseDefinition/target`).
        public var targetMin: Double
        public var targetMax: Double
        /// The fraction of the target excursion reached (1 at the target's near edge).
        public var fraction: Double
        /// The primary angle's unit: "°", or "" for a ratio.
        public var unit: String

        /// How far short of or past an edge a peak may be and still be at it: half of what the text shows (a degree;
        /// a hundredth for a ratio), so that "90° of 90–120°" never reads as short (5c1d3c4).
        static let degreesTolerance = 0.5
        static let ratioTolerance = 0.005

        /// The judgement of a repetition whose primary angle peaked at `peak`; `nil` when the exercise has no
        /// target to reach.
        public init?(peak: Double, exercise: ExerciseDefinition, measurable: Bool) {
            guard let target = exercise.target, let spec = exercise.repetition,
                let fraction = exercise.rangeOfMotionFraction(peakValue: peak)
            else { return nil }
            self.peak = peak
            targetMin = target.min
            targetMax = target.max
            self.fraction = fraction
            unit = exercise.primaryAngle.unit
            let (near, far) = spec.direction > 0 ? (target.min, target.max) : (target.max, target.min)
            // Short of or past an edge by what the text shows (a degree, a hundredth for a ratio): "90° of 90–120°"
            // would read as a contradiction.
            let tolerance = unit.isEmpty ? Self.ratioTolerance : Self.degreesTolerance
            let short = spec.direction > 0 ? near - peak : peak - near
            let beyond = spec.direction > 0 ? peak - far : far - peak
            status =
                !measurable ? .notMeasurable : short >= tolerance ? .short : beyond >= tolerance ? .beyond : .reached
        }

        /// The value in the unit's words: "97°", "0.85".
        public func format(_ value: Double) -> String {
            unit.isEmpty ? String(Double((value * 100).rounded()) / 100) : "\(Int(value.rounded()))°"
        }

        /// The target range in words: "90–120°", "0.80–1.00".
        public var targetText: String {
            unit.isEmpty
                ? "\(format(targetMin))–\(format(targetMax))" : "\(Int(targetMin.rounded()))–\(format(targetMax))"
        }

        /// The fraction reached as a patient reads it: at most 100 % (past the target, the degrees say how far).
        public var percentText: String { "\(Int((Swift.min(fraction, 1) * 100).rounded(.down)))%" }

        private enum CodingKeys: String, CodingKey { case status, peak, targetMin, targetMax, fraction, unit, text }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            status = try c.decode(Status.self, forKey: .status)
            peak = try c.decode(Double.self, forKey: .peak)
            targetMin = try c.decode(Double.self, forKey: .targetMin)
            targetMax = try c.decode(Double.self, forKey: .targetMax)
            fraction = try c.decode(Double.self, forKey: .fraction)
            unit = try c.decode(String.self, forKey: .unit)
        }

        /// Also writes ``text``, so that a reader of the JSON (the live page, a script) shows the coach's words.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(status, forKey: .status)
            try c.encode(peak, forKey: .peak)
            try c.encode(targetMin, forKey: .targetMin)
            try c.encode(targetMax, forKey: .targetMax)
            try c.encode(fraction, forKey: .fraction)
            try c.encode(unit, forKey: .unit)
            try c.encode(text, forKey: .text)
        }

        /// The judgement in words, with the degrees beside the percentage.
        public var text: String {
            switch status {
            case .notMeasurable: "range not measurable from this camera view"
            case .short: "\(percentText) of target (\(format(peak)) of \(targetText))"
            case .reached: "target reached (\(format(peak)) in \(targetText))"
            case .beyond: "past the target range (\(format(peak)), target \(targetText))"
            }
        }
    }
}

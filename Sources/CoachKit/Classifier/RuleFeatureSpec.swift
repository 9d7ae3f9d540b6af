public import PoseKit

/// A physical therapist's form rules as classifier features: for recordings of one library exercise,
/// how far each of the exercise's form rules is kept or broken over the recording.
///
/// The rules and their thresholds come from the exercise library (`Resources/Exercises/*.json`), written
/// independently of any training set; nothing here is fitted to recordings. The angles are measured by
/// ``AngleKind/measure(_:side:useDepth:minimumConfidence:)`` and the rules checked by the same code as
/// the coaching session's (``ExerciseDefinition/FormRule``'s margin and `firstIssue`), in the image plane.
///
/// What ``vector(for:)`` measures, on the exercise's working side(s) (see ``measuredSides(_:)``):
/// - the primary angle's range over the recording (95th − 5th percentile);
/// - per form rule, its **margin**: the checked value minus the bound (positive: broken), where the value
///   of a `throughout` rule is the 95th (for a `max`) or 5th (for a `min`) percentile of the angle over
///   the recording, that of a `range` rule the 95th minus the 5th, and that of a `peak` rule the angle's
///   median over the **peak frames** (the tenth of the frames where the primary angle is furthest toward
///   the repetition's peak); and the **share** of those frames (all measured frames, or the peak frames)
///   in which the bound is crossed (0 for a `range` rule: one frame has no range).
/// Percentiles instead of extremes, because a recording is one or a few repetitions and a keypoint
/// glitch of one frame must not decide its verdict (the same 5th/95th percentiles as the form features).
///
/// ```swift
/// let rules = RuleFeatureSpec(exercise: try ExerciseLibrary.bundled().exercise(id: "bicep-curl"))
/// let features = rules.vector(for: sequence)        // rules.featureCount numbers, NaN where unmeasured
/// let broken = rules.brokenRules(in: features)      // ids of the rules whose margin is positive
/// ```
public struct RuleFeatureSpec: Sendable, Hashable {
    /// The version of the rule features; a model saved with another version is refused.
    public static let currentVersion = 1
    /// The share of the peak frames among the measured frames (see the type's summary).
    public static let peakShare = 0.1
    /// A side is measured when its primary angle is seen in at least this share of the frames in which
    /// the better-seen side's is (in a side view the far limbs are mostly hidden or guessed).
    public static let seenShare = 0.5

    /// The exercise the rules belong to.
    public var exerciseID: String
    /// The angle that drives repetitions.
    public var primaryAngle: AngleKind
    /// +1 when the primary angle grows toward the peak, −1 when it shrinks.
    public var direction: Double
    /// Which side(s) the exercise works.
    public var side: ExerciseDefinition.SideMode
    /// The exercise's form rules, in the library's order.
    public var rules: [ExerciseDefinition.FormRule]

    public init(
        exerciseID: String,
        primaryAngle: AngleKind,
        direction: Double,
        side: ExerciseDefinition.SideMode,
        rules: [ExerciseDefinition.FormRule]
    ) {
        self.exerciseID = exerciseID
        self.primaryAngle = primaryAngle
        self.direction = direction >= 0 ? 1 : -1
        self.side = side
        self.rules = rules
    }

    /// The rule features of a library exercise, or `nil` when it has no form rules or is a hold (no
    /// repetition, so no peak).
    public init?(exercise: ExerciseDefinition) {
        guard !exercise.formRules.isEmpty, let repetition = exercise.repetition else { return nil }
        self.init(
            exerciseID: exercise.id,
            primaryAngle: exercise.primaryAngle,
            direction: repetition.direction,
            side: exercise.side,
            rules: exercise.formRules
        )
    }

    /// Numbers per rule in ``vector(for:)``: margin and share of frames breaking it.
    static let perRule = 2

    /// The length of ``vector(for:)``: the primary range, then a margin and a share per rule.
    public var featureCount: Int { 1 + Self.perRule * rules.count }

    /// The ids of the rules whose margin in `features` (a ``vector(for:)``) is positive: the coach's
    /// verdict on the recording. A rule that could not be measured (`NaN`) is not broken.
    public func brokenRules(in features: [Double]) -> [String] {
        precondition(features.count == featureCount, "\(features.count) features, expected \(featureCount)")
        return rules.indices.compactMap { r in features[1 + Self.perRule * r] > 0 ? rules[r].id : nil }
    }

    /// The rule features of a recording (``featureCount`` numbers; `NaN` for what could not be measured).
    public func vector(for sequence: PoseSequence) -> [Double] {
        var angles: [AngleKind] = []
        for angle in [primaryAngle] + rules.map(\.angle) where !angles.contains(angle) { angles.append(angle) }
        // Each needed angle on each side, every frame (NaN where not measurable; right = left for midline).
        let n = sequence.count
        var left = [[Double]](repeating: [Double](repeating: .nan, count: n), count: angles.count)
        var right = left
        var pose = Pose()
        let tracked = PoseSequence.trackedJoints
        let stride = tracked.count
        for f in 0..<n {
            for (j, joint) in tracked.enumerated() {
                let i = f * stride + j
                pose[joint] =
                    sequence.visible[i] ? Keypoint(x: sequence.x[i], y: sequence.y[i], confidence: 1) : .missing
            }
            for (a, angle) in angles.enumerated() {
                left[a][f] = angle.measure(pose, side: .left, useDepth: false) ?? .nan
                right[a][f] = angle.isSided ? (angle.measure(pose, side: .right, useDepth: false) ?? .nan) : left[a][f]
            }
        }
        func column(_ angle: AngleKind, _ side: BodySide) -> [Double] {
            let a = angles.firstIndex(of: angle)!
            return side == .left ? left[a] : right[a]
        }
        var out = [Double](repeating: .nan, count: featureCount)
        let sides = measuredSides((column(primaryAngle, .left), column(primaryAngle, .right)))
        guard !sides.isEmpty else { return out }
        var range = -Double.infinity
        var margins = [Double](repeating: -.infinity, count: rules.count)
        var shares = [Double](repeating: -.infinity, count: rules.count)
        for side in sides {
            let p = column(primaryAngle, side)
            let measured = p.filter { !$0.isNaN }.sorted()
            range = max(range, Self.percentile(measured, 0.95) - Self.percentile(measured, 0.05))
            // Peak frames: the primary angle at or past its (1 − peakShare) quantile toward the peak.
            let towardPeak = measured.map { $0 * direction }.sorted()
            let threshold = Self.percentile(towardPeak, 1 - Self.peakShare)
            let peakFrames = p.indices.filter { !p[$0].isNaN && p[$0] * direction >= threshold }
            for (r, rule) in rules.enumerated() {
                let values = column(rule.angle, side)
                let checked = rule.at == .peak ? peakFrames.map { values[$0] } : values
                let valid = checked.filter { !$0.isNaN }.sorted()
                guard !valid.isEmpty else { continue }
                let median = Self.percentile(valid, 0.5)
                let angleRange = Repetition.AngleRange(
                    angle: rule.angle,
                    side: rule.angle.isSided ? side : nil,
                    min: Self.percentile(valid, 0.05),
                    max: Self.percentile(valid, 0.95),
                    atPeak: median
                )
                guard let margin = rule.margin(in: angleRange) else { continue }
                let breaking = valid.count(where: { value in
                    let frame = Repetition.AngleRange(
                        angle: rule.angle,
                        side: nil,
                        min: value,
                        max: value,
                        atPeak: value
                    )
                    return (rule.margin(in: frame) ?? 0) > 0
                })
                margins[r] = max(margins[r], margin)
                shares[r] = max(shares[r], Double(breaking) / Double(valid.count))
            }
        }
        if range.isFinite { out[0] = range }
        for r in rules.indices {
            if margins[r].isFinite { out[1 + Self.perRule * r] = margins[r] }
            if shares[r].isFinite { out[2 + Self.perRule * r] = shares[r] }
        }
        return out
    }

    /// The side(s) the rules are checked on, from the primary angle's per-frame values on each side
    /// (`left` and `right` the same series for a midline angle): the fixed side of a one-sided exercise;
    /// otherwise the sides whose primary angle is seen in at least ``seenShare`` of the frames the better
    /// side's is; of those, for `either` (one arm at a time) the one whose primary angle moves more, for
    /// `both` all of them (a rule broken on either side is broken, as in the coaching session).
    public func measuredSides(_ primary: (left: [Double], right: [Double])) -> [BodySide] {
        switch side {
        case .left: return [.left]
        case .right: return [.right]
        case .both, .either:
            guard primaryAngle.isSided else { return [.left] }
            let seenLeft = primary.left.count(where: { !$0.isNaN })
            let seenRight = primary.right.count(where: { !$0.isNaN })
            let best = max(seenLeft, seenRight)
            guard best > 0 else { return [] }
            var sides: [BodySide] = []
            if Double(seenLeft) >= Self.seenShare * Double(best) { sides.append(.left) }
            if Double(seenRight) >= Self.seenShare * Double(best) { sides.append(.right) }
            guard side == .either, sides.count == 2 else { return sides }
            func spread(_ values: [Double]) -> Double {
                let valid = values.filter { !$0.isNaN }.sorted()
                return Self.percentile(valid, 0.95) - Self.percentile(valid, 0.05)
            }
            return spread(primary.right) > spread(primary.left) ? [.right] : [.left]
        }
    }

    /// Linear-interpolated percentile of sorted values (`q` in 0…1); NaN for none.
    static func percentile(_ sorted: [Double], _ q: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        return SequenceFeatureSpec.percentile(sorted: sorted, q)
    }
}

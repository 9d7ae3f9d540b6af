import PoseKit

/// One of an exercise's angles on one side: where ``AngleMeter`` keeps its value.
///
/// ```swift
/// let leftKnee = AngleSlot(angle: 0, side: .left)  // the exercise's first angle, on the left
/// ```
struct AngleSlot: Hashable, Sendable {
    /// The angle's index in the exercise's ``ExerciseDefinition/angles``.
    var angle: Int
    /// The side. An angle without sides is kept on the left; its right slot stays empty.
    var side: BodySide

    init(angle: Int, side: BodySide) {
        self.angle = angle
        self.side = side
    }

    /// The slot at `index` in the per-slot layout (`angle * 2 + side`), the one ``RepetitionJudge/Statistics`` and
    /// ``SafetyMonitor/Slot/value`` use.
    init(index: Int) {
        self.init(angle: index / 2, side: index % 2 == 0 ? .left : .right)
    }

    /// Its place in the per-slot layout (`angle * 2 + side`).
    var index: Int { angle * 2 + (side == .left ? 0 : 1) }
}

/// An exercise's angles, frame by frame, and each repetition's statistics: every angle on each side (``AngleSlot``)
/// in this frame and the two frames with a person before it, whether its joints are seen, and per repetition each
/// slot's range, its value where the counted signal peaked, and the body parts that kept it from being seen.
///
/// A meter measures in one plane: in 3-D when the keypoints have depth, or in the image plane. While it is not yet
/// known whether the depth is measured or guessed (``DepthJitterCheck``), the session keeps a second meter in the
/// image plane beside the 3-D one, and when the depth proves a guess that meter takes over with everything it kept
/// (the repetition under way keeps its whole range). Allocation-free after `init` but for the statistics a caller
/// keeps (``statistics``).
///
/// ```swift
/// var meter = AngleMeter(configuration: .init(angles: [.kneeFlexion], direction: 1, counters: 1))
/// for (t, pose) in poses {
///     meter.measure(pose, useDepth: false)
///     meter.see(pose, visibility: visibility)
///     meter.follow(counter: 0, side: nil, value: meter.value(AngleSlot(angle: 0, side: .left)), active: true,
///                  valid: true)
/// }
/// let statistics = meter.closeRepetition(counted: AngleSlot(angle: 0, side: .left), rest: 5, peak: 92)
/// ```
struct AngleMeter: Sendable {
    struct Configuration: Sendable {
        /// The exercise's angles, in its order (``AngleSlot/angle`` indexes them).
        var angles: [AngleKind]
        /// +1 when the counted signal peaks at its high end, −1 at its low end (the repetition's direction): where
        /// each slot's value at the peak is taken.
        var direction: Double
        /// The counters whose repetitions the statistics follow (one per side counted; 0 for a hold).
        var counters: Int
    }

    let configuration: Configuration
    /// Per slot: whether its angle has sides, its joints, and the vertex they are seen from
    /// (``JointVisibility/isSeen(_:vertex:)``).
    private let sided: [Bool]
    private let joints: [[Joint]]
    private let vertices: [Joint]

    /// This frame's values per slot (`nil` where not measured), and those one and two frames with a person ago (`nil`
    /// after a frame without one): a repetition's angle ranges use the median of the last three, so a value seen in a
    /// single frame (a limb that flips for a frame, "39–178°") is not reported as the angle reached.
    private var values: [Double?]
    private var previousValues: [Double?]
    private var olderValues: [Double?]
    /// Whether the last frame had a person (else the history starts again).
    private var afterPerson = false
    /// Whether each slot's joints are all seen in this frame: only then does its value enter the repetition's angle
    /// ranges (an angle through an ankle the pose estimator placed outside the picture is a guess).
    private var seen: [Bool]
    /// The repetition's statistics so far per slot: its range, its value at the peak, and the body parts that kept
    /// it from being seen.
    private(set) var statistics: RepetitionJudge.Statistics
    /// A second buffer for ``statistics``: a repetition's statistics handed out stay as they are while the meter goes
    /// on in this one, so that closing a repetition allocates nothing (``closeRepetition(counted:rest:peak:)``).
    private var spare: RepetitionJudge.Statistics
    /// How far each counter's signal (times ``Configuration/direction``) went in the repetition under way.
    private var peakSignal: [Double?]

    init(configuration: Configuration) {
        self.configuration = configuration
        var sided: [Bool] = []
        var joints: [[Joint]] = []
        var vertices: [Joint] = []
        for angle in configuration.angles {
            for side in [BodySide.left, .right] {
                sided.append(angle.isSided)
                joints.append(angle.joints(side: side))
                vertices.append(angle.vertexJoint(side: side))
            }
        }
        self.sided = sided
        self.joints = joints
        self.vertices = vertices
        let n = configuration.angles.count * 2
        values = Array(repeating: nil, count: n)
        previousValues = values
        olderValues = values
        seen = Array(repeating: true, count: n)
        statistics = RepetitionJudge.Statistics(slots: n)
        spare = RepetitionJudge.Statistics(slots: n)
        peakSignal = Array(repeating: nil, count: configuration.counters)
    }

    // MARK: - Each frame

    /// Measures this frame's angles (in 3-D when `useDepth`), keeping the last two frames'.
    mutating func measure(_ pose: Pose, useDepth: Bool) {
        let recent = afterPerson
        for i in values.indices {
            olderValues[i] = recent ? previousValues[i] : nil
            previousValues[i] = recent ? values[i] : nil
        }
        for (a, angle) in configuration.angles.enumerated() {
            values[a * 2] = angle.measure(pose, side: .left, useDepth: useDepth)
            values[a * 2 + 1] = angle.isSided ? angle.measure(pose, side: .right, useDepth: useDepth) : nil
        }
        afterPerson = true
    }

    /// A frame with a person that this meter did not measure (the keypoints had no depth in it, while this meter is
    /// the image plane's beside the 3-D one): its history goes on from the frame it last measured.
    mutating func skip() {
        afterPerson = true
    }

    /// A frame without a person: the history starts again at the next.
    mutating func lostPerson() {
        afterPerson = false
    }

    /// Which slots have all their joints seen in `pose` (only their values enter the statistics), and which body
    /// parts kept the others from it. No allocation.
    mutating func see(_ pose: Pose, visibility: JointVisibility) {
        for i in joints.indices {
            let vertex = pose[vertices[i]]
            var missing = 0
            for joint in joints[i] where !visibility.isSeen(pose[joint], vertex: vertex) {
                missing |= BodyPart.of(joint)
            }
            seen[i] = missing == 0
            statistics.slots[i].missingParts |= missing
        }
    }

    /// The value of `slot` in this frame; `nil` where it is not measured.
    @inline(__always)
    func value(_ slot: AngleSlot) -> Double? {
        values[slot.index]
    }

    /// The value of `slot` in this frame when its joints are all seen (``see(_:visibility:)``).
    @inline(__always)
    func seenValue(_ slot: AngleSlot) -> Double? {
        seen[slot.index] ? value(slot) : nil
    }

    /// Angle `a`'s values on the left and the right (`nil` where not measured), as a hold condition reads them; both
    /// `nil` for an angle the exercise does not measure.
    func leftAndRight(ofAngle a: Int) -> (left: Double?, right: Double?) {
        guard a * 2 + 1 < values.count else { return (nil, nil) }
        return (values[a * 2], values[a * 2 + 1])
    }

    // MARK: - Each repetition

    /// The primary angle (the exercise's first): `side`'s, or with `nil` the mean of both, or the one measured when
    /// only one is, or `sole`'s when only that side is measured (the far side hidden).
    @inline(__always)
    func primaryValue(side: BodySide?, sole: BodySide?) -> Double? {
        let l = value(AngleSlot(angle: 0, side: .left))
        let r = value(AngleSlot(angle: 0, side: .right))
        switch side {
        case .left?: return l
        case .right?: return r
        case nil:
            guard let l else { return r }
            guard let r else { return l }
            if let sole { return sole == .left ? l : r }
            return (l + r) / 2
        }
    }

    /// Follows counter `c`'s repetition (its `side`, `nil` for both): per-repetition statistics run from the end of
    /// the previous repetition (or from when the person became measurable) to the end of this one, so a repetition's
    /// range includes the start position it began from, not only the part past the counter's threshold; the value at
    /// the peak is taken where the counter's signal (`value`) went furthest while its repetition was under way
    /// (`active`). Not `valid` (the person not measurable): they start again.
    mutating func follow(counter c: Int, side: BodySide?, value: Double?, active: Bool, valid: Bool) {
        if !valid {
            startRepetition(counter: c, side: side)
        } else if !active {
            update(side: side, peak: false)
        } else if let value {
            let s = value * configuration.direction
            let isPeak = peakSignal[c].map { s >= $0 } ?? true
            if isPeak { peakSignal[c] = s }
            update(side: side, peak: isPeak)
        }
    }

    /// Starts counter `c`'s side (`nil`: both) afresh: after its repetition, or when the person is not measurable.
    mutating func startRepetition(counter c: Int, side: BodySide?) {
        for i in statistics.slots.indices {
            if let side, sided[i], (i % 2 == 0) != (side == .left) { continue }
            statistics.slots[i] = .init()
        }
        peakSignal[c] = nil
    }

    /// The statistics of the repetition just completed, for the judge: the counted signal's own rest and peak
    /// (`rest`, `peak`) are folded into its slot (`counted`; `nil` when no slot is the counted signal), whose range
    /// then holds the rest and the peak the counter saw and whose value at the peak is the counter's. So the form rule
    /// on that angle (a push-up's depth) and the range-of-motion text judge the same number. The repetition's side
    /// is started afresh next (``startRepetition(counter:side:)``).
    mutating func closeRepetition(counted slot: AngleSlot?, rest: Double, peak: Double) -> RepetitionJudge.Statistics {
        if let slot { statistics[slot].fold(rest: rest, peak: peak) }
        let closed = statistics
        // The meter goes on in its spare buffer (free again: the repetition before's statistics were let go of).
        for i in spare.slots.indices { spare.slots[i] = closed.slots[i] }
        swap(&statistics, &spare)
        return closed
    }

    /// ``closeRepetition(counted:rest:peak:)`` for statistics kept from before (a recount).
    static func closing(
        _ statistics: RepetitionJudge.Statistics,
        counted slot: AngleSlot?,
        rest: Double,
        peak: Double
    ) -> RepetitionJudge.Statistics {
        var closed = statistics
        if let slot { closed[slot].fold(rest: rest, peak: peak) }
        return closed
    }

    private mutating func update(side: BodySide?, peak: Bool) {
        for i in 0..<values.count {
            // The median of the last three frames: what was held for two frames or more.
            guard let a = values[i], let b = previousValues[i], let c = olderValues[i], seen[i] else { continue }
            let v = Swift.max(Swift.min(a, b), Swift.min(Swift.max(a, b), c))
            if let side, sided[i], (i % 2 == 0) != (side == .left) { continue }
            statistics.slots[i].measure(v, atPeak: peak)
        }
    }
}

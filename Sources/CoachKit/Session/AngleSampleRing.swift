/// The last 30 s of the body's angles at 10 Hz (``SampleGrid``), in the recogniser's sample layout
/// (``ExerciseRecognizer/featureCount`` values a sample: each ``ExerciseRecognizer/kinds`` angle's left and right
/// at `ExerciseRecognizer.index(kind) * 2`, the image plane's from ``ExerciseRecognizer/flatAngleBase``), for the
/// repetitions counted from the movement (measured afterwards from the samples they span) and the holds named late.
///
/// Samples are indexed by their place in the ring (`0..<count`, not in time order); ``index(chronological:)``
/// gives the oldest first. Allocation-free after `init`.
///
/// ```swift
/// var ring = AngleSampleRing(capacity: 300)
/// if ring.isDue(at: t) {
///     let i = ring.beginSample(at: t)
///     ring[sample: i, slot: ExerciseRecognizer.index(.kneeFlexion) * 2] = 92
/// }
/// ```
struct AngleSampleRing: Sendable {
    /// Values a sample.
    static let width = ExerciseRecognizer.featureCount

    /// The samples' values (`nil` where not measured), ``width`` a sample.
    private var values: [Double?] = []
    /// Each sample's time (as many as were written, at most the capacity).
    private(set) var times: [Double] = []
    /// Where the next sample goes.
    private(set) var next = 0
    /// How many samples are kept at most.
    let capacity: Int
    /// Which frames are samples: the first in each 0.1-s interval of capture time.
    private var grid = SampleGrid()

    /// A ring of `capacity` samples (0: none are kept).
    init(capacity: Int) {
        self.capacity = capacity
        values.reserveCapacity(capacity * Self.width)
        times.reserveCapacity(capacity)
    }

    /// The samples written (at most the capacity).
    var count: Int { times.count }

    /// Whether a sample is due at `t`: the first frame in its 0.1-s interval of capture time (``SampleGrid``), so
    /// that the series sampled is the same at any frame rate of 10 fps or more.
    func isDue(at t: Double) -> Bool { grid.isDue(at: t) }

    /// Takes a sample at `t` and returns its index; its values are the oldest sample's until written (none measured
    /// while the ring fills).
    mutating func beginSample(at t: Double) -> Int {
        grid.take(at: t)
        let i = next
        if times.count < capacity {
            times.append(t)
            values.append(contentsOf: repeatElement(nil, count: Self.width))
        } else {
            times[i] = t
        }
        next = (next + 1) % capacity
        return i
    }

    /// Value `slot` of sample `i` (`nil`: not measured).
    subscript(sample i: Int, slot k: Int) -> Double? {
        get { values[i * Self.width + k] }
        set { values[i * Self.width + k] = newValue }
    }

    /// Writes a whole sample (``ExerciseRecognizer/sample``, NaN where not measured) as sample `i`.
    mutating func write(_ sample: [Double], to i: Int) {
        let base = i * Self.width
        for f in 0..<Self.width { values[base + f] = sample[f].isNaN ? nil : sample[f] }
    }

    /// The index of the `j`-th sample in time order (0: the oldest kept).
    func index(chronological j: Int) -> Int {
        ((count < capacity ? 0 : next) + j) % capacity
    }

    /// Sample `i`'s angles as measured in the image plane replace its depth's: once the depth proved a guess, a
    /// repetition counted from the movement reports them, as one counted from the angle does (see Guides.md, "Cases behind the code").
    mutating func useImagePlaneAngles(ofSample i: Int) {
        let base = i * Self.width
        for k in 0..<(Self.width - ExerciseRecognizer.flatAngleBase) {
            values[base + k] = values[base + ExerciseRecognizer.flatAngleBase + k]
        }
    }
}

extension AngleSampleRing {
    /// An angle on the left and on the right in sample `i` (`nil` where not measured): in the image plane's slots
    /// (``ExerciseRecognizer/flatAngleBase``) when `imagePlane`, else the depth's.
    func angle(_ angle: AngleKind, sample i: Int, imagePlane: Bool) -> (left: Double?, right: Double?) {
        let k = ExerciseRecognizer.index(angle) * 2 + (imagePlane ? ExerciseRecognizer.flatAngleBase : 0)
        return (self[sample: i, slot: k], self[sample: i, slot: k + 1])
    }

    /// Whether sample `i` meets every condition of `hold` (an exercise's, done on its `side`).
    func meets(
        _ hold: ExerciseDefinition.HoldSpec,
        of exercise: ExerciseDefinition,
        sample i: Int,
        imagePlane: Bool
    ) -> Bool {
        hold.conditions.allSatisfy { condition in
            let (l, r) = angle(condition.angle, sample: i, imagePlane: imagePlane)
            return condition.isMet(on: exercise.side, left: l, right: r)
        }
    }
}

extension SequenceFeatureSpec {
    /// The version of the form features; a model saved with another version is refused.
    public static let formVersion = 2

    /// The per-frame quantities of ``formVector(for:)``: what Pose Trainer (Chen & Yang, arXiv 2006.11718)
    /// names as the difference between good and bad form in arm exercises, measured on the **active side**
    /// only (slot `a`, the side that moves more): the elbow angle (curling fully), the angle between upper
    /// arm and trunk and the elbow's horizontal travel against the shoulder (upper arm moving), the wrist's
    /// height above the shoulder (raising high enough), the wrist's horizontal travel; and the trunk's lean
    /// from vertical (swinging, leaning back).
    ///
    /// The other side is left out: in side views it is the far side, hidden or guessed by the pose
    /// estimator (shoulder, elbow and wrist of the far arm are all seen in under 20% of the frames of every
    /// Pose Trainer bicep curl, a median of 12% in front raises and 0% in shoulder presses), and in front
    /// views of two-armed exercises it repeats the active side. Version 1 used both sides.
    var formFeatures: [FrameFeature] {
        let available = Set(refs)
        func has(_ refs: Ref...) -> Bool { refs.allSatisfy(available.contains) }
        var features: [FrameFeature] = []
        let sh = Ref(part: .shoulder, slot: .a)
        let el = Ref(part: .elbow, slot: .a)
        let wr = Ref(part: .wrist, slot: .a)
        let hp = Ref(part: .hip, slot: .a)
        if has(el, sh, wr) { features.append(.angle(vertex: el, from: sh, to: wr)) }
        if has(sh, hp, el) { features.append(.angle(vertex: sh, from: hp, to: el)) }
        if has(el, sh) { features.append(.offset(el, from: sh)) }
        if has(wr, sh) {
            features.append(.rise(wr, over: sh))
            features.append(.offset(wr, from: sh))
        }
        let root = Ref(part: .root, slot: .mid)
        let neck = Ref(part: .neck, slot: .mid)
        if has(root, neck) { features.append(.vertical(from: root, to: neck)) }
        return features
    }

    /// Statistics per form feature: 5th percentile, 95th percentile and their difference (the range).
    static let formStatisticCount = 3

    /// The length of ``formVector(for:)``.
    public var formFeatureCount: Int { formFeatures.count * Self.formStatisticCount }

    /// A short vector for form classification on small training sets: the 5th and 95th percentiles and
    /// the range between them of each of ``formFeatures`` (a few dozen numbers instead of the hundreds of
    /// ``vector(for:)``). `NaN` for a feature never seen in the recording. Invariant to position, scale
    /// and mirroring like ``vector(for:)``.
    ///
    /// ```swift
    /// let form = spec.formVector(for: sequence)   // spec.formFeatureCount numbers
    /// ```
    public func formVector(for sequence: PoseSequence) -> [Double] {
        let frames = NormalizedFrames(spec: self, sequence: sequence)
        var out: [Double] = []
        out.reserveCapacity(formFeatureCount)
        var column = [Double](repeating: .nan, count: sequence.count)
        for feature in formFeatures {
            frames.fill(&column, with: feature)
            let valid = column.filter { !$0.isNaN }.sorted()
            guard !valid.isEmpty else {
                out.append(contentsOf: [.nan, .nan, .nan])
                continue
            }
            let low = Self.percentile(sorted: valid, 0.05)
            let high = Self.percentile(sorted: valid, 0.95)
            out.append(contentsOf: [low, high, high - low])
        }
        return out
    }
}

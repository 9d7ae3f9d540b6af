extension SequenceFeatureSpec {
    /// The version of the trajectory channels; a model saved with another version is refused.
    public static let trajectoryVersion = 2

    /// The per-frame channels of ``trajectory(for:length:)``: the joint angles and segment-to-vertical
    /// angles of ``frameFeatures`` on the active side (slot `a`: elbow, shoulder = upper arm against trunk,
    /// hip, knee, upper arm, forearm, thigh, shank) and the trunk's lean, then the height of the active
    /// wrist above its shoulder. The other side is left out, as in ``formFeatures``: in side views it is
    /// hidden or guessed, and its noise outweighs the few recordings of a small form set. The head's
    /// direction (neck to nose) is left out too: it follows where the person looks more than their posture.
    /// Version 1 used both sides and the head.
    var trajectoryFeatures: [FrameFeature] {
        func onActiveSide(_ refs: Ref...) -> Bool {
            refs.allSatisfy { $0.slot != .b && $0.part != .nose && $0.part != .head }
        }
        var features = frameFeatures.filter {
            switch $0 {
            case .angle(let vertex, let from, let to): onActiveSide(vertex, from, to)
            case .vertical(let from, let to): onActiveSide(from, to)
            default: false
            }
        }
        let wrist = Ref(part: .wrist, slot: .a)
        let shoulder = Ref(part: .shoulder, slot: .a)
        if Set(refs).isSuperset(of: [wrist, shoulder]) { features.append(.rise(wrist, over: shoulder)) }
        return features
    }

    /// The number of channels of a trajectory.
    public var trajectoryChannelCount: Int { trajectoryFeatures.count }

    /// The recording as `length` time steps of ``trajectoryChannelCount`` channels, time-major
    /// (`step * channels + channel`): each channel's missing frames are filled with its median, then the
    /// recording is cut into `length` equal slices and each slice averaged (linear interpolation when the
    /// recording has fewer frames than `length`). A channel never seen in the recording is `NaN`.
    ///
    /// Invariant to position, scale and mirroring like ``vector(for:)`` (same normalisation and sides).
    ///
    /// ```swift
    /// let steps = spec.trajectory(for: sequence, length: 64)   // 64 × spec.trajectoryChannelCount
    /// ```
    public func trajectory(for sequence: PoseSequence, length: Int) -> [Double] {
        precondition(length >= 2, "a trajectory needs at least 2 steps, got \(length)")
        let frames = NormalizedFrames(spec: self, sequence: sequence)
        let features = trajectoryFeatures
        let channels = features.count
        let n = sequence.count
        var out = [Double](repeating: .nan, count: length * channels)
        guard n > 0 else { return out }
        var column = [Double](repeating: .nan, count: n)
        for (c, feature) in features.enumerated() {
            frames.fill(&column, with: feature)
            guard let fill = Self.median(column.filter { !$0.isNaN }) else { continue }
            for f in 0..<n where column[f].isNaN { column[f] = fill }
            for step in 0..<length {
                let value: Double
                if n >= length {
                    let start = step * n / length
                    let end = (step + 1) * n / length
                    var sum = 0.0
                    for f in start..<end { sum += column[f] }
                    value = sum / Double(end - start)
                } else {
                    let position = Double(step) * Double(n - 1) / Double(length - 1)
                    let lower = Int(position)
                    let upper = min(lower + 1, n - 1)
                    value = column[lower] + (column[upper] - column[lower]) * (position - Double(lower))
                }
                out[step * channels + c] = value
            }
        }
        return out
    }
}

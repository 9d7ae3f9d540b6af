extension Repetition {
    /// The primary angle's range on the side the repetition was measured on, the one its peak angle, range
    /// judgement, verdict and overlay speak of: the working side of a one-sided exercise; else the side whose value
    /// at the peak (or whose extreme) is the repetition's ``peakAngle`` (the side counted); else the first listed (the
    /// session lists the side it measures first). Never the far arm merely because its guessed keypoints swept a
    /// wider range: the text output gave a pull-up's "elbow flexion right 1–173°" beside a judged peak of 123° on the
    /// left.
    public var measuredPrimaryRange: AngleRange? {
        guard let primary = angles.first?.angle else { return nil }
        let ranges = angles.filter { $0.angle == primary }
        if let side, let range = ranges.first(where: { $0.side == side }) { return range }
        if let peak = peakAngle,
            let range = ranges.first(where: { $0.atPeak == peak })
                ?? ranges.first(where: { $0.max == peak || $0.min == peak })
        {
            return range
        }
        return ranges.first
    }
}

extension Repetition.AngleRange {
    /// Whether the whole range lies within what the joint can do (``AngleKind/anatomicalRange``); a range past it
    /// (an elbow "flexed" 173°) is keypoints guessed or swapped, not a measurement.
    public var isAnatomicallyPossible: Bool {
        guard let possible = angle.anatomicalRange else { return true }
        return possible.contains(min) && possible.contains(max)
    }
}

extension Repetition.AngleRange {
    private enum EncodedKeys: String, CodingKey { case angle, side, min, max, atPeak, possible }

    /// As synthesised, plus `"possible": false` for a range past what the joint can do: the JSON, like the text,
    /// never gives a far arm's guessed 173° elbow as a measurement. Decoding ignores it (it follows from the rest).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: EncodedKeys.self)
        try container.encode(angle, forKey: .angle)
        try container.encodeIfPresent(side, forKey: .side)
        try container.encode(min, forKey: .min)
        try container.encode(max, forKey: .max)
        try container.encode(atPeak, forKey: .atPeak)
        if !isAnatomicallyPossible { try container.encode(false, forKey: .possible) }
    }
}

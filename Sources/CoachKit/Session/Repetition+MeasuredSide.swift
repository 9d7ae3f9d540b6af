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

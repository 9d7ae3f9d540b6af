import PoseKit
import RealModule

// MARK: - Layout

extension SequenceFeatureSpec {
    /// A body part independent of side; with a ``Slot`` it names a tracked joint once the recording's
    /// "more-moving side" is known.
    enum Part: Int, CaseIterable, Sendable {
        case nose, head, neck, root, shoulder, elbow, wrist, hip, knee, ankle

        var isBilateral: Bool { rawValue >= Part.shoulder.rawValue }

        /// The joint on the person's left (or the midline joint).
        var leftJoint: Joint {
            switch self {
            case .nose: .nose
            case .head: .head
            case .neck: .neck
            case .root: .root
            case .shoulder: .leftShoulder
            case .elbow: .leftElbow
            case .wrist: .leftWrist
            case .hip: .leftHip
            case .knee: .leftKnee
            case .ankle: .leftAnkle
            }
        }
    }

    /// Which side of the body a bilateral part is taken from: `a` is the side that moves more in this
    /// recording, `b` the other. Sorting sides this way makes features invariant to mirroring.
    enum Slot: Int, Sendable { case mid, a, b }

    struct Ref: Hashable, Sendable {
        var part: Part
        var slot: Slot
    }

    /// One per-frame quantity.
    enum FrameFeature: Hashable, Sendable {
        /// Inside angle at `vertex` between the segments to `from` and `to`, degrees.
        case angle(vertex: Ref, from: Ref, to: Ref)
        /// Angle of the segment `from → to` against the image vertical pointing down, degrees.
        case vertical(from: Ref, to: Ref)
        /// Position relative to the origin in scale units; `x` is signed toward the moving side.
        case x(Ref)
        case y(Ref)
        /// How far `ref` is above `over` in scale units (positive when higher in the image): used by the
        /// trajectories only (wrist height against the shoulder).
        case rise(Ref, over: Ref)
        /// How far `ref` is from `from` along x (signed toward the moving side), in scale units: used by
        /// the form features (elbow travel against the shoulder).
        case offset(Ref, from: Ref)
    }

    /// The parts and slots the spec's joints allow, midline first.
    var refs: [Ref] {
        var refs: [Ref] = []
        for part in Part.allCases where joints.contains(part.leftJoint) {
            if part.isBilateral {
                refs.append(Ref(part: part, slot: .a))
                refs.append(Ref(part: part, slot: .b))
            } else {
                refs.append(Ref(part: part, slot: .mid))
            }
        }
        return refs
    }

    /// The per-frame features, in output order.
    var frameFeatures: [FrameFeature] {
        let available = Set(refs)
        var features: [FrameFeature] = []
        func has(_ refs: Ref...) -> Bool { refs.allSatisfy(available.contains) }
        for slot in [Slot.a, .b] {
            let sh = Ref(part: .shoulder, slot: slot)
            let el = Ref(part: .elbow, slot: slot)
            let wr = Ref(part: .wrist, slot: slot)
            let hp = Ref(part: .hip, slot: slot)
            let kn = Ref(part: .knee, slot: slot)
            let an = Ref(part: .ankle, slot: slot)
            let angles: [(Ref, Ref, Ref)] = [(el, sh, wr), (sh, hp, el), (hp, sh, kn), (kn, hp, an)]
            for (vertex, from, to) in angles where has(vertex, from, to) {
                features.append(.angle(vertex: vertex, from: from, to: to))
            }
            let segments: [(Ref, Ref)] = [(sh, el), (el, wr), (hp, kn), (kn, an)]
            for (from, to) in segments where has(from, to) { features.append(.vertical(from: from, to: to)) }
        }
        let root = Ref(part: .root, slot: .mid)
        let neck = Ref(part: .neck, slot: .mid)
        if has(root, neck) { features.append(.vertical(from: root, to: neck)) }
        for headPart in [Part.nose, .head] where has(neck, Ref(part: headPart, slot: .mid)) {
            features.append(.vertical(from: neck, to: Ref(part: headPart, slot: .mid)))
        }
        for ref in refs where ref.part.leftJoint != origin {
            features.append(.x(ref))
            features.append(.y(ref))
        }
        return features
    }

    /// Summary statistics per per-frame feature: mean, std, min, max, range, p10, p50, p90.
    static let statisticCount = 8
    /// Velocity statistics per per-frame feature: mean |v|, std v, p90 |v|.
    static let velocityStatisticCount = 3

    /// The length of ``vector(for:)``.
    public var featureCount: Int {
        frameFeatures.count * (Self.statisticCount + Self.velocityStatisticCount + timeBins) + refs.count + 2
    }
}

// MARK: - Extraction

extension SequenceFeatureSpec {
    /// The fixed-length feature vector of a recording (``featureCount`` numbers).
    ///
    /// Each pose is moved to the origin joint and divided by the recording's median torso length (or
    /// shoulder width); left/right parts are sorted into the side that moves more and the other; `x` is
    /// signed so that the moving side points to +x. Per-frame angles and positions are summarised over
    /// time (statistics, velocities, a coarse temporal profile). A feature that is missing in a frame is
    /// imputed with the recording's median; one never seen in the recording is `NaN` (the model then uses
    /// the training mean). The last numbers are the fraction of frames each joint is missing, the fraction
    /// with no person, and the duration in seconds.
    public func vector(for sequence: PoseSequence) -> [Double] {
        let frames = NormalizedFrames(spec: self, sequence: sequence)
        let n = sequence.count
        var out: [Double] = []
        out.reserveCapacity(featureCount)
        let features = frameFeatures
        var column = [Double](repeating: .nan, count: n)
        var scratch = SummaryScratch()
        for feature in features {
            frames.fill(&column, with: feature)
            Self.summarize(&column, seconds: sequence.seconds, timeBins: timeBins, into: &out, scratch: &scratch)
        }
        precondition(out.count == features.count * (Self.statisticCount + Self.velocityStatisticCount + timeBins))

        // Missing fractions, no-person fraction, duration.
        let stride = PoseSequence.trackedJoints.count
        for ref in refs {
            let j = frames.index(ref)
            var missing = 0
            for f in 0..<n where !sequence.visible[f * stride + j] { missing += 1 }
            out.append(n > 0 ? Double(missing) / Double(n) : 1)
        }
        out.append(n > 0 ? Double(sequence.hasPerson.count(where: { !$0 })) / Double(n) : 1)
        out.append(n > 1 ? sequence.seconds[n - 1] - sequence.seconds[0] : 0)
        return out
    }

    /// The reusable buffers of ``summarize(_:seconds:timeBins:into:scratch:)``.
    struct SummaryScratch {
        var valid: [Double] = []
        var velocities: [Double] = []
    }

    /// The number of values ``summarize(_:seconds:timeBins:into:scratch:)`` appends for one per-frame feature.
    static func summaryCount(timeBins: Int) -> Int { statisticCount + velocityStatisticCount + timeBins }

    /// Appends the summary over time of one per-frame feature (``summaryCount(timeBins:)`` numbers): its
    /// statistics (mean, std, min, max, range, p10, p50, p90), its velocities per second (mean |v|, std v,
    /// p90 |v|) and the mean in each of `timeBins` equal slices of the recording. Frames where it is `NaN`
    /// are filled with its median first (in `column`); a feature never known appends `NaN`s.
    ///
    /// The body features (``vector(for:)``) and the hand-action features (``HandFeatures``) are summarised
    /// this way.
    static func summarize(
        _ column: inout [Double],
        seconds: [Double],
        timeBins: Int,
        into out: inout [Double],
        scratch: inout SummaryScratch
    ) {
        let n = column.count
        scratch.valid.removeAll(keepingCapacity: true)
        for value in column where !value.isNaN { scratch.valid.append(value) }
        guard !scratch.valid.isEmpty else {
            out.append(contentsOf: repeatElement(.nan, count: summaryCount(timeBins: timeBins)))
            return
        }
        scratch.valid.sort()
        let valid = scratch.valid
        let fill = percentile(sorted: valid, 0.5)
        for f in 0..<n where column[f].isNaN { column[f] = fill }
        // Statistics.
        var sum = 0.0
        var sumSquares = 0.0
        for value in valid {
            sum += value
            sumSquares += value * value
        }
        let mean = sum / Double(valid.count)
        let std = max(0, sumSquares / Double(valid.count) - mean * mean).squareRoot()
        let minimum = valid[0]
        let maximum = valid[valid.count - 1]
        out.append(contentsOf: [
            mean, std, minimum, maximum, maximum - minimum,
            percentile(sorted: valid, 0.1), fill, percentile(sorted: valid, 0.9),
        ])
        // Velocities (per second), central differences on the imputed series.
        scratch.velocities.removeAll(keepingCapacity: true)
        if n >= 3 {
            for f in 1..<(n - 1) {
                let dt = seconds[f + 1] - seconds[f - 1]
                guard dt > 1e-9 else { continue }
                scratch.velocities.append((column[f + 1] - column[f - 1]) / dt)
            }
        }
        if scratch.velocities.isEmpty {
            out.append(contentsOf: [0, 0, 0])
        } else {
            var absSum = 0.0
            var vSum = 0.0
            var vSquares = 0.0
            for v in scratch.velocities {
                absSum += abs(v)
                vSum += v
                vSquares += v * v
            }
            let count = Double(scratch.velocities.count)
            let vMean = vSum / count
            let magnitudes = scratch.velocities.map(abs).sorted()
            out.append(contentsOf: [
                absSum / count, max(0, vSquares / count - vMean * vMean).squareRoot(),
                percentile(sorted: magnitudes, 0.9),
            ])
        }
        // Coarse temporal profile: the mean in each of `timeBins` equal slices of the recording.
        for bin in 0..<timeBins {
            let start = bin * n / timeBins
            let end = (bin + 1) * n / timeBins
            if end > start {
                var binSum = 0.0
                for f in start..<end { binSum += column[f] }
                out.append(binSum / Double(end - start))
            } else {
                out.append(column[min(n - 1, (2 * bin + 1) * n / (2 * timeBins))])
            }
        }
    }

    /// The angle in degrees (0–180) between two vectors, NaN when one has no length.
    static func angle(_ ux: Double, _ uy: Double, _ vx: Double, _ vy: Double) -> Double {
        let lengths = ((ux * ux + uy * uy) * (vx * vx + vy * vy)).squareRoot()
        guard lengths > 1e-12 else { return .nan }
        return Double.acos(max(-1, min(1, (ux * vx + uy * vy) / lengths))) * 180 / .pi
    }

    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        return percentile(sorted: values.sorted(), 0.5)
    }

    /// Linear-interpolated percentile of sorted values (`q` in 0…1).
    static func percentile(sorted values: [Double], _ q: Double) -> Double {
        let position = q * Double(values.count - 1)
        let lower = Int(position)
        let upper = min(lower + 1, values.count - 1)
        let fraction = position - Double(lower)
        return values[lower] + (values[upper] - values[lower]) * fraction
    }
}

// MARK: - Normalised frames

extension SequenceFeatureSpec {
    /// A recording moved to the spec's origin, divided by its body scale, with the more-moving side
    /// known: what every per-frame feature is computed from.
    struct NormalizedFrames {
        let sequence: PoseSequence
        let n: Int
        let stride: Int
        var nx: [Double]
        var ny: [Double]
        var aIsLeft = true
        var xSign = 1.0

        init(spec: SequenceFeatureSpec, sequence: PoseSequence) {
            self.sequence = sequence
            let stride = PoseSequence.trackedJoints.count
            let n = sequence.count
            self.stride = stride
            self.n = n

            // Scale: the median torso length (or shoulder width) over the recording.
            let (scaleA, scaleB): (Joint, Joint) =
                spec.scale == .torso ? (.neck, .root) : (.leftShoulder, .rightShoulder)
            let ia = PoseSequence.trackedIndex(of: scaleA)!
            let ib = PoseSequence.trackedIndex(of: scaleB)!
            var lengths: [Double] = []
            var heights: [Double] = []
            for f in 0..<n {
                let a = f * stride + ia
                let b = f * stride + ib
                if sequence.visible[a], sequence.visible[b] {
                    let dx = sequence.x[a] - sequence.x[b]
                    let dy = sequence.y[a] - sequence.y[b]
                    lengths.append((dx * dx + dy * dy).squareRoot())
                }
                var minY = Double.infinity
                var maxY = -Double.infinity
                for j in 0..<stride where sequence.visible[f * stride + j] {
                    minY = min(minY, sequence.y[f * stride + j])
                    maxY = max(maxY, sequence.y[f * stride + j])
                }
                if maxY > minY { heights.append(maxY - minY) }
            }
            var bodyScale = SequenceFeatureSpec.median(lengths) ?? 0
            if !(bodyScale > 1e-9) { bodyScale = (SequenceFeatureSpec.median(heights) ?? 0) / 3 }
            if !(bodyScale > 1e-9) { bodyScale = 1 }

            // Origin: the origin joint in each frame, or its median where it is missing.
            let io = PoseSequence.trackedIndex(of: spec.origin)!
            var originXs: [Double] = []
            var originYs: [Double] = []
            for f in 0..<n where sequence.visible[f * stride + io] {
                originXs.append(sequence.x[f * stride + io])
                originYs.append(sequence.y[f * stride + io])
            }
            let medianOriginX = SequenceFeatureSpec.median(originXs) ?? 0
            let medianOriginY = SequenceFeatureSpec.median(originYs) ?? 0
            nx = [Double](repeating: 0, count: n * stride)
            ny = [Double](repeating: 0, count: n * stride)
            for f in 0..<n {
                let ox = sequence.visible[f * stride + io] ? sequence.x[f * stride + io] : medianOriginX
                let oy = sequence.visible[f * stride + io] ? sequence.y[f * stride + io] : medianOriginY
                for j in 0..<stride {
                    nx[f * stride + j] = (sequence.x[f * stride + j] - ox) / bodyScale
                    ny[f * stride + j] = (sequence.y[f * stride + j] - oy) / bodyScale
                }
            }

            // The side that moves more becomes slot a.
            var leftMovement = 0.0
            var rightMovement = 0.0
            for part in Part.allCases where part.isBilateral && spec.joints.contains(part.leftJoint) {
                leftMovement += spread(PoseSequence.trackedIndex(of: part.leftJoint)!)
                rightMovement += spread(PoseSequence.trackedIndex(of: part.leftJoint.mirrored)!)
            }
            aIsLeft = leftMovement >= rightMovement

            // x points toward where side a's moving joints are on average (flips with the image).
            var lean = 0.0
            for ref in spec.refs where ref.slot == .a {
                let j = index(ref)
                var sum = 0.0
                var count = 0.0
                for f in 0..<n where sequence.visible[f * stride + j] {
                    sum += nx[f * stride + j]
                    count += 1
                }
                if count > 0 { lean += spread(j) * sum / count }
            }
            xSign = lean < 0 ? -1 : 1
        }

        /// How much joint `j` moves: the sum of its x and y standard deviations.
        func spread(_ j: Int) -> Double {
            var sx = 0.0
            var sxx = 0.0
            var sy = 0.0
            var syy = 0.0
            var count = 0.0
            for f in 0..<n where sequence.visible[f * stride + j] {
                let x = nx[f * stride + j]
                let y = ny[f * stride + j]
                sx += x
                sxx += x * x
                sy += y
                syy += y * y
                count += 1
            }
            guard count > 1 else { return 0 }
            let vx = max(0, sxx / count - (sx / count) * (sx / count))
            let vy = max(0, syy / count - (sy / count) * (sy / count))
            return vx.squareRoot() + vy.squareRoot()
        }

        /// The tracked-joint index of a part on a side.
        func index(_ ref: Ref) -> Int {
            let joint: Joint =
                switch ref.slot {
                case .mid: ref.part.leftJoint
                case .a: aIsLeft ? ref.part.leftJoint : ref.part.leftJoint.mirrored
                case .b: aIsLeft ? ref.part.leftJoint.mirrored : ref.part.leftJoint
                }
            return PoseSequence.trackedIndex(of: joint)!
        }

        /// Writes the feature's value in every frame into `column` (`n` values; NaN where a joint is missing).
        func fill(_ column: inout [Double], with feature: FrameFeature) {
            let visible = sequence.visible
            switch feature {
            case .angle(let vertex, let from, let to):
                let (ia, ib, ic) = (index(vertex), index(from), index(to))
                for f in 0..<n {
                    let (a, b, c) = (f * stride + ia, f * stride + ib, f * stride + ic)
                    column[f] =
                        visible[a] && visible[b] && visible[c]
                        ? SequenceFeatureSpec.angle(nx[b] - nx[a], ny[b] - ny[a], nx[c] - nx[a], ny[c] - ny[a]) : .nan
                }
            case .vertical(let from, let to):
                let (ia, ib) = (index(from), index(to))
                for f in 0..<n {
                    let (a, b) = (f * stride + ia, f * stride + ib)
                    column[f] =
                        visible[a] && visible[b] ? SequenceFeatureSpec.angle(nx[b] - nx[a], ny[b] - ny[a], 0, 1) : .nan
                }
            case .x(let ref):
                let ia = index(ref)
                for f in 0..<n { column[f] = visible[f * stride + ia] ? xSign * nx[f * stride + ia] : .nan }
            case .y(let ref):
                let ia = index(ref)
                for f in 0..<n { column[f] = visible[f * stride + ia] ? ny[f * stride + ia] : .nan }
            case .offset(let ref, let from):
                let (ia, ib) = (index(ref), index(from))
                for f in 0..<n {
                    let (a, b) = (f * stride + ia, f * stride + ib)
                    column[f] = visible[a] && visible[b] ? xSign * (nx[a] - nx[b]) : .nan
                }
            case .rise(let ref, let over):
                let (ia, ib) = (index(ref), index(over))
                for f in 0..<n {
                    let (a, b) = (f * stride + ia, f * stride + ib)
                    column[f] = visible[a] && visible[b] ? ny[b] - ny[a] : .nan
                }
            }
        }
    }
}

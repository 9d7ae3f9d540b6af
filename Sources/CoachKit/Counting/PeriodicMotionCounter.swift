public import PoseKit

/// Counts repetitions of whatever periodic movement dominates, with no exercise given (like Create ML's
/// `HumanBodyActionCounter`).
///
/// Each frame, 13 joints are expressed relative to the root and divided by the torso length (x, y and,
/// when every frame has it, z). Every two seconds (every second until the first one), the principal component of these trajectories over the
/// last `windowSeconds` (two typical repetitions when they are slower; until the first repetition, up to
/// `maximumSeconds`) is found by power iteration; the pose is projected on it and the projection is
/// counted by a ``RepCounter`` (median filter + adaptive hysteresis, the rest side being the side the
/// signal spends most time on). When the principal component first appears or changes to a different
/// movement, the buffered window is replayed so that the first repetitions are not lost; repetitions
/// already counted are not counted twice. Allocation-free after `init`.
///
/// ```swift
/// var counter = PeriodicMotionCounter()
/// for frame in frames {
///     if case .completed(let rep) = counter.ingest(pose, at: frame.seconds, valid: true) { … }
/// }
/// ```
public struct PeriodicMotionCounter: Sendable {
    public struct Configuration: Sendable, Hashable {
        /// The smallest excursion counted, in torso lengths.
        public var minimumRange: Double
        public var minimumSeconds: Double
        public var maximumSeconds: Double
        /// The window the principal component is taken over.
        public var windowSeconds: Double
        /// The joints whose movement is counted (root-relative); the default is the whole body.
        public var joints: [Joint]

        public init(
            minimumRange: Double = 0.25,
            minimumSeconds: Double = 0.5,
            maximumSeconds: Double = 15,
            windowSeconds: Double = 8,
            joints: [Joint] = PeriodicMotionCounter.bodyJoints
        ) {
            precondition(!joints.isEmpty, "joints must not be empty")
            self.joints = joints
            self.minimumRange = minimumRange
            self.minimumSeconds = minimumSeconds
            self.maximumSeconds = maximumSeconds
            self.windowSeconds = windowSeconds
        }
    }

    /// The whole-body joint set.
    public static let bodyJoints: [Joint] = [
        .leftWrist, .rightWrist, .leftElbow, .rightElbow, .leftShoulder, .rightShoulder, .neck,
        .leftHip, .rightHip, .leftKnee, .rightKnee, .leftAnkle, .rightAnkle,
    ]
    private let joints: [Joint]
    private let dimension: Int
    private static let sampleSeconds = 0.1

    public let configuration: Configuration
    public private(set) var count = 0

    private var counter: RepCounter
    private var direction = 0.0
    // Feature ring at 10 Hz.
    private var ring: [Double]
    private var ringTimes: [Double]
    /// Whether the signal was invalid just before each sample (a replay does not bridge it).
    private var ringBreaks: [Bool]
    private var breakPending = true
    /// The ring's length: the longest repetition allowed (`maximumSeconds`) and a second more.
    private let capacity: Int
    /// The usual window's length (`windowSeconds`).
    private let windowSamples: Int
    /// The window of an update, oldest first (copied from the ring), with its times and breaks.
    private var window: [Double]
    private var windowTimes: [Double]
    private var windowBreaks: [Bool]
    private var ringCount = 0
    private var ringNext = 0
    private var lastSampleSeconds = -Double.infinity
    private var samplesSinceUpdate = 0
    // Current features, held for missing joints.
    private var feature: [Double]
    private var mean: [Double]
    /// The clip the counted signal is measured with (``project(_:offset:)``): the window's when the movement
    /// was found or changed, and from then on only wider. A position the counter has seen keeps its value: the
    /// half-second rest between raises held 12 s, taken whole while the window held the first rest, was clipped
    /// to half its depth once the window held only that half second, and the counter never saw it come back.
    private var countedLow: [Double]
    private var countedHigh: [Double]
    private var component: [Double]
    private var scratch: [Double]
    private var product: [Double]
    private var active: [Int]
    // Robust clipping: each dimension is limited to median ± 3 robust deviations over the window, so
    // tracking glitches (a joint jumping for a few frames) cannot become the dominant "movement". The median
    // absolute deviation is zero when more than half the window is one position (a raise held 5 s at the top,
    // or long rests between brief repetitions): then the limit also reaches every position taken for 1.6 s, or
    // the clip would flatten the repetitions themselves.
    private var center: [Double]
    private var spread: [Double]
    private var sortScratch: [Double]
    private var clipped: [Double]
    private var covariance: [Double]
    private var hasComponent = false
    /// The leading principal component of the last update (warm start of the next).
    private var first: [Double]
    private var hasFirst = false
    /// The chosen component in the packed space, and the window's projection on a candidate.
    private var packedChoice: [Double]
    private var series: [Double]
    /// Which principal component was chosen at the last update (0 = the leading one).
    public private(set) var lastChoice = 0
    /// How many leading principal components are candidates.
    private static let componentCount = 3
    /// A candidate component must carry at least this share of the leading one's variance.
    private static let minimumEigenvalueShare = 0.1
    private var torso = 0.0
    private var lastCountedEnd = -Double.infinity

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
        joints = configuration.joints.filter { $0 != .root }
        dimension = joints.count * 3
        windowSamples = max(20, Int((configuration.windowSeconds / Self.sampleSeconds).rounded()))
        let longest = max(configuration.windowSeconds, configuration.maximumSeconds + 1)
        capacity = max(windowSamples, Int((longest / Self.sampleSeconds).rounded()))
        ring = Array(repeating: 0, count: capacity * dimension)
        ringTimes = Array(repeating: 0, count: capacity)
        ringBreaks = Array(repeating: true, count: capacity)
        window = Array(repeating: 0, count: capacity * dimension)
        windowTimes = Array(repeating: 0, count: capacity)
        windowBreaks = Array(repeating: true, count: capacity)
        feature = Array(repeating: 0, count: dimension)
        mean = Array(repeating: 0, count: dimension)
        countedLow = Array(repeating: -.infinity, count: dimension)
        countedHigh = Array(repeating: .infinity, count: dimension)
        component = Array(repeating: 0, count: dimension)
        scratch = Array(repeating: 0, count: dimension)
        product = Array(repeating: 0, count: 2 * dimension)
        active = Array(repeating: 0, count: dimension)
        center = Array(repeating: 0, count: dimension)
        spread = Array(repeating: .infinity, count: dimension)
        sortScratch = Array(repeating: 0, count: capacity)
        clipped = Array(repeating: 0, count: capacity * dimension)
        completed.reserveCapacity(32)
        covariance = Array(repeating: 0, count: dimension * dimension)
        first = Array(repeating: 0, count: dimension)
        packedChoice = Array(repeating: 0, count: dimension)
        series = Array(repeating: 0, count: capacity)
        counter = RepCounter(configuration: Self.counterConfiguration(configuration))
    }

    private static func counterConfiguration(_ c: Configuration, direction: Double = 1) -> RepCounter.Configuration {
        RepCounter.Configuration(
            direction: direction,
            minimumRange: c.minimumRange,
            minimumSeconds: c.minimumSeconds,
            maximumSeconds: c.maximumSeconds,
            windowSeconds: c.windowSeconds
        )
    }

    /// The projection of the current pose on the dominant movement (torso lengths), when known.
    public var signal: Double? { hasComponent ? counter.lastValue : nil }

    /// Progress of the current excursion, 0…1.
    public var progress: Double { hasComponent ? counter.progress : 0 }

    /// The repetitions completed by the last ``ingest(_:at:valid:)`` (usually none or one; several when
    /// the window was replayed), oldest first.
    public private(set) var completed: [RepCounter.Completed] = []

    /// Feeds one pose. `valid == false` (walking, out of frame) drops a repetition under way. With
    /// `useDepth == false` the keypoints' z is ignored (a video pose estimator's guessed depth).
    ///
    /// - Returns: The number of repetitions completed by this pose (see ``completed``).
    @discardableResult
    public mutating func ingest(_ pose: Pose?, at seconds: Double, valid: Bool, useDepth: Bool = true) -> Int {
        if !completed.isEmpty { completed.removeAll(keepingCapacity: true) }
        guard valid, let pose, updateFeature(pose, useDepth: useDepth) else {
            _ = counter.ingest(nil, at: seconds, valid: false)
            breakPending = true
            return 0
        }
        if seconds - lastSampleSeconds >= Self.sampleSeconds * 0.95 || seconds < lastSampleSeconds {
            lastSampleSeconds = seconds
            store(at: seconds)
            samplesSinceUpdate += 1
            if ringCount >= min(windowSamples, 30), samplesSinceUpdate >= (hasComponent ? 20 : 10) {
                samplesSinceUpdate = 0
                updateComponent()
            }
        }
        guard hasComponent else { return completed.count }
        if case .completed(let rep) = counter.ingest(project(feature), at: seconds) {
            accept(rep)
        }
        return completed.count
    }

    /// Whether the movement has been found (the first principal component, after 3 s).
    public var hasMovement: Bool { hasComponent }

    /// The recording ended before the movement was found: finds it over the samples there are (at least
    /// 0.8 s) and counts the repetitions in them, into ``completed``. Nothing once the movement is known.
    ///
    /// - Returns: The number of repetitions completed.
    @discardableResult
    public mutating func finish() -> Int {
        if !completed.isEmpty { completed.removeAll(keepingCapacity: true) }
        guard !hasComponent, ringCount >= 8 else { return 0 }
        updateComponent()
        return completed.count
    }

    /// The longest stretch without samples that a replay bridges (the caller holds a gap for at most about 1 s).
    private static let longestBridge = 1.5

    /// Whether `pose`, seen again after a gap in the samples, continues what the counter was doing before it
    /// (``RepCounter/continues(with:)`` on its projection); true while there is no movement yet.
    public func continues(with pose: Pose, useDepth: Bool = true) -> Bool {
        guard hasComponent, torso > 0 else { return true }
        let root = pose[.root]
        let neck = pose[.neck]
        guard root.confidence > 0, neck.confidence > 0 else { return counter.continues(with: nil) }
        let depth = useDepth && root.z != nil && neck.z != nil
        let scale = 1 / torso
        var sum = 0.0
        for (index, joint) in joints.enumerated() {
            let k = pose[joint]
            for axis in 0..<3 {
                let d = index * 3 + axis
                var v = feature[d]  // held for a joint not seen, as in ``ingest(_:at:valid:useDepth:)``
                if k.confidence > 0 {
                    switch axis {
                    case 0: v = (k.x - root.x) * scale
                    case 1: v = (k.y - root.y) * scale
                    default: v = (depth && k.z != nil) ? (k.z! - root.z!) * scale : 0
                    }
                }
                sum += (countedClip(v, d) - mean[d]) * component[d]
            }
        }
        return counter.continues(with: sum)
    }

    private mutating func accept(_ rep: RepCounter.Completed) {
        // A repetition overlapping one already counted (after a replay) is the same one.
        guard rep.startSeconds >= lastCountedEnd - 0.05 else { return }
        lastCountedEnd = rep.endSeconds
        count += 1
        completed.append(rep)
    }

    // MARK: - Features

    private mutating func updateFeature(_ pose: Pose, useDepth: Bool) -> Bool {
        let root = pose[.root]
        let neck = pose[.neck]
        guard root.confidence > 0, neck.confidence > 0 else { return false }
        let depth = useDepth && root.z != nil && neck.z != nil
        let dz = depth ? (neck.z! - root.z!) : 0
        let length = ((neck.x - root.x) * (neck.x - root.x) + (neck.y - root.y) * (neck.y - root.y) + dz * dz)
            .squareRoot()
        guard length > 1e-6 else { return false }
        torso = torso == 0 ? length : torso + 0.05 * (length - torso)
        let scale = 1 / torso
        for (index, joint) in joints.enumerated() {
            let k = pose[joint]
            guard k.confidence > 0 else { continue }  // hold the last value
            feature[index * 3] = (k.x - root.x) * scale
            feature[index * 3 + 1] = (k.y - root.y) * scale
            feature[index * 3 + 2] = (depth && k.z != nil) ? (k.z! - root.z!) * scale : 0
        }
        return true
    }

    private mutating func store(at seconds: Double) {
        let base = ringNext * dimension
        for d in 0..<dimension { ring[base + d] = feature[d] }
        ringTimes[ringNext] = seconds
        ringBreaks[ringNext] = breakPending
        breakPending = false
        ringNext = (ringNext + 1) % capacity
        ringCount = min(ringCount + 1, capacity)
    }

    private func project(_ values: [Double], offset: Int = 0) -> Double {
        let dim = dimension
        return values.withUnsafeBufferPointer { values in
            countedLow.withUnsafeBufferPointer { low in
                countedHigh.withUnsafeBufferPointer { high in
                    mean.withUnsafeBufferPointer { mean in
                        component.withUnsafeBufferPointer { component in
                            var sum = 0.0
                            for d in 0..<dim {
                                let v = values[offset + d]
                                let clipped = v > high[d] ? high[d] : (v < low[d] ? low[d] : v)
                                sum += (clipped - mean[d]) * component[d]
                            }
                            return sum
                        }
                    }
                }
            }
        }
    }

    @inline(__always)
    private func countedClip(_ v: Double, _ d: Int) -> Double {
        v > countedHigh[d] ? countedHigh[d] : (v < countedLow[d] ? countedLow[d] : v)
    }

    /// Where a joint spends this many samples of the window (1.6 s in all) is a position the person took, not a
    /// glitch to clip (Kinect's foot glitches take about 10% of UI-PRMD's frames): the clip reaches from the
    /// median to the 17th-lowest and the 17th-highest samples.
    private static let heldSamples = 16
    /// Held positions widen the clip once the window holds this many samples (6 s); a short window (a clip of
    /// a few seconds) keeps the plain robust clip.
    private static let heldWindowSamples = 60

    private mutating func updateClipping(_ n: Int) {
        let dim = dimension
        window.withUnsafeBufferPointer { window in
            sortScratch.withUnsafeMutableBufferPointer { buffer in
                let part = UnsafeMutableBufferPointer(rebasing: buffer[0..<n])
                for d in 0..<dim {
                    var lowest = Double.infinity
                    var highest = -Double.infinity
                    for i in 0..<n {
                        let v = window[i * dim + d]
                        part[i] = v
                        lowest = Swift.min(lowest, v)
                        highest = Swift.max(highest, v)
                    }
                    // One value throughout (z in a 2-D recording): its median, no deviation.
                    if lowest == highest {
                        spread[d] = 0.05
                        center[d] = lowest
                        continue
                    }
                    let median = quickselect(part, n / 2)
                    for i in 0..<n { part[i] = abs(part[i] - median) }
                    var limit = 3 * 1.4826 * quickselect(part, n / 2)
                    // The clip reaches every position taken for 1.6 s: only where that many samples lie beyond it
                    // on one side is the held one found (two selections; a steady back-and-forth never gets there).
                    if n >= Self.heldWindowSamples {
                        var below = 0
                        var above = 0
                        for i in 0..<n {
                            let v = window[i * dim + d]
                            if v < median - limit { below += 1 } else if v > median + limit { above += 1 }
                        }
                        if below > Self.heldSamples || above > Self.heldSamples {
                            for i in 0..<n { part[i] = window[i * dim + d] }
                            let low = quickselect(part, Self.heldSamples)
                            let high = quickselect(part, n - 1 - Self.heldSamples)
                            limit = Swift.max(limit, median - low, high - median)
                        }
                    }
                    spread[d] = limit + 0.05
                    center[d] = median
                }
            }
        }
    }

    /// Copies the window of this update into `window`, oldest first, and returns its number of samples: the
    /// usual `windowSeconds`, or two typical repetitions when they are slower; until a repetition is counted,
    /// nothing says how long one lasts, so the whole ring (the longest repetition allowed). A raise held 10 s at
    /// the top filled the usual window with one position: its clip and its component were that position's
    /// noise, and the repetition was lost.
    private mutating func fillWindow() -> Int {
        let seconds =
            count == 0
            ? Double(capacity) * Self.sampleSeconds
            : max(configuration.windowSeconds, 2 * counter.typicalRepetitionSeconds)
        let n = min(ringCount, max(windowSamples, Int((seconds / Self.sampleSeconds).rounded())))
        let start = (ringNext - n + capacity) % capacity
        let dim = dimension
        for k in 0..<n {
            let i = (start + k) % capacity
            for d in 0..<dim { window[k * dim + d] = ring[i * dim + d] }
            windowTimes[k] = ringTimes[i]
            windowBreaks[k] = ringBreaks[i]
        }
        return n
    }

    /// Recomputes the principal component; replays the window when the movement changed.
    private mutating func updateComponent() {
        let dim = dimension
        let n = fillWindow()
        updateClipping(n)
        // Clip the window once into `clipped`, then work on that: the mean of each dimension, and only the
        // dimensions that move take part (z is all zeros in 2-D recordings), packed and centred.
        var m = 0
        window.withUnsafeBufferPointer { window in
            clipped.withUnsafeMutableBufferPointer { c in
                center.withUnsafeBufferPointer { center in
                    spread.withUnsafeBufferPointer { spread in
                        mean.withUnsafeMutableBufferPointer { mean in
                            for i in 0..<n {
                                let base = i * dim
                                for d in 0..<dim {
                                    let v = window[base + d]
                                    let high = center[d] + spread[d]
                                    let low = center[d] - spread[d]
                                    c[base + d] = v > high ? high : (v < low ? low : v)
                                }
                            }
                            for d in 0..<dim { mean[d] = 0 }
                            for i in 0..<n {
                                let base = i * dim
                                for d in 0..<dim { mean[d] += c[base + d] }
                            }
                            for d in 0..<dim { mean[d] /= Double(n) }
                            active.withUnsafeMutableBufferPointer { active in
                                for d in 0..<dim {
                                    var i = 0
                                    while i < n, c[i * dim + d] == mean[d] { i += 1 }
                                    if i < n {
                                        active[m] = d
                                        m += 1
                                    }
                                }
                                guard m > 0 else { return }
                                for i in 0..<n {
                                    let base = i * dim
                                    // i * m <= base: in place.
                                    for k in 0..<m { c[i * m + k] = c[base + active[k]] - mean[active[k]] }
                                }
                            }
                        }
                    }
                }
            }
        }
        let previous0 = hasComponent
        for d in 0..<dim { scratch[d] = component[d] }  // keep the old component for comparison
        guard m > 0 else { return }
        Self.accumulateCovariance(of: clipped, rows: n, columns: m, into: &covariance)
        // The leading principal components, by power iteration with deflation in the packed space (the
        // first warm-started from the previous first component), and how periodic each one's projection is.
        // A periodic component that is the movement counted so far stays counted, unless the leading one is
        // more periodic (two movements of similar size would otherwise take turns, each turn a replay). Otherwise the first one counts unless it is
        // not periodic (a joint that jumped and stayed, a tracking glitch lasting seconds) while a weaker
        // one, still a real movement, clearly is.
        var chosen = -1
        var firstScore = 0.0
        var bestScore = 0.0
        var firstEigenvalue = 0.0
        for k in 0..<Self.componentCount {
            let warm = k == 0 && hasFirst
            if warm {
                for j in 0..<m { product[j] = first[active[j]] }
            } else {
                // A start vector not orthogonal to the usual movements: uniform, slightly tilted.
                for j in 0..<m { product[j] = (1 + 0.1 * Double(j % 7)) / Double(m).squareRoot() }
            }
            guard let eigenvalue = powerIteration(m, iterations: warm ? 8 : 25) else { break }
            if k == 0 {
                firstEigenvalue = eigenvalue
                for d in 0..<dim { first[d] = 0 }
                for j in 0..<m { first[active[j]] = product[j] }
                hasFirst = true
            } else if eigenvalue < Self.minimumEigenvalueShare * firstEigenvalue {
                break
            }
            let score = periodicity(n, m)
            var same = 0.0
            if previous0 {
                for j in 0..<m { same += product[j] * scratch[active[j]] }
            }
            if previous0, score >= 0.5, abs(same) >= 0.7, k == 0 || score >= firstScore {
                chosen = k
                for j in 0..<m { packedChoice[j] = product[j] }
                break
            }
            if k == 0 {
                firstScore = score
                chosen = 0
                for j in 0..<m { packedChoice[j] = product[j] }
            } else if firstScore < 0.5, score >= 0.7, score > bestScore + 0.2 {
                chosen = k
                bestScore = score
                for j in 0..<m { packedChoice[j] = product[j] }
            }
            if k == 0 { bestScore = score }
            // The first time, a periodic leading component is the movement: the others need not be found.
            if k == 0, score >= 0.5, !previous0 { break }
            if k + 1 < Self.componentCount { deflate(m, eigenvalue) }
        }
        guard chosen >= 0 else { return }
        lastChoice = chosen
        for d in 0..<dim { component[d] = 0 }
        for j in 0..<m { component[active[j]] = packedChoice[j] }
        var oldDot = 0.0
        for d in 0..<dim { oldDot += scratch[d] * component[d] }
        if previous0, oldDot < 0 {
            for d in 0..<dim { component[d] = -component[d] }
            oldDot = -oldDot
        }
        let changed = !previous0 || oldDot < 0.7
        for d in 0..<dim {
            countedLow[d] = changed ? center[d] - spread[d] : min(countedLow[d], center[d] - spread[d])
            countedHigh[d] = changed ? center[d] + spread[d] : max(countedHigh[d], center[d] + spread[d])
        }
        hasComponent = true
        guard changed else { return }
        // Rest side: where the projection spends most of its time.
        var lo = Double.infinity
        var hi = -Double.infinity
        for i in 0..<n {
            let p = project(window, offset: i * dim)
            lo = min(lo, p)
            hi = max(hi, p)
        }
        let mid = (lo + hi) / 2
        var below = 0
        for i in 0..<n where project(window, offset: i * dim) < mid { below += 1 }
        // Rest side: people start an exercise from its start position, so the oldest sample of the
        // window tells it when it is clearly on one side; otherwise the side the signal spends most time on.
        let oldest = project(window)
        let newDirection: Double
        if abs(oldest - mid) > 0.2 * (hi - lo) {
            newDirection = oldest < mid ? 1 : -1
        } else {
            newDirection = below * 2 >= n ? 1 : -1
        }
        direction = newDirection
        // Replay the window (oldest first) so that the first repetitions of the movement count.
        counter = RepCounter(configuration: Self.counterConfiguration(configuration, direction: direction))
        var previousTime = -Double.infinity
        for i in 0..<n {
            // An invalid stretch (walking, out of frame) is not bridged. One the caller held as a gap (no samples,
            // none invalid) is, up to a limit, when the movement continues after it where it was: the caller could
            // judge that only once the movement was known (``continues(with:useDepth:)``).
            let value = project(window, offset: i * dim)
            let gap = windowTimes[i] - previousTime
            if windowBreaks[i] || gap > Self.longestBridge || (gap > 0.35 && !counter.continues(with: value)) {
                _ = counter.ingest(nil, at: windowTimes[i], valid: false)
            }
            previousTime = windowTimes[i]
            if case .completed(let rep) = counter.ingest(value, at: windowTimes[i]) {
                accept(rep)
            }
        }
    }

    /// `covariance[0..<m*m]` = XᵀX of the first `rows` rows of the row-major `rows × columns` matrix X in `values`
    /// (its upper triangle accumulated row by row, four columns at a time, then mirrored). Each entry adds the
    /// same products in the same order as a scalar loop, so the sums are the same to the last bit.
    static func accumulateCovariance(of values: [Double], rows n: Int, columns m: Int, into covariance: inout [Double])
    {
        covariance.withUnsafeMutableBufferPointer { cov in
            values.withUnsafeBufferPointer { c in
                guard let cov = cov.baseAddress, let c = c.baseAddress else { return }
                for i in 0..<(m * m) { cov[i] = 0 }
                for i in 0..<n {
                    let x = c + i * m
                    for a in 0..<m {
                        let va = x[a]
                        if va == 0 { continue }
                        let row = cov + a * m
                        let scale = SIMD4<Double>(repeating: va)
                        var b = a
                        while b + 4 <= m {
                            let sum =
                                UnsafeRawPointer(row + b).loadUnaligned(as: SIMD4<Double>.self)
                                + scale * UnsafeRawPointer(x + b).loadUnaligned(as: SIMD4<Double>.self)
                            UnsafeMutableRawPointer(row + b).storeBytes(of: sum, as: SIMD4<Double>.self)
                            b += 4
                        }
                        while b < m {
                            row[b] += va * x[b]
                            b += 1
                        }
                    }
                }
                for a in 0..<m { for b in 0..<a { cov[a * m + b] = cov[b * m + a] } }
            }
        }
    }

    /// Power iteration on the packed covariance from the start vector in `product[0..<m]`; leaves the unit
    /// eigenvector there and returns its eigenvalue (`nil` when the covariance is zero).
    private mutating func powerIteration(_ m: Int, iterations: Int) -> Double? {
        var eigenvalue = 0.0
        var ok = true
        covariance.withUnsafeBufferPointer { cov in
            product.withUnsafeMutableBufferPointer { v in
                for _ in 0..<iterations {
                    var norm = 0.0
                    for a in 0..<m {
                        var sum = 0.0
                        let row = a * m
                        for b in 0..<m { sum += cov[row + b] * v[b] }
                        norm += sum * sum
                        v[m + a] = sum
                    }
                    norm = norm.squareRoot()
                    if norm <= 1e-12 {
                        ok = false
                        return
                    }
                    eigenvalue = norm
                    for a in 0..<m { v[a] = v[m + a] / norm }
                }
            }
        }
        return ok ? eigenvalue : nil
    }

    /// Removes the component in `product[0..<m]` from the packed covariance.
    private mutating func deflate(_ m: Int, _ eigenvalue: Double) {
        covariance.withUnsafeMutableBufferPointer { cov in
            product.withUnsafeBufferPointer { v in
                for a in 0..<m {
                    let va = eigenvalue * v[a]
                    let row = a * m
                    for b in 0..<m { cov[row + b] -= va * v[b] }
                }
            }
        }
    }

    /// How periodic the window's projection on `product[0..<m]` is: the highest correlation between the
    /// series and itself shifted by a lag past its first zero crossing (lags 0.3 s to 70 % of the
    /// window); 0 when the correlation never turns negative (a step, a drift).
    private mutating func periodicity(_ n: Int, _ m: Int) -> Double {
        for i in 0..<n {
            var sum = 0.0
            let base = i * m
            for j in 0..<m { sum += clipped[base + j] * product[j] }
            series[i] = sum
        }
        let minimumLag = 3
        let maximumLag = min(n - 12, n * 7 / 10)
        guard maximumLag > minimumLag else { return 0 }
        var crossed = false
        var best = 0.0
        for lag in minimumLag...maximumLag {
            let overlap = n - lag
            var sa = 0.0
            var sb = 0.0
            var saa = 0.0
            var sbb = 0.0
            var sab = 0.0
            for i in 0..<overlap {
                let a = series[i]
                let b = series[i + lag]
                sa += a
                sb += b
                saa += a * a
                sbb += b * b
                sab += a * b
            }
            let count = Double(overlap)
            let cov = sab - sa * sb / count
            let va = saa - sa * sa / count
            let vb = sbb - sb * sb / count
            guard va > 1e-12, vb > 1e-12 else { continue }
            let r = cov / (va * vb).squareRoot()
            if r < 0 { crossed = true } else if crossed, r > best { best = r }
        }
        return best
    }
}

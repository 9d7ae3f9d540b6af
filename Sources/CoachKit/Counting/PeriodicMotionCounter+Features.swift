import PoseKit

extension PeriodicMotionCounter {
    mutating func updateFeature(_ pose: Pose, useDepth: Bool) -> Bool {
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

    mutating func store(at seconds: Double) {
        let base = ringNext * dimension
        for d in 0..<dimension { ring[base + d] = feature[d] }
        ringTimes[ringNext] = seconds
        ringBreaks[ringNext] = breakPending
        breakPending = false
        ringNext = (ringNext + 1) % capacity
        ringCount = min(ringCount + 1, capacity)
    }

    func project(_ values: [Double], offset: Int = 0) -> Double {
        var sum = 0.0
        for d in 0..<dimension { sum += (countedClip(values[offset + d], d) - mean[d]) * component[d] }
        return sum
    }

    @inline(__always)
    func clip(_ v: Double, _ d: Int) -> Double {
        let c = center[d]
        let r = spread[d]
        return v > c + r ? c + r : (v < c - r ? c - r : v)
    }

    @inline(__always)
    func countedClip(_ v: Double, _ d: Int) -> Double {
        v > countedHigh[d] ? countedHigh[d] : (v < countedLow[d] ? countedLow[d] : v)
    }

    /// Where a joint spends this many samples of the window (1.6 s in all) is a position the person took, not a
    /// glitch to clip (Kinect's foot glitches take about 10% of UI-PRMD's frames): the clip reaches from the
    /// median to the 17th-lowest and the 17th-highest samples.
    private static let heldSamples = 16
    /// Held positions widen the clip once the window holds this many samples (6 s); a short window (a clip of
    /// a few seconds) keeps the plain robust clip.
    private static let heldWindowSamples = 60

    mutating func updateClipping(_ n: Int) {
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
    mutating func fillWindow() -> Int {
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
}

extension PeriodicMotionCounter {
    /// Recomputes the principal component; replays the window when the movement changed.
    mutating func updateComponent() {
        let dim = dimension
        let n = fillWindow()
        updateClipping(n)
        // Clip the window once into `clipped`, then work on that.
        for i in 0..<n {
            let base = i * dim
            for d in 0..<dim { clipped[base + d] = clip(window[base + d], d) }
        }
        for d in 0..<dim { mean[d] = 0 }
        for i in 0..<n {
            let base = i * dim
            for d in 0..<dim { mean[d] += clipped[base + d] }
        }
        for d in 0..<dim { mean[d] /= Double(n) }
        // Only dimensions that move take part (z is all zeros in 2-D recordings): pack them, centred.
        var m = 0
        for d in 0..<dim {
            var moves = false
            for i in 0..<n where clipped[i * dim + d] != mean[d] {
                moves = true
                break
            }
            if moves {
                active[m] = d
                m += 1
            }
        }
        let previous0 = hasComponent
        for d in 0..<dim { scratch[d] = component[d] }  // keep the old component for comparison
        guard m > 0 else { return }
        clipped.withUnsafeMutableBufferPointer { c in
            for i in 0..<n {
                let base = i * dim
                for k in 0..<m { c[i * m + k] = c[base + active[k]] - mean[active[k]] }  // i * m <= base: in place
            }
        }
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

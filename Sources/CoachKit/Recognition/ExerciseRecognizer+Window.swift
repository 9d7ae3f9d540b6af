import RealModule

extension ExerciseRecognizer {
    mutating func decide() {
        let n = ringCount
        let otherKindRunnerUp = configuration.scoring.otherKindRunnerUp
        // Robust range (10th–90th percentile) and mean of every scalar feature the scores read over the window.
        ring.withUnsafeBufferPointer { ring in
            scratch.withUnsafeMutableBufferPointer { scratch in
                for f in summarised {
                    var m = 0
                    var sum = 0.0
                    for i in 0..<n {
                        let v = ring[i * Self.featureCount + f]
                        if v.isNaN { continue }
                        scratch[m] = v
                        m += 1
                        sum += v
                    }
                    guard m >= max(3, n / 3) else {
                        low[f] = .nan
                        high[f] = .nan
                        mean[f] = .nan
                        continue
                    }
                    (low[f], high[f]) = tenthAndNinetiethPercentiles(
                        UnsafeMutableBufferPointer(rebasing: scratch[0..<m])
                    )
                    mean[f] = sum / Double(m)
                }
            }
        }
        // The view mode most samples had.
        var modes = (0, 0, 0)
        for i in 0..<n {
            switch ring[i * Self.featureCount + Self.viewSlot] {
            case 0: modes.0 += 1
            case 1: modes.1 += 1
            case 2: modes.2 += 1
            default: break
            }
        }
        viewMode = modes.0 >= modes.1 && modes.0 >= modes.2 ? 0 : (modes.1 >= modes.2 ? 1 : 2)
        handTravel = measuredHandTravel()
        for slot in 0..<Self.segmentSlots { summariseSegment(slot, count: n) }
        for hinge in 0..<4 { summariseHinge(hinge, count: n) }

        var best = -1
        var bestScore = 0.0
        for (index, exercise) in exercises.enumerated() {
            let s = score(exercise)
            scores[index] = s
            if s > bestScore {
                bestScore = s
                best = index
            }
        }
        // The runner-up: the best other score, an exercise of the other kind (a hold against a repetition
        // exercise, or the reverse) counted at ``Scoring/Configuration/otherKindRunnerUp`` of its score.
        var second = 0.0
        let winnerHolds = best >= 0 && exercises[best].hold != nil
        for index in exercises.indices where index != best {
            let s = (exercises[index].hold != nil) == winnerHolds ? scores[index] : scores[index] * otherKindRunnerUp
            second = max(second, s)
        }
        // The winner's share against the runner-up and a background "none of these" hypothesis.
        let confidence = bestScore / (bestScore + second + configuration.scoring.background)
        if best >= 0, confidence >= configuration.minimumConfidence {
            bestIndex = best
            state = .exercise(id: exercises[best].id, confidence: min(1, confidence))
        } else {
            bestIndex = nil
            state = .lowConfidence
        }
    }

    /// The range of the angle between the directions of the two segments a hinge joins over the window:
    /// hinge 0/1 the elbow (upper arm, forearm), 2/3 the knee (thigh, shank), left/right.
    private mutating func summariseHinge(_ hinge: Int, count n: Int) {
        hingeRange[hinge] = .nan
        let upper = Self.segmentBase + (hinge < 2 ? hinge : 2 + hinge) * 3
        let fore = upper + 6
        var m = 0
        for i in 0..<n {
            let b = i * Self.featureCount
            let ux = ring[b + upper]
            let uy = ring[b + upper + 1]
            let uz = ring[b + upper + 2]
            let fx = ring[b + fore]
            let fy = ring[b + fore + 1]
            let fz = ring[b + fore + 2]
            guard !ux.isNaN, !uy.isNaN, !uz.isNaN, !fx.isNaN, !fy.isNaN, !fz.isNaN else { continue }
            let nu = (ux * ux + uy * uy + uz * uz).squareRoot()
            let nf = (fx * fx + fy * fy + fz * fz).squareRoot()
            guard nu > 1e-6, nf > 1e-6 else { continue }
            // The cosine is monotonic in the angle: percentiles of the cosines, two acos at the end.
            scratch[m] = min(1, max(-1, (ux * fx + uy * fy + uz * fz) / (nu * nf)))
            m += 1
        }
        guard m >= max(3, n / 3) else { return }
        let (lo, hi) = tenthAndNinetiethPercentiles(&scratch, count: m)
        hingeRange[hinge] = (Double.acos(lo) - Double.acos(hi)) * 180 / .pi
    }

    /// The swing of one segment: its main axis of motion (power iteration on the 3 × 3 covariance of its
    /// directions), the 10–90 % range along it, and the mean direction at each end (lower end first).
    private mutating func summariseSegment(_ slot: Int, count n: Int) {
        let base = Self.segmentBase + slot * 3
        swing[slot] = 0
        for i in 0..<6 { swingEnds[slot * 6 + i] = .nan }
        forwardMean[slot] = .nan
        var m = 0
        var sx = 0.0
        var sy = 0.0
        var sz = 0.0
        for i in 0..<n {
            let k = i * Self.featureCount + base
            guard !ring[k].isNaN, !ring[k + 1].isNaN, !ring[k + 2].isNaN else { continue }
            m += 1
            sx += ring[k]
            sy += ring[k + 1]
            sz += ring[k + 2]
        }
        guard m >= max(5, n / 3) else { return }
        let mx = sx / Double(m)
        let my = sy / Double(m)
        let mz = sz / Double(m)
        forwardMean[slot] = my
        var cxx = 0.0
        var cxy = 0.0
        var cxz = 0.0
        var cyy = 0.0
        var cyz = 0.0
        var czz = 0.0
        for i in 0..<n {
            let k = i * Self.featureCount + base
            guard !ring[k].isNaN, !ring[k + 1].isNaN, !ring[k + 2].isNaN else { continue }
            let x = ring[k] - mx
            let y = ring[k + 1] - my
            let z = ring[k + 2] - mz
            cxx += x * x
            cxy += x * y
            cxz += x * z
            cyy += y * y
            cyz += y * z
            czz += z * z
        }
        // Start from the axis with the largest variance.
        var ax = cxx >= cyy && cxx >= czz ? 1.0 : 0.0
        var ay = ax == 0 && cyy >= czz ? 1.0 : 0.0
        var az = ax == 0 && ay == 0 ? 1.0 : 0.0
        for _ in 0..<12 {
            let nx = cxx * ax + cxy * ay + cxz * az
            let ny = cxy * ax + cyy * ay + cyz * az
            let nz = cxz * ax + cyz * ay + czz * az
            let norm = (nx * nx + ny * ny + nz * nz).squareRoot()
            guard norm > 1e-12 else {
                // Perfectly still: seen, no swing, both ends at the mean direction.
                for i in 0..<2 {
                    swingEnds[slot * 6 + i * 3] = mx
                    swingEnds[slot * 6 + i * 3 + 1] = my
                    swingEnds[slot * 6 + i * 3 + 2] = mz
                }
                return
            }
            ax = nx / norm
            ay = ny / norm
            az = nz / norm
        }
        var j = 0
        for i in 0..<n {
            let k = i * Self.featureCount + base
            guard !ring[k].isNaN, !ring[k + 1].isNaN, !ring[k + 2].isNaN else { continue }
            scratch[j] = (ring[k] - mx) * ax + (ring[k + 1] - my) * ay + (ring[k + 2] - mz) * az
            j += 1
        }
        let (lo, hi) = tenthAndNinetiethPercentiles(&scratch, count: m)
        swing[slot] = hi - lo
        // The mean direction at each end of the swing.
        var low = (0.0, 0.0, 0.0, 0.0)
        var high = (0.0, 0.0, 0.0, 0.0)
        for i in 0..<n {
            let k = i * Self.featureCount + base
            guard !ring[k].isNaN, !ring[k + 1].isNaN, !ring[k + 2].isNaN else { continue }
            let p = (ring[k] - mx) * ax + (ring[k + 1] - my) * ay + (ring[k + 2] - mz) * az
            if p <= lo {
                low = (low.0 + ring[k], low.1 + ring[k + 1], low.2 + ring[k + 2], low.3 + 1)
            } else if p >= hi {
                high = (high.0 + ring[k], high.1 + ring[k + 1], high.2 + ring[k + 2], high.3 + 1)
            }
        }
        guard low.3 > 0, high.3 > 0 else { return }
        var first = (low.0 / low.3, low.1 / low.3, low.2 / low.3)
        var second = (high.0 / high.3, high.1 / high.3, high.2 / high.3)
        if first.2 > second.2 { swap(&first, &second) }
        swingEnds[slot * 6] = first.0
        swingEnds[slot * 6 + 1] = first.1
        swingEnds[slot * 6 + 2] = first.2
        swingEnds[slot * 6 + 3] = second.0
        swingEnds[slot * 6 + 4] = second.1
        swingEnds[slot * 6 + 5] = second.2
    }
}

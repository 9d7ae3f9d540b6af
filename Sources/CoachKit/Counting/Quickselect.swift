/// The `k`-th smallest value of `buffer` (0-based), reordering it in place; allocation-free, unlike
/// the standard library's sort (which allocates a merge buffer).
///
/// - Complexity: O(n) on average.
func quickselect(_ buffer: UnsafeMutableBufferPointer<Double>, _ k: Int) -> Double {
    precondition(k >= 0 && k < buffer.count, "k (\(k)) must index the buffer (count \(buffer.count))")
    var lo = 0
    var hi = buffer.count - 1
    while lo < hi {
        // Median of three as the pivot.
        let mid = lo + (hi - lo) / 2
        if buffer[mid] < buffer[lo] { buffer.swapAt(mid, lo) }
        if buffer[hi] < buffer[lo] { buffer.swapAt(hi, lo) }
        if buffer[hi] < buffer[mid] { buffer.swapAt(hi, mid) }
        let pivot = buffer[mid]
        var i = lo
        var j = hi
        while i <= j {
            while buffer[i] < pivot { i += 1 }
            while buffer[j] > pivot { j -= 1 }
            if i <= j {
                buffer.swapAt(i, j)
                i += 1
                j -= 1
            }
        }
        if k <= j {
            hi = j
        } else if k >= i {
            lo = i
        } else {
            return buffer[k]
        }
    }
    return buffer[k]
}

/// The 10th and 90th percentiles of the first `count` values of `values` (the `count / 10`-th smallest and
/// largest, 0-based; no allocation). Reorders the values only when `count` is over 160.
func tenthAndNinetiethPercentiles(_ values: inout [Double], count: Int) -> (low: Double, high: Double) {
    values.withUnsafeMutableBufferPointer { buffer in
        tenthAndNinetiethPercentiles(UnsafeMutableBufferPointer(rebasing: buffer[0..<count]))
    }
}

/// The 10th and 90th percentiles of `values` (no NaN): the `count / 10`-th smallest and largest, 0-based.
///
/// Up to 160 values (a recogniser's window), the k + 1 smallest and largest seen so far are kept in order on the
/// stack, one pass over the values: most values pass both bounds with two comparisons, several times faster than
/// two selections, and the values are left as they are. Beyond that, two quickselects reorder them.
func tenthAndNinetiethPercentiles(_ values: UnsafeMutableBufferPointer<Double>) -> (low: Double, high: Double) {
    let count = values.count
    precondition(count > 0, "percentiles of no values")
    let k = count / 10
    guard k < 16 else { return (quickselect(values, k), quickselect(values, count - 1 - k)) }
    let kept = k + 1
    return withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * kept) { buffer in
        // lows: ascending, the smallest so far; highs: descending, the largest so far; each `filled` long.
        let lows = buffer.baseAddress!
        let highs = lows + kept
        var filled = 0
        for v in values {
            // A value enters where it belongs, pushing the last one kept out once all `kept` are held.
            if filled < kept || v < lows[k] {
                var i = min(filled, k)
                while i > 0, lows[i - 1] > v {
                    lows[i] = lows[i - 1]
                    i -= 1
                }
                lows[i] = v
            }
            if filled < kept || v > highs[k] {
                var j = min(filled, k)
                while j > 0, highs[j - 1] < v {
                    highs[j] = highs[j - 1]
                    j -= 1
                }
                highs[j] = v
            }
            filled = min(filled + 1, kept)
        }
        return (lows[k], highs[k])
    }
}

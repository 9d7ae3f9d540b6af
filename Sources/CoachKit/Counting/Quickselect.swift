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

/// The 10th and 90th percentiles of the first `count` values of `values` (reordered in place; no allocation).
func tenthAndNinetiethPercentiles(_ values: inout [Double], count: Int) -> (low: Double, high: Double) {
    values.withUnsafeMutableBufferPointer { buffer in
        let part = UnsafeMutableBufferPointer(rebasing: buffer[0..<count])
        return (quickselect(part, count / 10), quickselect(part, count - 1 - count / 10))
    }
}

import Foundation

/// The pose-track lines a later segment found, kept in time order until the drawing stream reaches them.
///
/// In an annotated run the first stream decodes and draws every frame, but finds the poses only up to the
/// first boundary; from there on it takes each frame's line from the segment that tracked it. That segment
/// runs ahead (it does no drawing), so its lines wait here: about a kilobyte a frame, never a picture. One
/// thread writes, one reads.
///
/// ```swift
/// let spool = PoseLineSpool()
/// spool.append(seconds: 5.5, line: line)   // the later segment
/// spool.close()
/// spool.line(at: 5.5, tolerance: 0.02)     // the drawing stream: `line`, or nil when there is none
/// ```
final class PoseLineSpool: @unchecked Sendable {
    private let condition = NSCondition()
    private var entries: [(seconds: Double, line: String)] = []
    private var head = 0
    private var closed = false
    private var abandoned = false

    /// Adds the line of the frame at `seconds` (frames come in time order).
    func append(seconds: Double, line: String) {
        condition.lock()
        entries.append((seconds, line))
        condition.broadcast()
        condition.unlock()
    }

    /// No more lines will come (the segment ended, or failed).
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until the segment has ended, at most `timeout` seconds; `true` if it has.
    func waitUntilClosed(timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: max(0, timeout))
        condition.lock()
        defer { condition.unlock() }
        while !closed {
            if !condition.wait(until: deadline) { return closed }
        }
        return true
    }

    /// The lines will not be taken: the segment may stop (it reads ``isAbandoned``).
    func abandon() {
        condition.lock()
        abandoned = true
        condition.unlock()
    }

    /// Whether the reader gave up on these lines (``abandon()``).
    var isAbandoned: Bool {
        condition.lock()
        defer { condition.unlock() }
        return abandoned
    }

    /// The line of the frame at `seconds`, waiting until the segment has reached it; lines of earlier frames
    /// are dropped. `nil` when the segment has no frame within `tolerance` of `seconds` (it ended, or its
    /// next frame is later): the caller then finds that frame's poses itself.
    func line(at seconds: Double, tolerance: Double) -> String? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            while head < entries.count, entries[head].seconds < seconds - tolerance { head += 1 }
            if head < entries.count {
                let entry = entries[head]
                guard entry.seconds <= seconds + tolerance else { return nil }
                head += 1
                compact()
                return entry.line
            }
            if closed { return nil }
            condition.wait()
        }
    }

    /// Frees the lines already taken once they are the larger part (amortised O(1) a line).
    private func compact() {
        guard head >= 1024, head * 2 >= entries.count else { return }
        entries.removeFirst(head)
        head = 0
    }
}

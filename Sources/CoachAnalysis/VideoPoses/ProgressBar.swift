import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A one-line progress bar on standard error (only when it is a terminal).
public final class ProgressBar: Sendable {
    private let total: Int?
    private let descriptor: Int32
    private let enabled: Bool
    private let done = Atomic<Int>(0)
    private let lastDraw = Mutex(ContinuousClock.Instant.now)
    private let started = ContinuousClock.Instant.now

    public init(total: Int?, descriptor: Int32, enabled: Bool) {
        self.total = total
        self.descriptor = descriptor
        self.enabled = enabled
    }

    /// Counts one more frame (from any thread).
    public func advance() { done.add(1, ordering: .relaxed) }

    /// Redraws, at most ten times a second; call from one thread.
    public func draw() {
        guard enabled else { return }
        let now = ContinuousClock.Instant.now
        let due = lastDraw.withLock { last in
            guard last.duration(to: now) > .milliseconds(100) else { return false }
            last = now
            return true
        }
        guard due else { return }
        let count = done.load(ordering: .relaxed)
        let elapsed = started.duration(to: now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        let rate = seconds > 0 ? Double(count) / seconds : 0
        write("\r" + Self.text(count: count, estimate: total, rate: rate))
    }

    /// The bar's text. The frame count is an estimate (variable frame rates): past it, the bar waits at 99 % and
    /// the total grows with the count, so it never reads "100 % 1218/1095".
    static func text(count: Int, estimate: Int?, rate: Double) -> String {
        var line = ""
        if let estimate, estimate > 0 {
            let total = max(estimate, count + 1)
            let fraction = min(0.99, Double(count) / Double(total))
            let filled = Int(fraction * 30)
            line += "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: 30 - filled) + "] "
            line += "\(Int(fraction * 100))% \(count)/~\(total) frames"
        } else {
            line += "\(count) frames"
        }
        return line + ", \(PosesOutcome.format(rate, 1)) frames/s   "
    }

    private func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in _ = Glibc.write(descriptor, bytes.baseAddress, bytes.count) }
    }

    /// Removes the bar.
    public func clear() {
        guard enabled else { return }
        write("\r" + String(repeating: " ", count: 79) + "\r")
    }
}

import Foundation

/// What a decoding ffmpeg writes to standard error: one `showinfo` timestamp per frame, and the
/// lines that report errors.
///
/// The drain thread calls ``ingest(_:)``; the decoding thread waits in ``timestamp(ofFrame:)``.
/// ffmpeg logs a frame's `showinfo` line before it writes the frame to standard output, so the
/// timestamp of a frame just read is always on its way.
// @unchecked: every stored property is guarded by `condition`.
final class FFmpegLog: @unchecked Sendable {
    private let condition = NSCondition()
    private var timestamps: [Double] = []
    private var firstIndex = 0
    private var ended = false
    private var errors: [String] = []

    /// Takes one standard-error line.
    func ingest(_ line: String) {
        if line.hasPrefix("[Parsed_showinfo"), line.contains(" n:"), let range = line.range(of: "pts_time:") {
            let value = line[range.upperBound...].prefix { !$0.isWhitespace }
            let seconds = Double(value) ?? .nan
            condition.lock()
            timestamps.append(seconds)
            condition.signal()
            condition.unlock()
        } else if Self.isError(line) {
            condition.lock()
            if errors.count < 8 { errors.append(line) }
            condition.unlock()
        }
    }

    /// Marks the end of standard error (wakes a waiting reader).
    func end() {
        condition.lock()
        ended = true
        condition.broadcast()
        condition.unlock()
    }

    /// The `pts_time` of frame `index` (0-based, in decoding order), waiting for its line if needed;
    /// `nil` if standard error ended without it, NaN if ffmpeg printed no number.
    func timestamp(ofFrame index: Int) -> Double? {
        condition.lock()
        defer { condition.unlock() }
        // The deadline only guards against a line that never comes (a format change in ffmpeg's log).
        let deadline = Date(timeIntervalSinceNow: 10)
        while index - firstIndex >= timestamps.count, !ended {
            if !condition.wait(until: deadline) { return .nan }
        }
        guard index >= firstIndex, index - firstIndex < timestamps.count else { return nil }
        let value = timestamps[index - firstIndex]
        // Drop what was consumed now and then, so the buffer stays a few entries long.
        let consumed = index - firstIndex + 1
        if consumed >= 64 {
            timestamps.removeFirst(consumed)
            firstIndex += consumed
        }
        return value
    }

    /// The error lines seen so far (at most 8).
    var errorLines: [String] {
        condition.lock()
        defer { condition.unlock() }
        return errors
    }

    static func isError(_ line: String) -> Bool {
        if line.hasPrefix("[Parsed_showinfo") || line.hasPrefix(" ") { return false }
        let lower = line.lowercased()
        return lower.contains("error") || lower.contains("invalid") || lower.contains("partial file")
            || lower.contains("not found") || lower.contains("corrupt") || lower.contains("truncat")
            || lower.contains("no such") || lower.contains("unsupported")
    }
}

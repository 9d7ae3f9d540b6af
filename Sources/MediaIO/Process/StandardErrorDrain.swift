import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a child's standard error on its own thread, line by line, keeping the last lines.
///
/// Without a reader, a child that writes much to standard error (ffmpeg's per-frame `showinfo`)
/// would fill the pipe and stall.
final class StandardErrorDrain: Sendable {
    private struct State {
        var tail: [String] = []
    }

    private let state = Mutex(State())
    private let done = DispatchSemaphore(value: 0)
    private let finished = Mutex(false)

    init(fd: Int32, tailLines: Int, onLine: (@Sendable (String) -> Void)?, onEnd: (@Sendable () -> Void)? = nil) {
        let thread = Thread { [self] in
            var pending: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 16384)
            func emit(_ bytes: ArraySlice<UInt8>) {
                var slice = bytes
                if slice.last == UInt8(ascii: "\r") { slice = slice.dropLast() }
                let line = String(decoding: slice, as: UTF8.self)
                onLine?(line)
                state.withLock { state in
                    state.tail.append(line)
                    if state.tail.count > tailLines { state.tail.removeFirst(state.tail.count - tailLines) }
                }
            }
            while true {
                let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                pending.append(contentsOf: chunk[0..<count])
                var start = pending.startIndex
                while let newline = pending[start...].firstIndex(where: { $0 == 10 || $0 == 13 }) {
                    if newline > start { emit(pending[start..<newline]) }
                    start = newline + 1
                }
                pending.removeSubrange(pending.startIndex..<start)
            }
            if !pending.isEmpty { emit(pending[...]) }
            close(fd)
            onEnd?()
            done.signal()
        }
        thread.name = "stderr-drain"
        thread.start()
    }

    /// Blocks until the child's standard error has ended. Safe to call more than once.
    func waitUntilDone() {
        let alreadyFinished = finished.withLock { finished in
            defer { finished = true }
            return finished
        }
        if !alreadyFinished { done.wait() }
    }

    var tail: [String] { state.withLock { $0.tail } }
}

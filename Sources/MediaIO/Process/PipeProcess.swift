import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process (ffmpeg, ffprobe) with pipes to its standard input and output.
///
/// Standard error is drained on a background thread: each line goes to `onStandardErrorLine` (for
/// progress or per-frame logs such as ffmpeg's `showinfo`) and the last lines are kept for error
/// messages. The process is killed and reaped when the value is deinitialised before it exited, so a
/// consumer that stops early leaves no zombie behind.
///
/// One thread at a time uses a `PipeProcess` (it is not `Sendable`).
///
/// ```swift
/// let ffmpeg = try PipeProcess("ffmpeg", ["-i", "in.mp4", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
/// var frame = [UInt8](repeating: 0, count: width * height * 3)
/// while try frame.withUnsafeMutableBytes({ try ffmpeg.read(into: $0) }) == frame.count { … }
/// let status = ffmpeg.waitForExit()   // .exited(0) on success; ffmpeg.standardErrorTail otherwise
/// ```
public final class PipeProcess {
    /// How a child process ended.
    public enum Termination: Sendable, Hashable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)

        /// Whether the process exited with status 0.
        public var succeeded: Bool { self == .exited(0) }

        public var description: String {
            switch self {
            case .exited(let code): "exit status \(code)"
            case .signalled(let signal): "signal \(signal)"
            }
        }
    }

    /// The program name as given (looked up on `PATH`).
    public let executable: String
    public let processID: Int32

    private var inputFD: Int32
    private var outputFD: Int32
    private let drain: StandardErrorDrain
    private var termination: Termination?

    /// Starts `executable` (looked up on `PATH`) with `arguments`.
    ///
    /// - Parameters:
    ///   - standardInput: whether to open a pipe to the child's standard input (otherwise it reads
    ///     `/dev/null`).
    ///   - tailLines: how many of the last standard-error lines to keep for ``standardErrorTail``.
    ///   - onStandardErrorLine: called on a background thread with each standard-error line.
    ///   - onStandardErrorEnd: called on that thread once standard error has ended.
    /// - Throws: ``MediaIOError`` `.toolMissing` when the program is not installed, `.processFailed`
    ///   when it cannot be started.
    public init(
        _ executable: String,
        _ arguments: [String],
        standardInput: Bool = false,
        tailLines: Int = 30,
        onStandardErrorLine: (@Sendable (String) -> Void)? = nil,
        onStandardErrorEnd: (@Sendable () -> Void)? = nil
    ) throws(MediaIOError) {
        Self.ignoreSIGPIPE
        self.executable = executable

        // Close-on-exec on every end, so children started concurrently by other threads do not
        // inherit our pipes (a leaked write end would keep a reader from ever seeing end-of-file);
        // dup2 in the child clears the flag on the three descriptors it needs. Glibc's module does
        // not export pipe2, so pipe + fcntl run under a lock that every spawn here takes.
        Self.spawnLock.lock()
        defer { Self.spawnLock.unlock() }
        var input: [Int32] = [-1, -1]
        var output: [Int32] = [-1, -1]
        var error: [Int32] = [-1, -1]
        func fail(_ what: String) -> MediaIOError {
            MediaIOError(.processFailed, "cannot start \(executable): \(what) (\(String(cString: strerror(errno))))")
        }
        func closeAll() { for fd in input + output + error where fd >= 0 { close(fd) } }
        func makePipe(_ fds: inout [Int32]) -> Bool {
            guard pipe(&fds) == 0 else { return false }
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            return true
        }
        // Frames are megabytes: with the default 64 KiB pipe each one crosses in dozens of small writes,
        // each waking the other side. 1 MiB (Linux's default limit for F_SETPIPE_SZ) needs a few; where
        // the system refuses, the pipe simply keeps its size.
        func enlarge(_ fds: [Int32]) { _ = fcntl(fds[0], Self.setPipeSize, Self.pipeBytes) }
        if standardInput, !makePipe(&input) { throw fail("pipe") }
        if !makePipe(&output) || !makePipe(&error) {
            closeAll()
            throw fail("pipe")
        }
        if standardInput { enlarge(input) }
        enlarge(output)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if standardInput {
            posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, error[1], 2)

        // The child gets default SIGPIPE handling back (ignored signals survive exec).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let status = posix_spawnp(&pid, executable, &actions, &attributes, argv, environ)
        if status != 0 {
            closeAll()
            if status == ENOENT {
                throw MediaIOError(
                    .toolMissing,
                    "\(executable) is not installed; run scripts/setup.sh (or apt-get install ffmpeg)"
                )
            }
            errno = status
            throw fail("posix_spawn")
        }
        processID = pid
        if standardInput { close(input[0]) }
        close(output[1])
        close(error[1])
        inputFD = standardInput ? input[1] : -1
        outputFD = output[0]
        drain = StandardErrorDrain(
            fd: error[0],
            tailLines: tailLines,
            onLine: onStandardErrorLine,
            onEnd: onStandardErrorEnd
        )
    }

    deinit {
        closeStandardInput()
        if termination == nil {
            kill(processID, SIGKILL)
            _ = waitForExit()
        }
        if outputFD >= 0 { close(outputFD) }
        drain.waitUntilDone()
    }

    // MARK: - Standard output

    /// Reads from the child's standard output until `buffer` is full or the output ends.
    ///
    /// - Returns: the number of bytes read: `buffer.count`, or fewer at the end of the output.
    /// - Throws: ``MediaIOError`` `.io` when reading fails.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(MediaIOError) -> Int {
        guard let base = buffer.baseAddress, outputFD >= 0 else { return 0 }
        var filled = 0
        while filled < buffer.count {
            let count = Glibc.read(outputFD, base + filled, buffer.count - filled)
            if count > 0 {
                filled += count
            } else if count == 0 {
                break
            } else if errno != EINTR {
                throw MediaIOError(.io, "reading from \(executable) failed (\(String(cString: strerror(errno))))")
            }
        }
        return filled
    }

    /// Reads the child's whole standard output (for small outputs such as ffprobe's JSON).
    public func readAll() throws(MediaIOError) -> [UInt8] {
        var result: [UInt8] = []
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 1)
        defer { chunk.deallocate() }
        while true {
            let count = try read(into: chunk)
            result.append(contentsOf: chunk[0..<count])
            if count < chunk.count { return result }
        }
    }

    /// Closes our end of the child's standard output (the child gets `EPIPE` if it writes more).
    public func closeStandardOutput() {
        if outputFD >= 0 { close(outputFD) }
        outputFD = -1
    }

    // MARK: - Standard input

    /// Writes all of `bytes` to the child's standard input.
    ///
    /// - Throws: ``MediaIOError`` `.io` when the child has exited or closed its input; the message
    ///   includes the last line of its standard error.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(MediaIOError) {
        precondition(inputFD >= 0, "\(executable) was started without standardInput, or its input was closed")
        guard let base = bytes.baseAddress else { return }
        var written = 0
        while written < bytes.count {
            let count = Glibc.write(inputFD, base + written, bytes.count - written)
            if count >= 0 {
                written += count
            } else if errno != EINTR {
                let reason = String(cString: strerror(errno))
                throw MediaIOError(.io, "writing to \(executable) failed (\(reason)): \(lastErrorLine)")
            }
        }
    }

    /// Writes all of `bytes` to the child's standard input.
    public func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { (buffer) in try write(buffer) }
    }

    /// Closes the child's standard input (it sees end-of-file). Safe to call twice.
    public func closeStandardInput() {
        if inputFD >= 0 { close(inputFD) }
        inputFD = -1
    }

    // MARK: - Ending

    /// Waits for the child to exit (closing its standard input first) and returns how it ended.
    @discardableResult
    public func waitForExit() -> Termination {
        if let termination { return termination }
        closeStandardInput()
        var status: Int32 = 0
        while waitpid(processID, &status, 0) < 0 {
            if errno != EINTR {
                termination = .exited(-1)
                return .exited(-1)
            }
        }
        let result: Termination =
            (status & 0x7f) == 0 ? .exited((status >> 8) & 0xff) : .signalled(status & 0x7f)
        termination = result
        // Standard error is complete once the child is gone and the drain has read to its end.
        drain.waitUntilDone()
        return result
    }

    /// Stops the child now (`SIGKILL`) and reaps it.
    public func terminate() {
        guard termination == nil else { return }
        kill(processID, SIGKILL)
        waitForExit()
    }

    /// The last lines the child wrote to standard error, joined with newlines.
    public var standardErrorTail: String { drain.tail.joined(separator: "\n") }

    /// The last non-empty standard-error line, or a note that there was none.
    public var lastErrorLine: String { drain.tail.last(where: { !$0.isEmpty }) ?? "(no message from \(executable))" }

    /// The last standard-error lines.
    public var standardErrorLines: [String] { drain.tail }

    private static let spawnLock = NSLock()
    /// Linux's `F_SETPIPE_SZ` (fcntl.h defines it only under `_GNU_SOURCE`, which Swift's Glibc module lacks).
    private static let setPipeSize: Int32 = 1031
    private static let pipeBytes: Int32 = 1 << 20
    private static let ignoreSIGPIPE: Void = { signal(SIGPIPE, SIG_IGN) }()
}

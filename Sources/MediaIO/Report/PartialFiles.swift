import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The files being written that are not yet results: temporary names of outputs being written, scratch files. A
/// command that is interrupted (SIGINT, SIGTERM) removes them all before it exits, so nothing half-written is
/// left beside the user's files or in the temporary folder.
public enum PartialFiles {
    private static let paths = Mutex<Set<String>>([])

    /// Remembers a file to remove if the command is interrupted.
    public static func register(_ path: String) {
        paths.withLock { _ = $0.insert(path) }
    }

    /// The file is a result now (renamed into place) or already removed.
    public static func unregister(_ path: String) {
        paths.withLock { _ = $0.remove(path) }
    }

    /// Removes every registered file; returns how many there were.
    @discardableResult
    public static func removeAll() -> Int {
        let all = paths.withLock { current in
            defer { current = [] }
            return current
        }
        for path in all { unlink(path) }
        return all.count
    }
}

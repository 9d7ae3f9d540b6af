import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Sends the process's standard error to /dev/null for a while, keeping a descriptor of the real one.
public struct StandardErrorRedirect {
    /// The real standard error.
    public let descriptor: Int32
    private let silenced: Bool

    /// How many redirects are in force and the saved real standard error: file descriptor 2 belongs to the
    /// whole process, so analyses running side by side (tests, a server) share one redirect, undone by the last.
    private static let state = Mutex<(count: Int, saved: Int32)>((0, -1))

    public init(silenced: Bool) {
        self.silenced = silenced
        guard silenced else {
            descriptor = 2
            return
        }
        descriptor = Self.state.withLock { state in
            if state.count == 0 {
                state.saved = dup(2)
                let null = open("/dev/null", O_WRONLY)
                if null >= 0 {
                    dup2(null, 2)
                    close(null)
                }
            }
            state.count += 1
            return state.saved
        }
    }

    /// Writes `text` to the real standard error.
    public func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in _ = Glibc.write(descriptor, bytes.baseAddress, bytes.count) }
    }

    /// Puts the real standard error back once no other redirect is in force.
    public func restore() {
        guard silenced else { return }
        Self.state.withLock { state in
            state.count -= 1
            if state.count == 0, state.saved >= 0 {
                dup2(state.saved, 2)
                close(state.saved)
                state.saved = -1
            }
        }
    }
}

import Dispatch
import Foundation
import MediaIO
import Synchronization

/// Ctrl-C or SIGTERM during a command that writes files: the unfinished files (``PartialFiles``: outputs being
/// written under hidden names, scratch pose-tracks) are removed, one line says so, and the command exits with
/// 128 + the signal. The ffmpeg processes end with their pipes.
enum InterruptCleanup {
    private static let sources = Mutex<[any DispatchSourceSignal]>([])

    static func install() {
        sources.withLock { installed in
            guard installed.isEmpty else { return }
            // Standard error as it is now: commands send it to /dev/null while MediaPipe loads.
            let console = FileHandle(fileDescriptor: dup(2), closeOnDealloc: false)
            for number in [SIGINT, SIGTERM] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler {
                    let removed = PartialFiles.removeAll()
                    let line = "\ninterrupted: \(removed) unfinished file(s) removed\n"
                    console.write(Data(line.utf8))
                    exit(128 + number)
                }
                source.resume()
                installed.append(source)
            }
        }
    }
}

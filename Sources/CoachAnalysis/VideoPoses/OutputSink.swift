import Foundation
public import MediaIO

#if canImport(Glibc)
import Glibc
#endif

/// The pose-track output: a file, or standard output for `"-"`. Used from one thread.
public final class OutputSink {
    private var file: UnsafeMutablePointer<FILE>?
    private let path: String
    /// The hidden name written to until ``close()`` renames it to `path` (`nil` for standard output).
    private let temporary: String?
    private var failed = false

    public init(path: String) throws(MediaIOError) {
        self.path = path
        if path == "-" {
            guard let file = fdopen(dup(1), "w") else { throw MediaIOError(.io, "cannot write to standard output") }
            self.file = file
            temporary = nil
        } else {
            let temporary = OutputFile.temporaryPath(for: path)
            guard let file = fopen(temporary, "w") else {
                OutputFile.remove(temporary)
                throw MediaIOError(
                    .io,
                    "cannot create the output file (\(String(cString: strerror(errno)))); check the folder",
                    file: path
                )
            }
            self.file = file
            self.temporary = temporary
        }
    }

    /// Not closed (an error on the way): the half-written file goes.
    deinit {
        if let file { fclose(file) }
        if file != nil, let temporary { OutputFile.remove(temporary) }
    }

    public func write(_ line: String) {
        guard let file else { return }
        if fputs(line, file) < 0 || fputc(10, file) < 0 { failed = true }
    }

    /// Copies the whole file at `source` to the output.
    public func append(contentsOf source: String) {
        guard let file, let input = fopen(source, "r") else {
            failed = true
            return
        }
        defer { fclose(input) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = fread(&buffer, 1, buffer.count, input)
            if count == 0 { break }
            if fwrite(buffer, 1, count, file) != count { failed = true }
        }
    }

    /// Finishes the file and moves it to its name.
    public func close() throws(MediaIOError) {
        guard let file else { return }
        self.file = nil
        let flushed = fflush(file) == 0
        fclose(file)
        guard flushed, !failed else {
            if let temporary { OutputFile.remove(temporary) }
            throw MediaIOError(.io, "writing the pose-track failed (disk full?)", file: path == "-" ? nil : path)
        }
        if let temporary { try OutputFile.commit(temporary, to: path) }
    }
}

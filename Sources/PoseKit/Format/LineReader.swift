#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a text file line by line with a fixed buffer (memory does not grow with the file).
final class LineReader {
    struct OpenError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    private let file: UnsafeMutablePointer<FILE>
    private var buffer: UnsafeMutablePointer<CChar>? = nil
    private var capacity = 0
    /// Set when a read failed (as opposed to reaching the end).
    private(set) var error: String?

    init(path: String) throws(OpenError) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw OpenError(message: "cannot open the file (\(String(cString: strerror(errno)))); check the path")
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw OpenError(message: "is a directory; give a pose-track .jsonl file")
        }
        guard let file = fopen(path, "r") else {
            throw OpenError(message: "cannot open the file (\(String(cString: strerror(errno))))")
        }
        self.file = file
    }

    deinit {
        free(buffer)
        fclose(file)
    }

    /// The next line without its newline, or `nil` at the end.
    func nextLine() -> [UInt8]? {
        let count = getline(&buffer, &capacity, file)
        if count < 0 {
            if ferror(file) != 0 { error = String(cString: strerror(errno)) }
            return nil
        }
        guard let buffer else { return nil }
        var length = count
        while length > 0, buffer[length - 1] == 0x0A || buffer[length - 1] == 0x0D { length -= 1 }
        return buffer.withMemoryRebound(to: UInt8.self, capacity: length) {
            Array(UnsafeBufferPointer(start: $0, count: length))
        }
    }
}

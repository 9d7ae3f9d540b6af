#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Checks for output paths and the write-to-a-temporary-file-then-rename step shared by the video
/// encoder, the report writer and the pose-track writer, so a failure never leaves a half-written file under the
/// final name (and an interruption none at all: ``PartialFiles``).
public enum OutputFile {
    /// The folder part of `path` ("." for a bare name).
    public static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = String(path[..<slash])
        return folder.isEmpty ? "/" : folder
    }

    /// Throws unless `path`'s folder exists and is writable, and `path` is absent (or `overwrite`).
    public static func check(_ path: String, overwrite: Bool) throws(MediaIOError) {
        let folder = folder(of: path)
        var status = stat()
        guard stat(folder, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else {
            throw MediaIOError(
                .fileNotFound,
                "the output folder \(folder) does not exist; create it or choose another path",
                file: path
            )
        }
        guard access(folder, W_OK) == 0 else {
            throw MediaIOError(.io, "the output folder \(folder) is not writable; choose another path", file: path)
        }
        if stat(path, &status) == 0 {
            if (status.st_mode & S_IFMT) == S_IFDIR {
                throw MediaIOError(.notAFile, "the output is a folder; give a file name", file: path)
            }
            if !overwrite {
                throw MediaIOError(.io, "the output already exists; remove it or pass --overwrite", file: path)
            }
        }
    }

    /// A hidden name beside `path` for the file being written (removed if the command is interrupted).
    public static func temporaryPath(for path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let temporary = "\(folder(of: path))/.\(name).\(getpid())-\(UInt32.random(in: 0...UInt32.max)).partial"
        PartialFiles.register(temporary)
        return temporary
    }

    /// Moves the finished temporary file to its final name (removing the temporary file on failure).
    public static func commit(_ temporaryPath: String, to path: String) throws(MediaIOError) {
        defer { PartialFiles.unregister(temporaryPath) }
        guard rename(temporaryPath, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporaryPath)
            throw MediaIOError(.io, "cannot move the finished file into place (\(reason))", file: path)
        }
    }

    /// Writes `bytes` to `path` through a temporary file.
    static func write(_ bytes: [UInt8], to path: String, overwrite: Bool) throws(MediaIOError) {
        try check(path, overwrite: overwrite)
        let temporary = temporaryPath(for: path)
        guard let file = fopen(temporary, "wb") else {
            throw MediaIOError(
                .io,
                "cannot create a file in the output folder (\(String(cString: strerror(errno))))",
                file: path
            )
        }
        let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        let closed = fclose(file)
        guard written == bytes.count, closed == 0 else {
            remove(temporary)
            throw MediaIOError(.io, "writing failed after \(written) of \(bytes.count) bytes (disk full?)", file: path)
        }
        try commit(temporary, to: path)
    }
}

extension OutputFile {
    /// Removes a file, ignoring a missing one.
    public static func remove(_ path: String) {
        unlink(path)
        PartialFiles.unregister(path)
    }
}

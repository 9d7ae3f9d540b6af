import Foundation

/// A fresh temporary folder for one test, removed when the value is released.
final class TemporaryFolder {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "posekit-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Writes `contents` to `name` in the folder and returns its path.
    func file(_ name: String, contents: String) throws -> String {
        let filePath = path + "/" + name
        try contents.write(toFile: filePath, atomically: false, encoding: .utf8)
        return filePath
    }

    func read(_ filePath: String) throws -> String { try String(contentsOfFile: filePath, encoding: .utf8) }
}

/// `../shared/data` next to the repository, computed from this file's location.
enum SharedData {
    static let root: String = {
        var components = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        // <repo>/Tests/PoseKitTests/Support/TemporaryFiles.swift → <repo>/..
        components.removeLast(4)
        return components.joined(separator: "/") + "/../shared/data"
    }()

    /// Every `.jsonl` file under `pose-tracks/`, sorted; empty when the folder is missing.
    static var poseTrackFiles: [String] {
        let base = root + "/pose-tracks"
        guard let enumerator = FileManager.default.enumerator(atPath: base) else { return [] }
        var files: [String] = []
        while let relative = enumerator.nextObject() as? String {
            if relative.hasSuffix(".jsonl") { files.append(base + "/" + relative) }
        }
        return files.sorted()
    }
}

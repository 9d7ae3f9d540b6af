import Foundation

/// The real recordings of `../shared/data` beside the repository, for the tests of every target.
public enum SharedData {
    /// `../shared/data`, found from this file's place in the repository.
    public static let root: String = {
        var components = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        // <repo>/Tests/CoachTestSupport/SharedData.swift -> <repo>/..
        components.removeLast(3)
        return components.joined(separator: "/") + "/../shared/data"
    }()

    /// Every pose-track file under `pose-tracks/`, sorted; empty when the folder is missing.
    public static var poseTrackFiles: [String] {
        let base = root + "/pose-tracks"
        guard let enumerator = FileManager.default.enumerator(atPath: base) else { return [] }
        var files: [String] = []
        while let relative = enumerator.nextObject() as? String {
            if relative.hasSuffix(".jsonl") { files.append(base + "/" + relative) }
        }
        return files.sorted()
    }

    /// The path of a file under `../shared/data`, or a clear failure when the data is not beside the repository.
    public static func path(_ relative: String) throws -> String {
        let path = root + "/" + relative
        guard FileManager.default.fileExists(atPath: path) else { throw SharedDataMissing(path: path) }
        return path
    }

    public struct SharedDataMissing: Error, CustomStringConvertible {
        public var path: String
        public var description: String {
            "shared test data not found at \(path); these tests need ../shared/data next to the repository"
        }
    }
}

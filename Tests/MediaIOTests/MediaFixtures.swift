import Foundation
import MediaIO

/// Test media: the shared sample videos, and small files generated with ffmpeg in a temporary folder.
enum MediaFixtures {
    /// `<repo>/../shared/data/videos/…`, or nil when the shared data is not there.
    static func sharedVideo(_ relativePath: String, filePath: String = #filePath) -> String {
        let repository = URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return repository.deletingLastPathComponent().appendingPathComponent("shared/data/videos")
            .appendingPathComponent(relativePath).path
    }

    static var bicepCurl: String { sharedVideo("pose-trainer/sample_bicep_curl.mp4") }

    /// A fresh temporary folder.
    static func temporaryFolder() throws -> String {
        let path = NSTemporaryDirectory() + "mediaio-tests-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Runs ffmpeg quietly with `arguments`; throws its last error line when it fails.
    static func ffmpeg(_ arguments: [String]) throws {
        let process = try PipeProcess("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y"] + arguments)
        let termination = process.waitForExit()
        guard termination.succeeded else {
            throw FixtureError(message: "ffmpeg \(arguments.joined(separator: " ")) failed: \(process.lastErrorLine)")
        }
    }

    struct FixtureError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}

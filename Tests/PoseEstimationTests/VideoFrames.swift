import Foundation
import PoseKit

/// Decodes test videos to `rgb24` frames with the `ffmpeg` command line (Debian's `ffmpeg`, installed by
/// `scripts/setup.sh`).
enum VideoFrames {
    struct DecodingError: Error, CustomStringConvertible {
        var description: String
    }

    /// The shared data folder beside the repository (`../shared/data`).
    static let sharedData: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // PoseEstimationTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // repository
        .deletingLastPathComponent()
        .appendingPathComponent("shared/data")

    /// The pose-trainer bicep-curl sample: 67 frames, 522x294, 30 fps, a side view cut at the forehead
    /// and the thighs.
    static let bicepCurl: Result<[RGBImage], DecodingError> = Result { () throws(DecodingError) in
        try decode(sharedData.appendingPathComponent("videos/pose-trainer/sample_bicep_curl.mp4").path)
    }

    /// The hand-therapy fist video: 73 frames, 640x480, 20 fps; one right hand, palm to the camera, opens,
    /// closes into a fist (1.1–2.25 s) and opens again; face and torso in the frame too.
    static let fist: Result<[RGBImage], DecodingError> = Result { () throws(DecodingError) in
        try decode(sharedData.appendingPathComponent("videos/hands/fist_hetavshah1_reference.mp4").path)
    }

    /// Every frame of the video at `path`.
    static func decode(_ path: String) throws(DecodingError) -> [RGBImage] {
        guard FileManager.default.fileExists(atPath: path) else {
            throw DecodingError(
                description: "test video missing: \(path) (the shared data folder beside the repository)"
            )
        }
        let size = try run(
            [
                "ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height",
                "-of", "csv=p=0", path,
            ]
        )
        let numbers = String(decoding: size, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
            .split(separator: ",")
            .compactMap { Int($0) }
        guard numbers.count == 2 else {
            throw DecodingError(description: "ffprobe gave no frame size for \(path)")
        }
        let (width, height) = (numbers[0], numbers[1])
        let raw = try run(["ffmpeg", "-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        let frameBytes = width * height * 3
        guard !raw.isEmpty, raw.count % frameBytes == 0 else {
            throw DecodingError(description: "ffmpeg gave \(raw.count) bytes for \(width)x\(height) frames of \(path)")
        }
        return stride(from: 0, to: raw.count, by: frameBytes).map { start in
            RGBImage(width: width, height: height, bytes: Array(raw[start..<start + frameBytes]))
        }
    }

    private static func run(_ arguments: [String]) throws(DecodingError) -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw DecodingError(description: "cannot run \(arguments[0]) (\(error)): run scripts/setup.sh")
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw DecodingError(
                description: "\(arguments.joined(separator: " ")) failed: is ffmpeg installed? Run scripts/setup.sh"
            )
        }
        return data
    }
}

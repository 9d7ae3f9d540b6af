import Foundation
import PoseKit
import Testing

@testable import MediaIO

struct VideoEncoderTests {
    /// A fresh empty folder under the system temporary folder.
    static func temporaryFolder() throws -> String {
        let path = NSTemporaryDirectory() + "overlay-encoder-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A frame with a moving square, so the encoder has motion to code.
    static func frame(_ index: Int, width: Int, height: Int) -> RGBImage {
        var image = RGBImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let i = y * image.bytesPerRow + x * 3
                let inSquare = abs(x - (index * 4) % width) < 12 && abs(y - height / 2) < 12
                image.bytes[i] = inSquare ? 255 : UInt8(x * 255 / width)
                image.bytes[i + 1] = inSquare ? 255 : UInt8(y * 255 / height)
                image.bytes[i + 2] = 90
            }
        }
        return image
    }

    /// ffprobe's view of the first video stream: codec_name, width, height, r_frame_rate, nb_read_frames.
    static func probe(_ path: String) throws -> [String: String] {
        let ffprobe = try PipeProcess(
            "ffprobe",
            [
                "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                "stream=codec_name,width,height,r_frame_rate,nb_read_frames", "-of", "default=noprint_wrappers=1", path,
            ]
        )
        let text = String(decoding: try ffprobe.readAll(), as: UTF8.self)
        #expect(ffprobe.waitForExit().succeeded, "ffprobe: \(ffprobe.lastErrorLine)")
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        return fields
    }

    @Test(arguments: [
        ("clip.mp4", 30.0, "h264", "30/1"),
        ("clip.webm", 30.0, "vp9", "30/1"),
        ("ntsc.mp4", 29.97, "h264", "30000/1001"),
        ("phone.mp4", 25.0, "h264", "25/1"),
    ])
    func encodesEveryFrameAtTheInputRateAndSize(name: String, fps: Double, codec: String, rate: String) throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/" + name
        let encoder = try VideoEncoder(path: path, configuration: .init(width: 160, height: 120, framesPerSecond: fps))
        for index in 0..<30 { try encoder.append(Self.frame(index, width: 160, height: 120)) }
        try encoder.finish()
        let info = try Self.probe(path)
        #expect(info["codec_name"] == codec)
        #expect(info["width"] == "160")
        #expect(info["height"] == "120")
        #expect(info["r_frame_rate"] == rate)
        #expect(info["nb_read_frames"] == "30")
        // Only the final file is left: the temporary one was renamed.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [name])
    }

    @Test(arguments: [Int32(10), 0])
    func theEncoderRunsAtItsConfiguredNiceness(niceness: Int32) throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let encoder = try VideoEncoder(
            path: folder + "/clip.mp4",
            configuration: .init(width: 160, height: 120, framesPerSecond: 30, niceness: niceness)
        )
        let process = try #require(encoder.process)
        errno = 0
        let actual = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(process.processID))
        #expect(errno == 0)
        #expect(actual == getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) + niceness)
        try encoder.append(Self.frame(0, width: 160, height: 120))
        try encoder.finish()
    }

    @Test func aConfigurationMatchesAProbedVideo() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = folder + "/first.mp4"
        let encoder = try VideoEncoder(path: first, configuration: .init(width: 96, height: 64, framesPerSecond: 29.97))
        for index in 0..<10 { try encoder.append(Self.frame(index, width: 96, height: 64)) }
        try encoder.finish()
        let configuration = VideoEncoder.Configuration(matching: try VideoInfo(probing: first))
        #expect(configuration.width == 96 && configuration.height == 64)
        #expect(VideoEncoder.rational(configuration.framesPerSecond) == "30000/1001")
    }

    @Test func oddSizesArePaddedToEven() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/odd.mp4"
        let encoder = try VideoEncoder(path: path, configuration: .init(width: 161, height: 121, framesPerSecond: 30))
        for index in 0..<5 { try encoder.append(Self.frame(index, width: 161, height: 121)) }
        try encoder.finish()
        let info = try Self.probe(path)
        #expect(info["width"] == "162" && info["height"] == "122")
        #expect(info["nb_read_frames"] == "5")
    }

    @Test func aMissingFolderIsRefusedAndLeavesNoFile() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/missing/out.mp4"
        let error = #expect(throws: MediaIOError.self) {
            _ = try VideoEncoder(path: path, configuration: .init(width: 64, height: 48, framesPerSecond: 30))
        }
        #expect(error?.code == .fileNotFound)
        #expect(error?.message.contains("does not exist") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    @Test func anExistingFileIsKeptUnlessOverwriteIsGiven() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/out.mp4"
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: MediaIOError.self) {
            _ = try VideoEncoder(path: path, configuration: .init(width: 64, height: 48, framesPerSecond: 30))
        }
        #expect(error?.message.contains("--overwrite") == true)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me")

        let encoder = try VideoEncoder(
            path: path,
            configuration: .init(width: 64, height: 48, framesPerSecond: 30, overwrite: true)
        )
        for index in 0..<3 { try encoder.append(Self.frame(index, width: 64, height: 48)) }
        // Until finish, the old file is untouched.
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me")
        try encoder.finish()
        #expect(try Self.probe(path)["nb_read_frames"] == "3")
    }

    @Test func anEncodeStoppedHalfWayLeavesNothing() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/half.mp4"
        do {
            let encoder = try VideoEncoder(path: path, configuration: .init(width: 64, height: 48, framesPerSecond: 30))
            for index in 0..<10 { try encoder.append(Self.frame(index, width: 64, height: 48)) }
            // Dropped without finish(), as when a later stage throws.
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)

        let cancelled = try VideoEncoder(path: path, configuration: .init(width: 64, height: 48, framesPerSecond: 30))
        try cancelled.append(Self.frame(0, width: 64, height: 48))
        cancelled.cancel()
        #expect(throws: MediaIOError.self) { try cancelled.finish() }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    @Test func aFailingFfmpegLeavesNoFile() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/none.mp4"
        let encoder = try VideoEncoder(path: path, configuration: .init(width: 64, height: 48, framesPerSecond: 30))
        let error = #expect(throws: MediaIOError.self) { try encoder.finish() }
        #expect(error?.code == .encodeFailed)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    @Test(arguments: [
        (30.0, "30"), (29.97, "30000/1001"), (59.94, "60000/1001"), (23.976, "24000/1001"), (12.5, "25/2"),
    ])
    func frameRatesBecomeRationals(fps: Double, rational: String) {
        #expect(VideoEncoder.rational(fps) == rational)
    }

    @Test(arguments: [("a.mp4", VideoEncoder.Format.mp4), ("a.WEBM", .webm), ("a.mov", .mp4)])
    func theFormatFollowsTheFileName(name: String, format: VideoEncoder.Format) {
        #expect(VideoEncoder.Format(path: name) == format)
    }
}

import Foundation
import MediaIO
import PoseKit
import Testing

struct VideoDecoderTests {
    // MARK: - Helpers

    /// Every frame time of `path` (or of its segment).
    private func frameTimes(
        _ path: String,
        start: Double = 0,
        duration: Double? = nil,
        info: VideoInfo? = nil
    )
        throws -> [Double]
    {
        let decoder = try VideoDecoder(path: path, start: start, duration: duration, info: info)
        var image = RGBImage(width: 1, height: 1)
        var times: [Double] = []
        while let seconds = try decoder.nextFrame(into: &image) { times.append(seconds) }
        return times
    }

    private func requireSharedData(_ path: String) throws {
        try #require(
            FileManager.default.fileExists(atPath: path),
            "missing test video \(path): the shared data (../shared/data) must sit next to the repository"
        )
    }

    // MARK: - Real video

    @Test func decodesTheBicepCurlSampleFrameByFrame() throws {
        let path = MediaFixtures.bicepCurl
        try requireSharedData(path)
        let decoder = try VideoDecoder(path: path)
        #expect(decoder.info.width == 522)
        #expect(decoder.info.height == 294)
        #expect(decoder.info.codec == "h264")
        #expect(abs(decoder.info.fps - 30) < 0.01)
        #expect(abs((decoder.info.duration ?? 0) - 2.233) < 0.01)

        var frames: [VideoFrame] = []
        while let frame = try decoder.nextFrame() { frames.append(frame) }
        #expect(frames.count == 67)
        #expect(frames.allSatisfy { $0.image.width == 522 && $0.image.height == 294 })
        #expect(frames.first?.seconds == 0)
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $1.seconds > $0.seconds })
        #expect(abs((frames.last?.seconds ?? 0) - 66.0 / 30) < 0.002)
        #expect(frames.map(\.index) == Array(0..<67))
        // Real picture content, not a black buffer.
        let middle = frames[33].image
        #expect(Set(stride(from: 0, to: middle.bytes.count, by: 997).map { middle.bytes[$0] }).count > 20)
    }

    @Test(arguments: [[0.0, 0.7, 1.4], [0.0, 1.0], [0.0, 0.5, 1.0, 1.5, 2.0]])
    func segmentsTogetherGiveExactlyTheWholeDecode(starts: [Double]) throws {
        let path = MediaFixtures.bicepCurl
        try requireSharedData(path)
        let info = try VideoInfo(probing: path)
        let whole = try frameTimes(path, info: info)
        var joined: [Double] = []
        for (i, start) in starts.enumerated() {
            let duration = i + 1 < starts.count ? starts[i + 1] - start : nil
            let part = try frameTimes(path, start: start, duration: duration, info: info)
            #expect(part.allSatisfy { $0 >= start && $0 < start + (duration ?? .infinity) })
            joined += part
        }
        #expect(joined == whole)
    }

    // MARK: - Generated video

    @Test func keepsTheRealTimestampsOfAVariableFrameRateVideo() throws {
        let folder = try MediaFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/vfr.mp4"
        // 30 frames at 30 fps, then 10 frames at 10 fps.
        try MediaFixtures.ffmpeg([
            "-f", "lavfi", "-i", "testsrc=size=160x120:rate=30", "-frames:v", "40",
            "-vf", "setpts='if(lt(N,30),N/30,1+(N-30)/10)/TB'", "-fps_mode", "passthrough",
            "-c:v", "libx264", "-pix_fmt", "yuv420p", path,
        ])
        let times = try frameTimes(path)
        let expected = (0..<30).map { Double($0) / 30 } + (0..<10).map { 1 + Double($0) / 10 }
        #expect(times.count == 40)
        #expect(zip(times, expected).allSatisfy { abs($0 - $1) < 0.001 })
    }

    @Test func appliesThePhoneRotationAndReportsTheRotatedSize() throws {
        let folder = try MediaFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let plain = folder + "/plain.mp4"
        let rotated = folder + "/rotated.mp4"
        // A red square in the top-left corner of a black 320x240 picture.
        try MediaFixtures.ffmpeg([
            "-f", "lavfi", "-i", "color=black:size=320x240:rate=30,drawbox=x=0:y=0:w=40:h=40:color=red:t=fill",
            "-t", "0.5", "-c:v", "libx264", "-pix_fmt", "yuv420p", plain,
        ])
        try MediaFixtures.ffmpeg(["-i", plain, "-c", "copy", "-metadata:s:v:0", "rotate=90", rotated])

        let decoder = try VideoDecoder(path: rotated)
        #expect(decoder.info.rotation == 90)
        #expect(decoder.info.width == 240)
        #expect(decoder.info.height == 320)
        let frame = try #require(try decoder.nextFrame())
        #expect(frame.image.width == 240 && frame.image.height == 320)
        // Turned a quarter counter-clockwise, the top-left corner is now bottom-left.
        #expect(frame.image[5, 315].r > 200)
        #expect(frame.image[5, 5].r < 50)
        #expect(frame.image[235, 315].r < 50)
        var count = 1
        while try decoder.nextFrame() != nil { count += 1 }
        #expect(count == 15)
    }

    @Test func decodesAStillImage() throws {
        let folder = try MediaFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/still.png"
        try MediaFixtures.ffmpeg([
            "-f", "lavfi", "-i", "color=0x00ff00:size=64x48", "-frames:v", "1", path,
        ])
        let image = try RGBImage(decoding: path)
        #expect(image.width == 64 && image.height == 48)
        #expect(image[10, 10].g > 230 && image[10, 10].r < 25 && image[10, 10].b < 25)
        #expect(try VideoInfo(probing: path).isStillImage)
    }

    // MARK: - Bad input

    /// Makes the bad file of `name` in `folder` and returns its path.
    private static func badFile(_ name: String, in folder: String) throws -> String {
        let path = folder + "/" + name
        switch name {
        case "missing.mp4":
            break
        case "folder.mp4":
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        case "empty.mp4":
            _ = FileManager.default.createFile(atPath: path, contents: Data())
        case "text.mp4":
            _ = FileManager.default.createFile(atPath: path, contents: Data("squat video, honest\n".utf8))
        case "photo.png":
            try MediaFixtures.ffmpeg(["-f", "lavfi", "-i", "color=blue:size=32x32", "-frames:v", "1", path])
        case "audio.m4a":
            try MediaFixtures.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=440:duration=1", path])
        case "unknown-codec.mkv":
            // A Matroska file whose codec id no decoder knows.
            let plain = folder + "/plain.mkv"
            try MediaFixtures.ffmpeg([
                "-f", "lavfi", "-i", "testsrc=size=64x48:rate=10", "-t", "1", "-c:v", "libx264", plain,
            ])
            var data = try Data(contentsOf: URL(fileURLWithPath: plain))
            let id = Data("V_MPEG4/ISO/AVC".utf8)
            let range = try #require(data.range(of: id))
            data.replaceSubrange(range, with: Data("V_QQQQQ/ISO/AVC".utf8))
            try data.write(to: URL(fileURLWithPath: path))
        case "headless.mp4":
            // The index (moov) sits at the end, and the end is cut off.
            let whole = folder + "/whole-end.mp4"
            try MediaFixtures.ffmpeg([
                "-f", "lavfi", "-i", "testsrc=size=160x120:rate=30", "-t", "4", "-c:v", "libx264", whole,
            ])
            let data = try Data(contentsOf: URL(fileURLWithPath: whole))
            try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: path))
        default:
            Issue.record("no recipe for \(name)")
        }
        return path
    }

    @Test(arguments: [
        ("missing.mp4", MediaIOError.Code.fileNotFound, "no such file"),
        ("folder.mp4", .notAFile, "is a directory"),
        ("empty.mp4", .emptyFile, "empty"),
        ("text.mp4", .unreadable, "not a video"),
        ("photo.png", .stillImage, "still image"),
        ("audio.m4a", .noVideoStream, "no video stream"),
        ("unknown-codec.mkv", .unsupportedCodec, "convert the file"),
        ("headless.mp4", .unreadable, "not a video"),
    ])
    func badInputGivesOneClearError(name: String, code: MediaIOError.Code, phrase: String) throws {
        let folder = try MediaFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try Self.badFile(name, in: folder)
        let error = try #require(throws: MediaIOError.self) {
            let decoder = try VideoDecoder(path: path)
            while try decoder.nextFrame() != nil {}
        }
        #expect(error.code == code)
        #expect(error.message.contains(phrase))
        #expect(error.file == path)
        #expect(!error.description.contains("\n"))
    }

    @Test func aVideoThatBreaksHalfWayDeliversItsFirstFramesThenFails() throws {
        let folder = try MediaFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let whole = folder + "/whole.mp4"
        let path = folder + "/truncated.mp4"
        // Index first (faststart), so the cut only loses the second half of the pictures.
        try MediaFixtures.ffmpeg([
            "-f", "lavfi", "-i", "testsrc=size=320x240:rate=30", "-t", "4", "-c:v", "libx264",
            "-pix_fmt", "yuv420p", "-g", "15", "-movflags", "+faststart", whole,
        ])
        let data = try Data(contentsOf: URL(fileURLWithPath: whole))
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: path))

        let decoder = try VideoDecoder(path: path)
        var delivered = 0
        let error = try #require(throws: MediaIOError.self) {
            while try decoder.nextFrame() != nil { delivered += 1 }
        }
        #expect(error.code == .decodeFailed)
        #expect(error.message.contains("breaks off") || error.message.contains("stopped"))
        #expect(delivered > 20 && delivered < 110)
        #expect(decoder.framesDelivered == delivered)
        // After the error the decoder is at its end.
        #expect(try decoder.nextFrame() == nil)
    }
}

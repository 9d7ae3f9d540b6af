import ArgumentParser
import CoachAnalysis
import CoachKit
import CoachPipeline
import Foundation
import MediaIO
import PoseKit
import Testing

@testable import ptcoach

// The annotated video: its frames, size and overlay pixels.
extension AnalyzeCommandTests {
    /// Runs a tool and returns its standard output.
    private static func tool(_ name: String, _ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [name] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "\(name) \(arguments.joined(separator: " ")) failed")
        return data
    }

    /// Frames (counted by decoding), width, height and frame rate of a video's first video stream.
    private static func probe(_ path: String) throws -> String {
        let data = try tool(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "v:0", "-count_frames", "-show_entries",
                "stream=nb_read_frames,width,height,r_frame_rate", "-of", "csv=p=0", path,
            ]
        )
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Frame `index` of a video as packed RGB bytes.
    private static func frame(_ index: Int, of path: String, width: Int, height: Int) throws -> [UInt8] {
        let data = try tool(
            "ffmpeg",
            [
                "-v", "error", "-i", path, "-vf", "select=eq(n\\,\(index))", "-frames:v", "1", "-f", "rawvideo",
                "-pix_fmt", "rgb24", "-",
            ]
        )
        try #require(data.count == width * height * 3, "frame \(index) of \(path): \(data.count) bytes")
        return [UInt8](data)
    }

    @Test func annotatedVideoKeepsTheFramesAndDrawsTheCoachedJointsInTheirSideColours() async throws {
        try Self.require(Self.squat)
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let video = folder + "/annotated.mp4"
        let report = folder + "/report.html"
        guard try await Self.analyze([Self.squat, "--exercise", "squat", "--annotate", video, "--report", report])
        else {
            return
        }

        // Same frames, size and rate as the input.
        let input = try Self.probe(Self.squat)
        #expect(input == "1280,720,24000/1001,144")
        #expect(try Self.probe(video) == input)
        // Nothing left behind: only the two outputs in the folder (no hidden temporary file).
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["annotated.mp4", "report.html"]
        )

        // Where the overlay draws the coached person: the session's pose after each frame, replayed over the
        // same pose-track the command found.
        let track = folder + "/poses.jsonl"
        try VideoPoses.writePoseTrack(
            of: Self.squat,
            to: track,
            segments: nil,
            numPoses: 1,
            mode: .video,
            quiet: true,
            verbose: false
        )
        var source = try PoseTrackFrameSource(path: track)
        var session = CoachingSession(
            configuration: BodyAnalysis.sessionConfiguration(
                exercise: try ExerciseLibrary.bundled().exercise(id: "squat"),
                library: try ExerciseLibrary.bundled(),
                width: 1280,
                height: 720
            )
        )
        var drawn: [Int: Pose] = [:]
        var index = 0
        while let frame = try source.next() {
            _ = session.ingest(frame)
            if index % 23 == 7, let pose = session.snapshot.pose { drawn[index] = pose }
            index += 1
        }
        #expect(index == 144)
        try #require(drawn.count >= 4, "the coached person is seen in only \(drawn.count) of the sampled frames")

        let left = OverlayColor.left
        let right = OverlayColor.right
        func distance(_ p: ArraySlice<UInt8>, _ c: (Int, Int, Int)) -> Int {
            let i = p.startIndex
            return abs(Int(p[i]) - c.0) + abs(Int(p[i + 1]) - c.1) + abs(Int(p[i + 2]) - c.2)
        }
        let joints: [Joint] = [.leftShoulder, .rightShoulder, .leftHip, .rightHip, .leftElbow, .rightElbow]
        var checked = 0
        var coloured = 0
        var changed = 0
        for (frameIndex, pose) in drawn.sorted(by: { $0.key < $1.key }) {
            let before = try Self.frame(frameIndex, of: Self.squat, width: 1280, height: 720)
            let after = try Self.frame(frameIndex, of: video, width: 1280, height: 720)
            for joint in joints where pose[joint].confidence >= 0.5 {
                let x = Int(pose[joint].x.rounded())
                let y = Int(pose[joint].y.rounded())
                guard (0..<1280).contains(x), (0..<720).contains(y) else { continue }
                let offset = (y * 1280 + x) * 3
                let pixel = after[offset..<offset + 3]
                let own = joint.isLeft ? left : right
                let other = joint.isLeft ? right : left
                let ownDistance = distance(pixel, (Int(own.red), Int(own.green), Int(own.blue)))
                let otherDistance = distance(pixel, (Int(other.red), Int(other.green), Int(other.blue)))
                checked += 1
                if ownDistance < 150, ownDistance < otherDistance { coloured += 1 }
                if distance(pixel, (Int(before[offset]), Int(before[offset + 1]), Int(before[offset + 2]))) > 60 {
                    changed += 1
                }
            }
        }
        try #require(checked >= 8, "only \(checked) joints were seen well enough to check")
        // Side views hide one side behind the other: most, not all, joints show their own side's colour.
        #expect(Double(coloured) >= 0.6 * Double(checked), "\(coloured) of \(checked) joints in their side colour")
        #expect(Double(changed) >= 0.8 * Double(checked), "\(changed) of \(checked) joint pixels changed")

        // The report has the stills of the best and the worst repetition (read back from the annotated video):
        // two, or one when there is a single repetition (squat_11 holds one slow squat, by hand count).
        let html = try String(contentsOfFile: report, encoding: .utf8)
        let repetitions = html.components(separatedBy: "<tr class=").count - 1
        try #require(repetitions >= 1, "the report lists no repetition")
        #expect(html.components(separatedBy: "<img").count - 1 == min(2, repetitions))
        #expect(html.contains("src=\"data:image/png;base64,"))
    }

    @Test func aFailureHalfWayLeavesNoVideo() async throws {
        // Two seconds of a test pattern: nobody in it, so the analysis fails after the video was started.
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/pattern.mp4"
        _ = try Self.tool(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=30", "-t", "2", "-pix_fmt", "yuv420p",
                input,
            ]
        )
        let video = folder + "/annotated.mp4"
        await #expect(throws: CLIError.self) {
            _ = try await Self.analyze([input, "--annotate", video])
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["pattern.mp4"])
    }
}

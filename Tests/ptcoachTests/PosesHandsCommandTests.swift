import ArgumentParser
import CoachKit
import CoachPipeline
import Foundation
import PoseKit
import Testing

@testable import CoachAnalysis
@testable import ptcoach

/// End to end: `ptcoach poses --hands` with the real MediaPipe hand model on a real hand-therapy video.
struct PosesHandsCommandTests {
    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    /// 640x480, 20 fps, 73 frames: one left hand, palm to the camera, open, fist (1.1–2.25 s), open.
    private static let fist = repository.deletingLastPathComponent()
        .appendingPathComponent("shared/data/videos/hands/fist_hetavshah1_reference.mp4").path

    private func temporaryPath(_ name: String) -> String {
        NSTemporaryDirectory() + "poses-hands-\(UUID().uuidString)-\(name)"
    }

    @Test(arguments: [1, 2])
    func writesTheHandOfTheFistVideo(segments: Int) async throws {
        try #require(FileManager.default.fileExists(atPath: Self.fist), "missing \(Self.fist): ../shared/data")
        let output = temporaryPath("fist.jsonl")
        defer { try? FileManager.default.removeItem(atPath: output) }
        guard
            try await InProcessCommand.run([
                "poses", Self.fist, "--hands", "-o", output, "--segments", String(segments), "--quiet",
            ])
        else { return }

        let (header, frames) = try HandTrackReader.readAll(path: output)

        #expect(header.kind == .hands)
        #expect(header.keypoints == HandJoint.allCases.map(\.name))
        #expect(header.width == 640 && header.height == 480 && header.dimensions == 3)
        #expect(frames.count == 73)
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $1.seconds > $0.seconds })
        #expect(frames.allSatisfy { $0.hands.count == 1 && $0.hands[0].chirality == .left })
        // The fist: the middle fingertip drops below its knuckle in the fist, and is far above it when open.
        let drop = frames.compactMap { frame in
            frame.hands.first.map { $0[.middleTip].y - $0[.middleMCP].y }
        }
        #expect(drop.prefix(12).allSatisfy { $0 < -80 }, "\(drop.prefix(12))")
        #expect(drop[24...44].allSatisfy { $0 > 0 }, "\(drop[24...44])")

        // The clinical angles, measured with the model's depth: the open hand's finger joints near 0°, the fist's
        // PIPs bent past 90°. (MediaPipe's depth of a fist seen palm-on puts too little of the bend at the MCP,
        // 30–47°, and too much at the PIP, 119–161°: README, "Hands".)
        for index in Array(0...11) + Array(56...72) {
            let angles = HandAngles(frames[index].hands[0])
            #expect(angles.basis == .depth && angles.view == .facing)
            for finger in [Finger.index, .middle, .ring, .little] {
                for joint in finger.joints.prefix(2) {
                    let angle = try #require(angles.flexion(at: joint))
                    #expect(abs(angle) < 25, "frame \(index): \(joint) \(angle)° in the open hand")
                }
            }
        }
        for index in 24...44 {
            let angles = HandAngles(frames[index].hands[0])
            for finger in [Finger.index, .middle, .ring] {
                let pip = try #require(angles.flexion(at: finger.joints[1]))
                let mcp = try #require(angles.flexion(at: finger.joints[0]))
                #expect(pip > 90 && mcp > 20, "frame \(index): \(finger) MCP \(mcp)°, PIP \(pip)° in the fist")
            }
        }
    }

    @Test func aHandPoseTrackIsNoBodyPoseTrackForAnalyze() async throws {
        let output = temporaryPath("hands.jsonl")
        defer { try? FileManager.default.removeItem(atPath: output) }
        var writer = try PoseTrackWriter(path: output, header: PoseTrackHeader(handsWithFPS: 20, width: 64, height: 48))
        try writer.write(HandFrame(seconds: 0, hands: []))
        try writer.close()

        let command = try #require(try CoachCommand.parseAsRoot(["analyze", output]) as? AnalyzeCommand)
        let error = try await #require(throws: CLIError.self) { try await command.run() }

        #expect(error.message.contains("hand pose-track"), "\(error.message)")
        #expect(!error.message.contains("\n"))
    }

    @Test func aVideoWithoutHandsIsOneClearLine() async throws {
        let video = temporaryPath("grey.mp4")
        let output = temporaryPath("grey.jsonl")
        defer {
            try? FileManager.default.removeItem(atPath: video)
            try? FileManager.default.removeItem(atPath: output)
        }
        let ffmpeg = Process()
        ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        ffmpeg.arguments = [
            "ffmpeg", "-v", "error", "-f", "lavfi", "-i", "color=c=gray:s=160x120:d=1:r=10", "-pix_fmt", "yuv420p",
            video,
        ]
        try ffmpeg.run()
        ffmpeg.waitUntilExit()
        try #require(ffmpeg.terminationStatus == 0, "ffmpeg could not make the test video")

        let command = try #require(
            try CoachCommand.parseAsRoot(["poses", video, "--hands", "-o", output, "--quiet"]) as? PosesCommand
        )
        let error = try await #require(throws: CLIError.self) { try await command.run() }

        if error.message.contains("setup.sh") { Issue.record("the pose runtime is missing: \(error.message)") }
        #expect(error.message.hasPrefix(video + ": no hand was found in any of the 10 frames"), "\(error.message)")
        #expect(!error.message.contains("\n"))
    }

    @Test(arguments: [
        ["poses", "x.mp4", "--num-hands", "2"],
        ["poses", "x.mp4", "--hands", "--num-hands", "0"],
        ["poses", "x.mp4", "--hands", "--num-hands", "5"],
    ])
    func handCountsOutOfPlaceAreRejected(arguments: [String]) {
        #expect(throws: (any Error).self) { try CoachCommand.parseAsRoot(arguments) }
    }

    @Test func theSummarySaysHands() {
        let outcome = PosesOutcome(frames: 73, framesWithPerson: 73, inferenceSeconds: 1.1)
        let line = outcome.summary(
            elapsed: .seconds(2),
            segments: 1,
            output: "h.jsonl",
            verbose: false,
            found: "a hand"
        )
        #expect(line == "poses: 73 frames, 73 with a hand (100.0%), wrote h.jsonl", "\(line)")
    }
}

import ArgumentParser
import Foundation
import PoseKit
import Testing

@testable import ptcoach

/// End to end: `ptcoach poses` with the real MediaPipe model on a real video.
struct PosesCommandTests {
    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    private static let bicepCurl = repository.deletingLastPathComponent()
        .appendingPathComponent("shared/data/videos/pose-trainer/sample_bicep_curl.mp4").path

    /// Runs `ptcoach poses` with `arguments`; records a clear issue (and returns false) when the pose
    /// runtime is not installed.
    private func runPoses(_ arguments: [String]) async throws -> Bool {
        let parsed = try CoachCommand.parseAsRoot(["poses"] + arguments + ["--quiet"])
        let command = try #require(parsed as? PosesCommand)
        do {
            try await command.run()
        } catch let error as CLIError where error.message.contains("setup.sh") {
            Issue.record("the pose runtime is missing, run scripts/setup.sh first: \(error.message)")
            return false
        }
        return true
    }

    private func temporaryPath(_ name: String) -> String {
        NSTemporaryDirectory() + "poses-command-\(UUID().uuidString)-\(name)"
    }

    @Test(arguments: [1, 2])
    func findsTheCurlInTheBicepCurlSample(segments: Int) async throws {
        try #require(
            FileManager.default.fileExists(atPath: Self.bicepCurl),
            "missing \(Self.bicepCurl): the shared data (../shared/data) must sit next to the repository"
        )
        let output = temporaryPath("bicep.jsonl")
        defer { try? FileManager.default.removeItem(atPath: output) }
        guard try await runPoses([Self.bicepCurl, "-o", output, "--segments", String(segments)]) else { return }

        let (header, frames) = try PoseTrackReader.readAll(path: output)
        #expect(header.width == 522 && header.height == 294)
        #expect(header.dimensions == 3)
        #expect(header.keypoints.count == 33 && header.keypoints[15] == "leftWrist")
        #expect(frames.count == 67)
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $1.seconds > $0.seconds })

        // A person in (nearly) every frame.
        let poses = frames.compactMap(\.poses.first)
        #expect(Double(poses.count) >= 0.9 * Double(frames.count))

        // Shoulders stay above hips (image y points down).
        let upright = poses.filter {
            $0[.leftShoulder].y < $0[.leftHip].y && $0[.rightShoulder].y < $0[.rightHip].y
        }
        #expect(Double(upright.count) >= 0.95 * Double(poses.count))

        // The working arm: the wrist seen better. Its height above the shoulder rises and falls.
        let sides: [(wrist: Joint, shoulder: Joint, hip: Joint)] = [
            (.leftWrist, .leftShoulder, .leftHip), (.rightWrist, .rightShoulder, .rightHip),
        ]
        let side = try #require(
            sides.max { a, b in
                poses.map { $0[a.wrist].confidence }.reduce(0, +) < poses.map { $0[b.wrist].confidence }.reduce(0, +)
            }
        )
        let lift = poses.map { $0[side.shoulder].y - $0[side.wrist].y }
        let torso = poses.map { $0[side.hip].y - $0[side.shoulder].y }.sorted()[poses.count / 2]
        let top = try #require(lift.indices.max { lift[$0] < lift[$1] })
        #expect(torso > 50)
        #expect(lift.max()! - lift.min()! > 0.6 * torso, "the wrist moves \(lift.max()! - lift.min()!) px")
        #expect(top > lift.count / 5 && top < lift.count * 4 / 5, "the highest wrist is mid-clip (frame \(top))")
        #expect(lift[top] - lift.first! > 0.5 * torso)
        #expect(lift[top] - lift.last! > 0.5 * torso)
    }

    @Test func segmentsAndOneStreamGiveTheSameFramesInOrder() async throws {
        try #require(FileManager.default.fileExists(atPath: Self.bicepCurl), "missing \(Self.bicepCurl)")
        let one = temporaryPath("one.jsonl")
        let three = temporaryPath("three.jsonl")
        defer {
            try? FileManager.default.removeItem(atPath: one)
            try? FileManager.default.removeItem(atPath: three)
        }
        guard try await runPoses([Self.bicepCurl, "-o", one, "--segments", "1"]) else { return }
        guard try await runPoses([Self.bicepCurl, "-o", three, "--segments", "3"]) else { return }
        let a = try PoseTrackReader.readAll(path: one)
        let b = try PoseTrackReader.readAll(path: three)
        #expect(a.header == b.header)
        #expect(a.frames.map(\.seconds) == b.frames.map(\.seconds))
    }

    @Test(arguments: ["missing.mp4", "notes.mp4"])
    func badInputIsOneClearLine(name: String) async throws {
        let folder = temporaryPath("bad")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/" + name
        if name == "notes.mp4" { _ = FileManager.default.createFile(atPath: path, contents: Data("hello\n".utf8)) }
        let parsed = try CoachCommand.parseAsRoot(["poses", path, "--quiet"])
        let command = try #require(parsed as? PosesCommand)
        let error = try await #require(throws: CLIError.self) { try await command.run() }
        #expect(error.message.hasPrefix(path + ": "))
        #expect(!error.message.contains("\n"))
    }

    @Test func rejectsAZeroSegmentCount() {
        #expect(throws: (any Error).self) { try CoachCommand.parseAsRoot(["poses", "x.mp4", "--segments", "0"]) }
    }
}

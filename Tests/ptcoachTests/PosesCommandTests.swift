import ArgumentParser
import CoachKit
import Foundation
import MediaIO
import PoseKit
import Testing

@testable import ptcoach

/// End to end: `ptcoach poses` with the real MediaPipe model on a real video.
struct PosesCommandTests {
    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    private static let bicepCurl = repository.deletingLastPathComponent()
        .appendingPathComponent("shared/data/videos/pose-trainer/sample_bicep_curl.mp4").path
    /// 1280x720 at 23.976 fps, 144 frames: one slow squat (hand count), its bottom at 1.75–3.25 s.
    private static let slowSquat = repository.deletingLastPathComponent()
        .appendingPathComponent("shared/data/videos/calimiro/squat_11.mp4").path

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

    /// The largest distance between the keypoints both poses see (confidence > 0.5), in % of the image diagonal;
    /// records an issue (and returns `nil`) when a frame has no pose or the two share no such keypoint.
    private static func largestDistance(_ a: PoseFrame, _ b: PoseFrame, diagonal: Double) -> Double? {
        guard let p = a.poses.first, let q = b.poses.first else {
            Issue.record("no pose at \(a.seconds) s or at \(b.seconds) s (the one stream has a person in every frame)")
            return nil
        }
        let distances = Joint.allCases.compactMap { joint -> Double? in
            let u = p[joint], v = q[joint]
            guard u.confidence > 0.5, v.confidence > 0.5 else { return nil }
            return ((u.x - v.x) * (u.x - v.x) + (u.y - v.y) * (u.y - v.y)).squareRoot()
        }
        guard let largest = distances.max() else {
            Issue.record("no keypoint seen well in both frames (\(a.seconds) s, \(b.seconds) s)")
            return nil
        }
        return largest / diagonal * 100
    }

    /// Segments join seamlessly: the segment after a boundary warms its tracker up on the second before it, so
    /// the keypoints from the boundary on are those of one stream, and the slow squat is not split into two.
    /// Measured (2 segments, boundary at 3.0 s, frame 72): without the warm-up the keypoints jumped 20.5% of the
    /// diagonal at the boundary, were 20.8% off the one-stream ones and lost the person 2 frames later; with it 0.7%
    /// and at most 0.65% over the first six frames (the one stream's own jump there: 0.5%; its 95th percentile
    /// over the clip: 5.0%).
    @Test func segmentsJoinTheOneStreamAtTheirBoundary() async throws {
        try #require(
            FileManager.default.fileExists(atPath: Self.slowSquat),
            "missing \(Self.slowSquat): the shared data (../shared/data) must sit next to the repository"
        )
        let one = temporaryPath("squat-one.jsonl")
        let two = temporaryPath("squat-two.jsonl")
        defer {
            try? FileManager.default.removeItem(atPath: one)
            try? FileManager.default.removeItem(atPath: two)
        }
        guard try await runPoses([Self.slowSquat, "-o", one, "--segments", "1"]) else { return }
        guard try await runPoses([Self.slowSquat, "-o", two, "--segments", "2"]) else { return }
        let a = try PoseTrackReader.readAll(path: one)
        let b = try PoseTrackReader.readAll(path: two)
        try #require(a.frames.map(\.seconds) == b.frames.map(\.seconds))

        let plan = SegmentPlan(info: try VideoInfo(probing: Self.slowSquat), requested: 2)
        try #require(plan.count == 2)
        let boundary = try #require(plan.boundaries[1])
        let first = try #require(b.frames.firstIndex { $0.seconds >= boundary })
        try #require(first > 0 && first + 6 <= b.frames.count)
        let diagonal = (Double(a.header.width * a.header.width + a.header.height * a.header.height)).squareRoot()

        if let jump = Self.largestDistance(b.frames[first - 1], b.frames[first], diagonal: diagonal) {
            #expect(jump < 3, "the keypoints jump \(jump)% of the diagonal at the boundary (\(boundary) s)")
        }
        for index in first..<(first + 6) {
            if let off = Self.largestDistance(a.frames[index], b.frames[index], diagonal: diagonal) {
                #expect(off < 3, "frame \(index): \(off)% of the diagonal off the one-stream keypoints")
            }
        }

        // The same count either way (the hand count is 1).
        let library = try AnalyzeCommand.loadLibrary(directory: nil)
        let squat = try library.exercise(id: "squat")
        var counts: [Int] = []
        for path in [one, two] {
            var source = try PoseTrackFrameSource(path: path)
            let configuration = AnalyzeCommand.sessionConfiguration(
                exercise: squat,
                library: library,
                width: source.width,
                height: source.height
            )
            counts.append(try AnalyzeCommand.analyze(source: &source, configuration: configuration, name: path).reps)
        }
        #expect(counts[1] == counts[0], "one stream counts \(counts[0]) squats, two segments \(counts[1])")
    }

    @Test func laterSegmentsStartDecodingASecondBeforeTheirBoundary() {
        let info = VideoInfo(path: "x.mp4", format: "mp4", codec: "h264", width: 640, height: 480, fps: 30, duration: 10)
        let plan = SegmentPlan(info: info, requested: 4)
        #expect(plan.boundaries == [0, 2.5, 5, 7.5, nil])
        #expect((0..<plan.count).map { plan.decodingStart(ofSegment: $0) } == [0, 1.5, 4, 6.5])
        let short = SegmentPlan(info: info, requested: 8, minimumSeconds: 1, warmUpSeconds: 3)
        #expect(short.decodingStart(ofSegment: 1) == 0)
        #expect(short.decodingStart(ofSegment: 3) == 0.75)
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

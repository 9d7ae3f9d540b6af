import ArgumentParser
import CoachKit
import CoachPipeline
import Foundation
import MediaIO
import PoseEstimation
import PoseKit
import Synchronization
import Testing

@testable import CoachAnalysis
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
        try await InProcessCommand.run(["poses"] + arguments + ["--quiet"])
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

    @Test func theSummaryLineNamesOnlyAPoseTrackTheUserAskedFor() {
        let outcome = PosesOutcome(frames: 67, framesWithPerson: 67, inferenceSeconds: 1.1)
        let kept = outcome.summary(elapsed: .seconds(1.4), segments: 1, output: "poses.jsonl", verbose: false)
        #expect(kept == "poses: 67 frames, 67 with a person (100.0%), wrote poses.jsonl", "\(kept)")
        // The speed figures are diagnostics: only with --verbose.
        let verbose = outcome.summary(elapsed: .seconds(1.4), segments: 1, output: "poses.jsonl", verbose: true)
        #expect(verbose.hasPrefix("poses: 67 frames, 67 with a person (100.0%), 20.9 ms/frame"), "\(verbose)")
        #expect(
            outcome.summary(elapsed: .seconds(1), segments: 1, output: "-", verbose: false)
                .hasSuffix(", wrote standard output")
        )
        // analyze's temporary pose-track is deleted at the end: the line does not send the user looking for it.
        #expect(!outcome.summary(elapsed: .seconds(1), segments: 1, output: nil, verbose: false).contains("wrote"))
        let one = PosesOutcome(frames: 1, framesWithPerson: 1, inferenceSeconds: 0.1)
        #expect(
            one.summary(elapsed: .seconds(1), segments: 1, output: nil, verbose: false).hasPrefix("poses: 1 frame,")
        )
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
            let u = p[joint]
            let v = q[joint]
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
    /// Measured (2 segments, keypoints seen with confidence > 0.5, % of the image diagonal): without the warm-up
    /// (boundary at 3.0 s) the keypoints jumped 20.5% at the boundary (one stream: 0.5%), were 20.8% off the
    /// one-stream ones and lost the person 2 frames later; with it (boundary at 3.5 s) they jump 1.9% (one
    /// stream: 2.5%) and are at most 0.94% off over the first six frames.
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

        // Where `poses` put the boundary (with the warm-up it uses).
        let plan = SegmentPlan(info: try VideoInfo(probing: Self.slowSquat), requested: 2)
        try #require(plan.count == 2)
        let boundary = try #require(plan.boundaries[1])
        let first = try #require(b.frames.firstIndex { $0.seconds >= boundary })
        try #require(first > 0 && first + 6 <= b.frames.count)
        let diagonal = (Double(a.header.width * a.header.width + a.header.height * a.header.height)).squareRoot()

        if let jump = Self.largestDistance(b.frames[first - 1], b.frames[first], diagonal: diagonal),
            let own = Self.largestDistance(a.frames[first - 1], a.frames[first], diagonal: diagonal)
        {
            #expect(
                jump < own + 2,
                "the keypoints jump \(jump)% of the diagonal at the boundary (\(boundary) s), one stream's \(own)%"
            )
        }
        for index in first..<(first + 6) {
            if let off = Self.largestDistance(a.frames[index], b.frames[index], diagonal: diagonal) {
                #expect(off < 3, "frame \(index): \(off)% of the diagonal off the one-stream keypoints")
            }
        }

        // The same count either way (the hand count is 1).
        let library = try BodyAnalysis.loadLibrary(directory: nil)
        let squat = try library.exercise(id: "squat")
        var counts: [Int] = []
        for path in [one, two] {
            var source = try PoseTrackFrameSource(path: path)
            let configuration = BodyAnalysis.sessionConfiguration(
                exercise: squat,
                library: library,
                width: source.width,
                height: source.height
            )
            counts.append(try BodyPipeline.run(source: &source, configuration: configuration, name: path).reps)
        }
        #expect(counts[1] == counts[0], "one stream counts \(counts[0]) squats, two segments \(counts[1])")
    }

    @Test func laterSegmentsStartDecodingASecondBeforeTheirBoundaryAndAllTrackAsLong() throws {
        let info = VideoInfo(
            path: "x.mp4",
            format: "mp4",
            codec: "h264",
            width: 640,
            height: 480,
            fps: 30,
            duration: 10
        )
        let plan = SegmentPlan(info: info, requested: 4)
        #expect(plan.boundaries == [0, 3.25, 5.5, 7.75, nil])
        #expect((0..<plan.count).map { plan.decodingStart(ofSegment: $0) } == [0, 2.25, 4.5, 6.75])
        // Each part tracks 3.25 s: the first writes them all, the others 1 s less.
        let ends = plan.boundaries.dropFirst().map { $0 ?? 10 }
        #expect((0..<plan.count).map { ends[$0] - plan.decodingStart(ofSegment: $0) } == [3.25, 3.25, 3.25, 3.25])

        // Image mode (no tracker, no warm-up): equal parts.
        #expect(SegmentPlan(info: info, requested: 2, warmUpSeconds: 0).boundaries == [0, 5, nil])
        // Too short for two parts that each write a second after the warm-up: one stream.
        let short = VideoInfo(
            path: "x.mp4",
            format: "mp4",
            codec: "h264",
            width: 640,
            height: 480,
            fps: 30,
            duration: 1.9
        )
        #expect(SegmentPlan(info: short, requested: 2).count == 1)
        #expect(SegmentPlan(info: short, requested: 2, warmUpSeconds: 0).count == 1)
        let three = VideoInfo(
            path: "x.mp4",
            format: "mp4",
            codec: "h264",
            width: 640,
            height: 480,
            fps: 30,
            duration: 3
        )
        #expect(SegmentPlan(info: three, requested: 2).boundaries == [0, 2, nil])

        // A drawing part 0 writes half as long as each later part: 10 s = 1 s warm-up + 3 x 3 s.
        let weighted = SegmentPlan(info: info, requested: 2, firstWeight: 0.5)
        #expect(weighted.boundaries == [0, 4, nil])
        #expect(weighted.decodingStart(ofSegment: 1) == 3)
    }

    /// Records what an annotated run hands over: every frame's line, in order, and its picture's size.
    private final class RecordingAnnotator: FrameAnnotating {
        let bytesPerPixel = 4
        let lines = Mutex<[String]>([])
        let pictures = Mutex<Set<String>>([])

        func annotate(line: String, image: inout RGBImage) throws {
            lines.withLock { $0.append(line) }
            let picture = "\(image.width)x\(image.height)x\(image.bytesPerPixel)"
            pictures.withLock { _ = $0.insert(picture) }
        }
    }

    /// Runs `process` on the slow squat with `streams`, annotated by `annotator` if given; the pose-track's lines
    /// and the outcome.
    private func runSlowSquat(
        _ streams: AnnotatedStreams,
        annotator: RecordingAnnotator?
    ) throws -> (lines: [String], outcome: PosesOutcome) {
        let info = try VideoInfo(probing: Self.slowSquat)
        let header = PoseTrackHeader(
            layout: .blazePose33,
            fps: info.fps,
            width: info.width,
            height: info.height,
            dimensions: 3
        )
        let path = temporaryPath("annotated.jsonl")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let sink = try OutputSink(path: path)
        let outcome = try VideoPoses.process(
            path: Self.slowSquat,
            info: info,
            streams: streams,
            configuration: MediaPipePoseEstimator.Configuration(runningMode: .video, numPoses: 1),
            header: header,
            sink: sink,
            progress: ProgressBar(total: nil, descriptor: 2, enabled: false),
            annotator: annotator
        )
        try sink.close()
        #expect(outcome.failure == nil)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        return (lines, outcome)
    }

    /// An annotated run draws every frame in one stream but finds the later part's poses in a second one: the
    /// drawing gets each frame once, in time order, with the very line written to the pose-track, and the
    /// pose-track is the one `poses` writes with the same parts.
    @Test func annotatedRunDrawsEveryFrameInOrderWithTheLaterSegmentsLines() throws {
        let runtime = try? MediaPipeRuntime.locate()
        try #require(runtime != nil, "the pose runtime is missing, run scripts/setup.sh first")
        let plan = SegmentPlan(info: try VideoInfo(probing: Self.slowSquat), requested: 2, firstWeight: 0.5)
        try #require(plan.count == 2)
        let annotator = RecordingAnnotator()
        let drawn = try runSlowSquat(AnnotatedStreams(plan: plan), annotator: annotator).lines
        let plain = try runSlowSquat(AnnotatedStreams(plan: plan), annotator: nil).lines
        #expect(drawn.count == 144)
        #expect(drawn == plain, "the annotated run's pose-track differs from the same parts' without drawing")
        #expect(annotator.lines.withLock { $0 } == drawn)
        #expect(annotator.pictures.withLock { $0 } == ["1280x720x4"])
    }

    /// A low-priority helper that has not finished its part when the drawing stream reaches it (here: it has
    /// five times as much to do, and no patience) is abandoned: the drawing stream finds those poses itself,
    /// exactly as one stream does, every frame drawn once, and the helper's frames are not counted.
    @Test func anUnfinishedHelperIsAbandonedAndTheDrawingStreamTracksOnAsOneStream() throws {
        let runtime = try? MediaPipeRuntime.locate()
        try #require(runtime != nil, "the pose runtime is missing, run scripts/setup.sh first")
        let info = try VideoInfo(probing: Self.slowSquat)
        let plan = SegmentPlan(info: info, requested: 2, firstWeight: 0.2)
        try #require(plan.count == 2)
        let annotator = RecordingAnnotator()
        let helped = try runSlowSquat(
            AnnotatedStreams(plan: plan, helperNiceness: 19, patience: 0),
            annotator: annotator
        )
        let one = try runSlowSquat(AnnotatedStreams(plan: SegmentPlan(info: info, requested: 1)), annotator: nil)
        #expect(helped.lines.count == 144)
        let differs = helped.lines.indices.first { $0 < one.lines.count && helped.lines[$0] != one.lines[$0] }
        #expect(differs == nil, "frame \(differs ?? 0) differs from one stream's: the abandoned helper's line was used")
        #expect(annotator.lines.withLock { $0 } == helped.lines)
        #expect(helped.outcome.frames == 144)
        #expect(helped.outcome.warmUpFrames == 0)
    }

    /// On two cores an annotated run gives a helper the share the other core leaves idle, less its fixed cost:
    /// a fifth of a 24 s 720p video, over 0.4 of a small one, none at 1080p or for a short video; on more cores
    /// one stream a core, on one core one stream.
    @Test func annotatedRunsGiveAHelperWhatTheSecondCoreLeaves() {
        func video(_ width: Int, _ height: Int, seconds: Double = 24) -> VideoInfo {
            VideoInfo(
                path: "x.mp4",
                format: "mp4",
                codec: "h264",
                width: width,
                height: height,
                fps: 30,
                duration: seconds
            )
        }
        func share(_ width: Int, _ height: Int, seconds: Double) -> Double {
            VideoPoses.helperShare(width: width, height: height, frames: seconds * 30, fixed: 30 + 16)
        }
        #expect(abs(share(1280, 720, seconds: 24) - 0.2) < 0.01)
        #expect(share(522, 294, seconds: 20) > 0.4)
        #expect(share(1920, 1080, seconds: 24) == 0)
        #expect(share(3840, 2160, seconds: 60) == 0)
        #expect(share(1280, 720, seconds: 8) == 0)
        #expect(share(1280, 720, seconds: 60) > share(1280, 720, seconds: 24))

        let hd = VideoPoses.annotatedStreams(info: video(1280, 720), cores: 2, warmUpSeconds: 1)
        // 23 s after the warm-up: the helper's share of them last.
        #expect(hd.plan.count == 2)
        #expect(abs((hd.plan.boundaries[1] ?? 0) - (1 + 23 * (1 - share(1280, 720, seconds: 24)))) < 1e-9)
        #expect(hd.helperNiceness == 19)
        #expect(hd.patience == 0.5)
        #expect(VideoPoses.annotatedStreams(info: video(1920, 1080), cores: 2, warmUpSeconds: 1).plan.count == 1)
        #expect(
            VideoPoses.annotatedStreams(info: video(1280, 720, seconds: 8), cores: 2, warmUpSeconds: 1).plan.count
                == 1
        )
        #expect(VideoPoses.annotatedStreams(info: video(1280, 720), cores: 1, warmUpSeconds: 1).plan.count == 1)
        let four = VideoPoses.annotatedStreams(info: video(1920, 1080), cores: 4, warmUpSeconds: 1)
        #expect(four.plan.count == 4)
        #expect(four.helperNiceness == 0)
        #expect(four.patience == nil)
    }

    /// The spool a helper writes to: waiting for its end gives up after the timeout, and an abandoned spool
    /// says so to the helper.
    @Test func theSpoolWaitsForItsEndAtMostTheTimeoutAndCanBeAbandoned() {
        let spool = PoseLineSpool()
        spool.append(seconds: 0, line: "a")
        let clock = ContinuousClock()
        let started = clock.now
        #expect(!spool.waitUntilClosed(timeout: 0.05))
        #expect(started.duration(to: clock.now) >= .milliseconds(40))
        #expect(!spool.isAbandoned)
        spool.abandon()
        #expect(spool.isAbandoned)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { spool.close() }
        #expect(spool.waitUntilClosed(timeout: 30))
        #expect(spool.line(at: 0, tolerance: 0.01) == "a")
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

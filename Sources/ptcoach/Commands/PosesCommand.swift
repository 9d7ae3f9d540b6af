import ArgumentParser
import Foundation
import MediaIO
import PoseEstimation
import PoseKit

#if canImport(Glibc)
import Glibc
#endif

/// `ptcoach poses VIDEO [-o OUT.jsonl]`: the pose-track of a video or a still image.
///
/// A video is split into `--segments` parts by time; each part gets its own decoder (running ahead
/// on its own thread) and its own MediaPipe tracker, and the parts run at the same time, because
/// MediaPipe's inference uses one core. Each part after the first tracks the second before its start
/// too (those poses are not written), so the parts join as one stream would (``SegmentPlan``). The
/// frames are written in order, as one pose-track.
struct PosesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "poses",
        abstract: "Find the body pose in every frame of a video (or in an image) and write a pose-track file.",
        discussion: """
            Writes JSON Lines (pose-track.md): a header with the 33 BlazePose keypoints under Apple \
            Vision names, then one line per frame with x, y (pixels of the upright frame), z and \
            confidence of each keypoint. Reads any video ffmpeg reads (mp4, mov, webm, avi) and images \
            (jpg, png). Needs the pose runtime: run scripts/setup.sh once.
            """
    )

    enum Mode: String, ExpressibleByArgument, CaseIterable, Sendable {
        /// Track the person from frame to frame (detector only when the track is lost).
        case video
        /// Detect afresh in every frame (slower; for unrelated frames).
        case image
    }

    @Argument(help: "The video (mp4, mov, webm, avi, …) or image (jpg, png) to read.")
    var input: String

    @Option(name: .shortAndLong, help: "The pose-track file to write (.jsonl); standard output when omitted.")
    var output: String = "-"

    @Option(help: "Parts of the video processed at the same time (default: the number of cores).")
    var segments: Int?

    @Option(name: .customLong("num-poses"), help: "The most people to find in a frame.")
    var numPoses: Int = 1

    @Option(help: "video: track from frame to frame; image: detect in every frame.")
    var mode: Mode = .video

    @Flag(help: "No progress bar and no summary on standard error.")
    var quiet = false

    @Flag(help: "Let MediaPipe's own log lines through to standard error.")
    var verbose = false

    func validate() throws {
        if let segments, !(1...64).contains(segments) {
            throw ValidationError("--segments must be between 1 and 64, got \(segments)")
        }
        guard (1...20).contains(numPoses) else {
            throw ValidationError("--num-poses must be between 1 and 20, got \(numPoses)")
        }
    }

    func run() async throws {
        try Self.writePoseTrack(
            of: input,
            to: output,
            segments: segments,
            numPoses: numPoses,
            mode: mode,
            quiet: quiet,
            verbose: verbose
        )
    }

    /// How many streams find the poses of an annotated run on `cores` cores: one on two cores or fewer, where
    /// a second stream's decoding of its part costs more than it saves (24 s 720p clip, 2 cores: 18.0 s CPU
    /// against one stream's 15.0 s, 12.97 s against 11.07 s wall); one a core on more, so that inference,
    /// the step one stream waits for, no longer sets the pace.
    static func annotatedStreams(cores: Int) -> Int { cores <= 2 ? 1 : cores }

    /// Writes the pose-track of the video or image `input` to `output` (`-` = standard output); what `poses`
    /// does, and the first step of `analyze` for a video. With `annotator`, every frame is also handed to it in
    /// time order while the poses are being found (`analyze --annotate` draws the video in the same pass).
    /// `probed`: the input's ``VideoInfo`` when the caller already has it (saves running ffprobe again).
    static func writePoseTrack(
        of input: String,
        to output: String,
        segments: Int?,
        numPoses: Int,
        mode: Mode,
        quiet: Bool,
        verbose: Bool,
        annotator: (any FrameAnnotating)? = nil,
        probed: VideoInfo? = nil
    ) throws {
        let started = ContinuousClock.now
        let info: VideoInfo
        do {
            info = try probed ?? VideoInfo(probing: input)
            _ = try MediaPipeRuntime.locate()
        } catch {
            throw CLIError("\(error)")
        }
        let configuration = MediaPipePoseEstimator.Configuration(
            runningMode: mode == .video && !info.isStillImage ? .video : .image,
            numPoses: numPoses
        )
        let header = PoseTrackHeader(
            layout: .blazePose33,
            fps: info.fps,
            width: info.width,
            height: info.height,
            dimensions: 3,
            source: (input as NSString).lastPathComponent
        )
        let sink: OutputSink
        do {
            sink = try OutputSink(path: output)
        } catch {
            throw CLIError("\(error)")
        }
        sink.write(header.jsonLine)

        // MediaPipe logs warnings of its own on standard error (TensorFlow Lite, absl) while it loads
        // and runs; they bury the one line this command promises. The progress bar and the summary
        // go to the real standard error, everything else to /dev/null unless --verbose.
        let console = StandardErrorRedirect(silenced: !verbose)
        defer { console.restore() }

        // A later segment's tracker settles on the second before its boundary (image mode has no tracker).
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let plan = SegmentPlan(
            info: info,
            requested: segments ?? (annotator == nil ? cores : Self.annotatedStreams(cores: cores)),
            warmUpSeconds: configuration.runningMode == .video ? SegmentPlan.trackerWarmUpSeconds : 0,
            // The drawing stream (segment 0) has every frame to draw besides its own poses to find.
            firstWeight: annotator == nil ? 1 : 0.5
        )
        let progress = ProgressBar(
            total: info.estimatedFrameCount,
            descriptor: console.descriptor,
            enabled: !quiet && isatty(console.descriptor) == 1
        )
        let outcome = try process(
            path: input,
            info: info,
            plan: plan,
            configuration: configuration,
            header: header,
            sink: sink,
            progress: progress,
            annotator: annotator
        )
        progress.clear()
        try sink.close()

        let elapsed = started.duration(to: .now)
        if !quiet {
            console.write(outcome.summary(elapsed: elapsed, segments: plan.count, output: output) + "\n")
        }
        if let failure = outcome.failure, annotator != nil {
            throw CLIError(failure)
        }
        if let failure = outcome.failure {
            let destination = output == "-" ? "" : " to \(output)"
            throw CLIError(failure + " (the \(outcome.frames) frames before it were written\(destination))")
        }
        if outcome.frames > 0, outcome.framesWithPerson == 0 {
            throw CLIError(
                "\(input): nobody was found in any of the \(outcome.frames) frames; film the whole body, "
                    + "well lit, one person, from 2–4 m"
            )
        }
    }
}

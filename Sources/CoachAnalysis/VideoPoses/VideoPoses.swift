import CoachPipeline
import Foundation
public import MediaIO
import PoseEstimation
import PoseKit

#if canImport(Glibc)
import Glibc
#endif

/// The pose-track of a video or a still image, of the body or of the hands: what `ptcoach poses` writes, and the
/// first step of `analyze` and `learn` for a video.
///
/// A video is split into parts by time (``SegmentPlan``); each part gets its own decoder (running ahead on its own
/// thread) and its own estimator (``PoseLineFinder``: the one pose-estimator port, MediaPipe behind it), and the
/// parts run at the same time, because MediaPipe's inference uses one core. Each part after the first tracks the
/// second before its start too (those poses are not written), so the parts join as one stream would. The frames
/// are written in order, as one pose-track.
///
/// ```swift
/// try VideoPoses.writePoseTrack(of: "squat.mp4", to: "squat.jsonl", segments: nil, numPoses: 1, mode: .video,
///                               quiet: true, verbose: false)
/// ```
public enum VideoPoses {
    /// How frames relate to each other.
    public enum Mode: String, CaseIterable, Sendable {
        /// Track the person from frame to frame (detector only when the track is lost).
        case video
        /// Detect afresh in every frame (slower; for unrelated frames).
        case image
    }

    /// How an annotated run of `info` finds its poses on `cores` cores.
    ///
    /// On two cores one stream's inference is the step everything waits for, while decoding, drawing and
    /// encoding leave part of the other core idle; a second stream at the same priority would take the drawing
    /// stream's core half the time. So a *helper* finds the poses of the end of the video at the lowest priority
    /// (niceness 19), in the time the other core leaves: its share is ``helperShare(width:height:frames:fixed:)``,
    /// none for short videos or frames over about 1 megapixel (1080p leaves nothing idle). The drawing stream takes the helper's
    /// lines only once it has finished them all, waiting at most half the time it would need itself: a helper
    /// starved by other work on the machine then costs that wait, and the drawing stream finds those poses
    /// itself, exactly as one stream would have.
    ///
    /// On more cores, one stream a core at the same priority, the drawing stream (segment 0) writing half as
    /// long as each of the others, and taking their lines as they come. On one core, one stream.
    public static func annotatedStreams(info: VideoInfo, cores: Int, warmUpSeconds: Double) -> AnnotatedStreams {
        guard cores == 2 else {
            let plan = SegmentPlan(info: info, requested: max(1, cores), warmUpSeconds: warmUpSeconds, firstWeight: 0.5)
            return AnnotatedStreams(plan: plan)
        }
        let share = helperShare(
            width: info.width,
            height: info.height,
            frames: (info.duration ?? 0) * info.fps,
            fixed: warmUpSeconds * info.fps + 16
        )
        let plan = SegmentPlan(
            info: info,
            requested: share > 0 ? 2 : 1,
            warmUpSeconds: warmUpSeconds,
            firstWeight: share > 0 ? (1 - share) / share : 1
        )
        return AnnotatedStreams(plan: plan, helperNiceness: 19, patience: 0.5)
    }

    /// The share of an annotated video's poses a low-priority helper finds on two cores: what the second core
    /// leaves idle while the drawing stream infers, less what the helper spends before its first line.
    ///
    /// In units of one frame's inference: decoding, drawing and encoding a frame cost `load` (0.66 at
    /// 1280x720, in proportion to the pixels), so while the drawing stream infers its `(1 − share) · frames`
    /// the other core has `(1 − share) · frames · (1 − load)` to spare; the helper needs `share · frames` plus
    /// `fixed`: its warm-up frames and about 16 frames' worth of starting MediaPipe. Below 15 %, none: the gain
    /// would be small, and a helper that does not finish in time only costs.
    ///
    /// Measured (2 cores, `analyze --annotate` / `poses`, 2 rounds each): 24 s 720p 1.50–1.56 with one stream,
    /// 1.27–1.42 with a fifth to the helper (the share given here), 1.35 with a quarter; 20 s 522x294 1.81–1.92,
    /// 1.06–1.17 with 0.47, 1.19–1.31 with a third; 16 s 1080p 1.48–1.54, no better with a helper of 9 % or
    /// 14 %. The 8.4 s 720p pull-up_14 took 4.6–5.1 s with a fifth to the helper against 4.4–4.5 s alone: the
    /// helper's fixed cost is why short videos get none.
    public static func helperShare(width: Int, height: Int, frames: Double, fixed: Double) -> Double {
        let load = 0.66 * Double(width * height) / (1280 * 720)
        guard load < 1, frames > 0 else { return 0 }
        let share = (1 - load - fixed / frames) / (2 - load)
        return share >= 0.15 ? share : 0
    }

    /// The poses of the video `input` (probed as `video`) in a temporary pose-track, unique per call (analyses may run
    /// side by side in one process: the tests do), registered to go on an interrupt and removed when finding the
    /// poses fails. The caller removes it (`OutputFile.remove`) once read.
    public static func temporaryPoseTrack(
        of input: String,
        probed video: VideoInfo,
        purpose: String,
        hands: Int? = nil,
        verbose: Bool,
        annotator: (any FrameAnnotating)? = nil
    ) throws -> String {
        let path = NSTemporaryDirectory() + "ptcoach-\(purpose)-\(getpid())-\(UUID().uuidString.prefix(8)).jsonl"
        PartialFiles.register(path)
        do {
            try writePoseTrack(
                of: input,
                to: path,
                segments: nil,
                numPoses: 1,
                hands: hands,
                mode: .video,
                quiet: false,
                verbose: verbose,
                annotator: annotator,
                probed: video,
                temporary: true
            )
        } catch {
            OutputFile.remove(path)
            throw error
        }
        return path
    }

    /// Writes the pose-track of the video or image `input` to `output` (`-` = standard output); what `poses`
    /// does, and the first step of `analyze` for a video. With `hands`, finds at most that many hands instead of
    /// the body (a hand pose-track). With `annotator` (bodies only), every frame is also handed to it in
    /// time order while the poses are being found (`analyze --annotate` draws the video in the same pass).
    /// `probed`: the input's ``VideoInfo`` when the caller already has it (saves running ffprobe again).
    public static func writePoseTrack(
        of input: String,
        to output: String,
        segments: Int?,
        numPoses: Int,
        hands: Int? = nil,
        mode: Mode,
        quiet: Bool,
        verbose: Bool,
        annotator: (any FrameAnnotating)? = nil,
        probed: VideoInfo? = nil,
        temporary: Bool = false
    ) throws {
        precondition(hands == nil || annotator == nil, "an annotated run draws bodies, not hands")
        let started = ContinuousClock.now
        let info = try probe(input, probed: probed, hands: hands != nil)
        let runningMode: MediaPipePoseEstimator.RunningMode = mode == .video && !info.isStillImage ? .video : .image
        let configuration = MediaPipePoseEstimator.Configuration(runningMode: runningMode, numPoses: numPoses)
        let handConfiguration = hands.map {
            MediaPipeHandEstimator.Configuration(runningMode: runningMode, numHands: $0)
        }
        let header = trackHeader(info: info, hands: hands != nil, source: (input as NSString).lastPathComponent)
        let sink = try openSink(output, header: header)

        // MediaPipe logs warnings of its own on standard error (TensorFlow Lite, absl) while it loads
        // and runs; they bury the one line this command promises. The progress bar and the summary
        // go to the real standard error, everything else to /dev/null unless --verbose.
        let console = StandardErrorRedirect(silenced: !verbose)
        defer { console.restore() }

        let streams = Self.streams(
            info: info,
            runningMode: configuration.runningMode,
            segments: segments,
            annotated: annotator != nil
        )
        let plan = streams.plan
        let progress = ProgressBar(
            total: info.estimatedFrameCount,
            descriptor: console.descriptor,
            enabled: !quiet && isatty(console.descriptor) == 1
        )
        let outcome = try process(
            path: input,
            info: info,
            streams: streams,
            configuration: configuration,
            hands: handConfiguration,
            header: header,
            sink: sink,
            progress: progress,
            annotator: annotator
        )
        progress.clear()
        try sink.close()

        let elapsed = started.duration(to: .now)
        if !quiet {
            console.write(
                outcome.summary(
                    elapsed: elapsed,
                    segments: plan.count,
                    output: temporary ? nil : output,
                    verbose: verbose,
                    found: hands == nil ? "a person" : "a hand"
                ) + "\n"
            )
        }
        try check(
            outcome,
            input: input,
            output: temporary ? nil : output,
            annotated: annotator != nil,
            hands: hands != nil
        )
    }

    // MARK: - The steps of `writePoseTrack`

    /// The ``VideoInfo`` of `input` (`probed` when the caller has it), once the model the run needs is found.
    private static func probe(_ input: String, probed: VideoInfo?, hands: Bool) throws -> VideoInfo {
        do {
            let info = try probed ?? VideoInfo(probing: input)
            _ = try MediaPipeRuntime.locate(hands ? .hands : .pose)
            return info
        } catch {
            throw AnalysisError("\(error)")
        }
    }

    /// The pose-track's sink (`-` = standard output), its header written.
    private static func openSink(_ output: String, header: PoseTrackHeader) throws -> OutputSink {
        let sink: OutputSink
        do {
            sink = try OutputSink(path: output)
        } catch {
            throw AnalysisError("\(error)")
        }
        sink.write(header.jsonLine)
        return sink
    }

    /// The header of the pose-track of a video: BlazePose's 33 joints, or `hands`.
    private static func trackHeader(info: VideoInfo, hands: Bool, source: String) -> PoseTrackHeader {
        hands
            ? PoseTrackHeader(
                handsWithFPS: info.fps,
                width: info.width,
                height: info.height,
                dimensions: 3,
                source: source
            )
            : PoseTrackHeader(
                layout: .blazePose33,
                fps: info.fps,
                width: info.width,
                height: info.height,
                dimensions: 3,
                source: source
            )
    }

    /// How the video is cut into segments found side by side (`segments`, or one per core), and, when `annotated`
    /// with no `segments` given, which segments the drawing stream takes.
    private static func streams(
        info: VideoInfo,
        runningMode: MediaPipePoseEstimator.RunningMode,
        segments: Int?,
        annotated: Bool
    ) -> AnnotatedStreams {
        // A later segment's tracker settles on the second before its boundary (image mode has no tracker).
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let warmUp = runningMode == .video ? SegmentPlan.trackerWarmUpSeconds : 0
        return annotated && segments == nil
            ? Self.annotatedStreams(info: info, cores: cores, warmUpSeconds: warmUp)
            : AnnotatedStreams(
                plan: SegmentPlan(
                    info: info,
                    requested: segments ?? cores,
                    warmUpSeconds: warmUp,
                    // The drawing stream (segment 0) has every frame to draw besides its own poses to find.
                    firstWeight: annotated ? 0.5 : 1
                )
            )
    }

    /// Throws the failure of a pass, or that nobody (no hand) was found in any frame.
    ///
    /// - Parameter output: the pose-track's path as the user named it; nil for analyze's scratch pose-track,
    ///   which is removed, so it is not named.
    private static func check(
        _ outcome: PosesOutcome,
        input: String,
        output: String?,
        annotated: Bool,
        hands: Bool
    ) throws {
        if let failure = outcome.failure, annotated {
            throw AnalysisError(failure)
        }
        if let failure = outcome.failure {
            guard let output else { throw AnalysisError(failure) }
            let destination = output == "-" ? "" : " to \(output)"
            throw AnalysisError(failure + " (the \(outcome.frames) frames before it were written\(destination))")
        }
        if outcome.frames > 0, outcome.framesWithPerson == 0, hands {
            throw AnalysisError(
                "\(input): no hand was found in any of the \(outcome.frames) frames; hold the hand up to the camera, "
                    + "palm or back toward it, fingers in the frame, well lit, within about 1 m"
            )
        }
        if outcome.frames > 0, outcome.framesWithPerson == 0 {
            throw AnalysisError(
                "\(input): nobody was found in any of the \(outcome.frames) frames; film the whole body, "
                    + "well lit, one person, from 2–4 m"
            )
        }
    }
}

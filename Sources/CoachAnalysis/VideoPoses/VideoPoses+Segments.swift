import CoachPipeline
import Foundation
import MediaIO
import PoseEstimation
import PoseKit
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

extension VideoPoses {
    /// Runs every segment and writes their frames in order to `sink`; with `annotator`, also hands it every
    /// frame in order (see ``FrameAnnotating``).
    ///
    /// An annotated run draws in one stream, since the drawing replays the session from the first frame:
    /// segment 0 decodes the whole video, finds the poses up to the first boundary and draws every frame.
    /// The later segments decode their part a second time and only find its poses, at the same time as
    /// segment 0, `streams.helperNiceness` nicer than the caller, handing their lines to segment 0 through a
    /// ``PoseLineSpool`` each; with `streams.patience`, segment 0 takes them only once a segment has finished,
    /// and otherwise abandons it and tracks on itself (see ``AnnotatedStreams``). A frame a later segment has no
    /// line for is inferred by segment 0. With `hands`, each stream finds hands with that configuration instead of
    /// bodies (`header` is then a hand header).
    static func process(
        path: String,
        info: VideoInfo,
        streams: AnnotatedStreams,
        configuration: MediaPipePoseEstimator.Configuration,
        hands: MediaPipeHandEstimator.Configuration? = nil,
        header: PoseTrackHeader,
        sink: OutputSink,
        progress: ProgressBar,
        annotator: (any FrameAnnotating)? = nil
    ) throws -> PosesOutcome {
        let plan = streams.plan
        let helperNiceness = streams.helperNiceness
        let joints = header.joints
        let annotated = annotator != nil
        // Segment 0 sends its lines here (written as they come); later segments write to temporary
        // files appended in order at the end, so memory does not grow with the video; in an annotated run
        // they hand their lines to segment 0 instead, which writes them in order.
        let firstLines = BlockingQueue<String>(capacity: 64)
        let spools = (0..<plan.count).map { k in annotated && k > 0 ? PoseLineSpool() : nil }
        let handoffs = (1..<max(1, plan.count)).compactMap { k in
            spools[k].map { (from: plan.boundaries[k] ?? 0, spool: $0) }
        }
        var tasks: [SegmentTask] = []
        let run = UUID().uuidString.prefix(8)
        // One decoding thread per stream where the cores are taken anyway (one stream per core, or drawing and
        // encoding beside an annotated stream): ffmpeg's frame threads cost more CPU in all.
        let threads = plan.count >= ProcessInfo.processInfo.activeProcessorCount || annotator != nil ? 1 : 0
        for k in 0..<plan.count {
            let spool = spools[k]
            let temporary =
                k == 0 || spool != nil ? nil : NSTemporaryDirectory() + "ptcoach-poses-\(getpid())-\(run)-\(k).jsonl"
            let task = SegmentTask(temporaryPath: temporary)
            tasks.append(task)
            let start = plan.boundaries[k] ?? 0
            let decodingStart = plan.decodingStart(ofSegment: k)
            // The drawing stream decodes to the end: it draws the later segments' frames too.
            let end = k == 0 && annotated ? nil : plan.boundaries[k + 1]
            let thread = Thread {
                if k > 0, helperNiceness != 0 { lowerThisThreadsPriority(by: helperNiceness) }
                var outcome = PosesOutcome()
                let file = temporary.flatMap { fopen($0, "w") }
                defer {
                    if let file { fclose(file) }
                    if k == 0 { firstLines.close() }
                    spool?.close()
                    task.finish(outcome)
                }
                let emit = emitter(file: file, spool: spool, firstLines: firstLines)
                if temporary != nil, file == nil {
                    outcome.failure = "cannot create a temporary file in \(NSTemporaryDirectory())"
                    return
                }
                runSegment(
                    path: path,
                    info: info,
                    start: start,
                    decodingStart: decodingStart,
                    end: end,
                    threads: threads,
                    configuration: configuration,
                    hands: hands,
                    joints: joints,
                    dimensions: header.dimensions,
                    progress: progress,
                    annotator: k == 0 ? annotator : nil,
                    handoffs: k == 0 ? handoffs : [],
                    patience: streams.patience,
                    abandoned: { spool?.isAbandoned ?? false },
                    outcome: &outcome,
                    emit: emit
                )
                // An abandoned helper's lines were not used: the drawing stream found those poses itself.
                if spool?.isAbandoned == true { outcome = PosesOutcome() }
            }
            thread.name = "poses-segment-\(k)"
            thread.start()
        }

        return collect(tasks, firstLines: firstLines, sink: sink, progress: progress)
    }

    /// Writes segment 0's lines as they come, then each later segment's temporary file in order once it has
    /// finished (none after a failure), and gives the outcome of all of them.
    private static func collect(
        _ tasks: [SegmentTask],
        firstLines: BlockingQueue<String>,
        sink: OutputSink,
        progress: ProgressBar
    ) -> PosesOutcome {
        var total = PosesOutcome()
        while let line = firstLines.pop() {
            sink.write(line)
            progress.draw()
        }
        for (k, task) in tasks.enumerated() {
            while !task.wait(timeout: 0.2) { progress.draw() }
            let outcome = task.outcome
            if k > 0, total.failure == nil, let temporary = task.temporaryPath {
                sink.append(contentsOf: temporary)
            }
            if let temporary = task.temporaryPath { unlink(temporary) }
            guard total.failure == nil else { continue }
            total.frames += outcome.frames
            total.framesWithPerson += outcome.framesWithPerson
            total.warmUpFrames += outcome.warmUpFrames
            total.inferenceSeconds += outcome.inferenceSeconds
            total.failure = outcome.failure
        }
        return total
    }

    /// Makes the calling thread `niceness` nicer. Linux: the calling thread only; the threads and processes it starts
    /// (MediaPipe's, ffmpeg) inherit it. Best effort: at the normal priority the run is slower, not wrong.
    private static func lowerThisThreadsPriority(by niceness: Int32) {
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        _ = setpriority(which, 0, getpriority(which, 0) + niceness)
    }

    /// Where a segment's lines go: its temporary `file`, the drawing stream's `spool`, or (segment 0) `firstLines`.
    private static func emitter(
        file: UnsafeMutablePointer<FILE>?,
        spool: PoseLineSpool?,
        firstLines: BlockingQueue<String>
    ) -> (Double, String) -> Void {
        { seconds, line in
            if let file {
                fputs(line, file)
                fputc(10, file)
            } else if let spool {
                spool.append(seconds: seconds, line: line)
            } else {
                firstLines.push(line)
            }
        }
    }

    /// Decodes one segment and finds the poses in each of its frames. The frames from `decodingStart` to
    /// `start` only warm the tracker up (see ``SegmentPlan``): tracked, not written. From each handoff's
    /// `from` on, the poses are the line of the later segment that found them (annotated runs).
    private static func runSegment(
        path: String,
        info: VideoInfo,
        start: Double,
        decodingStart: Double,
        end: Double?,
        threads: Int,
        configuration: MediaPipePoseEstimator.Configuration,
        hands: MediaPipeHandEstimator.Configuration?,
        joints: [Joint?],
        dimensions: Int,
        progress: ProgressBar,
        annotator: (any FrameAnnotating)?,
        handoffs: [(from: Double, spool: PoseLineSpool)],
        patience: Double?,
        abandoned: () -> Bool,
        outcome: inout PosesOutcome,
        emit: (Double, String) -> Void
    ) {
        do {
            let finder = try PoseLineFinder(body: configuration, hands: hands, joints: joints, dimensions: dimensions)
            let frames = try PrefetchingVideoDecoder(
                path: path,
                start: decodingStart,
                end: end,
                info: info,
                allowsStillImage: true,
                // An annotated stream keeps a few more frames ready (below 4K): inference is the step everything
                // waits for, so it should never wait for a decoder that was not scheduled for a moment.
                capacity: annotator == nil || info.width * info.height > 1 << 22 ? 2 : 4,
                threads: threads,
                bytesPerPixel: annotator?.bytesPerPixel ?? 3
            )
            let clock = ContinuousClock()
            // Half a frame: both decoders report each frame's own timestamp, so the lines match exactly.
            let tolerance = 0.5 / max(info.fps, 1)
            // Per handoff, once its boundary is reached: whether its lines are taken (or found here).
            var taken = [Bool?](repeating: nil, count: handoffs.count)
            while var frame = try frames.next() {
                if abandoned() { return }
                let handoff = handoffs.lastIndex { $0.from <= frame.seconds }
                if let index = handoff, taken[index] == nil {
                    taken[index] = takes(
                        handoffs[index],
                        until: index + 1 < handoffs.count ? handoffs[index + 1].from : info.duration,
                        fps: info.fps,
                        patience: patience,
                        outcome: outcome
                    )
                }
                if let index = handoff, taken[index] == true,
                    let line = handoffs[index].spool.line(at: frame.seconds, tolerance: tolerance)
                {
                    emit(frame.seconds, line)
                    try annotator?.annotate(line: line, image: &frame.image)
                    frames.recycle(frame.image)
                    continue
                }
                if frame.seconds < start {
                    // Warm-up: the tracker and its smoothing settle; the poses are dropped.
                    _ = try finder.line(for: frame.image, at: frame.seconds)
                    outcome.warmUpFrames += 1
                    frames.recycle(frame.image)
                    continue
                }
                let before = clock.now
                let (line, found) = try finder.line(for: frame.image, at: frame.seconds)
                let spent = before.duration(to: clock.now)
                outcome.inferenceSeconds +=
                    Double(spent.components.seconds) + Double(spent.components.attoseconds) * 1e-18
                outcome.frames += 1
                if found { outcome.framesWithPerson += 1 }
                emit(frame.seconds, line)
                // Drawn in place on the decoder's buffer, then handed back for reuse.
                try annotator?.annotate(line: line, image: &frame.image)
                frames.recycle(frame.image)
                progress.advance()
            }
        } catch {
            outcome.failure = "\(error)"
        }
    }

    /// Whether the drawing stream takes the lines of `handoff` (decided once, at its boundary; see
    /// ``AnnotatedStreams/patience``). Refused, the segment is abandoned and stops.
    private static func takes(
        _ handoff: (from: Double, spool: PoseLineSpool),
        until end: Double?,
        fps: Double,
        patience: Double?,
        outcome: PosesOutcome
    ) -> Bool {
        guard let patience else { return true }
        // The time this stream would need for the segment's frames, at its own pace so far.
        let perFrame = outcome.frames > 0 ? outcome.inferenceSeconds / Double(outcome.frames) : 0.05
        let frames = end.map { max(0, $0 - handoff.from) * fps } ?? 0
        let take = handoff.spool.waitUntilClosed(timeout: patience * frames * perFrame)
        if !take { handoff.spool.abandon() }
        return take
    }
}

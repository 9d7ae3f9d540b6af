public import CoachKit
import CoachPipeline
import Foundation
public import MediaIO
public import PoseKit
import Synchronization

/// The second pass of `ptcoach analyze`: the coaching session replayed in step with the pictures, each frame
/// drawn with the overlay and, with `--annotate`, encoded; the stills of the report are taken on the way.
///
/// The first pass (poses, then the session) already decided everything; this one only draws it, so the
/// overlay shows exactly what the summary says. Decoding runs ahead on its own thread and encoding in
/// ffmpeg's process, so drawing overlaps both.
///
/// ```swift
/// let stills = try AnnotationPass.run(track: "poses.jsonl", video: info, session: configuration,
///                                     annotate: "out.mp4", overwrite: false, stillTimes: [3.2, 7.9])
/// ```
public enum AnnotationPass {
    /// Replays `track` over the video's frames (or a plain background for a pose-track input).
    ///
    /// - Parameters:
    ///   - track: the pose-track of the recording (from `ptcoach poses` for a video: one line per decoded frame).
    ///   - video: the video the poses come from; `nil` to draw on a plain background sized from the header.
    ///   - annotate: where to write the annotated video, if anywhere.
    ///   - prescribedReps: the repetitions prescribed, shown beside the count ("4 / 10").
    ///   - stillTimes: the times (seconds) of the frames to return, with the overlay drawn.
    /// - Returns: one image per entry of `stillTimes` (the frame nearest that time), `nil` if no frame was drawn.
    public static func run(
        track: String,
        video: VideoInfo?,
        session configuration: CoachingSession.Configuration,
        annotate: String?,
        overwrite: Bool,
        prescribedReps: Int? = nil,
        stillTimes: [Double]
    ) throws -> [RGBImage?] {
        var source = try PoseTrackFrameSource(path: track)
        let width = video?.width ?? Int(source.width)
        let height = video?.height ?? Int(source.height)
        let fps = video?.fps ?? source.fps
        let decoder: PrefetchingVideoDecoder?
        do {
            // rgb0: drawn on in place (see OverlayRenderer), and what the encoder reads best.
            decoder = try video.map { try PrefetchingVideoDecoder(path: $0.path, info: $0, bytesPerPixel: 4) }
        } catch {
            throw AnalysisError("\(error)")
        }
        defer { decoder?.stop() }
        let encoder = try annotate.map {
            try Self.encoder(path: $0, width: width, height: height, fps: fps, overwrite: overwrite)
        }
        var finished = false
        defer { if !finished { encoder?.cancel() } }

        var pipeline = BodyPipeline(configuration: configuration)
        let renderer = OverlayRenderer()
        let background = OverlayColor(red: 38, green: 42, blue: 48)
        var stills = NearestStills(times: stillTimes)
        while let frame = try source.next() {
            var picture: VideoFrame?
            if let decoder {
                do {
                    picture = try decoder.next()
                } catch {
                    throw AnalysisError("\(error)")
                }
                if picture == nil { break }
            }
            pipeline.step(frame)
            // Without a video to write, only a frame nearer a still's time than the last one is drawn.
            guard encoder != nil || stills.wants(frame.seconds) else {
                if let picture { decoder?.recycle(picture.image) }
                continue
            }
            let state = OverlayState(snapshot: pipeline.snapshot, people: frame.poses, prescribedReps: prescribedReps)
            var image: RGBImage
            if var decoded = picture.take() {
                // Taken out of `picture`, so the only reference: drawn in place, with no copy.
                renderer.render(state, onto: &decoded.image)
                image = decoded.image
            } else {
                image = renderer.render(state, width: width, height: height, background: background)
            }
            do {
                try encoder?.append(image)
            } catch {
                throw AnalysisError("\(error)")
            }
            stills.offer(image, at: frame.seconds)
            decoder?.recycle(image)
        }
        do {
            try encoder?.finish()
        } catch {
            throw AnalysisError("\(error)")
        }
        finished = true
        return stills.images
    }

    /// The annotated video's encoder: `width`×`height` at `fps`.
    ///
    /// - Throws: ``AnalysisError`` with the encoder's message (an existing file without `overwrite`, no ffmpeg, …).
    public static func encoder(
        path: String,
        width: Int,
        height: Int,
        fps: Double,
        overwrite: Bool
    ) throws -> VideoEncoder {
        do {
            return try VideoEncoder(
                path: path,
                configuration: .init(width: width, height: height, framesPerSecond: fps, overwrite: overwrite)
            )
        } catch {
            throw AnalysisError("\(error)")
        }
    }
}

/// Draws and encodes the frames of a video while its poses are still being found: the
/// ``FrameAnnotating`` that `analyze --annotate` gives the pose pass, so that drawing and encoding run
/// alongside inference instead of in a second pass that decodes the whole video again.
///
/// Its session sees the same pose-track lines, in the same order, as the counting pass that reads the
/// finished pose-track, so the overlay shows what the summary says. ``annotate(line:image:)`` only queues
/// the frame: a drawing thread replays the session and draws, a writing thread hands the frames to ffmpeg
/// (a frame crosses the pipe in many small writes, each waiting for ffmpeg to be scheduled), so neither
/// holds up inference. At most `queued` frames wait at each step, and their buffers are reused. The video is
/// committed by ``finish()``.
///
/// ```swift
/// let annotator = try VideoAnnotator(path: "out.mp4", video: info, header: header, session: configuration,
///                                    overwrite: false)
/// try VideoPoses.writePoseTrack(of: "in.mp4", to: track, …, annotator: annotator)
/// try annotator.drain()
/// let summary = annotator.summary()
/// try annotator.finish()
/// ```
// @unchecked: `drawing` is used by the drawing thread until it has ended (a semaphore), then by the caller;
// the encoder likewise by the writing thread; the queues and `failure` are locked.
public final class VideoAnnotator: FrameAnnotating, @unchecked Sendable {
    /// What the drawing thread owns while it runs.
    private final class Drawing: @unchecked Sendable {
        let header: PoseTrackHeader
        var pipeline: BodyPipeline
        let renderer = OverlayRenderer()
        var frameSeconds: [Double] = []
        let prescribedReps: Int?
        init(header: PoseTrackHeader, pipeline: BodyPipeline, prescribedReps: Int?) {
            self.header = header
            self.pipeline = pipeline
            self.prescribedReps = prescribedReps
        }
    }

    private let drawing: Drawing
    private let encoder: VideoEncoder
    private let incoming: BlockingQueue<Incoming>
    private let drawn: BlockingQueue<RGBImage>
    private let spare: BlockingQueue<RGBImage>
    private let threadsDone = DispatchSemaphore(value: 0)
    private let failure = FirstFailure()
    private var drained = false
    private var finished = false
    private let width: Int
    private let height: Int

    private struct Incoming: Sendable {
        var line: String
        var image: RGBImage
    }

    /// The time of each frame drawn (to find the frame of a report still in the written video); after ``drain()``.
    public var frameSeconds: [Double] { drawing.frameSeconds }

    /// The written file.
    public var path: String { encoder.path }

    /// `rgb0`: the overlay is drawn on the decoded bytes in place, and the encoder converts them to `yuv420p`
    /// from there (no copy to and from a Cairo surface).
    public let bytesPerPixel = 4

    /// Starts the encoder (writing to a hidden temporary file until ``finish()``), the drawing and the writing
    /// thread.
    public init(
        path: String,
        video: VideoInfo,
        header: PoseTrackHeader,
        session configuration: CoachingSession.Configuration,
        overwrite: Bool,
        prescribedReps: Int? = nil,
        queued: Int? = nil
    ) throws {
        let queued = queued ?? Self.queueLength(width: video.width, height: video.height)
        width = video.width
        height = video.height
        drawing = Drawing(
            header: header,
            pipeline: BodyPipeline(configuration: configuration),
            prescribedReps: prescribedReps
        )
        drawing.frameSeconds.reserveCapacity(video.estimatedFrameCount ?? 0)
        do {
            encoder = try VideoEncoder(
                path: path,
                configuration: .init(
                    width: video.width,
                    height: video.height,
                    framesPerSecond: video.fps,
                    overwrite: overwrite
                )
            )
        } catch {
            throw AnalysisError("\(error)")
        }
        incoming = BlockingQueue(capacity: queued)
        drawn = BlockingQueue(capacity: queued)
        spare = BlockingQueue(capacity: 2 * queued + 2)
        let (incoming, drawn, spare, failure, done, drawing) = (incoming, drawn, spare, failure, threadsDone, drawing)
        let drawer = Thread {
            defer {
                drawn.close()
                done.signal()
            }
            Self.draw(incoming, into: drawn, with: drawing, failure: failure)
        }
        let encoder = UncheckedTransfer(encoder)
        let writer = Thread {
            defer { done.signal() }
            Self.write(drawn, to: encoder.value, spare: spare, incoming: incoming, failure: failure)
        }
        drawer.name = "annotate-draw"
        writer.name = "annotate-write"
        drawer.start()
        writer.start()
    }

    deinit {
        if !finished { cancel() }
    }

    /// The drawing thread: replays the session over each incoming line and draws it on its frame, until the
    /// queue closes or a line fails (the first failure is recorded and the queue closed).
    private static func draw(
        _ incoming: BlockingQueue<Incoming>,
        into drawn: BlockingQueue<RGBImage>,
        with drawing: Drawing,
        failure: FirstFailure
    ) {
        // The same decoder as the counting pass's reader: the same frames, drawn.
        var decoder = PoseTrackFrameDecoder(header: drawing.header)
        while var item = incoming.pop() {
            do {
                let frame = try decoder.decode(line: item.line)
                drawing.pipeline.step(frame)
                drawing.renderer.render(
                    OverlayState(
                        snapshot: drawing.pipeline.snapshot,
                        people: frame.poses,
                        prescribedReps: drawing.prescribedReps
                    ),
                    onto: &item.image
                )
                drawing.frameSeconds.append(frame.seconds)
            } catch {
                failure.record("\(error)")
                incoming.close()
                return
            }
            guard drawn.push(item.image) else { return }
        }
    }

    /// The writing thread: hands each drawn frame to the encoder and its buffer back for reuse; a failure is
    /// recorded and closes both queues.
    private static func write(
        _ drawn: BlockingQueue<RGBImage>,
        to encoder: VideoEncoder,
        spare: BlockingQueue<RGBImage>,
        incoming: BlockingQueue<Incoming>,
        failure: FirstFailure
    ) {
        while let image = drawn.pop() {
            do {
                try encoder.append(image)
            } catch {
                failure.record("\(error)")
                drawn.close()
                incoming.close()
                return
            }
            _ = spare.tryPush(image)
        }
    }

    /// How many frames may wait at each step: 6, fewer for big frames (about 48 MiB a queue: 2 for 4K), so
    /// that a short stall of one thread does not hold up inference and memory stays bounded.
    public static func queueLength(width: Int, height: Int) -> Int {
        max(2, min(6, (48 << 20) / max(1, width * height * 4)))
    }

    /// Queues the frame for drawing and encoding; `image` comes back as another buffer of the same size (a
    /// spare one, or a new one), for the caller to reuse.
    public func annotate(line: String, image: inout RGBImage) throws {
        if let failure = failure.message { throw AnalysisError(failure) }
        var handed = spare.tryPop() ?? RGBImage(width: width, height: height, bytesPerPixel: image.bytesPerPixel)
        swap(&handed, &image)
        guard incoming.push(Incoming(line: line, image: handed)) else {
            throw AnalysisError(failure.message ?? "the annotated video's drawing stopped")
        }
    }

    /// Waits until every queued frame is drawn and handed to ffmpeg.
    ///
    /// - Throws: ``AnalysisError`` with the first failure of drawing or encoding.
    public func drain() throws {
        if !drained {
            drained = true
            incoming.close()
            threadsDone.wait()
            threadsDone.wait()
        }
        if let failure = failure.message { throw AnalysisError(failure) }
    }

    /// The summary of the session that drew the frames (the same as the counting pass's); after ``drain()``.
    public func summary() -> SessionSummary { drawing.pipeline.session.summary() }

    /// Ends the video and moves it to its final name (draining first).
    public func finish() throws {
        do {
            try drain()
        } catch {
            cancel()
            throw error
        }
        finished = true
        do {
            try encoder.finish()
        } catch {
            throw AnalysisError("\(error)")
        }
    }

    /// Stops drawing and encoding; nothing is left under the final name.
    public func cancel() {
        finished = true
        if !drained {
            drained = true
            incoming.close()
            drawn.close()
            threadsDone.wait()
            threadsDone.wait()
        }
        encoder.cancel()
    }

    /// The frames of the finished video nearest each of `times` (seconds), as written (with the overlay).
    public func stills(at times: [Double]) -> [RGBImage?] {
        guard !frameSeconds.isEmpty, let info = try? VideoInfo(probing: path), info.fps > 0 else {
            return times.map { _ in nil }
        }
        return times.map { time in
            var nearest = 0
            for (k, seconds) in frameSeconds.enumerated() where abs(seconds - time) < abs(frameSeconds[nearest] - time)
            {
                nearest = k
            }
            // The encoder writes frame k at k / fps.
            let start = max(0, (Double(nearest) - 0.5) / info.fps)
            let end = (Double(nearest) + 0.5) / info.fps
            guard let decoder = try? VideoDecoder(path: path, start: start, end: end, info: info) else { return nil }
            defer { decoder.stop() }
            var image = RGBImage(width: info.width, height: info.height)
            guard (try? decoder.nextFrame(into: &image)) != nil else { return nil }
            return image
        }
    }
}

/// The first failure of the writer thread, as one line.
private final class FirstFailure: Sendable {
    private let value = Mutex<String?>(nil)
    var message: String? { value.withLock { $0 } }
    func record(_ message: String) { value.withLock { $0 = $0 ?? message } }
}

/// Moves a value that is not `Sendable` to another thread that becomes its only user until it is handed back.
// @unchecked: see the users.
private final class UncheckedTransfer<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// The frames nearest given times (the report's stills), kept as the frames go by.
public struct NearestStills {
    public let times: [Double]
    /// One per time: the nearest frame offered so far, `nil` before any.
    public private(set) var images: [RGBImage?]
    private var distance: [Double]

    public init(times: [Double]) {
        self.times = times
        images = Array(repeating: nil, count: times.count)
        distance = Array(repeating: .infinity, count: times.count)
    }

    /// Whether a frame at `seconds` would be nearer one of the times than the frames offered so far.
    public func wants(_ seconds: Double) -> Bool { times.indices.contains { abs(seconds - times[$0]) < distance[$0] } }

    /// Keeps `image`, of the frame at `seconds`, for each time it is nearer than the frame kept.
    public mutating func offer(_ image: RGBImage, at seconds: Double) {
        for (k, time) in times.enumerated() where abs(seconds - time) < distance[k] {
            distance[k] = abs(seconds - time)
            images[k] = image
        }
    }
}

import CoachKit
import MediaIO
import PoseKit

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
enum AnnotationPass {
    /// Replays `track` over the video's frames (or a plain background for a pose-track input).
    ///
    /// - Parameters:
    ///   - track: the pose-track of the recording (from `ptcoach poses` for a video: one line per decoded frame).
    ///   - video: the video the poses come from; `nil` to draw on a plain background sized from the header.
    ///   - annotate: where to write the annotated video, if anywhere.
    ///   - stillTimes: the times (seconds) of the frames to return, with the overlay drawn.
    /// - Returns: one image per entry of `stillTimes` (the frame nearest that time), `nil` if no frame was drawn.
    static func run(
        track: String,
        video: VideoInfo?,
        session configuration: CoachingSession.Configuration,
        annotate: String?,
        overwrite: Bool,
        stillTimes: [Double]
    ) throws -> [RGBImage?] {
        var source = try PoseTrackFrameSource(path: track)
        let width = video?.width ?? Int(source.width)
        let height = video?.height ?? Int(source.height)
        let fps = video?.fps ?? source.fps
        let decoder: PrefetchingVideoDecoder?
        do {
            decoder = try video.map { try PrefetchingVideoDecoder(path: $0.path, info: $0) }
        } catch {
            throw CLIError("\(error)")
        }
        defer { decoder?.stop() }
        let encoder: VideoEncoder?
        do {
            encoder = try annotate.map {
                try VideoEncoder(
                    path: $0,
                    configuration: .init(width: width, height: height, framesPerSecond: fps, overwrite: overwrite)
                )
            }
        } catch {
            throw CLIError("\(error)")
        }
        var finished = false
        defer { if !finished { encoder?.cancel() } }

        var session = CoachingSession(configuration: configuration)
        let renderer = OverlayRenderer()
        let background = OverlayColor(red: 38, green: 42, blue: 48)
        var stills = [RGBImage?](repeating: nil, count: stillTimes.count)
        var stillDistance = [Double](repeating: .infinity, count: stillTimes.count)
        while let frame = try source.next() {
            var image: RGBImage
            if let decoder {
                let picture: VideoFrame?
                do {
                    picture = try decoder.next()
                } catch {
                    throw CLIError("\(error)")
                }
                guard let picture else { break }
                image = picture.image
            } else {
                image = RGBImage(width: width, height: height)
            }
            _ = session.ingest(frame)
            let state = OverlayState(snapshot: session.snapshot, people: frame.poses)
            if decoder == nil {
                image = renderer.render(state, width: width, height: height, background: background)
            } else {
                renderer.render(state, onto: &image)
            }
            do {
                try encoder?.append(image)
            } catch {
                throw CLIError("\(error)")
            }
            for (k, time) in stillTimes.enumerated() where abs(frame.seconds - time) < stillDistance[k] {
                stillDistance[k] = abs(frame.seconds - time)
                stills[k] = image
            }
            decoder?.recycle(image)
        }
        do {
            try encoder?.finish()
        } catch {
            throw CLIError("\(error)")
        }
        finished = true
        return stills
    }
}

/// Draws and encodes the frames of a video while its poses are still being found: the
/// ``FrameAnnotating`` that `analyze --annotate` gives the pose pass, so that drawing and encoding run
/// alongside inference instead of in a second pass that decodes the whole video again.
///
/// Its session sees the same pose-track lines, in the same order, as the counting pass that reads the
/// finished pose-track, so the overlay shows what the summary says. Used by one thread at a time (the
/// pose pass hands it from segment 0's thread to the caller's); the video is committed by ``finish()``.
///
/// ```swift
/// let annotator = try VideoAnnotator(path: "out.mp4", video: info, header: header, session: configuration,
///                                    overwrite: false)
/// try PosesCommand.writePoseTrack(of: "in.mp4", to: track, …, annotator: annotator)
/// try annotator.finish()
/// ```
// @unchecked: one thread at a time, handed over after segment 0's thread has finished (a semaphore).
final class VideoAnnotator: FrameAnnotating, @unchecked Sendable {
    private let header: PoseTrackHeader
    private var session: CoachingSession
    private let renderer = OverlayRenderer()
    private let encoder: VideoEncoder
    private var finished = false
    /// The time of each frame drawn (to find the frame of a report still in the written video).
    private(set) var frameSeconds: [Double] = []

    /// The written file.
    var path: String { encoder.path }

    /// Starts the encoder (writing to a hidden temporary file until ``finish()``).
    init(
        path: String, video: VideoInfo, header: PoseTrackHeader, session configuration: CoachingSession.Configuration,
        overwrite: Bool
    ) throws {
        self.header = header
        session = CoachingSession(configuration: configuration)
        do {
            encoder = try VideoEncoder(
                path: path,
                configuration: .init(
                    width: video.width, height: video.height, framesPerSecond: video.fps, overwrite: overwrite
                )
            )
        } catch {
            throw CLIError("\(error)")
        }
        frameSeconds.reserveCapacity(video.estimatedFrameCount ?? 0)
    }

    deinit {
        if !finished { encoder.cancel() }
    }

    func annotate(line: String, image: inout RGBImage) throws {
        let frame = try PoseFrame(trackLine: line, header: header)
        _ = session.ingest(frame)
        renderer.render(OverlayState(snapshot: session.snapshot, people: frame.poses), onto: &image)
        do {
            try encoder.append(image)
        } catch {
            throw CLIError("\(error)")
        }
        frameSeconds.append(frame.seconds)
    }

    /// The summary of the session that drew the frames (the same as the counting pass's).
    func summary() -> SessionSummary { session.summary() }

    /// Ends the video and moves it to its final name.
    func finish() throws {
        finished = true
        do {
            try encoder.finish()
        } catch {
            throw CLIError("\(error)")
        }
    }

    /// Stops the encoder; nothing is left under the final name.
    func cancel() {
        finished = true
        encoder.cancel()
    }

    /// The frames of the finished video nearest each of `times` (seconds), as written (with the overlay).
    func stills(at times: [Double]) -> [RGBImage?] {
        guard !frameSeconds.isEmpty, let info = try? VideoInfo(probing: path), info.fps > 0 else {
            return times.map { _ in nil }
        }
        return times.map { time in
            var nearest = 0
            for (k, seconds) in frameSeconds.enumerated() where abs(seconds - time) < abs(frameSeconds[nearest] - time) {
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

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

import CoachKit
import CoachServer
import CoachStore
import Foundation
import MediaIO
import PoseEstimation
import PoseKit

/// A live session's camera frames through libjpeg-turbo and the MediaPipe pose model in video mode (one tracker
/// per session, as `ptcoach poses` tracks a video).
final class MediaPipeCameraEstimator: CameraPoseEstimator {
    private var estimator: MediaPipePoseEstimator
    private let decoder: JPEGDecoder
    /// Added to a stream's times: the model's clock must keep going forward across the sessions it serves.
    private var offset = 0.0
    private var lastSeconds = 0.0

    init() throws(LiveFrameError) {
        do {
            estimator = try MediaPipePoseEstimator(configuration: .init(runningMode: .liveStream, numPoses: 1))
        } catch {
            throw LiveFrameError(.model, "the pose model could not start: \(error.message)")
        }
        do {
            decoder = try JPEGDecoder()
        } catch {
            throw LiveFrameError(.model, error.message)
        }
    }

    func poses(
        inJPEG jpeg: UnsafeRawBufferPointer,
        at seconds: Double
    ) throws(LiveFrameError) -> (
        frame: PoseFrame, width: Int, height: Int
    ) {
        let image: RGBImage
        do {
            image = try decoder.decode(jpeg)
        } catch {
            throw LiveFrameError(.badImage, error.message)
        }
        do {
            var frame = try estimator.poses(in: image, at: offset + seconds)
            lastSeconds = offset + seconds
            frame.seconds = seconds
            return (frame, image.width, image.height)
        } catch {
            throw LiveFrameError(error.code == .timestampNotIncreasing ? .badImage : .model, error.message)
        }
    }
}

extension MediaPipeCameraEstimator {
    /// A new session: its times continue a second after the last one's (MediaPipe's video mode needs increasing
    /// times; the gap is long enough for the tracker to look for the person afresh).
    func startStream() {
        offset = lastSeconds + 1
    }
}

/// The reports of saved live sets: the same writers (`ReportInput`, HTML and PDF) as `ptcoach analyze --report`.
struct LiveReportRenderer: ReportRendering {
    let library: ExerciseLibrary

    func report(_ sets: [ReportedSet], title: String, subtitle: String, format: String) throws -> [UInt8] {
        let sections = sets.map { reported in
            var definition = reported.summary.exercise.flatMap { library[$0] }
            if let hold = reported.set.prescribedHoldSeconds { definition?.repetition?.holdSeconds = hold }
            return ReportInput.Exercise(
                summary: reported.summary,
                prescribedReps: reported.set.prescribedReps,
                prescribedHoldSeconds: reported.set.prescribedHoldSeconds,
                angleSeries: reported.angleSeries.map {
                    ReportInput.AngleSample(seconds: $0.seconds, degrees: $0.degrees)
                },
                definition: definition
            )
        }
        let input = ReportInput(
            title: title,
            subtitle: subtitle,
            exercises: sections,
            summaryJSON: sets.count == 1 ? sets[0].set.summaryJSON : nil
        )
        switch format {
        case "pdf":
            let path = NSTemporaryDirectory() + "ptcoach-report-\(UUID().uuidString).pdf"
            defer { unlink(path) }
            try ReportWriter.write(input, to: path, overwrite: true)
            return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        default:
            return Array(ReportWriter.html(input).utf8)
        }
    }
}

import Foundation
import PoseEstimation
import PoseKit
import Synchronization

/// One stream's model, the body's or the hands' (the one pose-estimator port), giving each frame's pose-track line.
///
/// ```swift
/// var finder = try PoseLineFinder(body: configuration, hands: nil, joints: header.joints, dimensions: 3)
/// let (line, found) = try finder.line(for: image, at: 0.05)
/// ```
struct PoseLineFinder {
    private let line: (RGBImage, Double) throws(PoseEstimationError) -> (line: String, found: Bool)

    /// Loads the hand model when `hands` is given, else the body model.
    init(
        body: MediaPipePoseEstimator.Configuration,
        hands: MediaPipeHandEstimator.Configuration?,
        joints: [Joint?],
        dimensions: Int
    ) throws(PoseEstimationError) {
        if let hands {
            let estimator: any PoseEstimator<HandFrame> = try MediaPipeHandEstimator(configuration: hands)
            line = { image, seconds throws(PoseEstimationError) in
                let frame = try estimator.estimate(in: image, at: seconds)
                return (PoseTrackWriter.line(for: frame, dimensions: dimensions), !frame.hands.isEmpty)
            }
        } else {
            let estimator: any PoseEstimator<PoseFrame> = try MediaPipePoseEstimator(configuration: body)
            line = { image, seconds throws(PoseEstimationError) in
                let frame = try estimator.estimate(in: image, at: seconds)
                return (PoseTrackWriter.line(for: frame, joints: joints, dimensions: dimensions), !frame.poses.isEmpty)
            }
        }
    }

    /// The frame's pose-track line, and whether a person (or a hand) was found in it.
    func line(for image: RGBImage, at seconds: Double) throws(PoseEstimationError) -> (line: String, found: Bool) {
        try line(image, seconds)
    }
}

/// One segment's thread: its result once it has finished.
final class SegmentTask: Sendable {
    let temporaryPath: String?
    private let result = Mutex(PosesOutcome())
    private let done = DispatchSemaphore(value: 0)

    init(temporaryPath: String?) { self.temporaryPath = temporaryPath }

    func finish(_ outcome: PosesOutcome) {
        result.withLock { $0 = outcome }
        done.signal()
    }

    /// Waits up to `timeout` seconds for the segment to finish; `true` once it has (and stays so).
    func wait(timeout: Double) -> Bool {
        guard done.wait(timeout: .now() + timeout) == .success else { return false }
        done.signal()
        return true
    }

    var outcome: PosesOutcome { result.withLock { $0 } }
}

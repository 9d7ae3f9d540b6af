import Foundation
public import MediaIO

/// Where a video is cut into parts processed at the same time, and how each later part warms up.
///
/// Each part runs its own MediaPipe tracker. A tracker started cold at a boundary would find the person
/// with the detector (another region than the tracked one) and restart MediaPipe's landmark smoothing, so
/// the keypoints would jump there (20% of the image diagonal; pull-ups counted 3 of 5). So every part after the
/// first starts decoding `warmUpSeconds` before its boundary (clamped at the video's start), runs the
/// tracker on those frames and throws their poses away: from the boundary on, its tracker is in the state
/// one stream would be in, and the parts join without a jump. The first part is longer by the warm-up, so
/// that every part tracks the same number of seconds and they finish together.
///
/// ```swift
/// let plan = SegmentPlan(info: info, requested: 2)
/// // a 10 s video: plan.boundaries == [0, 5.5, nil]; plan.decodingStart(ofSegment: 1) == 4.5
/// ```
public struct SegmentPlan: Sendable, Hashable {
    /// Segment `k` holds the frames with `boundaries[k] <= t < boundaries[k + 1]` (`nil` = to the end).
    public var boundaries: [Double?]
    /// How long before its boundary each later segment starts tracking (poses not written).
    public var warmUpSeconds: Double

    public var count: Int { boundaries.count - 1 }

    /// The warm-up of a tracking (video-mode) segment. Measured on calimiro squat_11, pull-up_14, push-up_12 and
    /// squat_13 (2 segments): 0.25 s still left a 7.5% (of the diagonal) jump on squat_11, 0.5 s 1.0%, 1 s and
    /// 2 s 0.7% (one stream's own jump there: 0.5%).
    public static let trackerWarmUpSeconds = 1.0

    /// At most `requested` parts, each tracking the same time and writing at least `minimumSeconds`; one part
    /// for images and videos of unknown length. `warmUpSeconds`: 0 where there is no tracker (image mode).
    /// `firstWeight`: how long part 0 writes, relative to each later part (1: all track the same time; below 1
    /// where part 0 has more to do per frame, as the drawing stream of an annotated run).
    public init(
        info: VideoInfo,
        requested: Int,
        minimumSeconds: Double = 1,
        warmUpSeconds: Double = Self.trackerWarmUpSeconds,
        firstWeight: Double = 1
    ) {
        let warmUp = max(0, warmUpSeconds)
        self.warmUpSeconds = warmUp
        guard !info.isStillImage, let duration = info.duration, duration > 0 else {
            boundaries = [0, nil]
            return
        }
        // Parts 1… write `part` seconds each, part 0 `part + warmUp`: all track `part + warmUp` seconds.
        let count = max(1, min(requested, Int((duration - warmUp) / minimumSeconds)))
        guard count > 1 else {
            boundaries = [0, nil]
            return
        }
        let weight = max(0.05, firstWeight)
        let part = (duration - warmUp) / (Double(count - 1) + weight)
        let cuts: [Double?] = (1..<count).map { k in warmUp + (weight + Double(k - 1)) * part }
        boundaries = [0] + cuts + [nil]
    }

    /// Where segment `k` starts decoding: its boundary, less the warm-up for every segment but the first.
    public func decodingStart(ofSegment k: Int) -> Double {
        let start = boundaries[k] ?? 0
        return k == 0 ? start : max(0, start - warmUpSeconds)
    }
}

/// How the streams of an annotated run share the poses (``PosesCommand/annotatedStreams(info:cores:warmUpSeconds:)``).
public struct AnnotatedStreams: Sendable, Hashable {
    public var plan: SegmentPlan
    /// How much nicer than the caller the later segments run (0: the same priority).
    public var helperNiceness: Int32 = 0
    /// `nil`: the drawing stream takes a later segment's lines as they come, waiting as long as needed.
    /// Otherwise it takes them only once that segment has found them all, waiting at its boundary at most
    /// `patience` times the time it would itself need for them; past that it finds them itself.
    public var patience: Double? = nil

    public init(plan: SegmentPlan, helperNiceness: Int32 = 0, patience: Double? = nil) {
        self.plan = plan
        self.helperNiceness = helperNiceness
        self.patience = patience
    }
}

/// What one segment (or the whole run) produced.
public struct PosesOutcome: Sendable {
    public var frames = 0
    /// Frames with a person (with a hand, in a run that finds hands).
    public var framesWithPerson = 0
    /// Frames tracked only to warm a segment's tracker up before its boundary (not written).
    public var warmUpFrames = 0
    /// Time spent inside the estimator on the frames written, summed over streams.
    public var inferenceSeconds = 0.0
    /// The first error, as one line; frames before it were written.
    public var failure: String?

    public init(
        frames: Int = 0,
        framesWithPerson: Int = 0,
        warmUpFrames: Int = 0,
        inferenceSeconds: Double = 0,
        failure: String? = nil
    ) {
        self.frames = frames
        self.framesWithPerson = framesWithPerson
        self.warmUpFrames = warmUpFrames
        self.inferenceSeconds = inferenceSeconds
        self.failure = failure
    }

    /// - Parameters:
    ///   - output: where the pose-track went; `nil` for a temporary one (analyze's), not named.
    ///   - found: what a frame counted in ``framesWithPerson`` has ("a person", "a hand").
    /// "poses: 149 frames, 146 with a person (98.0%), wrote out.jsonl"; the speed figures only with `verbose`.
    public func summary(
        elapsed: Duration,
        segments: Int,
        output: String?,
        verbose: Bool,
        found: String = "a person"
    ) -> String {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        let percent = frames > 0 ? Double(framesWithPerson) / Double(frames) * 100 : 0
        let perFrame = frames > 0 ? seconds * 1000 / Double(frames) : 0
        let inference = frames > 0 ? inferenceSeconds * 1000 / Double(frames) : 0
        let destination = output.map { $0 == "-" ? "standard output" : $0 }
        let details =
            verbose
            ? ", \(Self.format(perFrame, 1)) ms/frame (\(segments) segment\(segments == 1 ? "" : "s"), "
                + (warmUpFrames > 0 ? "\(warmUpFrames) warm-up frame\(warmUpFrames == 1 ? "" : "s"), " : "")
                + "inference \(Self.format(inference, 1)) ms/frame per stream)" : ""
        return "poses: \(frames) frame\(frames == 1 ? "" : "s"), \(framesWithPerson) with \(found) "
            + "(\(Self.format(percent, 1))%)" + details + (destination.map { ", wrote \($0)" } ?? "")
    }

    public static func format(_ value: Double, _ decimals: Int) -> String {
        String(format: "%.\(decimals)f", value)
    }
}

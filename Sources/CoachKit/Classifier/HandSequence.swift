public import PoseKit

/// One hand recording reduced to what the hand classifiers read: the times and, in each frame, the main hand
/// (the largest in the picture, the nearer to the camera), as ``PoseSequence`` is for bodies.
///
/// ```swift
/// let (_, frames) = try HandTrackReader.readAll(path: "fist.hands.jsonl")
/// let sequence = HandSequence(frames: frames, name: "fist.hands.jsonl").trimmed(from: 1.1, to: 2.25)
/// let prediction = classifier.predict(sequence)
/// ```
public struct HandSequence: Sendable, Hashable {
    /// A name for messages and reports (usually the file path).
    public var name: String
    /// Free-form facts about the recording (the pose-track header's labels).
    public var metadata: [String: String]
    /// Seconds of each frame.
    public private(set) var seconds: [Double]
    /// The main hand of each frame, `nil` where no hand was seen.
    public private(set) var hands: [HandPose?]

    /// The number of frames.
    public var count: Int { seconds.count }
    /// The number of frames with a hand.
    public var handCount: Int { hands.count(where: { $0 != nil }) }

    /// Keeps the largest hand of each frame.
    public init(frames: [HandFrame], name: String = "", metadata: [String: String] = [:]) {
        self.name = name
        self.metadata = metadata
        seconds = frames.map(\.seconds)
        hands = frames.map { frame in
            frame.hands.max { (HandMeasure.handLength($0) ?? 0) < (HandMeasure.handLength($1) ?? 0) }
        }
    }

    /// A sequence of given hands (`nil`: no hand in that frame), one per time in `seconds`.
    public init(seconds: [Double], hands: [HandPose?], name: String = "", metadata: [String: String] = [:]) {
        precondition(seconds.count == hands.count, "\(seconds.count) times for \(hands.count) hands")
        self.name = name
        self.metadata = metadata
        self.seconds = seconds
        self.hands = hands
    }

    /// The frames from `start` to `end` seconds (both included; `nil`: from the first or to the last).
    public func trimmed(from start: Double?, to end: Double?) -> HandSequence {
        let kept = seconds.indices.filter { seconds[$0] >= (start ?? -.infinity) && seconds[$0] <= (end ?? .infinity) }
        return HandSequence(
            seconds: kept.map { seconds[$0] },
            hands: kept.map { hands[$0] },
            name: name,
            metadata: metadata
        )
    }
}

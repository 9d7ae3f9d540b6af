public import CoachKit

/// How long each set-up guidance ("Step back so that your whole body is in the picture", …) was shown:
/// the likeliest reason when nothing was counted.
public struct GuidanceTally {
    private var seconds: [String: Double] = [:]
    private var last: (seconds: Double, text: String?)?

    public init() {}

    public mutating func add(_ snapshot: CoachSnapshot) {
        if let last, let text = last.text { seconds[text, default: 0] += snapshot.seconds - last.seconds }
        last = (snapshot.seconds, snapshot.setupGuidance)
    }

    /// The guidance shown longest, if any was.
    public var longest: (text: String, seconds: Double)? {
        seconds.max { $0.value < $1.value }.map { ($0.key, $0.value) }
    }
}

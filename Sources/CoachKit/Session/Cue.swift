/// One thing the coach says.
public struct Cue: Sendable, Hashable, Codable {
    /// What kind of cue, in order of importance.
    ///
    /// A `timing` cue says when to act (the end of a prescribed hold: "5 s: now come back slowly"): like a safety
    /// warning it is given at once and every time, since later or every other repetition it would be wrong.
    public enum Kind: String, Sendable, Hashable, Codable, Comparable {
        case safety, timing, setup, form, encouragement

        /// 0 is the most important.
        public var rank: Int {
            switch self {
            case .safety: 0
            case .timing: 1
            case .setup: 2
            case .form: 3
            case .encouragement: 4
            }
        }

        /// Given at once (no cooldown, no waiting) and never held back as a repeat.
        public var isImmediate: Bool { self == .safety || self == .timing }

        public static func < (a: Kind, b: Kind) -> Bool { a.rank < b.rank }
    }

    public var kind: Kind
    public var text: String
    /// Within a kind, 1 is the most important.
    public var priority: Int
    /// When the cue was given.
    public var seconds: Double

    public init(kind: Kind, text: String, priority: Int = 1, seconds: Double) {
        self.kind = kind
        self.text = text
        self.priority = priority
        self.seconds = seconds
    }

    /// Whether this cue is more important than `other` (kind first, then priority).
    public func outranks(_ other: Cue) -> Bool {
        kind.rank != other.kind.rank ? kind.rank < other.kind.rank : priority < other.priority
    }
}

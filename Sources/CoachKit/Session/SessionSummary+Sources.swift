extension SessionSummary {
    /// How the exercise of a session was known. In JSON: "given", "recognized", "model", "none".
    public enum ExerciseSource: String, Sendable, Hashable, Codable {
        /// Named by the user (`analyze --exercise`, the live page's picker, a programme).
        case given
        /// Recognised by the built-in recogniser.
        case recognized
        /// Recognised by a trained classifier (`ptcoach analyze --model`).
        case model
        /// No library exercise was known.
        case none
    }

    /// What the repetitions were counted from. In JSON: "angle", "movement", "hold" or "angle:<kind>".
    public enum CountingSource: Sendable, Hashable, Codable, CustomStringConvertible {
        /// The definition's primary angle.
        case angle
        /// The dominant movement of the body (or of the exercise's joints when the angle proved unreliable).
        case movement
        /// Another angle, which proved the one counting missed repetitions: one of the exercise's, or with no
        /// exercise given, any of the body's.
        case otherAngle(AngleKind)
        /// A hold exercise: timed, not counted.
        case hold

        public var description: String {
            switch self {
            case .angle: "angle"
            case .movement: "movement"
            case .otherAngle(let kind): "angle:" + kind.rawValue
            case .hold: "hold"
            }
        }

        public init(from decoder: any Decoder) throws {
            let text = try decoder.singleValueContainer().decode(String.self)
            switch text {
            // "definition": the name summaries written before 0.1 gave the primary angle.
            case "angle", "definition": self = .angle
            case "movement": self = .movement
            case "hold": self = .hold
            default:
                guard text.hasPrefix("angle:"), let kind = AngleKind(rawValue: String(text.dropFirst(6))) else {
                    throw DecodingError.dataCorrupted(
                        .init(codingPath: decoder.codingPath, debugDescription: "unknown countedBy \"\(text)\"")
                    )
                }
                self = .otherAngle(kind)
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(description)
        }
    }
}

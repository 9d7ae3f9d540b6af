import PoseKit

/// Body parts named in set-up guidance, as bits of a mask, so that a frame's missing parts are found without
/// allocating.
///
/// ```swift
/// let mask = BodyPart.of(.leftAnkle) | BodyPart.of(.rightHip)
/// BodyPart.names(mask)  // "hips and feet"
/// ```
enum BodyPart {
    static let head = 1
    static let shoulders = 2
    static let elbows = 4
    static let hands = 8
    static let hips = 16
    static let knees = 32
    static let feet = 64

    private static let words: [(bit: Int, name: String)] = [
        (head, "head"), (shoulders, "shoulders"), (elbows, "elbows"), (hands, "hands"), (hips, "hips"),
        (knees, "knees"), (feet, "feet"),
    ]

    /// The bit of the body part a joint belongs to.
    static func of(_ joint: Joint) -> Int {
        switch joint {
        case .leftShoulder, .rightShoulder, .neck: return shoulders
        case .leftElbow, .rightElbow: return elbows
        case .leftWrist, .rightWrist: return hands
        case .leftHip, .rightHip, .root: return hips
        case .leftKnee, .rightKnee: return knees
        case .leftAnkle, .rightAnkle, .leftHeel, .rightHeel, .leftFootIndex, .rightFootIndex: return feet
        default: return head
        }
    }

    /// The parts of a mask in words, head to feet: "feet", "hips and feet", "head, hips and feet".
    static func names(_ mask: Int) -> String {
        let parts = words.filter { mask & $0.bit != 0 }.map(\.name)
        guard parts.count > 1 else { return parts.first ?? "" }
        return parts.dropLast().joined(separator: ", ") + " and " + parts.last!
    }
}

/// A set of ``BodyPart``s: those a set-up issue or a repetition's unchecked rule names.
///
/// ```swift
/// let parts: BodyParts = [BodyParts(.leftAnkle), BodyParts(.rightHip)]
/// parts.names  // "hips and feet"
/// ```
struct BodyParts: OptionSet, Hashable, Sendable {
    let rawValue: Int

    init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// The part `joint` belongs to.
    init(_ joint: Joint) {
        rawValue = BodyPart.of(joint)
    }

    static let head = BodyParts(rawValue: BodyPart.head)

    /// How many parts.
    var count: Int { rawValue.nonzeroBitCount }

    /// The parts in words, head to feet (``BodyPart/names(_:)``).
    var names: String { BodyPart.names(rawValue) }
}

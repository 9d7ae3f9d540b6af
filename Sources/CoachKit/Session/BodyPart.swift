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

/// A hand keypoint, named as Apple Vision's `VNHumanHandPoseObservation.JointName` (lower camel case).
///
/// The 21 cases are in MediaPipe's landmark order (0 wrist, 1–4 thumb, 5–8 index, 9–12 middle, 13–16 ring,
/// 17–20 little), which is also the order of a hand pose-track (`pose-track.md`), so `rawValue` is both the
/// model's landmark index and the keypoint's place in a file. Each finger runs from its base joint to its tip.
///
/// | Vision | MediaPipe | anatomy |
/// |---|---|---|
/// | `thumbCMC`, `thumbMP`, `thumbIP`, `thumbTip` | `THUMB_CMC`, `THUMB_MCP`, `THUMB_IP`, `THUMB_TIP` | carpometacarpal, metacarpophalangeal, interphalangeal |
/// | `indexMCP`, `indexPIP`, `indexDIP`, `indexTip` | `INDEX_FINGER_MCP` … `_TIP` | metacarpophalangeal, proximal and distal interphalangeal |
/// | `littleMCP` … `littleTip` | `PINKY_MCP` … `PINKY_TIP` | |
///
/// ```swift
/// let tip = hand[.thumbTip]
/// HandJoint(name: "indexPIP") == .indexPIP
/// HandJoint.indexPIP.finger == .index
/// ```
public enum HandJoint: Int, CaseIterable, Sendable, Hashable, Codable, CustomStringConvertible {
    case wrist
    case thumbCMC, thumbMP, thumbIP, thumbTip
    case indexMCP, indexPIP, indexDIP, indexTip
    case middleMCP, middlePIP, middleDIP, middleTip
    case ringMCP, ringPIP, ringDIP, ringTip
    case littleMCP, littlePIP, littleDIP, littleTip

    /// The number of hand keypoints (21).
    public static let count = HandJoint.allCases.count

    /// The name used in pose-track files (`"indexPIP"`).
    public var name: String { Self.names[rawValue] }

    public var description: String { name }

    /// The hand joint with this pose-track name, or `nil` for a name outside the list.
    public init?(name: String) {
        guard let joint = Self.byName[name] else { return nil }
        self = joint
    }

    /// The finger the joint belongs to; `nil` for the wrist.
    public var finger: Finger? { rawValue == 0 ? nil : Finger.allCases[(rawValue - 1) / 4] }

    private static let names: [String] = [
        "wrist",
        "thumbCMC", "thumbMP", "thumbIP", "thumbTip",
        "indexMCP", "indexPIP", "indexDIP", "indexTip",
        "middleMCP", "middlePIP", "middleDIP", "middleTip",
        "ringMCP", "ringPIP", "ringDIP", "ringTip",
        "littleMCP", "littlePIP", "littleDIP", "littleTip",
    ]

    private static let byName: [String: HandJoint] = {
        precondition(names.count == allCases.count, "HandJoint.names (\(names.count)) must list every case")
        return Dictionary(uniqueKeysWithValues: allCases.map { (names[$0.rawValue], $0) })
    }()
}

/// A finger, as Vision's `VNHumanHandPoseObservation.JointsGroupName` names them.
public enum Finger: String, CaseIterable, Sendable, Hashable, Codable {
    case thumb, index, middle, ring, little

    /// The finger's four keypoints from its base to its tip (`thumbCMC, thumbMP, thumbIP, thumbTip`;
    /// `indexMCP, indexPIP, indexDIP, indexTip`; …).
    public var joints: [HandJoint] {
        let first = 1 + 4 * Self.allCases.firstIndex(of: self)!
        return (first..<first + 4).map { HandJoint(rawValue: $0)! }
    }

    /// The fingertip.
    public var tip: HandJoint { joints[3] }
}

/// Which hand: the person's own left or right, as Vision's `VNChirality`.
public enum Chirality: String, CaseIterable, Sendable, Hashable, Codable {
    case left, right
    /// The source did not say.
    case unknown
}

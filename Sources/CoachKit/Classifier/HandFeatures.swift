public import PoseKit

/// What the hand classifiers measure in a hand: its shape (each finger's flexion, the thumb's reach to each
/// fingertip, how far each fingertip is from the wrist, the spread between neighbouring fingers) and, for
/// actions, how it is turned in the picture.
///
/// Every feature is an angle or a length in hand lengths (wrist to the middle MCP), so none changes when the
/// hand moves or changes size in the picture; the flexions are ``HandAngles``' (signed, each finger in its
/// flexion plane, with depth; and a left hand is measured as the mirror image of a right one), and the
/// orientation features are signed by the hand's side, so a mirrored picture (whose hands the model calls by
/// the other side) gives the same numbers. The shape features do not depend on how the hand is turned in the
/// picture; ``orientationNames`` (for actions only) do. A value that cannot be measured is `NaN`.
///
/// ```swift
/// let shape = HandFeatures.frame(of: hand, orientation: false)      // HandFeatures.shapeNames.count numbers
/// let clip = HandFeatures.actionVector(for: sequence, timeBins: 16)  // summarised over time
/// ```
public enum HandFeatures {
    /// The version of the feature definitions; a model saved with another version is refused.
    public static let version = 1

    /// The neighbouring fingers whose spread is measured (thumb–index from their metacarpals; the others from
    /// MCP to PIP).
    static let spreadPairs: [(Finger, Finger)] = [
        (.thumb, .index), (.index, .middle), (.middle, .ring), (.ring, .little),
    ]
    static let openingFingers: [Finger] = [.index, .middle, .ring, .little]

    /// The names of the shape features, in order.
    public static let shapeNames: [String] =
        HandAngles.joints.map { "\($0.name)Flexion" }
        + openingFingers.map { "thumbTo\(capitalized($0.rawValue))Tip" }
        + Finger.allCases.map { "\($0.rawValue)TipToWrist" }
        + spreadPairs.map { "\($0.0.rawValue)\(capitalized($0.1.rawValue))Spread" }

    private static func capitalized(_ word: String) -> String { word.prefix(1).uppercased() + word.dropFirst() }

    /// The names of the orientation features: the hand's inclination in the picture (wrist → middle MCP
    /// against straight up, toward the thumb's side positive) and its knuckle ratio (``HandView``).
    public static let orientationNames = ["inclination", "knuckleRatio"]

    /// The names of ``frame(of:orientation:)``'s numbers.
    public static func names(orientation: Bool) -> [String] { shapeNames + (orientation ? orientationNames : []) }

    /// The per-frame features of `hand`: ``shapeNames``, then ``orientationNames`` when `orientation` is set.
    public static func frame(of hand: HandPose, orientation: Bool) -> [Double] {
        let angles = HandAngles(hand)
        var out: [Double] = []
        out.reserveCapacity(shapeNames.count + orientationNames.count)
        for joint in HandAngles.joints { out.append(angles.flexion(at: joint) ?? .nan) }
        for finger in openingFingers { out.append(angles.thumbOpposition[finger] ?? .nan) }

        // Lengths and directions in 3-D when the angles were (every keypoint has depth), else in the picture.
        let depth = angles.basis == .depth
        func point(_ joint: HandJoint) -> Vector3? {
            let k = hand[joint]
            return k.confidence > 0 ? Vector3(k.x, k.y, depth ? k.z ?? 0 : 0) : nil
        }
        let wrist = point(.wrist)
        let length = wrist.flatMap { wrist in point(.middleMCP).map { ($0 - wrist).length } } ?? 0
        for finger in Finger.allCases {
            if let wrist, length > 1e-9, let tip = point(finger.tip) {
                out.append((tip - wrist).length / length)
            } else {
                out.append(.nan)
            }
        }
        func direction(_ finger: Finger) -> Vector3? {
            if finger == .thumb {
                guard let cmc = point(.thumbCMC), let mp = point(.thumbMP) else { return nil }
                return mp - cmc
            }
            guard let mcp = point(finger.joints[0]), let pip = point(finger.joints[1]) else { return nil }
            return pip - mcp
        }
        for (a, b) in spreadPairs {
            // The thumb's spread is against the index metacarpal (wrist → MCP), which a bent index does not move.
            let other: Vector3? =
                a == .thumb ? wrist.flatMap { wrist in point(.indexMCP).map { $0 - wrist } } : direction(b)
            if let u = direction(a), let v = other, let angle = Vector3.angle(between: u, and: v) {
                out.append(angle)
            } else {
                out.append(.nan)
            }
        }
        if orientation {
            let side = hand.chirality == .left ? -1.0 : 1.0
            out.append(HandMeasure.handInclination.value(hand, angles: angles).map { $0 * side } ?? .nan)
            out.append(HandView.knuckleRatio(hand) ?? .nan)
        }
        return out
    }

    /// The number of values ``actionVector(for:timeBins:)`` returns.
    public static func actionCount(timeBins: Int) -> Int {
        names(orientation: true).count * SequenceFeatureSpec.summaryCount(timeBins: timeBins) + 1
    }

    /// The fixed-length vector of a hand clip: each per-frame feature (shape and orientation) summarised over
    /// time as the body classifier's are (statistics, velocities, a coarse temporal profile of `timeBins`
    /// slices; ``SequenceFeatureSpec``), then the share of frames without a hand. The clip's duration is left
    /// out, so that clips cut to different lengths are not told apart by their length.
    public static func actionVector(for sequence: HandSequence, timeBins: Int) -> [Double] {
        let width = names(orientation: true).count
        let n = sequence.count
        var columns = [[Double]](repeating: [Double](repeating: .nan, count: n), count: width)
        for (f, hand) in sequence.hands.enumerated() {
            guard let hand else { continue }
            for (k, value) in frame(of: hand, orientation: true).enumerated() { columns[k][f] = value }
        }
        var out: [Double] = []
        out.reserveCapacity(actionCount(timeBins: timeBins))
        var scratch = SequenceFeatureSpec.SummaryScratch()
        for k in 0..<width {
            SequenceFeatureSpec.summarize(
                &columns[k],
                seconds: sequence.seconds,
                timeBins: timeBins,
                into: &out,
                scratch: &scratch
            )
        }
        out.append(n > 0 ? Double(n - sequence.handCount) / Double(n) : 1)
        return out
    }
}

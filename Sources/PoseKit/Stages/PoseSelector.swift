/// Picks the prominent person in each frame and follows them over time, so that a bystander cannot
/// take over; keeps left and right consistent from frame to frame.
///
/// The rules (see `Guides.md` next to this file):
/// 1. **Acquire.** With nobody tracked, the prominent person is chosen: among the poses with at least
///    `minimumJoints` joints seen with `minimumConfidence`, the one with the largest bounding box;
///    boxes within `prominenceTieFraction` of the largest are a tie, broken by nearness to the frame
///    centre.
/// 2. **Track.** Afterwards, each frame's poses are matched against the last selected pose: the mean
///    distance between the joints both poses show, divided by the tracked body size (the longer side
///    of its bounding box), must be at most `maximumJumpFraction` (growing with the time since the
///    person was last seen, up to double at `lostAfterSeconds`). The closest match wins; size and
///    position in the list of poses do not matter, so a bigger bystander cannot take over while the
///    tracked person is visible.
///    A pose with fewer than `minimumJoints` seen joints (the person partly hidden) is still accepted
///    when at least three of its joints match, but does not become the pose later frames are matched to.
/// 3. **Lose.** When no pose matches, the result is `nil`. After `lostAfterSeconds` without a match,
///    the tracked person is forgotten and rule 1 applies again.
/// 4. **Sides.** Pose estimators sometimes exchange left and right for a frame, especially in side
///    views. When the mirrored assignment of the selected pose's left/right joints is much closer to
///    the previous pose than the direct one (below `swapRatio` of it, and better by at least
///    `minimumSwapGain` body sizes per joint), the pose is returned with `swappingSides()`.
///
/// The stage allocates nothing in a frame without a side swap.
///
/// ```swift
/// var selector = PoseSelector()
/// for frame in frames {
///     guard let pose = selector.ingest(frame) else { continue }   // the patient, not the bystander
///     draw(pose, highlighting: selector.trackedIndex)
/// }
/// ```
public struct PoseSelector: Sendable {
    /// The selector's tuning.
    public struct Configuration: Sendable, Hashable {
        /// A joint counts as seen at this confidence or above.
        public var minimumConfidence: Double
        /// A pose needs this many seen joints to be a candidate.
        public var minimumJoints: Int
        /// The largest mean joint displacement between two frames, as a fraction of the tracked body
        /// size, for a pose to still be the tracked person.
        public var maximumJumpFraction: Double
        /// After this long without a match, the tracked person is forgotten and the prominent one chosen again.
        public var lostAfterSeconds: Double
        /// Bounding-box areas within this fraction of the largest count as a tie, broken by nearness to the centre.
        public var prominenceTieFraction: Double
        /// The centre of the image in pixels, for breaking ties; `nil` uses the centre of the candidates.
        public var frameCenter: Vector2?
        /// A side swap is fixed when the mirrored assignment's distance is below this fraction of the direct one.
        public var swapRatio: Double
        /// ...and when it is better by at least this many body sizes per left/right joint.
        public var minimumSwapGain: Double

        public init(
            minimumConfidence: Double = 0.3,
            minimumJoints: Int = 5,
            maximumJumpFraction: Double = 0.25,
            lostAfterSeconds: Double = 1.0,
            prominenceTieFraction: Double = 0.1,
            frameCenter: Vector2? = nil,
            swapRatio: Double = 0.5,
            minimumSwapGain: Double = 0.02
        ) {
            precondition(
                minimumConfidence > 0 && minimumConfidence <= 1,
                "minimumConfidence (\(minimumConfidence)) must be in (0, 1]"
            )
            precondition(minimumJoints >= 1, "minimumJoints (\(minimumJoints)) must be at least 1")
            precondition(maximumJumpFraction > 0, "maximumJumpFraction (\(maximumJumpFraction)) must be positive")
            precondition(lostAfterSeconds >= 0, "lostAfterSeconds (\(lostAfterSeconds)) must not be negative")
            precondition(
                prominenceTieFraction >= 0 && prominenceTieFraction < 1,
                "prominenceTieFraction (\(prominenceTieFraction)) must be in [0, 1)"
            )
            precondition(swapRatio > 0 && swapRatio <= 1, "swapRatio (\(swapRatio)) must be in (0, 1]")
            self.minimumConfidence = minimumConfidence
            self.minimumJoints = minimumJoints
            self.maximumJumpFraction = maximumJumpFraction
            self.lostAfterSeconds = lostAfterSeconds
            self.prominenceTieFraction = prominenceTieFraction
            self.frameCenter = frameCenter
            self.swapRatio = swapRatio
            self.minimumSwapGain = minimumSwapGain
        }
    }

    public let configuration: Configuration

    /// The index of the selected pose in the last frame's `poses`, or `nil` when nobody was selected.
    public private(set) var trackedIndex: Int?
    /// Whether the last frame's selected pose had its sides exchanged to stay consistent.
    public private(set) var lastFrameSwappedSides = false
    /// How many frames had their sides exchanged since the start.
    public private(set) var swapCount = 0

    /// The last selected pose (sides fixed), when a person is tracked.
    private var reference: Pose?
    private var referenceSize = 1.0
    private var lastSeenSeconds = -Double.infinity

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    /// Whether a person is being tracked (seen within the last `lostAfterSeconds`).
    public var isTracking: Bool { reference != nil }

    /// The selected person's pose in this frame, or `nil` when they are not seen.
    public mutating func ingest(_ frame: PoseFrame) -> Pose? {
        trackedIndex = nil
        lastFrameSwappedSides = false
        let seconds = frame.seconds
        if seconds < lastSeenSeconds { reset() }
        if reference != nil, seconds - lastSeenSeconds > configuration.lostAfterSeconds { reference = nil }

        if let reference {
            guard let (index, swapped) = bestMatch(in: frame.poses, reference: reference, seconds: seconds) else {
                return nil
            }
            return select(frame.poses[index], index: index, swapped: swapped, at: seconds)
        }
        guard let index = prominentIndex(in: frame.poses) else { return nil }
        return select(frame.poses[index], index: index, swapped: false, at: seconds)
    }

    /// Forgets the tracked person.
    public mutating func reset() {
        reference = nil
        referenceSize = 1
        lastSeenSeconds = -Double.infinity
        trackedIndex = nil
        lastFrameSwappedSides = false
    }

    // MARK: - Selection

    private mutating func select(_ pose: Pose, index: Int, swapped: Bool, at seconds: Double) -> Pose {
        let selected = swapped ? pose.swappingSides() : pose
        if swapped { swapCount += 1 }
        lastFrameSwappedSides = swapped
        trackedIndex = index
        lastSeenSeconds = seconds
        // A pose with only a few joints (partly hidden) is returned but does not replace the reference,
        // so that the body size and the joints to match against stay those of the whole person.
        if let box = Box(selected, threshold: configuration.minimumConfidence),
            box.joints >= configuration.minimumJoints
        {
            referenceSize = box.size
            reference = selected
        }
        return selected
    }

    /// The index of the prominent candidate: largest box, ties broken by nearness to the centre.
    private func prominentIndex(in poses: [Pose]) -> Int? {
        var largestArea = -1.0
        var centreSum = Vector2(x: 0, y: 0)
        var candidates = 0
        for pose in poses {
            guard let box = candidateBox(pose) else { continue }
            largestArea = max(largestArea, box.area)
            centreSum = centreSum + box.centre
            candidates += 1
        }
        guard candidates > 0 else { return nil }
        let centre = configuration.frameCenter ?? centreSum * (1 / Double(candidates))
        let tieArea = largestArea * (1 - configuration.prominenceTieFraction)
        var best: Int?
        var bestDistance = Double.infinity
        for (index, pose) in poses.enumerated() {
            guard let box = candidateBox(pose), box.area >= tieArea else { continue }
            let distance = (box.centre - centre).length
            if distance < bestDistance {
                bestDistance = distance
                best = index
            }
        }
        return best
    }

    /// The bounding box of a pose that has enough seen joints to be a candidate.
    private func candidateBox(_ pose: Pose) -> Box? {
        guard let box = Box(pose, threshold: configuration.minimumConfidence),
            box.joints >= configuration.minimumJoints
        else { return nil }
        return box
    }

    /// The pose closest to `reference` within the allowed jump, and whether its sides are swapped.
    private func bestMatch(in poses: [Pose], reference: Pose, seconds: Double) -> (index: Int, swapped: Bool)? {
        let elapsed = max(0, seconds - lastSeenSeconds)
        let growth = configuration.lostAfterSeconds > 0 ? min(1, elapsed / configuration.lostAfterSeconds) : 1
        let allowed = configuration.maximumJumpFraction * (1 + growth) * referenceSize
        let threshold = configuration.minimumConfidence
        var best: (index: Int, swapped: Bool)?
        var bestCost = Double.infinity
        for index in poses.indices {
            // One pass over the joints gives the candidate test, the match cost and the swap test.
            let distances = Self.jointDistances(poses[index], reference, threshold: threshold)
            // A tracked person partly hidden for a moment still counts when three or more joints match.
            guard distances.seen >= min(configuration.minimumJoints, 3) else { continue }
            let cost: Double
            var swapped = false
            if distances.common >= 3 {
                cost = min(distances.direct, distances.mirrored) / Double(distances.common)
                let lateral = Double(distances.lateral)
                if distances.lateral >= 2,
                    distances.lateralMirrored < configuration.swapRatio * distances.lateralDirect,
                    (distances.lateralDirect - distances.lateralMirrored) / lateral
                        >= configuration.minimumSwapGain * referenceSize
                {
                    swapped = true
                }
            } else if distances.seen >= configuration.minimumJoints, let box = Box(poses[index], threshold: threshold),
                let referenceBox = Box(reference, threshold: threshold)
            {
                // Too few joints in common to compare joint by joint (e.g. upper body then lower body): use the boxes.
                cost = (box.centre - referenceBox.centre).length
            } else {
                continue
            }
            if cost <= allowed, cost < bestCost {
                bestCost = cost
                best = (index, swapped)
            }
        }
        return best
    }

    // MARK: - Geometry

    /// Sums of joint distances between `pose` and `reference` over joints seen in both.
    ///
    /// `direct` and `mirrored` cover every joint seen in both (midline joints count the same in both);
    /// the `lateral` sums cover the left/right joints whose mirror is seen too, for the swap test.
    private static func jointDistances(
        _ pose: Pose,
        _ reference: Pose,
        threshold: Double
    ) -> (
        seen: Int, common: Int, direct: Double, mirrored: Double, lateral: Int, lateralDirect: Double,
        lateralMirrored: Double
    ) {
        var seen = 0
        var common = 0
        var direct = 0.0
        var mirrored = 0.0
        var lateral = 0
        var lateralDirect = 0.0
        var lateralMirrored = 0.0
        pose.keypoints.withUnsafeBufferPointer { current in
            reference.keypoints.withUnsafeBufferPointer { previous in
                mirrorIndices.withUnsafeBufferPointer { mirrors in
                    // A Pose always holds Joint.count keypoints, but `keypoints` is public: stay in bounds.
                    let count = min(current.count, previous.count, mirrors.count)
                    for index in 0..<count {
                        let p = current[index]
                        guard p.confidence >= threshold else { continue }
                        seen += 1
                        let r = previous[index]
                        guard r.confidence >= threshold else { continue }
                        let mirrorIndex = mirrors[index]
                        let d = distance(p, r)
                        common += 1
                        direct += d
                        if mirrorIndex == index {
                            mirrored += d
                        } else if mirrorIndex < count, current[mirrorIndex].confidence >= threshold {
                            let dm = distance(current[mirrorIndex], r)
                            mirrored += dm
                            lateral += 1
                            lateralDirect += d
                            lateralMirrored += dm
                        } else {
                            // The mirror joint is not seen: count the direct distance for both assignments.
                            mirrored += d
                        }
                    }
                }
            }
        }
        return (seen, common, direct, mirrored, lateral, lateralDirect, lateralMirrored)
    }

    private static func distance(_ a: Keypoint, _ b: Keypoint) -> Double {
        let dx = a.x - b.x
        let dy = a.y - b.y
        return (dx * dx + dy * dy).squareRoot()
    }

    private static let mirrorIndices: [Int] = Joint.allCases.map(\.mirrored.rawValue)

    /// A bounding box of the seen joints.
    private struct Box {
        var minX = Double.infinity
        var minY = Double.infinity
        var maxX = -Double.infinity
        var maxY = -Double.infinity
        var joints = 0

        init?(_ pose: Pose, threshold: Double) {
            pose.keypoints.withUnsafeBufferPointer { keypoints in
                for keypoint in keypoints where keypoint.confidence >= threshold {
                    guard keypoint.x.isFinite, keypoint.y.isFinite else { continue }
                    minX = min(minX, keypoint.x)
                    minY = min(minY, keypoint.y)
                    maxX = max(maxX, keypoint.x)
                    maxY = max(maxY, keypoint.y)
                    joints += 1
                }
            }
            guard joints > 0 else { return nil }
        }

        var area: Double { (maxX - minX) * (maxY - minY) }
        var centre: Vector2 { Vector2(x: (minX + maxX) / 2, y: (minY + maxY) / 2) }
        /// The longer side, at least one pixel.
        var size: Double { max(1, maxX - minX, maxY - minY) }
    }
}

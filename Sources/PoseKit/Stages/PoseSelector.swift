/// Picks the prominent person in each frame and follows them over time, so that a bystander cannot
/// take over; keeps left and right consistent from frame to frame.
///
/// The rules (see `Stages.docc/PoseStages.md` next to this file):
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
/// 3. **Continue.** When no pose matches (the estimator's skeleton jumped: a fast pull-up, a collapsed or
///    misplaced skeleton, a cut), a pose still continues the track when the person was seen within
///    `continuationSeconds`, its box covers at least `continuationOverlap` of the smaller of its box and
///    the tracked one, its size is within `continuationSizeRatio` of the tracked size, it is not a person
///    seen beside the tracked one in an earlier frame (the selector remembers the others it saw), and no
///    other pose in the frame qualifies too.
/// 4. **Lose.** Otherwise the result is `nil`. After `lostAfterSeconds` without a match, the tracked
///    person is forgotten and rule 1 applies again.
/// 5. **Sides.** Pose estimators sometimes exchange left and right for a frame or a stretch, the whole
///    body or only the arms or legs. When the mirrored assignment of the left/right joints is much closer
///    to the previous pose than the direct one (below `swapRatio` of it, and better by at least
///    `minimumSwapGain` body sizes per joint), they are exchanged back: the whole pose, and each part
///    (body, arms, legs) whose own joints clearly say so. After a continuation the shapes are compared,
///    each pose centred on its box and scaled by its size.
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
        /// A pose that jumped can continue the track only when the person was seen at most this long ago;
        /// 0 turns continuation off.
        public var continuationSeconds: Double
        /// ...when its box covers at least this share of the smaller of its box and the tracked one...
        public var continuationOverlap: Double
        /// ...and when its size (longer box side) is within this factor of the tracked size.
        public var continuationSizeRatio: Double

        public init(
            minimumConfidence: Double = 0.3,
            minimumJoints: Int = 5,
            maximumJumpFraction: Double = 0.25,
            lostAfterSeconds: Double = 1.0,
            prominenceTieFraction: Double = 0.1,
            frameCenter: Vector2? = nil,
            swapRatio: Double = 0.5,
            minimumSwapGain: Double = 0.02,
            continuationSeconds: Double = 0.3,
            continuationOverlap: Double = 0.4,
            continuationSizeRatio: Double = 2.5
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
            precondition(
                continuationSeconds >= 0,
                "continuationSeconds (\(continuationSeconds)) must not be negative; 0 turns continuation off"
            )
            precondition(
                continuationOverlap > 0 && continuationOverlap <= 1,
                "continuationOverlap (\(continuationOverlap)) must be in (0, 1]"
            )
            precondition(
                continuationSizeRatio >= 1,
                "continuationSizeRatio (\(continuationSizeRatio)) must be at least 1"
            )
            self.minimumConfidence = minimumConfidence
            self.minimumJoints = minimumJoints
            self.maximumJumpFraction = maximumJumpFraction
            self.lostAfterSeconds = lostAfterSeconds
            self.prominenceTieFraction = prominenceTieFraction
            self.frameCenter = frameCenter
            self.swapRatio = swapRatio
            self.minimumSwapGain = minimumSwapGain
            self.continuationSeconds = continuationSeconds
            self.continuationOverlap = continuationOverlap
            self.continuationSizeRatio = continuationSizeRatio
        }
    }

    public let configuration: Configuration

    /// The index of the selected pose in the last frame's `poses`, or `nil` when nobody was selected.
    public private(set) var trackedIndex: Int?
    /// Whether the last frame's selected pose had sides (all or some parts) exchanged to stay consistent.
    public private(set) var lastFrameSwappedSides = false
    /// How many frames had sides exchanged since the start.
    public private(set) var swapCount = 0
    /// Whether the last frame's selected pose continued the track after a jump (rule 3).
    public private(set) var lastFrameContinued = false
    /// How many frames continued the track after a jump since the start.
    public private(set) var continuationCount = 0

    /// The last selected pose (sides fixed), when a person is tracked.
    private var reference: Pose?
    private var referenceSize = 1.0
    private var lastSeenSeconds = -Double.infinity
    /// The other people seen recently (not selected), so that one of them cannot continue the track.
    private var others: [Other] = []

    /// A person seen beside the tracked one.
    private struct Other {
        var pose: Pose
        var size: Double
        var seconds: Double
    }

    /// How many other people are remembered.
    private static let otherCapacity = 4

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
        others.reserveCapacity(Self.otherCapacity)
    }

    /// Whether a person is being tracked (seen within the last `lostAfterSeconds`).
    public var isTracking: Bool { reference != nil }

    /// The selected person's pose in this frame, or `nil` when they are not seen.
    public mutating func ingest(_ frame: PoseFrame) -> Pose? {
        trackedIndex = nil
        lastFrameSwappedSides = false
        lastFrameContinued = false
        let seconds = frame.seconds
        if seconds < lastSeenSeconds { reset() }
        if reference != nil, seconds - lastSeenSeconds > configuration.lostAfterSeconds { reference = nil }

        var chosen: (index: Int, swap: SideSwap)?
        if let reference {
            chosen = bestMatch(in: frame.poses, reference: reference, seconds: seconds)
            if chosen == nil {
                chosen = continuation(in: frame.poses, reference: reference, seconds: seconds)
                lastFrameContinued = chosen != nil
            }
        } else if let index = prominentIndex(in: frame.poses) {
            forgetOther(matching: frame.poses[index], at: seconds)
            chosen = (index, .none)
        }
        if frame.poses.count > 1 || chosen == nil {
            rememberOthers(in: frame.poses, except: chosen?.index, at: seconds)
        }
        guard let chosen else { return nil }
        if lastFrameContinued { continuationCount += 1 }
        return select(frame.poses[chosen.index], index: chosen.index, swap: chosen.swap, at: seconds)
    }

    /// Forgets the tracked person and the others seen.
    public mutating func reset() {
        reference = nil
        referenceSize = 1
        lastSeenSeconds = -Double.infinity
        trackedIndex = nil
        lastFrameSwappedSides = false
        lastFrameContinued = false
        others.removeAll(keepingCapacity: true)
    }

    // MARK: - Selection

    private mutating func select(_ pose: Pose, index: Int, swap: SideSwap, at seconds: Double) -> Pose {
        let selected = Self.applying(swap, to: pose)
        if !swap.isEmpty { swapCount += 1 }
        lastFrameSwappedSides = !swap.isEmpty
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

    /// The largest mean joint distance, in pixels, for a pose `elapsed` seconds after one of body size `size`.
    private func allowedJump(size: Double, elapsed: Double) -> Double {
        let growth = configuration.lostAfterSeconds > 0 ? min(1, max(0, elapsed) / configuration.lostAfterSeconds) : 1
        return configuration.maximumJumpFraction * (1 + growth) * size
    }

    /// The pose closest to `reference` within the allowed jump, and the sides to exchange.
    private func bestMatch(in poses: [Pose], reference: Pose, seconds: Double) -> (index: Int, swap: SideSwap)? {
        let allowed = allowedJump(size: referenceSize, elapsed: seconds - lastSeenSeconds)
        let threshold = configuration.minimumConfidence
        var best: (index: Int, swap: SideSwap)?
        var bestCost = Double.infinity
        for index in poses.indices {
            let distances = Self.jointDistances(poses[index], reference, threshold: threshold)
            // A tracked person partly hidden for a moment still counts when three or more joints match.
            guard distances.seen >= min(configuration.minimumJoints, 3) else { continue }
            let cost: Double
            var swap = SideSwap.none
            if distances.common >= 3 {
                cost = distances.meanDistance
                guard cost <= allowed, cost < bestCost else { continue }
                // Someone seen beside the tracked person, and closer to how they were seen, is not them.
                if !others.isEmpty, let other = otherMatch(for: poses[index], at: seconds), other.cost < cost {
                    continue
                }
                swap = sideSwap(for: distances, size: referenceSize)
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
                best = (index, swap)
            }
        }
        return best
    }

    /// The one pose that continues the track after a jump (rule 3), and the sides to exchange.
    private func continuation(in poses: [Pose], reference: Pose, seconds: Double) -> (index: Int, swap: SideSwap)? {
        guard configuration.continuationSeconds > 0, seconds - lastSeenSeconds <= configuration.continuationSeconds,
            let referenceBox = Box(reference, threshold: configuration.minimumConfidence)
        else { return nil }
        var found: (index: Int, box: Box)?
        for index in poses.indices {
            guard let box = candidateBox(poses[index]),
                box.overlap(with: referenceBox) >= configuration.continuationOverlap,
                max(box.size / referenceBox.size, referenceBox.size / box.size) <= configuration.continuationSizeRatio,
                otherIndex(matching: poses[index], at: seconds) == nil
            else { continue }
            // Two poses that could both continue the track: neither clearly does.
            if found != nil { return nil }
            found = (index, box)
        }
        guard let found else { return nil }
        let distances = Self.jointDistances(
            poses[found.index],
            reference,
            threshold: configuration.minimumConfidence,
            placement: Placement(box: found.box),
            referencePlacement: Placement(box: referenceBox)
        )
        return (found.index, sideSwap(for: distances, size: 1))
    }

    // MARK: - Others

    /// The index in `others` of the remembered person that `pose` continues, if any.
    private func otherIndex(matching pose: Pose, at seconds: Double) -> Int? {
        otherMatch(for: pose, at: seconds)?.index
    }

    /// The remembered person that `pose` continues, if any, and the mean joint distance to them.
    private func otherMatch(for pose: Pose, at seconds: Double) -> (index: Int, cost: Double)? {
        var best: (index: Int, cost: Double)?
        var bestCost = Double.infinity
        for index in others.indices {
            let other = others[index]
            let elapsed = seconds - other.seconds
            guard elapsed <= configuration.lostAfterSeconds else { continue }
            let distances = Self.jointDistances(pose, other.pose, threshold: configuration.minimumConfidence)
            guard distances.common >= 3 else { continue }
            let cost = distances.meanDistance
            if cost <= allowedJump(size: other.size, elapsed: elapsed), cost < bestCost {
                bestCost = cost
                best = (index, cost)
            }
        }
        return best
    }

    /// Remembers every candidate of the frame but the selected one as another person.
    private mutating func rememberOthers(in poses: [Pose], except selected: Int?, at seconds: Double) {
        for index in poses.indices where index != selected {
            guard let box = candidateBox(poses[index]) else { continue }
            let seen = Other(pose: poses[index], size: box.size, seconds: seconds)
            if let known = otherIndex(matching: poses[index], at: seconds) {
                others[known] = seen
            } else if others.count < Self.otherCapacity {
                others.append(seen)
            } else if let oldest = others.indices.min(by: { others[$0].seconds < others[$1].seconds }) {
                others[oldest] = seen
            }
        }
    }

    /// Forgets the remembered person that `pose` continues (they are now the tracked one).
    private mutating func forgetOther(matching pose: Pose, at seconds: Double) {
        guard !others.isEmpty, let index = otherIndex(matching: pose, at: seconds) else { return }
        others[index].seconds = -.infinity
    }
}

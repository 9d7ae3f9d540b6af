import PoseKit

/// Whether the person is walking, from the horizontal movement of the feet (or of the root when no foot is
/// seen) over about a second, in torso lengths; also keeps the torso length, smoothed, that other set-up checks
/// measure in.
///
/// Walking moves the feet; a squat or a hinge moves the hips but not the feet, a tracking glitch only a foot.
/// So the feet are followed when they are seen, and the root must have moved too. Once walking, the person
/// counts as walking until a second after the movement stopped. Only an upright person walks (``isUpright(_:)``):
/// a push-up or a plank moves its hips and feet across the picture, and seen from the front its short torso makes
/// a small movement many torso lengths. Allocation-free after `init`.
///
/// ```swift
/// var walking = WalkingDetector(configuration: .init())
/// for (t, pose) in poses where walking.ingest(pose, at: t) { print("walking at \(t)") }
/// ```
struct WalkingDetector: Sendable {
    struct Configuration: Sendable, Hashable {
        /// Horizontal movement in one second, in torso lengths, above which the person is walking.
        var walkingTorsoLengths: Double = 0.8
        /// Feet below this confidence are not followed.
        var minimumJointConfidence: Double = 0.2
        /// The trail's spacing (seconds): about ten samples a second, a little less than 0.1 s so that a 10-Hz source
        /// is not skipped for jitter in its timestamps. The comparison reads the samples' times: **fewer frames**
        /// (under 10 fps) give one sample a frame, the trail of ``trailSamples`` then reaches further back than a
        /// second, and the oldest sample within ``longestComparisonSeconds`` is compared.
        var sampleSeconds = 0.095
        /// The trail's samples: a second of them and the one a second ago.
        var trailSamples = 11
        /// The weight of each frame in the smoothed torso length: about a second's memory.
        var torsoSmoothing = 0.05
        /// The oldest sample compared is at most this old (a longer gap compares nothing) and, at the start of a
        /// recording, at least this old: a person who enters walking is caught before a stride could pass for a
        /// repetition.
        var longestComparisonSeconds = 1.5
        var shortestComparisonSeconds = 0.4
        /// The person counts as walking until this long after the movement was last seen.
        var walkingHoldSeconds = 1.0
    }

    let configuration: Configuration

    private enum State: Sendable, Hashable {
        case still
        /// Walking until this time (a second after the movement was last seen).
        case walking(until: Double)
    }

    private var state = State.still
    /// The torso length (neck to root) in the image, smoothed; 0 until one is measured.
    private(set) var torso = 0.0
    /// One sample of the trail: the followed x (feet, else root), the root's x, and when.
    private struct Sample: Sendable, Hashable {
        var x: Double
        var rootX: Double
        var seconds: Double
    }

    /// The samples about every 0.1 s over about a second (`nil`: not taken yet), a ring from `next`.
    private var trail: [Sample?]
    private var next = 0

    init(configuration: Configuration) {
        self.configuration = configuration
        trail = Array(repeating: nil, count: configuration.trailSamples)
    }

    private func isWalking(at t: Double) -> Bool {
        if case .walking(let until) = state { return t < until }
        return false
    }

    /// How far below the root the ankles (where seen) of a person upright are, at least, in torso lengths: a body on
    /// the floor has them level with it, one standing about a torso and a half below (ade3122).
    static let standingLegsFraction = 0.5

    /// Whether the person stands (or sits, or hangs) upright: the neck above the root, the torso closer to vertical
    /// than to horizontal, and the ankles (where seen) below the root by half a torso length at least. A body on
    /// the floor (a push-up, a plank, seen from the side or from the front) is not.
    static func isUpright(_ pose: Pose, minimumConfidence c: Double) -> Bool {
        let root = pose[.root]
        let neck = pose[.neck]
        let rise = root.y - neck.y
        guard rise > abs(root.x - neck.x) else { return false }
        let la = pose[.leftAnkle]
        let ra = pose[.rightAnkle]
        let ankleY: Double? =
            la.confidence >= c && ra.confidence >= c
            ? (la.y + ra.y) / 2 : la.confidence >= c ? la.y : ra.confidence >= c ? ra.y : nil
        guard let ankleY else { return true }
        return ankleY - root.y >= Self.standingLegsFraction * rise
    }

    /// Follows one pose; whether the person is walking at `t`. A pose without a root or a neck says no.
    mutating func ingest(_ pose: Pose, at t: Double) -> Bool {
        let root = pose[.root]
        let neck = pose[.neck]
        guard root.confidence > 0, neck.confidence > 0 else { return false }
        let length = ((neck.x - root.x) * (neck.x - root.x) + (neck.y - root.y) * (neck.y - root.y)).squareRoot()
        if length > 1e-6 { torso = torso == 0 ? length : torso + configuration.torsoSmoothing * (length - torso) }
        let la = pose[.leftAnkle]
        let ra = pose[.rightAnkle]
        let c = configuration.minimumJointConfidence
        let x: Double =
            la.confidence >= c && ra.confidence >= c
            ? (la.x + ra.x) / 2
            : la.confidence >= c ? la.x : ra.confidence >= c ? ra.x : root.x
        let upright = Self.isUpright(pose, minimumConfidence: c)
        let previous = trail[(next + trail.count - 1) % trail.count]
        if previous.map({ t - $0.seconds >= configuration.sampleSeconds || t < $0.seconds }) ?? true {
            trail[next] = Sample(x: x, rootX: root.x, seconds: t)
            next = (next + 1) % trail.count
        }
        // The oldest sample is about one second ago; at the start of a recording, before the trail is
        // full, the first one (at least 0.4 s ago), with the threshold scaled to the shorter time, so
        // that a person who enters walking is caught before a stride could pass for a repetition.
        guard upright else {
            state = .still  // on the floor, not walking
            return false
        }
        // The oldest sample at most `longestComparisonSeconds` ago: at 10 fps or more the trail's oldest (a second
        // ago); with fewer frames the trail reaches further back (2 s at 5 fps, where its oldest was always too
        // old and walking was never seen), and after a gap its samples from before it are passed over.
        var oldest: Sample?
        for j in 0..<trail.count {
            if let sample = trail[(next + j) % trail.count], sample.x.isFinite,
                t - sample.seconds <= configuration.longestComparisonSeconds
            {
                oldest = sample
                break
            }
        }
        guard let oldest, torso > 0, t - oldest.seconds >= configuration.shortestComparisonSeconds
        else { return isWalking(at: t) }
        let elapsed = t - oldest.seconds
        let limit = configuration.walkingTorsoLengths * min(1, elapsed)
        if abs(x - oldest.x) / torso > limit, !oldest.rootX.isFinite || abs(root.x - oldest.rootX) / torso > limit {
            state = .walking(until: t + configuration.walkingHoldSeconds)
        }
        return isWalking(at: t)
    }
}

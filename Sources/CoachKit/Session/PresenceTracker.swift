/// Whether the person is measurable, settled and still in the same repetition, from frame to frame: it follows
/// the stretches in which the person is not measurable (out of frame, walking, nobody seen) and tells a glitch of
/// the pose estimator (shorter than ``Configuration/glitchSeconds``: nothing counted or dropped) and a gap that
/// may be bridged (up to ``Configuration/bridgeSeconds`` without walking: held until the person is back, then
/// bridged when they came back in place and the counted angle continues) from a real interruption (the
/// repetition under way is dropped and the person settles again). Allocation-free but for the gaps bridged.
///
/// ```swift
/// var presence = PresenceTracker(configuration: .init(bridges: true))
/// let frame = presence.ingest(valid: inFrame && !walking, walking: walking, bodyX: x, torso: torso, at: t)
/// if frame.returnsFromGap, let bridged = presence.decideGapReturn(continues: true, at: t) { print(bridged) }
/// ```
struct PresenceTracker: Sendable {
    struct Configuration: Sendable, Hashable {
        /// How long the person must be measurable before a repetition may start
        /// (``CoachingSession/Configuration/settleSeconds``).
        var settleSeconds = 0.5
        /// An invalid stretch shorter than this is a glitch.
        var glitchSeconds = 0.3
        /// After a stretch out of frame at most this long, without walking, a repetition may start at once.
        var briefAbsenceSeconds = 1.5
        /// An invalid stretch without walking up to this long is held as a possible gap in the repetition.
        var bridgeSeconds = 1.0
        /// Whether gaps may be bridged at all (repetitions are counted).
        var bridges = true
    }

    /// What one frame is.
    struct Frame: Sendable, Hashable {
        /// The person is measurable: in frame, and not walking.
        var valid: Bool
        /// Part of an invalid stretch shorter than a glitch.
        var glitch: Bool
        /// Part of an invalid stretch held as a possible gap.
        var gapOpen: Bool
        /// The person is back after a held gap (``PresenceTracker/decideGapReturn(continues:at:)`` decides).
        var returnsFromGap: Bool
        /// Measurable since the settling time, or since the first frame with a person.
        var settled: Bool

        /// Nothing is counted or dropped in this frame.
        var held: Bool { glitch || gapOpen || returnsFromGap }
    }

    /// How long, from its first frame, the return from a gap is decided over: the first frames after a gap are
    /// still settling in the smoother, so the verdict is a majority of the frames in that time. Capture time, not
    /// frames, so that a busy server decides over the same moment of the movement: 3 frames at 17 to 30 fps (as
    /// the rule of 3 frames it replaces), 5 at 60 fps; **fewer frames** (16 fps or less) 2, which must then both
    /// find the angle continuing the repetition.
    static let gapDecisionSeconds = 0.06
    /// A person found again at most this many torso lengths (horizontally) from where they were last measurable is
    /// back in place: a step aside is more, the pose estimator's wobble of the body's centre much less.
    static let inPlaceTorsoFraction = 0.5

    let configuration: Configuration
    /// The first frame with a person in the recording.
    private var firstPersonSeconds: Double?
    /// Since when the person is measurable (counting from earlier when they came back in position); `nil` while
    /// they are not.
    private var validSince: Double?
    /// The start of the current invalid stretch (`nil` while the person is measurable).
    private var invalidSince: Double?
    /// Whether the person walked during the current invalid stretch.
    private var walkedWhileInvalid = false
    /// Whether the current invalid stretch (past the glitch time) is held as a possible gap to bridge.
    private var bridging = false
    /// When the stretch held as a possible gap began, and (once the person is back) when it ended.
    private var gapStartedAt = 0.0
    private var gapEndedAt = 0.0
    /// The frames seen since the person came back from a held gap, and how many of them found the counted angle
    /// continuing the repetition.
    private var gapReturnFrames = 0
    private var gapReturnVotes = 0
    /// Whether the person came back where they were, not having walked, and may resume at once.
    private var gapReturnInPlace = false
    private var gapReturnResumes = false
    /// The gaps bridged so far (start, end), for the repetitions they fall in.
    private var bridgedGaps: [(start: Double, end: Double)] = []
    /// The body's image x (the root, else the neck) in the last measurable frame.
    private var lastValidBodyX: Double?

    init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// A frame with a person: whether they are `valid` (measurable), `walking`, where their body is in the image
    /// (`bodyX`, `nil` when not seen) and the torso length (0 when not known).
    mutating func ingest(valid: Bool, walking: Bool, bodyX: Double?, torso: Double, at t: Double) -> Frame {
        if firstPersonSeconds == nil { firstPersonSeconds = t }
        // A short stretch out of frame without walking (a pull-up's hands above the picture at the bottom,
        // the pose lost for a moment) that ends with the person where they were is no set-up: nothing to
        // settle from.
        var inPlace = false
        if let bodyX, bodyX.isFinite, let lastValidBodyX, torso > 0 {
            inPlace = abs(bodyX - lastValidBodyX) <= Self.inPlaceTorsoFraction * torso
        }
        var resumesInPosition = false
        if valid, let invalidSince, !walkedWhileInvalid, inPlace {
            resumesInPosition = t - invalidSince <= configuration.briefAbsenceSeconds
        }
        // The end of a stretch held as a possible gap: bridged if the angle continues the repetition.
        let returnsFromGap = valid && bridging
        if returnsFromGap, gapReturnFrames == 0 {
            gapEndedAt = t
            gapReturnInPlace = !walkedWhileInvalid && inPlace
            gapReturnResumes = resumesInPosition
        }
        if valid, let bodyX, bodyX.isFinite { lastValidBodyX = bodyX }
        if valid {
            invalidSince = nil
            walkedWhileInvalid = false
        } else if invalidSince == nil {
            invalidSince = t
            walkedWhileInvalid = walking
        } else if walking {
            walkedWhileInvalid = true
        }
        let invalidFor = invalidSince.map { t - $0 } ?? 0
        let glitch = !valid && invalidFor < configuration.glitchSeconds
        // Past the glitch time, a stretch without walking is held (nothing counted or dropped) for up to
        // `bridgeSeconds`; when it ends, the counted angle decides whether it was a gap in the same repetition.
        let gapOpen =
            !valid && !glitch && configuration.bridges && !walkedWhileInvalid
            && invalidFor < configuration.bridgeSeconds
        if gapOpen {
            if !bridging { gapStartedAt = invalidSince ?? t }
            bridging = true
        } else if !valid, !glitch {
            bridging = false
        }
        if !valid {
            gapReturnFrames = 0
            gapReturnVotes = 0
        }
        let frame = Frame(
            valid: valid,
            glitch: glitch,
            gapOpen: gapOpen,
            returnsFromGap: returnsFromGap,
            settled: false
        )
        if frame.held {
            // Held: nothing is counted or dropped in these frames.
        } else if !valid {
            validSince = nil
        } else if validSince == nil {
            validSince = resumesInPosition ? t - configuration.settleSeconds : t
        }
        var settled = false
        if valid, let validSince {
            settled = t - validSince >= configuration.settleSeconds || validSince == firstPersonSeconds
        }
        return Frame(valid: valid, glitch: glitch, gapOpen: gapOpen, returnsFromGap: returnsFromGap, settled: settled)
    }

    /// A frame with nobody seen: a glitch, a held gap, or (neither) an interruption.
    mutating func ingestNobody(at t: Double) -> Frame {
        if invalidSince == nil {
            invalidSince = t
            walkedWhileInvalid = false
        }
        let start = invalidSince ?? t
        let glitch = t - start < configuration.glitchSeconds
        let gapOpen =
            !glitch && configuration.bridges && !walkedWhileInvalid && t - start < configuration.bridgeSeconds
        if gapOpen, !bridging { gapStartedAt = start }
        if gapOpen { bridging = true }
        gapReturnFrames = 0
        gapReturnVotes = 0
        if !glitch, !gapOpen {
            bridging = false
            validSince = nil
        }
        return Frame(valid: false, glitch: glitch, gapOpen: gapOpen, returnsFromGap: false, settled: false)
    }

    /// Decides, over the first frames after a held gap, whether it was a gap in the same repetition (`continues`:
    /// whether the counted angle continues what it did before): `nil` while undecided; then `true` (bridged and
    /// recorded) or `false`, when the caller drops the repetition under way and the person settles again (at
    /// once when they came back in position).
    mutating func decideGapReturn(continues: Bool, at t: Double) -> Bool? {
        gapReturnFrames += 1
        if gapReturnInPlace, continues { gapReturnVotes += 1 }
        guard !gapReturnInPlace || t - gapEndedAt >= Self.gapDecisionSeconds - 1e-9 else { return nil }
        bridging = false
        let bridged = gapReturnInPlace && 2 * gapReturnVotes > gapReturnFrames
        if bridged {
            bridgedGaps.append((gapStartedAt, gapEndedAt))
        } else {
            validSince = gapReturnResumes ? t - configuration.settleSeconds : t
        }
        gapReturnFrames = 0
        gapReturnVotes = 0
        return bridged
    }

    /// Whether a repetition that started at `start` may count: it must start after the person settled
    /// (in frame and not walking for `settleSeconds`), unless the person has been in position since the
    /// first frame of the recording (nothing to settle from).
    func mayCount(startingAt start: Double) -> Bool {
        guard let validSince else { return false }
        return validSince == firstPersonSeconds || start >= validSince + configuration.settleSeconds - 1e-9
    }

    /// The longest bridged gap within `start...end` (0 when none).
    func gapSeconds(from start: Double, to end: Double) -> Double {
        var longest = 0.0
        for gap in bridgedGaps where gap.start >= start - 1e-9 && gap.end <= end + 1e-9 {
            longest = Swift.max(longest, gap.end - gap.start)
        }
        return longest
    }
}

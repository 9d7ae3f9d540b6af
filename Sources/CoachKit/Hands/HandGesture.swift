public import PoseKit

/// Recognises a held pinch (thumb tip to index tip) with evidence, as Apple's `HandGestureProcessor` does: a frame
/// with the tips close is evidence of a pinch, one with them apart evidence of apart, and the state changes only once
/// the same evidence has lasted long enough. A brief touch stays `possiblePinch` and does nothing.
///
/// With the frames' capture times (the live coach always has them) the evidence is measured in seconds, from when it
/// began (between the last frame without it and the first with it) to the frame's time: the same pinch gives the
/// same answer at 30 frames a second or at the 6 a loaded server has time for, wherever its frames fall. It needs at
/// least ``Configuration/minimumFrames`` frames of evidence: a pinch that fewer frames see (held for less than about
/// two frame intervals) is not recognised, and the page keeps saying "Pinch… hold it" until it is held longer.
/// Without times, ``Configuration/evidenceFrames`` frames in a row decide.
///
/// The distance is in hand lengths (wrist to the middle finger's MCP), so it does not depend on how far the hand
/// is from the camera, as long as the model still finds the hand (`README.md`, "Hands", gives the distance).
///
/// ```swift
/// var pinch = PinchGesture()
/// for frame in frames { if pinch.ingest(frame.hands.first, at: frame.seconds) == .pinched { startSet() } }
/// ```
public struct PinchGesture: Sendable {
    public enum State: String, Sendable, Hashable, Codable, CaseIterable {
        /// No hand, or not enough evidence either way yet.
        case unknown
        /// The tips are close, but not yet for long enough.
        case possiblePinch
        case pinched
        /// The tips parted, but not yet for long enough.
        case possibleApart
        case apart
    }

    public struct Configuration: Sendable, Hashable {
        /// Tips closer than this (hand lengths) are evidence of a pinch.
        public var pinchDistance: Double
        /// Tips further than this are evidence of apart; between the two, the evidence of the state is kept.
        public var apartDistance: Double
        /// With frame times: how long the same evidence must last before the state changes. A quarter of a second:
        /// what 8 frames at 30 a second took before, shorter than the Kapandji video's thumb-to-index contact, which
        /// the old rule (8 frames, or 0.45 s over 3) missed when the server had time for few of its frames, and
        /// longer than a touch in passing.
        public var evidenceSeconds: Double
        /// With frame times: the fewest frames of evidence that change the state (one frame alone is no evidence
        /// of how long it lasted).
        public var minimumFrames: Int
        /// Without frame times: frames in a row of the same evidence before the state changes.
        public var evidenceFrames: Int
        /// With frame times: how long the hand may be lost (the model misses it for a moment) with the evidence
        /// kept; lost longer, it starts again.
        public var dropoutSeconds: Double
        /// Without frame times: frames in a row without the hand that keep the evidence; one more and it starts
        /// again.
        public var dropoutFrames: Int

        public init(
            pinchDistance: Double = 0.25,
            apartDistance: Double = 0.4,
            evidenceSeconds: Double = 0.25,
            minimumFrames: Int = 2,
            evidenceFrames: Int = 8,
            dropoutSeconds: Double = 0.25,
            dropoutFrames: Int = 2
        ) {
            precondition(pinchDistance < apartDistance, "pinchDistance must be below apartDistance")
            precondition(evidenceFrames >= 1, "evidenceFrames must be at least 1")
            precondition(minimumFrames >= 1, "minimumFrames must be at least 1")
            precondition(evidenceSeconds >= 0, "evidenceSeconds must not be negative")
            precondition(dropoutFrames >= 0 && dropoutSeconds >= 0, "the dropout must not be negative")
            self.pinchDistance = pinchDistance
            self.apartDistance = apartDistance
            self.evidenceSeconds = evidenceSeconds
            self.minimumFrames = minimumFrames
            self.evidenceFrames = evidenceFrames
            self.dropoutSeconds = dropoutSeconds
            self.dropoutFrames = dropoutFrames
        }
    }

    public let configuration: Configuration
    public private(set) var state = State.unknown
    private var evidence = Evidence()
    private var missingFrames = 0
    /// The time of the last frame with the hand, and of the last frame (NaN: none, or no times).
    private var lastHandSeconds = Double.nan
    private var lastFrameSeconds = Double.nan

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    /// The thumb tip's distance to the index tip in hand lengths, or `nil` when a keypoint is missing.
    public static func distance(_ hand: HandPose) -> Double? {
        guard let length = HandMeasure.handLength(hand), hand[.thumbTip].confidence > 0,
            hand[.indexTip].confidence > 0
        else { return nil }
        return (hand[.thumbTip].point - hand[.indexTip].point).length / length
    }

    /// Takes one frame's hand (`nil` when no hand is seen) and returns the new state. A frame without the hand
    /// neither adds evidence nor takes it away, up to ``Configuration/dropoutSeconds`` (without times,
    /// ``Configuration/dropoutFrames`` frames): the hand model loses a hand for a frame now and then, mid-pinch (the
    /// Kapandji video, live); lost longer, the evidence starts again.
    ///
    /// - Parameter seconds: the frame's capture time (not decreasing), when known: then the evidence is timed.
    @discardableResult
    public mutating func ingest(_ hand: HandPose?, at seconds: Double? = nil) -> State {
        let t = seconds ?? .nan
        let previousFrame = lastFrameSeconds
        lastFrameSeconds = t
        guard let hand, let distance = Self.distance(hand) else {
            missingFrames += 1
            let lost =
                t.isNaN || lastHandSeconds.isNaN
                ? missingFrames > configuration.dropoutFrames : t - lastHandSeconds > configuration.dropoutSeconds
            guard lost else { return state }
            evidence = Evidence()
            state = .unknown
            return state
        }
        missingFrames = 0
        lastHandSeconds = t
        if distance < configuration.pinchDistance {
            evidence.add(.pinch, at: t, previousFrame: previousFrame)
            state = enough(at: t) ? .pinched : .possiblePinch
        } else if distance > configuration.apartDistance {
            evidence.add(.apart, at: t, previousFrame: previousFrame)
            state = enough(at: t) ? .apart : .possibleApart
        }
        return state
    }

    /// Whether the evidence under way, at the frame of time `t` (NaN: no times), changes the state.
    private func enough(at t: Double) -> Bool {
        guard !t.isNaN, !evidence.since.isNaN else { return evidence.frames >= configuration.evidenceFrames }
        return evidence.frames >= configuration.minimumFrames && t - evidence.since >= configuration.evidenceSeconds
    }

    /// The evidence under way: of what, over how many frames, since when.
    private struct Evidence: Sendable {
        enum Kind: Sendable { case pinch, apart }
        var kind: Kind?
        var frames = 0
        /// When it began: halfway between the last frame without it and the first with it (the first frame's time
        /// when it is the first frame); NaN without times.
        var since = Double.nan

        mutating func add(_ kind: Kind, at t: Double, previousFrame: Double) {
            if self.kind != kind {
                self.kind = kind
                frames = 0
                since = previousFrame.isNaN || t.isNaN ? t : (previousFrame + t) / 2
            }
            frames += 1
        }
    }
}

/// An open palm toward the camera: the four fingers straight (each fingertip at least ``reach`` hand lengths from
/// the wrist), the thumb away from the index (no pinch), the hand facing the camera (``HandView/facing``) with its palm, not its back, toward it (the side
/// of the hand from the order of the index and little knuckles, for the hand's own left or right).
public enum OpenPalm {
    /// How far each fingertip must be from the wrist, in hand lengths (about 1.8 in an open hand, 0.8 in a fist).
    public static let reach = 1.5

    public static func isShown(_ hand: HandPose) -> Bool {
        guard HandView(hand) == .facing, let length = HandMeasure.handLength(hand) else { return false }
        // A pinch with the other fingers straight is a pinch, not a palm.
        guard let pinch = PinchGesture.distance(hand), pinch > PinchGesture.Configuration().apartDistance else {
            return false
        }
        let wrist = hand[.wrist].point
        for finger in HandMeasure.fingers {
            let tip = hand[finger.tip]
            guard tip.confidence > 0, (tip.point - wrist).length / length >= reach else { return false }
        }
        // In the picture (y down), index × little about the wrist is negative for a right palm toward the camera.
        let a = hand[.indexMCP].point - wrist
        let b = hand[.littleMCP].point - wrist
        let cross = a.x * b.y - a.y * b.x
        switch hand.chirality {
        case .right: return cross < 0
        case .left: return cross > 0
        case .unknown: return true
        }
    }
}

/// Touch-free control of a set: a held pinch starts it, pauses it and resumes it; an open palm toward the camera,
/// held, ends it. While a hand exercise is coached, the gestures are read from the other hand (the coached hand's
/// own movements, a fist opening or a thumb touching a finger, are the exercise, not commands).
///
/// ```swift
/// var control = HandGestureControl()
/// if let command = control.ingest(frame.hands, coached: nil) { apply(command) }   // .start, .pause, .resume, .end
/// ```
public struct HandGestureControl: Sendable {
    public enum SetState: String, Sendable, Hashable, Codable {
        case idle, running, paused, ended
    }

    public enum Command: String, Sendable, Hashable, Codable {
        case start, pause, resume, end
    }

    /// The set-up line for gestures: a hand is found, and a pinch seen, down to about 39 px from wrist to middle
    /// knuckle in a 1280x720 picture, which a 9 cm hand is at 1.8–2.3 m from a 720p webcam (README, "Hands").
    public static let setUpGuidance = "To start or pause with a pinch, come within 1.5 m of the camera, hand in view"

    /// With frame times: how long the open palm must be held before the set ends (what 15 frames at 30 a second
    /// took), over at least ``PinchGesture/Configuration/minimumFrames`` frames; timed as the pinch is.
    public var palmSeconds: Double
    /// Without frame times: frames the open palm must be held before the set ends.
    public var palmFrames: Int
    public private(set) var setState = SetState.idle
    public private(set) var pinch: PinchGesture
    private var palmEvidence = 0
    /// When the open palm began to be shown (halfway from the frame before), NaN when it is not or without times.
    private var palmSince = Double.nan
    private var lastSeconds = Double.nan
    /// The pinch that acted is released before another may act.
    private var armed = true

    /// - Parameter setState: where the set stands at first (`running` for a set started otherwise, so that the
    ///   first pinch pauses it).
    public init(
        pinch: PinchGesture.Configuration = .init(),
        palmSeconds: Double = 0.5,
        palmFrames: Int = 15,
        setState: SetState = .idle
    ) {
        self.pinch = PinchGesture(configuration: pinch)
        self.palmSeconds = palmSeconds
        self.palmFrames = palmFrames
        self.setState = setState
    }

    /// The hand gestures are read from: the coached hand is skipped (`coached`, an index in `hands`); of the
    /// others, the first.
    public static func gestureHand(_ hands: [HandPose], coached: Int?) -> HandPose? {
        gestureHandIndex(hands, coached: coached).map { hands[$0] }
    }

    /// The index in `hands` of ``gestureHand(_:coached:)``.
    public static func gestureHandIndex(_ hands: [HandPose], coached: Int?) -> Int? {
        hands.indices.first { $0 != coached }
    }

    /// One frame: every hand seen and the coached one (`nil` when no hand exercise is coached). Returns the command
    /// the gestures gave in this frame, if any.
    public mutating func ingest(_ hands: [HandPose], coached: Int? = nil, at seconds: Double? = nil) -> Command? {
        let hand = Self.gestureHand(hands, coached: coached)
        let state = pinch.ingest(hand, at: seconds)
        if state == .apart || state == .unknown { armed = true }
        let t = seconds ?? .nan
        if hand.map(OpenPalm.isShown) == true {
            if palmEvidence == 0 { palmSince = lastSeconds.isNaN || t.isNaN ? t : (lastSeconds + t) / 2 }
            palmEvidence += 1
        } else {
            palmEvidence = 0
        }
        lastSeconds = t
        let palmHeld =
            t.isNaN || palmSince.isNaN
            ? palmEvidence >= palmFrames
            : palmEvidence >= pinch.configuration.minimumFrames && t - palmSince >= palmSeconds
        if palmHeld, setState == .running || setState == .paused {
            setState = .ended
            return .end
        }
        guard state == .pinched, armed else { return nil }
        armed = false
        switch setState {
        case .idle, .ended:
            setState = .running
            return .start
        case .running:
            setState = .paused
            return .pause
        case .paused:
            setState = .running
            return .resume
        }
    }
}

public import PoseKit

/// Recognises a held pinch (thumb tip to index tip) with evidence counting, as Apple's `HandGestureProcessor`
/// does: a frame with the tips close is evidence of a pinch, one with them apart evidence of apart, and the state
/// changes only after ``Configuration/evidenceFrames`` frames of the same evidence in a row. A brief touch stays
/// `possiblePinch` and does nothing.
///
/// The distance is in hand lengths (wrist to the middle finger's MCP), so it does not depend on how far the hand
/// is from the camera, as long as the model still finds the hand (`README.md`, "Hands", gives the distance).
///
/// ```swift
/// var pinch = PinchGesture()
/// for hand in hands { if pinch.ingest(hand) == .pinched { startSet() } }
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
        /// Frames in a row of the same evidence before the state changes.
        public var evidenceFrames: Int
        /// Or, when frames come with their times, evidence held this long (and over at least ``minimumFrames``
        /// frames): a camera that delivers fewer frames (a slow computer, a loaded server) still sees a pinch held
        /// half a second, which 8 frames at 15 a second are, and a brief touch still does nothing.
        public var evidenceSeconds: Double
        /// The fewest frames of evidence the time rule takes.
        public var minimumFrames: Int
        /// Frames in a row without the hand (the model lost it for a moment) that keep the evidence; one more and
        /// it starts again.
        public var dropoutFrames: Int

        public init(
            pinchDistance: Double = 0.25,
            apartDistance: Double = 0.4,
            evidenceFrames: Int = 8,
            evidenceSeconds: Double = 0.45,
            minimumFrames: Int = 3,
            dropoutFrames: Int = 2
        ) {
            precondition(pinchDistance < apartDistance, "pinchDistance must be below apartDistance")
            precondition(evidenceFrames >= 1, "evidenceFrames must be at least 1")
            precondition(dropoutFrames >= 0, "dropoutFrames must not be negative")
            self.pinchDistance = pinchDistance
            self.apartDistance = apartDistance
            self.evidenceFrames = evidenceFrames
            self.evidenceSeconds = evidenceSeconds
            self.minimumFrames = minimumFrames
            self.dropoutFrames = dropoutFrames
        }
    }

    public let configuration: Configuration
    public private(set) var state = State.unknown
    private var pinchEvidence = 0
    private var apartEvidence = 0
    /// When the evidence under way began (the time of its first frame; NaN without times).
    private var evidenceSince = Double.nan
    private var missingFrames = 0

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

    /// Takes one frame's hand (`nil` when no hand is seen: after ``Configuration/dropoutFrames`` such frames in a
    /// row the evidence starts again) and returns the new state. A frame without the hand neither adds evidence nor
    /// takes it away: the hand model loses a hand for a frame now and then, mid-pinch (the Kapandji video, live).
    ///
    /// - Parameter seconds: the frame's time, when known: then evidence held ``Configuration/evidenceSeconds`` also
    ///   changes the state.
    @discardableResult
    public mutating func ingest(_ hand: HandPose?, at seconds: Double? = nil) -> State {
        guard let hand, let distance = Self.distance(hand) else {
            missingFrames += 1
            guard missingFrames > configuration.dropoutFrames else { return state }
            pinchEvidence = 0
            apartEvidence = 0
            state = .unknown
            return state
        }
        missingFrames = 0
        let t = seconds ?? .nan
        if distance < configuration.pinchDistance {
            if pinchEvidence == 0 { evidenceSince = t }
            pinchEvidence += 1
            apartEvidence = 0
            state = enough(pinchEvidence, at: t) ? .pinched : .possiblePinch
        } else if distance > configuration.apartDistance {
            if apartEvidence == 0 { evidenceSince = t }
            apartEvidence += 1
            pinchEvidence = 0
            state = enough(apartEvidence, at: t) ? .apart : .possibleApart
        }
        return state
    }

    /// Whether `frames` of evidence, the last at `seconds` (NaN: no times), change the state.
    private func enough(_ frames: Int, at seconds: Double) -> Bool {
        frames >= configuration.evidenceFrames
            || (frames >= configuration.minimumFrames && seconds - evidenceSince >= configuration.evidenceSeconds)
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

    /// Frames the open palm must be held before the set ends.
    public var palmFrames: Int
    public private(set) var setState = SetState.idle
    public private(set) var pinch: PinchGesture
    private var palmEvidence = 0
    /// The pinch that acted is released before another may act.
    private var armed = true

    /// - Parameter setState: where the set stands at first (`running` for a set started otherwise, so that the
    ///   first pinch pauses it).
    public init(pinch: PinchGesture.Configuration = .init(), palmFrames: Int = 15, setState: SetState = .idle) {
        self.pinch = PinchGesture(configuration: pinch)
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
        palmEvidence = hand.map(OpenPalm.isShown) == true ? palmEvidence + 1 : 0
        if palmEvidence >= palmFrames, setState == .running || setState == .paused {
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

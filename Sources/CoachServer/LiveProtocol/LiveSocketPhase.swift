/// The phases of one live socket, as a synchronous state machine that ``LiveConnection`` drives: waiting for a
/// `start`, coaching a set (holding its seat), closed. Each message in gives the one action to take; what the
/// protocol refuses in a phase (a frame before `start`, keypoints on a camera set) is decided here.
///
/// ```swift
/// var phase = LiveSocketPhase()
/// phase.received(.end)        // .refuse(not-started)
/// phase.received(.start(s))   // .start(s): end nothing, open a set, then phase.started(set, seat:)
/// ```
struct LiveSocketPhase: Sendable {
    /// The limit a set counts against: camera sets are admitted by capacity, keypoint sets per address.
    enum Seat: Hashable, Sendable {
        case camera
        case keypoints(address: String)
    }

    enum Phase: Sendable {
        case waiting
        case coaching(LiveSet, Seat)
        case closed
    }

    enum Action: Sendable {
        /// Send this error; the socket goes on.
        case refuse(LiveProtocolError)
        /// End the running set if any (``ending()``), then open the one asked for.
        case start(StartMessage)
        case coachKeypoints(LiveSet, id: Int, text: String)
        case coachCamera(LiveSet)
        /// End the running set (``ending()``) and send its summary.
        case end
        /// Closed: the message is ignored.
        case ignore
    }

    private(set) var phase = Phase.waiting

    /// The set being coached, if any.
    var set: LiveSet? {
        if case .coaching(let set, _) = phase { set } else { nil }
    }

    var isClosed: Bool {
        if case .closed = phase { true } else { false }
    }

    /// What to do with a text message.
    func received(_ message: ClientMessage) -> Action {
        switch (phase, message) {
        case (.closed, _): .ignore
        case (_, .start(let start)): .start(start)
        case (.waiting, .frame): .refuse(.init(.notStarted, "send {\"type\":\"start\", …} before frames"))
        case (.waiting, .end): .refuse(.init(.notStarted, "no set is running; send {\"type\":\"start\", …} first"))
        case (.coaching(let set, _), .frame(let id, let text)): .coachKeypoints(set, id: id, text: text)
        case (.coaching, .end): .end
        }
    }

    /// What to do with a binary message (a camera frame).
    func receivedCameraFrame() -> Action {
        switch phase {
        case .closed: .ignore
        case .waiting:
            .refuse(.init(.notStarted, "send {\"type\":\"start\",\"input\":\"camera\"} before camera frames"))
        case .coaching(let set, _) where set.input != .camera:
            .refuse(.init(.badFrame, "this set was started with input \"keypoints\": send pose-track frames as text"))
        case .coaching(let set, _): .coachCamera(set)
        }
    }

    /// A set was opened with `seat`. `false` when the socket closed (or another set began) while it was being
    /// opened: the caller then finishes it and gives its seat back.
    mutating func started(_ set: LiveSet, seat: Seat) -> Bool {
        guard case .waiting = phase else { return false }
        phase = .coaching(set, seat)
        return true
    }

    /// Leaves the running set, if any: the caller finishes it and gives its seat back.
    mutating func ending() -> (set: LiveSet, seat: Seat)? {
        guard case .coaching(let set, let seat) = phase else { return nil }
        phase = .waiting
        return (set, seat)
    }

    /// The socket is closing: nothing more is read. The running set, if any, is returned to be finished.
    mutating func close() -> (set: LiveSet, seat: Seat)? {
        let running = ending()
        phase = .closed
        return running
    }
}

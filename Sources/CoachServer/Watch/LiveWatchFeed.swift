import CoachKit
import CoachStore
import Foundation
import Synchronization

/// A logged-in patient's coaching socket as their therapist sees it (docs/live-watch.md): who watches (the therapists'
/// watch sockets say `hello` every 5 s, `bye` at the end), and, while someone does, the set's frames at most 15 a
/// second by capture time (every frame that carries an event), its start and its summary, through the
/// ``WatchRouter``. Nobody watching, nothing is published but the set's start and end. The therapist's commands come
/// back here: a message or pause goes to the patient's page, `end` ends the set.
///
/// Called from the socket's task and the inference workers: the state is under a `Mutex`.
final class LiveWatchFeed: Sendable {
    /// At most this many frames a second go to the watchers (by the frames' capture times).
    static let framesPerSecond = 15.0
    /// A watcher not heard of for this long has gone (a `hello` comes every ``WatchRouter``'s 5 s).
    static let watcherTimeout: Duration = .seconds(15)

    let patient: User
    private let router: WatchRouter
    private let toPatient: @Sendable (ServerMessage) -> Void

    private struct State {
        var watchers: [String: (name: String, seen: ContinuousClock.Instant)] = [:]
        /// The set running, as the watchers see it; `session` nil while none runs.
        var set: WatchMessage.WatchedSet
        var lastFrameSeconds = -Double.infinity
        var endSet: (@Sendable () -> Void)?
        var closed = false

        var names: [String] { Set(watchers.values.map(\.name)).sorted() }
    }

    private let state: Mutex<State>

    /// - Parameter toPatient: sends a message on the patient's socket.
    init(patient: User, router: WatchRouter, toPatient: @escaping @Sendable (ServerMessage) -> Void) {
        self.patient = patient
        self.router = router
        self.toPatient = toPatient
        state = Mutex(
            State(
                set: .init(
                    patient: patient.id,
                    session: nil,
                    exercise: nil,
                    reps: nil,
                    width: nil,
                    height: nil,
                    repetitions: [],
                    paused: false,
                    watchers: []
                )
            )
        )
    }

    // MARK: - The patient's socket

    /// The page connected: routed here, and the watchers asked to say they are there.
    func connected(endSet: @escaping @Sendable () -> Void) {
        state.withLock { $0.endSet = endSet }
        router.register(self)
        publishSet(flag: .greet)
    }

    /// The page's socket closed.
    func disconnected() {
        let wasOpen = state.withLock { state in
            defer { state.closed = true }
            return !state.closed
        }
        guard wasOpen else { return }
        router.unregister(self)
        router.toWatchers(
            patient: patient.id,
            text: WatchMessage.offline(.init(patient: patient.id)).jsonText,
            flag: .keep
        )
    }

    /// A set began (its `ready` message).
    func started(_ ready: ServerMessage.Ready) {
        state.withLock { state in
            state.set.session = ready.session
            state.set.exercise = ready.exercise
            state.set.reps = ready.reps
            state.set.programme = ready.programme
            state.set.repetitions = []
            state.set.paused = false
            state.set.width = nil
            state.set.height = nil
            state.lastFrameSeconds = -.infinity
        }
        publishSet(flag: .greet)
    }

    /// A frame was coached and `text` (its `frame` message) sent to the patient: passed on when someone watches and
    /// it is due (``framesPerSecond``), or carries events. `events` are the coach's, as sent; `width`×`height` the
    /// picture (`nil` for a hand set).
    func coached(
        _ text: String,
        seconds: Double,
        width: Int?,
        height: Int?,
        events: [LiveEvent],
        hasEvents: Bool
    ) {
        let (send, resized, gone) = state.withLock { state -> (Bool, Bool, [String]?) in
            Self.fold(events, into: &state.set.repetitions)
            var resized = false
            if let width, let height, state.set.width != width || state.set.height != height {
                (state.set.width, state.set.height, resized) = (width, height, true)
            }
            let before = state.watchers.count
            Self.forget(&state, now: .now)
            let gone = state.watchers.count < before ? state.names : nil
            guard !state.watchers.isEmpty else { return (false, false, gone) }
            let due = seconds >= state.lastFrameSeconds + 1 / Self.framesPerSecond - 0.002
            guard due || hasEvents else { return (false, resized, gone) }
            state.lastFrameSeconds = seconds
            return (true, resized, gone)
        }
        if let gone { toPatient(.watchers(.init(watchers: gone))) }
        if resized { publishSet(flag: .keep) }
        if send { router.toWatchers(patient: patient.id, text: text, flag: hasEvents ? .keep : .droppable) }
    }

    /// The set ended and `text` (its `summary` message, with the events of the set's end) was sent to the patient.
    func ended(summary: ServerMessage.Summary?, text: String?) {
        let watched = state.withLock { state in
            Self.fold(summary?.events ?? [], into: &state.set.repetitions)
            state.set.session = nil
            state.set.paused = false
            return !state.watchers.isEmpty
        }
        if watched, let text { router.toWatchers(patient: patient.id, text: text, flag: .keep) }
        publishSet(flag: .keep)
    }

    // MARK: - The therapists

    /// A watch socket's `hello`, `bye` or command, for this patient.
    func received(_ command: WatchBusCommand) {
        switch command.type {
        case .hello, .bye:
            let changed = state.withLock { state -> Bool in
                let before = state.names
                if command.type == .hello {
                    state.watchers[command.watcher] = (command.name, .now)
                } else {
                    state.watchers[command.watcher] = nil
                }
                Self.forget(&state, now: .now)
                return before != state.names
            }
            if changed { toPatient(.watchers(.init(watchers: state.withLock { $0.names }))) }
            // A new watcher (or a heartbeat after a lost message) gets the set as it stands.
            if command.type == .hello { publishSet(flag: .keep) }
        case .message, .pause, .resume, .end:
            guard let kind = WatchCommand.Kind(rawValue: command.type.rawValue) else { return }
            let endSet = state.withLock { state -> (@Sendable () -> Void)? in
                if kind == .pause || kind == .resume { state.set.paused = kind == .pause }
                return kind == .end && state.set.session != nil ? state.endSet : nil
            }
            toPatient(.therapist(.init(command: kind, text: command.text, from: command.name)))
            router.toWatchers(
                patient: patient.id,
                text: WatchMessage.delivered(.init(command: kind, text: command.text, from: command.name)).jsonText,
                flag: .keep
            )
            if kind == .pause || kind == .resume { publishSet(flag: .keep) }
            endSet?()
        }
    }

    /// The therapists watching now, by name.
    var watcherNames: [String] { state.withLock { $0.names } }

    // MARK: - Helpers

    private func publishSet(flag: WatchRouter.Flag) {
        let text = state.withLock { state in
            state.set.watchers = state.names
            return WatchMessage.set(state.set).jsonText
        }
        router.toWatchers(patient: patient.id, text: text, flag: flag)
    }

    /// Follows the repetitions as the events tell them: a `rep` adds one, a `repsRevised` replaces them all.
    private static func fold(_ events: [LiveEvent], into repetitions: inout [Repetition]) {
        for event in events {
            switch event {
            case .rep(let repetition): repetitions.append(repetition)
            case .repsRevised(let all): repetitions = all
            default: break
            }
        }
    }

    /// Forgets the watchers not heard of for ``watcherTimeout``.
    private static func forget(_ state: inout State, now: ContinuousClock.Instant) {
        state.watchers = state.watchers.filter { now - $0.value.seen < watcherTimeout }
    }
}

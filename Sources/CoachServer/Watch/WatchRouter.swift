import CoachKit
import CoachStore
import Foundation
import Synchronization

/// This instance's end of the live-watch relay (docs/live-watch.md): publishes what a patient's set shows and what a
/// therapist sends, and hands what the relay brings (from this instance or another) to the patients' feeds and the
/// therapists' watch sockets connected here.
///
/// Relay messages are one line of routing, then the body:
/// - `W PATIENT FLAG\n{json}`: to the watchers of `PATIENT`; the body is the watch socket's message as sent. `FLAG`
///   is `d` for a frame that may be dropped for a watcher who reads slowly (a frame without events), `k` to keep,
///   `h` to keep and ask the watchers to say they are there (a set began, the page connected).
/// - `C PATIENT\n{json}`: to the coaching pages of `PATIENT`: a ``WatchBusCommand``.
///
/// ```swift
/// let router = WatchRouter(relay: LocalLiveRelay())
/// router.toWatchers(patient: id, text: WatchMessage.offline(.init(patient: id)).jsonText, flag: .keep)
/// ```
final class WatchRouter: Sendable {
    enum Flag: String, Sendable {
        case droppable = "d"
        case keep = "k"
        case greet = "h"
    }

    /// A therapist's watch socket connected to this instance.
    struct Watcher: Sendable {
        var id: String
        var name: String
        /// The therapist's account (for ``maxPerTherapist``); empty in tests that do not count.
        var therapistID: String = ""
        /// Sends one message (`true`: it may be dropped if the socket is behind).
        var send: @Sendable (_ text: String, _ droppable: Bool) -> Void
    }

    /// Who is connected here, by patient.
    final class Routes: Sendable {
        struct State {
            var feeds: [String: [ObjectIdentifier: LiveWatchFeed]] = [:]
            var watchers: [String: [String: Watcher]] = [:]
        }

        let state = Mutex(State())
    }

    let relay: any LiveRelay
    private let routes = Routes()
    private let reader: Task<Void, Never>

    init(relay: any LiveRelay) {
        self.relay = relay
        let routes = routes
        reader = Task {
            for await message in relay.messages {
                Self.deliver(message, routes: routes, relay: relay)
            }
        }
    }

    deinit { reader.cancel() }

    // MARK: - Publishing

    func toWatchers(patient: String, text: String, flag: Flag) {
        relay.publish("W \(patient) \(flag.rawValue)\n\(text)")
    }

    func toPatient(_ patient: String, _ command: WatchBusCommand) {
        relay.publish("C \(patient)\n\(command.jsonText)")
    }

    // MARK: - Who is here

    func register(_ feed: LiveWatchFeed) {
        routes.state.withLock { $0.feeds[feed.patient.id, default: [:]][ObjectIdentifier(feed)] = feed }
    }

    func unregister(_ feed: LiveWatchFeed) {
        routes.state.withLock { state in
            state.feeds[feed.patient.id]?[ObjectIdentifier(feed)] = nil
            if state.feeds[feed.patient.id]?.isEmpty == true { state.feeds[feed.patient.id] = nil }
        }
    }

    /// The most watch sockets one therapist may have open on one instance (docs/live-watch.md).
    static let maxPerTherapist = 4

    /// Adds a watcher; `false` (nothing added) when its therapist already has ``maxPerTherapist`` sockets here.
    @discardableResult
    func register(_ watcher: Watcher, patient: String) -> Bool {
        routes.state.withLock { state in
            if !watcher.therapistID.isEmpty {
                let open = state.watchers.values.reduce(0) { count, byID in
                    count + byID.values.filter { $0.therapistID == watcher.therapistID }.count
                }
                guard open < Self.maxPerTherapist else { return false }
            }
            state.watchers[patient, default: [:]][watcher.id] = watcher
            return true
        }
    }

    func unregister(watcher id: String, patient: String) {
        routes.state.withLock { state in
            state.watchers[patient]?[id] = nil
            if state.watchers[patient]?.isEmpty == true { state.watchers[patient] = nil }
        }
    }

    /// Watch sockets connected here (for `/health` and the tests).
    var watchersHere: Int { routes.state.withLock { $0.watchers.values.reduce(0) { $0 + $1.count } } }

    // MARK: - Delivering

    /// Hands one relay message to those connected here it is for; a message of another shape is ignored.
    static func deliver(_ message: String, routes: Routes, relay: any LiveRelay) {
        guard let newline = message.firstIndex(of: "\n") else { return }
        let head = message[..<newline].split(separator: " ")
        let body = String(message[message.index(after: newline)...])
        guard head.count >= 2 else { return }
        let patient = String(head[1])
        switch head[0] {
        case "W" where head.count == 3:
            let flag = Flag(rawValue: String(head[2])) ?? .keep
            let watchers = routes.state.withLock { Array(($0.watchers[patient] ?? [:]).values) }
            for watcher in watchers {
                watcher.send(body, flag == .droppable)
                if flag == .greet {
                    let hello = WatchBusCommand(type: .hello, watcher: watcher.id, name: watcher.name)
                    relay.publish("C \(patient)\n\(hello.jsonText)")
                }
            }
        case "C":
            guard let command = try? JSONDecoder().decode(WatchBusCommand.self, from: Data(body.utf8)) else { return }
            let feeds = routes.state.withLock { Array(($0.feeds[patient] ?? [:]).values) }
            for feed in feeds { feed.received(command) }
        default:
            return
        }
    }
}

/// What a therapist's watch socket tells the patient's coaching page, through the relay: `hello` (I watch; again
/// every 5 s), `bye`, and the therapist's commands.
struct WatchBusCommand: Codable, Hashable, Sendable {
    enum Kind: String, Codable, Hashable, Sendable { case hello, bye, message, pause, resume, end }

    var type: Kind
    /// The watch socket's id (one therapist may watch from two tabs).
    var watcher: String
    /// The therapist's name, as the patient sees it.
    var name: String
    var text: String?

    var jsonText: String {
        (try? JSONEncoder.coach().encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}

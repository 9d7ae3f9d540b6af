import CoachKit
import CoachStore
import Foundation
import HummingbirdTesting
import HummingbirdWSTesting
import HummingbirdWebSocket
import NIOCore
import Synchronization
import Testing

@testable import CoachServer
@testable import PoseKit

/// The therapist watching a patient's set live (docs/live-watch.md): the feed's throttle, presence and commands over
/// the in-process relay, then a real set over both sockets.
struct LiveWatchTests {
    /// What a fake watcher or patient page received.
    final class Received<T: Sendable>: Sendable {
        private let items = Mutex<[T]>([])
        func add(_ item: T) { items.withLock { $0.append(item) } }
        var all: [T] { items.withLock { $0 } }

        /// Waits until `condition` holds (deadline in polls, as ``LiveMailbox``); `what` names it in the error.
        func wait(_ what: String, timeout: Double = 30, _ condition: ([T]) -> Bool) async throws {
            for _ in 0..<LiveMailbox.polls(timeout, every: 0.005) {
                if condition(all) { return }
                try await Task.sleep(for: .milliseconds(5))
            }
            throw LiveTestError("waited \(timeout) s for \(what); got \(all.count) items")
        }
    }

    static let patient = User(role: .patient, name: "Ann", login: "ann", passwordHash: nil, therapistID: "t1")

    static func frameID(_ text: String) -> Int? {
        (try? JSONValue.parse(text))?["id"]?.intValue
    }

    /// Coaches frames `ids` on `feed`: frame `k` at `k`/30 s, 640×360, with events where `hasEvents(k)`.
    static func feed(_ feed: LiveWatchFeed, frames ids: Range<Int>, hasEvents: (Int) -> Bool = { _ in true }) {
        for k in ids {
            feed.coached(
                #"{"id":\#(k)}"#,
                seconds: Double(k) / 30,
                width: 640,
                height: 360,
                events: [],
                hasEvents: hasEvents(k)
            )
        }
    }

    @Test("Watched: at most 15 frames a second by capture time, every frame with events; nothing when nobody watches")
    func throttleAndPresence() async throws {
        let router = WatchRouter(relay: LocalLiveRelay())
        let watcher = Received<(String, Bool)>()
        let patientGot = Received<ServerMessage>()
        let ended = Received<Int>()
        let feed = LiveWatchFeed(patient: Self.patient, router: router) { patientGot.add($0) }
        // Nobody watching: frames are not published.
        feed.connected(endSet: { ended.add(1) })
        Self.feed(feed, frames: 0..<10)
        router.register(.init(id: "w1", name: "Dr A") { watcher.add(($0, $1)) }, patient: Self.patient.id)
        router.toPatient(Self.patient.id, .init(type: .hello, watcher: "w1", name: "Dr A"))
        try await patientGot.wait("the patient told Dr A watches") {
            $0.contains { $0 == .watchers(.init(watchers: ["Dr A"])) }
        }
        #expect(!watcher.all.contains { Self.frameID($0.0) != nil }, "frames published while nobody watched")
        // 4 s at 30 frames a second; one in ten carries an event.
        let withEvents = Set(stride(from: 15, to: 120, by: 10))
        Self.feed(feed, frames: 10..<130) { withEvents.contains($0) }
        try await watcher.wait("frame 129 or 128 relayed") {
            $0.contains { [128, 129].contains(Self.frameID($0.0)) }
        }
        let frames = watcher.all.compactMap { item in Self.frameID(item.0).map { ($0, item.1) } }
        let ids = frames.map(\.0)
        #expect(withEvents.isSubset(of: Set(ids)), "a frame with events was not relayed: \(ids)")
        // Frames without events are droppable, and no two of them closer than 1/15 s (2 frames at 30 a second).
        let plain = frames.filter { !withEvents.contains($0.0) }
        #expect(plain.allSatisfy { $0.1 })
        #expect(frames.filter { withEvents.contains($0.0) }.allSatisfy { !$0.1 })
        for (a, b) in zip(ids, ids.dropFirst()) where !withEvents.contains(b) {
            #expect(b - a >= 2, "frames \(a) and \(b) both relayed, 1/30 s apart")
        }
        #expect(ids.count <= 4 * 15 + withEvents.count + 1, "\(ids.count) frames in 4 s")
        // The picture's size reached the watchers with the set.
        #expect(watcher.all.contains { $0.0.contains(#""width":640"#) && $0.0.contains(#""type":"set""#) })

        // A message: shown to the patient, confirmed to the watchers; end ends the set only while one runs.
        router.toPatient(Self.patient.id, .init(type: .message, watcher: "w1", name: "Dr A", text: "Slower"))
        try await patientGot.wait("the therapist's message") {
            $0.contains { $0 == .therapist(.init(command: .message, text: "Slower", from: "Dr A")) }
        }
        try await watcher.wait("delivered") { $0.contains { $0.0.contains(#""type":"delivered""#) } }
        feed.started(
            .init(session: "s1", input: .keypoints, maxFrameBytes: 1, exercise: nil, reps: nil, practice: nil)
        )
        router.toPatient(Self.patient.id, .init(type: .end, watcher: "w1", name: "Dr A"))
        try await ended.wait("the set ended by the therapist") { $0.count == 1 }
        // Bye: the patient is told nobody watches, and frames stop.
        router.toPatient(Self.patient.id, .init(type: .bye, watcher: "w1", name: "Dr A"))
        try await patientGot.wait("nobody watches") { $0.last == .watchers(.init(watchers: [])) }
        let before = watcher.all.count
        Self.feed(feed, frames: 200..<230)
        feed.disconnected()
        try await watcher.wait("offline") { $0.contains { $0.0.contains(#""type":"offline""#) } }
        #expect(!watcher.all[before...].contains { Self.frameID($0.0) != nil }, "frames relayed after bye")
    }

    @Test("A therapist's command is one line of at most 200 characters; anything else is a clear error")
    func commands() throws {
        #expect(try WatchCommand.decode(#"{"type":"message","text":"  Slower  "}"#).text == "Slower")
        #expect(try WatchCommand.decode(#"{"type":"pause","text":"ignored"}"#) == .init(type: .pause))
        for bad in [
            "not json", #"{"type":"dance"}"#, #"{"type":"message"}"#, #"{"type":"message","text":"a\nb"}"#,
            #"{"type":"message","text":"\#(String(repeating: "x", count: 201))"}"#,
        ] {
            #expect(throws: LiveProtocolError.self, "\(bad)") { try WatchCommand.decode(bad) }
        }
    }

    @Test("A therapist may have 4 watch sockets on an instance; a 5th is refused until one closes; others unaffected")
    func watchersPerTherapistAreCapped() {
        let router = WatchRouter(relay: LocalLiveRelay())
        func watcher(_ id: String, of therapist: String) -> WatchRouter.Watcher {
            .init(id: id, name: therapist, therapistID: therapist) { _, _ in }
        }
        let cap = WatchRouter.maxPerTherapist
        for k in 0..<cap {
            #expect(router.register(watcher("a\(k)", of: "t1"), patient: k % 2 == 0 ? "p1" : "p2"))
        }
        #expect(!router.register(watcher("a-extra", of: "t1"), patient: "p3"))
        #expect(router.watchersHere == cap)
        #expect(router.register(watcher("b0", of: "t2"), patient: "p1"))
        router.unregister(watcher: "a1", patient: "p2")
        #expect(router.register(watcher("a-extra", of: "t1"), patient: "p3"))
        #expect(!router.register(watcher("a-more", of: "t1"), patient: "p1"))
    }
}

import CoachStore
import CoachTestSupport
import Foundation
import Testing

@testable import CoachDatabase

/// The live-watch relays: in process, and PostgreSQL's LISTEN/NOTIFY between two "instances" (two relays on one
/// database) when the test command gives a server.
struct LiveRelayTests {
    /// The first `count` messages of a relay, or an error naming what was missing after `timeout` seconds.
    static func read(_ relay: any LiveRelay, count: Int, timeout: Double = 30) async throws -> [String] {
        try await withThrowingTaskGroup(of: [String]?.self) { group in
            group.addTask {
                var got: [String] = []
                for await message in relay.messages {
                    got.append(message)
                    if got.count == count { break }
                }
                return got
            }
            group.addTask {
                try await Task.sleep(for: .seconds(timeout))
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            guard let first else { throw RelayTestError("fewer than \(count) messages within \(timeout) s") }
            return first
        }
    }

    struct RelayTestError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// A message of `bytes` bytes or more, with two- and four-byte characters across the cuts.
    static func long(_ bytes: Int, tag: String) -> String {
        var text = "W patient-\(tag) k\n{\"text\":\""
        var k = 0
        while text.utf8.count < bytes {
            text += ["a", "é", "😀", "\\\""][k % 4]
            k += 1
        }
        return text + "\"}"
    }

    @Test("A long message goes as parts under 8000 bytes, each cut between characters, and comes back whole")
    func chunks() throws {
        let messages = [Self.long(30_000, tag: "1"), Self.long(9_000, tag: "2"), "W p k\n{\"short\":true}"]
        let payloads = messages.map { PostgresRelayChunks.payloads($0) }
        #expect(payloads[0].count >= 4 && payloads[1].count == 2, "\(payloads.map(\.count))")
        #expect(payloads[2] == [messages[2]], "a short message goes as it is")
        for part in payloads.joined() {
            #expect(part.utf8.count < 8000, "a payload of \(part.utf8.count) bytes")
        }
        // The parts of two messages interleaved (two publishers) still come back whole, each once.
        var assembler = PostgresRelayChunks.Assembler()
        var out: [String] = []
        let (a, b) = (payloads[0], payloads[1])
        for k in 0..<max(a.count, b.count) {
            for list in [a, b] where k < list.count {
                if let message = assembler.take(list[k]) { out.append(message) }
            }
        }
        if let message = assembler.take(payloads[2][0]) { out.append(message) }
        #expect(out.sorted() == messages.sorted())
        // A malformed part is ignored.
        #expect(assembler.take("~abc 3 2\nbad") == nil)
    }

    @Test("The in-process relay gives back what was published, in order")
    func local() async throws {
        let relay = LocalLiveRelay()
        for k in 0..<100 { relay.publish("m\(k)") }
        #expect(try await Self.read(relay, count: 100) == (0..<100).map { "m\($0)" })
    }

    @Test("Two instances on one PostgreSQL database: each gets what either published, in each one's order")
    func postgres() async throws {
        guard let url = try await TestPostgres.freshDatabase() else {
            print("note: PTCOACH_TEST_POSTGRES_URL is not set: the PostgreSQL relay was not tested")
            return
        }
        let one = try await PostgresLiveRelay(url: url)
        let two = try await PostgresLiveRelay(url: url)
        let big = Self.long(20_000, tag: "big")
        let fromOne = (0..<50).map { "W one k\n{\"n\":\($0)}" } + [big]
        for message in fromOne { one.publish(message) }
        let atTwo = try await Self.read(two, count: fromOne.count)
        #expect(atTwo == fromOne)
        let atOne = try await Self.read(one, count: fromOne.count)
        #expect(atOne == fromOne)
        // A URL that is not PostgreSQL's is one clear error.
        await #expect(throws: StoreError.self) { _ = try await PostgresLiveRelay(url: "mysql://x@y/z") }
    }
}

import CoachKit
import Foundation
import Testing

@testable import CoachServer
@testable import PoseKit

/// The messages of docs/live-protocol.md, read from the page itself: each fenced JSON example decodes into the
/// server's types and encodes back to the same JSON, so the page and the server cannot drift apart.
struct LiveProtocolDocumentTests {
    /// The ```json blocks of the page, in order.
    static func examples() throws -> [String] {
        let page = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/live-protocol.md")
        let text = try String(contentsOf: page, encoding: .utf8)
        var blocks: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line.trimmingCharacters(in: .whitespaces) == "```json" {
                current = []
            } else if current != nil, line.trimmingCharacters(in: .whitespaces) == "```" {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// The JSON a value encodes to with the server's encoder, parsed.
    static func encoded(_ value: some Encodable) throws -> JSONValue {
        try JSONValue.parse(String(decoding: try JSONEncoder.coach().encode(value), as: UTF8.self))
    }

    @Test("Every JSON example of the page is valid JSON, and the page shows each server message")
    func examplesAreJSON() throws {
        let examples = try Self.examples()
        #expect(examples.count >= 9, "\(examples.count) examples found")
        var types: [String] = []
        for example in examples {
            let json = try JSONValue.parse(example)
            types.append(try #require(json["type"]?.stringValue, "no type in \(example)"))
        }
        #expect(Set(types).isSuperset(of: ["start", "ready", "frame", "summary", "error"]), "\(types)")
    }

    @Test("Each server message of the page decodes into ServerMessage and encodes back as documented")
    func serverMessagesRoundTrip() throws {
        var checked = 0
        var watch = 0
        for example in try Self.examples() {
            let documented = try JSONValue.parse(example)
            // The client's messages: a start, a keypoint frame (it has poses).
            guard documented["type"] != .string("start"), documented["poses"] == nil else { continue }
            let type = documented["type"]?.stringValue ?? ""
            // The watch socket's own messages and the therapist's commands (section 6).
            if WatchMessage.ownTypes.contains(type) {
                let message = try JSONDecoder.coach().decode(WatchMessage.self, from: Data(example.utf8))
                #expect(try JSONValue.parse(message.jsonText) == documented, "\(example)")
                watch += 1
                continue
            }
            if WatchCommand.Kind(rawValue: type) != nil {
                let command = try WatchCommand.decode(example)
                #expect(try Self.encoded(command) == documented, "\(example)")
                watch += 1
                continue
            }
            let message = try JSONDecoder.coach().decode(ServerMessage.self, from: Data(example.utf8))
            #expect(try Self.encoded(message) == documented, "\(example)")
            #expect(try JSONValue.parse(message.jsonText) == documented)
            checked += 1
        }
        #expect(checked >= 7)
        #expect(watch >= 6, "\(watch) watch messages checked")
    }

    @Test("Each client message of the page is read as the server reads it, and a start encodes back as documented")
    func clientMessagesRoundTrip() throws {
        var starts = 0
        var frames = 0
        for example in try Self.examples() {
            let documented = try JSONValue.parse(example)
            guard documented["type"] == .string("start") || documented["poses"] != nil else { continue }
            switch try ClientMessage.decode(example, maxBytes: 1 << 20) {
            case .start(let start):
                try start.validate()
                #expect(try Self.encoded(start) == documented, "\(example)")
                starts += 1
            case .frame(let id, let text):
                #expect(id == documented["id"]?.intValue)
                // The page's frame has two keypoints.
                var decoder = PoseTrackFrameDecoder(
                    header: PoseTrackHeader(keypoints: ["leftShoulder", "leftHip"], fps: 30, width: 640, height: 480)
                )
                let frame = try decoder.decode(line: text)
                #expect(frame.seconds == documented["t"]?.doubleValue)
                #expect(frame.poses.count == 1)
                frames += 1
            case .end:
                Issue.record("an example with poses read as end: \(example)")
            }
        }
        #expect(starts >= 1 && frames == 1)
    }

    @Test(
        "A client message that is not what the page documents is one error with the code the page lists",
        arguments: [
            ("this is not json", LiveProtocolError.Code.badJSON),
            (#"[1,2,3]"#, .badMessage),
            (#"{"type":"dance"}"#, .badMessage),
            (#"{"type":"start","reps":"ten"}"#, .badMessage),
            (#"{"type":"start","input":"video"}"#, .badMessage),
            (#"{"type":"frame","id":-1,"t":0,"poses":[]}"#, .badFrame),
            (#"{"type":"frame","id":1.5,"t":0,"poses":[]}"#, .badFrame),
        ]
    )
    func refusals(text: String, code: LiveProtocolError.Code) {
        #expect(throws: LiveProtocolError.self) { try ClientMessage.decode(text, maxBytes: 1 << 20) }
        do {
            _ = try ClientMessage.decode(text, maxBytes: 1 << 20)
        } catch {
            #expect(error.code == code, "\(text): \(error.message)")
            #expect(!error.message.isEmpty)
        }
    }

    @Test("A start names the field of the wrong type and what it must be")
    func startFieldOfTheWrongType() throws {
        do {
            _ = try ClientMessage.decode(#"{"type":"start","reps":"ten"}"#, maxBytes: 1 << 20)
            Issue.record("a start with reps \"ten\" was read")
        } catch {
            #expect(error.message.contains("\"reps\"") && error.message.contains("1 to 1000"), "\(error.message)")
        }
        let outOfRange = try JSONDecoder().decode(StartMessage.self, from: Data(#"{"type":"start","reps":0}"#.utf8))
        #expect(throws: LiveProtocolError.self) { try outOfRange.validate() }
    }
}

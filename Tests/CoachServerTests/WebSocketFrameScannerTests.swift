import Testing

@testable import CoachServer

struct WebSocketFrameScannerTests {
    /// A client frame (masked, as RFC 6455 requires of clients) with `count` payload bytes.
    static func frame(opcode: UInt8, fin: Bool = true, count: Int) -> [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        switch count {
        case ..<126: bytes.append(0x80 | UInt8(count))
        case ..<65536: bytes += [0x80 | 126, UInt8(count >> 8), UInt8(count & 0xFF)]
        default: bytes += [0x80 | 127] + (0..<8).reversed().map { UInt8((count >> ($0 * 8)) & 0xFF) }
        }
        return bytes + [1, 2, 3, 4] + [UInt8](repeating: 7, count: count)
    }

    @Test(arguments: [1, 2, 3, 7, 1000])
    func framesWithinTheLimitPassWhateverTheChunking(chunk: Int) {
        var scanner = WebSocketFrameScanner(limit: 70_000)
        let stream =
            Self.frame(opcode: 2, count: 70_000) + Self.frame(opcode: 1, count: 10) + Self.frame(opcode: 9, count: 4)
            + Self.frame(opcode: 1, fin: false, count: 300) + Self.frame(opcode: 0, count: 69_700)
        for start in stride(from: 0, to: stream.count, by: chunk) {
            #expect(scanner.scan(stream[start..<min(start + chunk, stream.count)]) == .withinLimit)
        }
    }

    @Test(arguments: [1, 5, 100_000])
    func aFrameOverTheLimitIsRefusedFromItsHeader(chunk: Int) {
        var scanner = WebSocketFrameScanner(limit: 70_000)
        let stream = Self.frame(opcode: 1, count: 20) + Array(Self.frame(opcode: 2, count: 70_001).prefix(14))
        var verdicts: [WebSocketFrameScanner.Verdict] = []
        for start in stride(from: 0, to: stream.count, by: chunk) {
            verdicts.append(scanner.scan(stream[start..<min(start + chunk, stream.count)]))
        }
        #expect(verdicts.last == .tooLarge(bytes: 70_001))
        #expect(verdicts.dropLast().allSatisfy { $0 == .withinLimit })
    }

    @Test func aMessageOverTheLimitInFragmentsIsRefused() {
        var scanner = WebSocketFrameScanner(limit: 1000)
        #expect(scanner.scan(Self.frame(opcode: 2, fin: false, count: 600)) == .withinLimit)
        // A ping between fragments does not count.
        #expect(scanner.scan(Self.frame(opcode: 9, count: 100)) == .withinLimit)
        #expect(scanner.scan(Self.frame(opcode: 0, count: 401)) == .tooLarge(bytes: 1001))
    }

    @Test func aHugeAnnouncedLengthIsRefusedWithoutOverflow() {
        var scanner = WebSocketFrameScanner(limit: 1 << 20)
        let header: [UInt8] = [0x82, 0x80 | 127, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 1, 2, 3, 4]
        #expect(scanner.scan(header) == .tooLarge(bytes: 0x7FFF_FFFF_FFFF_FFFF))
    }
}

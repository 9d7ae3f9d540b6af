/// Reads the lengths in a client's WebSocket frame headers (RFC 6455 §5.2) as the bytes arrive, so that a message
/// over the limit is refused from its header, before its payload is buffered. A message's size is its data frame's
/// payload plus that of its continuation frames; control frames (ping, pong, close) are not counted.
///
/// ```swift
/// var scanner = WebSocketFrameScanner(limit: 1 << 20)
/// if case .tooLarge(let bytes) = scanner.scan(buffer.readableBytesView) { … refuse … }
/// ```
struct WebSocketFrameScanner: Sendable {
    enum Verdict: Equatable, Sendable {
        case withinLimit
        /// The message announced (so far) this many bytes.
        case tooLarge(bytes: UInt64)
    }

    let limit: UInt64
    /// The bytes of a header read so far (at most 14).
    private var header: [UInt8] = []
    private var payloadLeft: UInt64 = 0
    private var messageBytes: UInt64 = 0

    init(limit: Int) {
        precondition(limit > 0, "limit (\(limit)) must be above 0")
        self.limit = UInt64(limit)
    }

    /// Reads the next bytes of the stream; `.tooLarge` as soon as a header announces a message over the limit.
    mutating func scan(_ bytes: some Collection<UInt8>) -> Verdict {
        var index = bytes.startIndex
        while index != bytes.endIndex {
            if payloadLeft > 0 {
                let available = UInt64(bytes.distance(from: index, to: bytes.endIndex))
                let skipped = min(payloadLeft, available)
                index = bytes.index(index, offsetBy: Int(skipped))
                payloadLeft -= skipped
                continue
            }
            header.append(bytes[index])
            index = bytes.index(after: index)
            guard let length = Self.headerLength(header), header.count == length else { continue }
            let payload = Self.payloadLength(header)
            let opcode = header[0] & 0x0F
            header.removeAll(keepingCapacity: true)
            payloadLeft = payload
            guard opcode < 0x8 else { continue }
            // A continuation (opcode 0) adds to the message; a text or binary frame starts one.
            let (sum, overflow) = (opcode == 0 ? messageBytes : 0).addingReportingOverflow(payload)
            messageBytes = overflow ? .max : sum
            if messageBytes > limit { return .tooLarge(bytes: messageBytes) }
        }
        return .withinLimit
    }

    /// The length of a header whose first bytes are `header`, once its second byte is known.
    private static func headerLength(_ header: [UInt8]) -> Int? {
        guard header.count >= 2 else { return nil }
        let extended = [126: 2, 127: 8][Int(header[1] & 0x7F)] ?? 0
        return 2 + extended + (header[1] & 0x80 != 0 ? 4 : 0)
    }

    private static func payloadLength(_ header: [UInt8]) -> UInt64 {
        switch header[1] & 0x7F {
        case 126: return header[2...3].reduce(0) { $0 << 8 | UInt64($1) }
        case 127: return header[2...9].reduce(0) { $0 << 8 | UInt64($1) }
        case let short: return UInt64(short)
        }
    }
}

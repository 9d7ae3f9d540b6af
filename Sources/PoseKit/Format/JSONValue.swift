/// A parsed JSON value: the small, fast parser behind pose-track files, internal to their reader and writer (other
/// JSON in the package is read and written with `Codable`).
///
/// Besides standard JSON it accepts the literals `NaN`, `Infinity` and `-Infinity` that Python's `json`
/// module writes, so a reader can report them as bad values rather than as a syntax error.
enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses one JSON document.
    ///
    /// - Throws: a message describing the first syntax error and its column.
    static func parse(_ text: some StringProtocol) throws(JSONSyntaxError) -> JSONValue {
        var utf8 = Array(text.utf8)
        return try utf8.withUnsafeMutableBufferPointer { buffer throws(JSONSyntaxError) in
            var parser = Parser(bytes: UnsafeBufferPointer(buffer))
            return try parser.parseDocument()
        }
    }

    /// Parses one JSON document from UTF-8 bytes.
    static func parse(bytes: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> JSONValue {
        var parser = Parser(bytes: bytes)
        return try parser.parseDocument()
    }

    var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    var doubleValue: Double? { if case .number(let n) = self { n } else { nil } }
    var intValue: Int? {
        if case .number(let n) = self, n.rounded() == n, abs(n) < 1e15 { Int(n) } else { nil }
    }
    var arrayValue: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    var objectValue: [String: JSONValue]? { if case .object(let o) = self { o } else { nil } }

    subscript(key: String) -> JSONValue? { objectValue?[key] }

    /// Serialises the value as compact JSON (non-finite numbers become `null`).
    var jsonText: String {
        var out = ""
        write(to: &out)
        return out
    }

    func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += JSONValue.format(n)
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .array(let a):
            out += "["
            for (i, v) in a.enumerated() {
                if i > 0 { out += "," }
                v.write(to: &out)
            }
            out += "]"
        case .object(let o):
            out += "{"
            for (i, key) in o.keys.sorted().enumerated() {
                if i > 0 { out += "," }
                JSONValue.writeString(key, to: &out)
                out += ":"
                o[key]!.write(to: &out)
            }
            out += "}"
        }
    }

    /// Formats a number compactly: integers without a fraction, others with up to 17 significant digits.
    static func format(_ n: Double) -> String {
        guard n.isFinite else { return "null" }
        if n.rounded() == n, abs(n) < 1e15 { return String(Int64(n)) }
        return "\(n)"
    }

    static func writeString(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

/// A JSON syntax error: what was expected and the 1-based column where it went wrong.
struct JSONSyntaxError: Error, Sendable, CustomStringConvertible {
    var message: String
    var column: Int
    var description: String { "\(message) at column \(column)" }
}

// MARK: - Parser

private struct Parser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    var depth = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        if index < bytes.count { throw error("unexpected text after the JSON value") }
        return value
    }

    func error(_ message: String) -> JSONSyntaxError { JSONSyntaxError(message: message, column: index + 1) }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of line (truncated JSON?)") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "N"):
            try expectLiteral("NaN")
            return .number(.nan)
        case UInt8(ascii: "I"):
            try expectLiteral("Infinity")
            return .number(.infinity)
        default: return .number(try parseNumber())
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw error("unexpected end of line (truncated JSON?)") }
        for offset in 0..<count where bytes[index + offset] != literal.utf8Start[offset] {
            throw error("invalid literal, expected \(literal)")
        }
        index += count
    }

    mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        depth += 1
        if depth > 64 { throw error("JSON nested too deeply") }
        defer { depth -= 1 }
        index += 1
        var object: [String: JSONValue] = [:]
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(object)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of line (truncated JSON?)") }
            guard bytes[index] == UInt8(ascii: "\"") else { throw error("expected a quoted key") }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            skipWhitespace()
            object[key] = try parseValue()
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of line (truncated JSON?)") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(object)
            } else {
                throw error("expected ',' or '}'")
            }
        }
    }

    mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        depth += 1
        if depth > 64 { throw error("JSON nested too deeply") }
        defer { depth -= 1 }
        index += 1
        var array: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(array)
        }
        while true {
            skipWhitespace()
            array.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of line (truncated JSON?)") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(array)
            } else {
                throw error("expected ',' or ']'")
            }
        }
    }

    mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var runStart = index
        var plainRun = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                if plainRun {
                    let s = String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<index]), as: UTF8.self)
                    index += 1
                    return s
                }
                index += 1
                return String(scalars)
            }
            if byte == UInt8(ascii: "\\") {
                if plainRun {
                    scalars.append(
                        contentsOf: String(
                            decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<index]),
                            as: UTF8.self
                        ).unicodeScalars
                    )
                    plainRun = false
                }
                index += 1
                guard index < bytes.count else { break }
                switch bytes[index] {
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "u"):
                    guard let code = hexEscape(at: index + 1) else { throw error("invalid \\u escape") }
                    index += 4
                    // A UTF-16 surrogate pair (what Python's json.dumps writes for an emoji) is one character; a
                    // lone surrogate is none, and becomes U+FFFD.
                    if (0xD800..<0xDC00).contains(code), index + 2 < bytes.count,
                        bytes[index + 1] == UInt8(ascii: "\\"), bytes[index + 2] == UInt8(ascii: "u"),
                        let low = hexEscape(at: index + 3), (0xDC00..<0xE000).contains(low)
                    {
                        scalars.append(Unicode.Scalar(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00))!)
                        index += 6
                    } else {
                        scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                    }
                default: scalars.append(Unicode.Scalar(bytes[index]))
                }
                index += 1
                runStart = index
                continue
            }
            if !plainRun {
                // Copy one UTF-8 sequence.
                var end = index + 1
                while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
                scalars.append(
                    contentsOf: String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<end]), as: UTF8.self)
                        .unicodeScalars
                )
                index = end
                continue
            }
            index += 1
        }
        throw error("unterminated string (truncated JSON?)")
    }

    /// The four hexadecimal digits of a `\u` escape starting at `start`, or `nil`.
    func hexEscape(at start: Int) -> UInt32? {
        guard start + 3 < bytes.count else { return nil }
        var code: UInt32 = 0
        for byte in bytes[start..<(start + 4)] {
            guard let digit = Character(Unicode.Scalar(byte)).hexDigitValue else { return nil }
            code = code << 4 | UInt32(digit)
        }
        return code
    }

    mutating func parseNumber() throws(JSONSyntaxError) -> Double {
        let start = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "I") {
                try expectLiteral("Infinity")
                return -.infinity
            }
        }
        // Fast path: integer and fraction digits without exponent.
        var mantissa: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        var sawDot = false
        var simple = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= 0x30 && byte <= 0x39 {
                if digits < 18 {
                    mantissa = mantissa &* 10 &+ UInt64(byte - 0x30)
                    digits += 1
                    if sawDot { fractionDigits += 1 }
                } else if !sawDot {
                    simple = false
                }
                index += 1
            } else if byte == UInt8(ascii: "."), !sawDot {
                sawDot = true
                index += 1
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: "-")
            {
                simple = false
                index += 1
            } else {
                break
            }
        }
        guard index > start else { throw error("expected a value") }
        let negative = bytes[start] == UInt8(ascii: "-")
        if simple, digits > 0, digits < 16 {
            var value = Double(mantissa)
            if fractionDigits > 0 { value /= Parser.powersOfTen[fractionDigits] }
            return negative ? -value : value
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text) else {
            throw JSONSyntaxError(message: "invalid number '\(text)'", column: start + 1)
        }
        return value
    }

    static let powersOfTen: [Double] = (0...18).map { exponent in
        var p = 1.0
        for _ in 0..<exponent { p *= 10 }
        return p
    }
}

import Foundation

/// Any JSON value, read with `Codable` only to be quoted back in a message: the value found where a definition or
/// a model file breaks its schema (`"weights[1][2]" must be a number (got "heavy")`), which `JSONDecoder`'s error
/// does not keep.
///
/// ```swift
/// let found = try JSONDecoder().decode(JSONFragment.self, from: Data(text.utf8))
/// found.at(["weights", 1, 2])?.jsonText     // "\"heavy\""
/// ```
enum JSONFragment: Codable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONFragment])
    case object([String: JSONFragment])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONFragment].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONFragment].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The JSON text `text` holds, or `nil` when it is not JSON.
    static func parse(_ text: String) -> JSONFragment? {
        try? JSONDecoder().decode(JSONFragment.self, from: Data(text.utf8))
    }

    /// The value at `path` (object keys and array indices), or `nil` where there is none.
    func at(_ path: [any CodingKey]) -> JSONFragment? {
        var value: JSONFragment? = self
        for key in path {
            switch value {
            case .array(let items)?:
                value = key.intValue.flatMap { items.indices.contains($0) ? items[$0] : nil }
            case .object(let fields)?:
                value = fields[key.stringValue]
            default:
                return nil
            }
        }
        return value
    }

    var stringValue: String? { if case .string(let value) = self { value } else { nil } }

    /// The value as compact JSON, keys sorted.
    var jsonText: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings, numbers, booleans and null always encode (a JSON number read back is finite).
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }

    /// `text` as a JSON string literal, quoted and escaped: for messages that name a value the file holds.
    static func quoted(_ text: String) -> String { JSONFragment.string(text).jsonText }
}

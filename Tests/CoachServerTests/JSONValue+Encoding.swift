import CoachKit
import Foundation

@testable import PoseKit

extension JSONValue {
    /// A Codable value as the same JSON `ptcoach analyze --json` writes for it (the coach's encoder), to compare
    /// with what the server sent.
    static func encoding(_ value: some Encodable) -> JSONValue {
        guard let data = try? JSONEncoder.coach().encode(value),
            let json = try? JSONValue.parse(String(decoding: data, as: UTF8.self))
        else { return .null }
        return json
    }
}

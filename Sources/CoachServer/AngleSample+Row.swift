import PoseKit

extension AngleSample {
    /// The sample as a saved set's angle series keeps it: `[seconds, value]`, and for a hand set the five fingers
    /// after it in ``PoseKit/Finger`` order (`null` for a finger not measured), each to a tenth (a hundredth for a
    /// distance in hand lengths).
    func row(scale: Double = 10) -> JSONValue {
        func number(_ x: Double?) -> JSONValue { x.map { .number(($0 * scale).rounded() / scale) } ?? .null }
        let value = [.number(seconds), number(degrees)]
        return .array(fingers.isEmpty ? value : value + Finger.allCases.map { number(fingers[$0]) })
    }

    /// Reads a row ``row(scale:)`` wrote; `nil` when it is not one.
    init?(row: JSONValue) {
        guard let values = row.arrayValue, values.count >= 2, let seconds = values[0].doubleValue,
            let degrees = values[1].doubleValue
        else { return nil }
        var fingers: [Finger: Double] = [:]
        for (finger, value) in zip(Finger.allCases, values.dropFirst(2)) { fingers[finger] = value.doubleValue }
        self.init(seconds: seconds, degrees: degrees, fingers: fingers)
    }
}

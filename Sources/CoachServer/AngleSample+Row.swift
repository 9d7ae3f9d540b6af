import CoachKit
import CoachStore
import Foundation
import PoseKit

extension AngleSample {
    /// The sample as a saved set's angle series keeps it: `[seconds, value]`, and for a hand set the five fingers
    /// after it in ``PoseKit/Finger`` order (`null` for a finger not measured), each to a tenth (a hundredth for a
    /// distance in hand lengths).
    func row(scale: Double = 10) -> [Double?] {
        func rounded(_ x: Double?) -> Double? { x.map { ($0 * scale).rounded() / scale } }
        let value = [seconds, rounded(degrees)]
        return fingers.isEmpty ? value : value + Finger.allCases.map { rounded(fingers[$0]) }
    }

    /// Reads a row ``row(scale:)`` wrote; `nil` when it is not one.
    init?(row: [Double?]) {
        guard row.count >= 2, let seconds = row[0], let degrees = row[1] else { return nil }
        var fingers: [Finger: Double] = [:]
        for (finger, value) in zip(Finger.allCases, row.dropFirst(2)) { fingers[finger] = value }
        self.init(seconds: seconds, degrees: degrees, fingers: fingers)
    }

    /// A series as the store keeps it: a JSON array of ``row(scale:)``s.
    static func seriesJSON(_ samples: [AngleSample], scale: Double) -> String {
        let rows = samples.map { $0.row(scale: scale) }
        return (try? JSONEncoder.coach().encode(rows)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
    }

    /// The series ``seriesJSON(_:scale:)`` wrote; rows that are not samples are left out, text that is not a
    /// series gives none.
    static func series(json text: String) -> [AngleSample] {
        let rows = (try? JSONDecoder.coach().decode([[Double?]].self, from: Data(text.utf8))) ?? []
        return rows.compactMap(AngleSample.init(row:))
    }
}

import Testing

@testable import PoseKit

/// A pose-track's `t` is seconds: times never filled in, or written in milliseconds or nanoseconds, are refused
/// with a line saying so instead of being coached as a frozen or hour-long recording.
struct PoseTrackTimeTests {
    static func decode(times: [Double]) -> PoseKitError? {
        var decoder = PoseTrackFrameDecoder(
            header: PoseTrackHeader(keypoints: ["nose"], fps: 30, width: 640, height: 480)
        )
        do {
            for t in times {
                _ = try decoder.decode(
                    .object(["t": .number(t), "poses": .array([.array([.number(1), .number(2), .number(0.9)])])])
                )
            }
            return nil
        } catch {
            return error
        }
    }

    static let seconds = (0..<120).map { Double($0) / 30 }

    @Test("Seconds at 30 fps, and a pause of a minute, are fine")
    func seconds() {
        #expect(Self.decode(times: Self.seconds) == nil)
        #expect(Self.decode(times: Self.seconds + [64, 64.033]) == nil)
    }

    @Test("All times 0, milliseconds and nanoseconds are refused", arguments: [0.0, 1000, 1e9])
    func wrongUnits(scale: Double) {
        let error = Self.decode(times: Self.seconds.map { $0 * scale })
        #expect(error?.message.contains("seconds") == true, "\(String(describing: error))")
    }
}

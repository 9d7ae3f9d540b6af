import Testing

@testable import PoseKit

/// Pose-track coordinates are pixels of the header's frame: keypoints far outside it, or all within 0–1, are a file
/// written in other units, refused with a line saying so (they read as "nobody seen … needs neck").
struct PoseTrackCoordinateTests {
    static let names = ["nose", "leftShoulder", "rightShoulder", "leftHip", "rightHip", "leftKnee"]

    static func decode(scale: Double, offset: Double = 0) -> PoseKitError? {
        var decoder = PoseTrackFrameDecoder(
            header: PoseTrackHeader(keypoints: Self.names, fps: 30, width: 640, height: 480)
        )
        // A person around the middle of the frame, in pixels when scale is 1.
        let pixels: [(Double, Double)] = [(320, 80), (290, 140), (350, 140), (300, 260), (340, 260), (300, 360)]
        let values = pixels.flatMap { [$0.0 * scale + offset, $0.1 * scale + offset, 0.9] }.map(JSONValue.number)
        do {
            _ = try decoder.decode(.object(["t": .number(0), "poses": .array([.array(values)])]))
            return nil
        } catch {
            return error
        }
    }

    @Test("Pixels of the frame, and joints a little outside it, are fine")
    func pixels() {
        #expect(Self.decode(scale: 1) == nil)
        #expect(Self.decode(scale: 1, offset: -300) == nil)
    }

    @Test("Keypoints a thousand times too far out are refused, naming the frame")
    func farOutside() {
        let error = Self.decode(scale: 1000)
        #expect(error?.message.contains("far outside the 640×480 frame") == true, "\(String(describing: error))")
    }

    @Test("One keypoint guessed far below the picture is not seen; the pose is kept")
    func oneGuessFarOutside() throws {
        // MediaPipe's heel of a pull-up filmed from the waist up: 3 frame heights down.
        var decoder = PoseTrackFrameDecoder(
            header: PoseTrackHeader(keypoints: Self.names, fps: 30, width: 640, height: 480)
        )
        let pixels: [(Double, Double)] = [(320, 80), (290, 140), (350, 140), (300, 260), (340, 260), (300, 1500)]
        let values = pixels.flatMap { [$0.0, $0.1, 0.9] }.map(JSONValue.number)
        let frame = try decoder.decode(.object(["t": .number(0), "poses": .array([.array(values)])]))
        let pose = try #require(frame.poses.first)
        #expect(pose[.leftKnee].confidence == 0)
        #expect(pose[.rightHip].confidence > 0)
    }

    @Test("Normalised 0–1 coordinates are refused, saying how to write pixels")
    func normalised() {
        let error = Self.decode(scale: 1.0 / 640)
        #expect(error?.message.contains("look normalised") == true, "\(String(describing: error))")
    }
}

import Testing

@testable import PoseKit

struct PoseTrackWriterTests {
    private static func frames(count: Int, dimensions: Int) -> [PoseFrame] {
        var generator = SeededGenerator(seed: 9)
        return (0..<count).map { i in
            var poses: [Pose] = []
            for person in 0..<(i % 3) {
                var pose = SyntheticPerson(centerX: 200 + 250 * Double(person), armDegrees: Double(i))
                    .pose(noise: 2, using: &generator)
                pose[.leftWrist] = .missing
                pose[.rightEar].confidence = 0.123
                if dimensions == 3 {
                    for joint in Joint.vision where pose[joint].confidence > 0 {
                        pose[joint].z = Double(joint.rawValue) - 7.5
                    }
                }
                poses.append(pose)
            }
            return PoseFrame(seconds: Double(i) / 30, poses: poses)
        }
    }

    @Test(arguments: [2, 3])
    func roundTripKeepsEveryValueWithinRounding(dimensions: Int) throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/round-trip.jsonl"
        var header = PoseTrackHeader(
            keypoints: Joint.vision.map(\.name) + ["unusedPoint"],
            fps: 29.97,
            width: 640,
            height: 480,
            source: "synthetic \"test\"",
            dimensions: dimensions
        )
        header.labels = ["exercise": .string("shoulder-abduction"), "reps": .number(10)]
        let written = Self.frames(count: 30, dimensions: dimensions)
        var writer = try PoseTrackWriter(path: path, header: header)
        for frame in written { try writer.write(frame) }
        try writer.close()

        let (readHeader, read) = try PoseTrackReader.readAll(path: path)
        #expect(readHeader == header)
        #expect(readHeader.label("reps") == "10")
        try #require(read.count == written.count)
        for (a, b) in zip(written, read) {
            #expect(abs(a.seconds - b.seconds) <= 0.00005)
            try #require(a.poses.count == b.poses.count)
            for (p, q) in zip(a.poses, b.poses) {
                for joint in Joint.allCases {
                    let x = p[joint]
                    let y = q[joint]
                    if !Joint.vision.contains(joint) || x.confidence == 0 {
                        #expect(y.confidence == 0, "\(joint) should be unseen")
                        continue
                    }
                    #expect(abs(x.x - y.x) <= 0.005 && abs(x.y - y.y) <= 0.005, "\(joint): \(x) vs \(y)")
                    #expect(abs(x.confidence - y.confidence) <= 0.0005)
                    if dimensions == 3 {
                        #expect(abs((x.z ?? 0) - (y.z ?? .nan)) <= 0.005)
                    } else {
                        #expect(y.z == nil)
                    }
                }
            }
        }
    }

    @Test(
        arguments: [
            (0.0, "0"), (1.5, "1.5"), (-0.5, "-0.5"), (0.004, "0"), (-0.004, "0"), (123.456, "123.46"),
            (-12.3, "-12.3"),
            (0.01, "0.01"), (-1000.999, "-1001"), (.nan, "0"), (.infinity, "0"),
        ] as [(Double, String)]
    )
    func coordinatesAreWrittenShortWithTwoDecimals(value: Double, text: String) throws {
        let frame = PoseFrame(seconds: 0, poses: [Pose([.nose: Keypoint(x: value, y: 1, confidence: 0.1234)])])
        let line = PoseTrackWriter.line(for: frame, joints: [.nose], dimensions: 2)
        #expect(line == "{\"t\":0,\"poses\":[[\(text),1,0.123]]}")
    }

    @Test(arguments: [1e15, -3e17, 1e300])
    func hugeCoordinatesAreWrittenAsValidJSON(value: Double) throws {
        // A finite value too large for the fixed-point path must not trap, and must read back.
        let frame = PoseFrame(seconds: 0, poses: [Pose([.nose: Keypoint(x: value, y: 1, confidence: 1)])])
        let line = PoseTrackWriter.line(for: frame, joints: [.nose], dimensions: 2)
        let json = try JSONValue.parse(line)
        let x = try #require(json.objectValue?["poses"]?.arrayValue?.first?.arrayValue?.first?.doubleValue)
        #expect(abs(x - value) <= abs(value) * 1e-12)
    }

    @Test func emptyFramesAreWrittenAsEmptyPoseArrays() {
        let line = PoseTrackWriter.line(for: PoseFrame(seconds: 1.23456, poses: []), joints: [.nose], dimensions: 2)
        #expect(line == #"{"t":1.2346,"poses":[]}"#)
    }

    @Test func cannotCreateAFileInAMissingFolder() throws {
        let folder = try TemporaryFolder()
        let header = PoseTrackHeader(keypoints: ["nose"], fps: 30, width: 1, height: 1)
        do {
            _ = try PoseTrackWriter(path: folder.path + "/missing/out.jsonl", header: header)
            Issue.record("creating a file in a missing folder should fail")
        } catch {
            #expect(error.code == .io)
        }
    }
}

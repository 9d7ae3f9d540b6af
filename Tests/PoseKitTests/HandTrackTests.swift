import PoseKit
import Testing

struct HandTrackTests {
    // MARK: - Names

    @Test func handJointsAreVisionsTwentyOneNamesInMediaPipesOrder() {
        let names = HandJoint.allCases.map(\.name)

        #expect(names.count == 21)
        #expect(
            names == [
                "wrist", "thumbCMC", "thumbMP", "thumbIP", "thumbTip",
                "indexMCP", "indexPIP", "indexDIP", "indexTip",
                "middleMCP", "middlePIP", "middleDIP", "middleTip",
                "ringMCP", "ringPIP", "ringDIP", "ringTip",
                "littleMCP", "littlePIP", "littleDIP", "littleTip",
            ]
        )
        for joint in HandJoint.allCases { #expect(HandJoint(name: joint.name) == joint) }
        // No hand name is a body joint's, so a header tells bodies from hands.
        for name in names { #expect(Joint(name: name) == nil, "\(name)") }
        #expect(HandJoint(name: "leftWrist") == nil)
    }

    @Test(arguments: Finger.allCases)
    func eachFingerRunsFromItsBaseToItsTip(finger: Finger) {
        let joints = finger.joints

        #expect(joints.count == 4)
        #expect(joints.allSatisfy { $0.finger == finger })
        #expect(joints.last == finger.tip)
        #expect(joints.last?.name.hasSuffix("Tip") == true)
        #expect(joints.map(\.rawValue) == Array(joints[0].rawValue...joints[0].rawValue + 3))
    }

    @Test func theWristBelongsToNoFinger() {
        #expect(HandJoint.wrist.finger == nil)
        #expect(Finger.thumb.joints == [.thumbCMC, .thumbMP, .thumbIP, .thumbTip])
        #expect(Finger.little.joints == [.littleMCP, .littlePIP, .littleDIP, .littleTip])
    }

    // MARK: - Files

    private static func hand(_ chirality: Chirality, offset: Double) -> HandPose {
        var hand = HandPose(chirality: chirality)
        for joint in HandJoint.allCases {
            let i = Double(joint.rawValue)
            hand[joint] = Keypoint(x: offset + 7.123 * i, y: 400 - 11.456 * i, z: -1.5 * i, confidence: 1)
        }
        hand[.ringDIP] = .missing
        return hand
    }

    @Test(arguments: [2, 3])
    func handsRoundTripWithTheirSides(dimensions: Int) throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/hands.jsonl"
        let header = PoseTrackHeader(handsWithFPS: 20, width: 640, height: 480, dimensions: dimensions, source: "test")
        let written = [
            HandFrame(seconds: 0, hands: [Self.hand(.left, offset: 300), Self.hand(.right, offset: 100)]),
            HandFrame(seconds: 0.05, hands: []),
            HandFrame(seconds: 0.1, hands: [Self.hand(.right, offset: 120)]),
        ]
        var writer = try PoseTrackWriter(path: path, header: header)
        for frame in written { try writer.write(frame) }
        try writer.close()

        let (readHeader, read) = try HandTrackReader.readAll(path: path)

        #expect(readHeader == header)
        #expect(readHeader.kind == .hands)
        try #require(read.count == written.count)
        for (a, b) in zip(written, read) {
            #expect(a.seconds == b.seconds)
            try #require(a.hands.count == b.hands.count)
            for (p, q) in zip(a.hands, b.hands) {
                #expect(p.chirality == q.chirality)
                for joint in HandJoint.allCases {
                    if p[joint].confidence == 0 {
                        #expect(q[joint].confidence == 0, "\(joint) should be unseen")
                        continue
                    }
                    #expect(abs(p[joint].x - q[joint].x) <= 0.005 && abs(p[joint].y - q[joint].y) <= 0.005)
                    #expect(q[joint].z == (dimensions == 3 ? p[joint].z : nil))
                }
            }
        }
        let lines = try folder.read(path).split(separator: "\n")
        #expect(lines[1].hasSuffix(#""chirality":["left","right"]}"#))
        #expect(lines[2] == #"{"t":0.05,"poses":[],"chirality":[]}"#)
    }

    @Test func aHandFileWithoutSidesReadsAsUnknownHands() throws {
        let folder = try TemporaryFolder()
        let values = Array(repeating: "1,2,1", count: 21).joined(separator: ",")
        let path = try folder.file(
            "no-sides.jsonl",
            contents: PoseTrackHeader(handsWithFPS: 30, width: 64, height: 48).jsonLine + "\n"
                + #"{"t":0,"poses":[["# + values + "]]}\n"
        )

        let (_, frames) = try HandTrackReader.readAll(path: path)

        #expect(frames.first?.hands.first?.chirality == .unknown)
        #expect(frames.first?.hands.first?[.littleTip] == Keypoint(x: 1, y: 2, confidence: 1))
    }

    @Test func theBodyReaderSaysAHandFileHoldsHands() throws {
        let folder = try TemporaryFolder()
        let path = try folder.file(
            "hands.jsonl",
            contents: PoseTrackHeader(handsWithFPS: 30, width: 64, height: 48).jsonLine + "\n"
        )

        let error = #expect(throws: PoseKitError.self) { _ = try PoseTrackReader(path: path) }

        #expect(error?.code == .unknownKeypoints)
        #expect(error?.message.contains("hand pose-track") == true, "\(String(describing: error))")
        #expect(error?.line == 1)
    }

    @Test func theHandReaderSaysABodyFileHoldsNoHands() throws {
        let folder = try TemporaryFolder()
        let header = PoseTrackHeader(layout: .coco17, fps: 30, width: 64, height: 48)
        let path = try folder.file("body.jsonl", contents: header.jsonLine + "\n")

        let error = #expect(throws: PoseKitError.self) { _ = try HandTrackReader(path: path) }

        #expect(error?.code == .unknownKeypoints)
        #expect(error?.message.contains("thumbCMC") == true, "\(String(describing: error))")
    }

    /// The body's unit checks hold for hands: pixels of the header's frame, not normalised 0–1 coordinates.
    @Test(arguments: [("5000,2,1", "far outside the 640×480 frame"), ("0.5,0.25,1", "look normalised")])
    func handKeypointsMustBePixelsOfTheFrame(value: String, message: String) throws {
        let folder = try TemporaryFolder()
        // Every keypoint so (one far out alone is a guess, taken as not seen).
        let values = Array(repeating: value, count: 20).joined(separator: ",")
        let path = try folder.file(
            "units.jsonl",
            contents: PoseTrackHeader(handsWithFPS: 30, width: 640, height: 480).jsonLine + "\n"
                + #"{"t":0,"poses":[["# + value + "," + values + #"]],"chirality":["left"]}"# + "\n"
        )

        let error = #expect(throws: PoseKitError.self) { _ = try HandTrackReader.readAll(path: path) }

        #expect(error?.code == .malformedFrame)
        #expect(error?.message.contains(message) == true, "\(String(describing: error))")
    }

    @Test(arguments: [
        #""chirality":["middle"]"#,
        #""chirality":["left","right"]"#,
        #""chirality":"left""#,
    ])
    func aWrongChiralityNamesTheLine(field: String) throws {
        let folder = try TemporaryFolder()
        let values = Array(repeating: "1,2,1", count: 21).joined(separator: ",")
        let path = try folder.file(
            "bad.jsonl",
            contents: PoseTrackHeader(handsWithFPS: 30, width: 64, height: 48).jsonLine + "\n"
                + #"{"t":0,"poses":[],"chirality":[]}"# + "\n"
                + #"{"t":0.1,"poses":[["# + values + "]]," + field + "}\n"
        )

        let error = #expect(throws: PoseKitError.self) { _ = try HandTrackReader.readAll(path: path) }

        #expect(error?.code == .malformedFrame)
        #expect(error?.line == 3)
        #expect(error?.message.contains("chirality") == true, "\(String(describing: error))")
    }
}

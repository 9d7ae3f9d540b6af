import PoseKit
import Testing

/// Reading a header or a frame from its JSON text (a file's line, or what a live client sent).
struct PoseTrackLineTests {
    static let header =
        #"{"format":"pose-track","version":1,"keypoints":["leftHip","leftKnee"],"fps":30,"width":640,"height":480}"#

    @Test("A header line and a frame line read as the parsed JSON does")
    func linesRead() throws {
        let header = try PoseTrackHeader(line: Self.header)
        #expect(header.keypoints == ["leftHip", "leftKnee"] && header.width == 640 && header.fps == 30)
        var decoder = PoseTrackFrameDecoder(header: header)
        let frame = try decoder.decode(line: #"{"t":0.5,"poses":[[300,200,0.9,310,300,0.8]]}"#)
        #expect(frame.seconds == 0.5 && frame.poses.count == 1)
        #expect(frame.poses[0][.leftKnee].y == 300)
    }

    @Test(
        "Text that is not JSON is a malformed header or frame, not a crash",
        arguments: ["", "{", "not json", #"{"t":0.5,"poses":[[1,2"#]
    )
    func notJSON(text: String) throws {
        #expect(throws: PoseKitError.self) { try PoseTrackHeader(line: text) }
        do {
            _ = try PoseTrackHeader(line: text)
        } catch {
            #expect(error.code == .malformedHeader && error.message.contains("not JSON"), "\(error)")
        }
        var decoder = PoseTrackFrameDecoder(header: try PoseTrackHeader(line: Self.header))
        do {
            _ = try decoder.decode(line: text)
            Issue.record("\(text) read as a frame")
        } catch {
            #expect(error.code == .malformedFrame && error.message.contains("not valid JSON"), "\(error)")
        }
    }
}

import PoseKit
import Testing

struct PoseTrackReaderTests {
    private static let header =
        #"{"format":"pose-track","version":1,"keypoints":["nose","leftShoulder","rightShoulder"],"fps":30,"width":640,"height":480}"#
    private static let goodFrame = #"{"t":0.0,"poses":[[320,100,0.9,290,150,0.8,350,150,0.7]]}"#

    private static func readError(_ contents: String, name: String = "bad.jsonl") throws -> PoseKitError {
        let folder = try TemporaryFolder()
        let path = try folder.file(name, contents: contents)
        do {
            _ = try PoseTrackReader.readAll(path: path)
        } catch {
            #expect(error.file == path, "the error should name the file")
            return error
        }
        Issue.record("reading should have failed")
        return PoseKitError(.io, "no error")
    }

    /// Malformed inputs: the content, the expected code and the expected line.
    static let malformed: [(name: String, contents: String, code: PoseKitError.Code, line: Int?)] = [
        (
            "wrong number of values",
            header + "\n" + goodFrame + "\n" + #"{"t":0.1,"poses":[[320,100,0.9,290,150]]}"# + "\n",
            .malformedFrame, 3
        ),
        (
            "frames out of order",
            header + "\n" + goodFrame.replacingTime("0.5") + "\n" + goodFrame.replacingTime("0.6") + "\n"
                + goodFrame.replacingTime("0.2") + "\n",
            .framesOutOfOrder, 4
        ),
        (
            "NaN coordinate of a seen keypoint",
            header + "\n" + #"{"t":0,"poses":[[NaN,100,0.9,290,150,0.8,350,150,0.7]]}"# + "\n", .malformedFrame, 2
        ),
        (
            "null coordinate of a seen keypoint",
            header + "\n" + goodFrame + "\n" + #"{"t":1,"poses":[[320,null,0.9,290,150,0.8,350,150,0.7]]}"#,
            .malformedFrame, 3
        ),
        ("NaN time", header + "\n" + #"{"t":NaN,"poses":[]}"# + "\n", .malformedFrame, 2),
        ("confidence above one", header + "\n" + #"{"t":0,"poses":[[1,1,1.5,1,1,1,1,1,1]]}"#, .malformedFrame, 2),
        (
            "truncated JSON line", header + "\n" + goodFrame + "\n" + #"{"t":0.1,"poses":[[320,100,0.9,29"#,
            .malformedFrame, 3
        ),
        ("truncated header", #"{"format":"pose-track","version":1,"keyp"#, .malformedHeader, 1),
        ("not a pose-track header", #"{"format":"csv"}"# + "\n", .malformedHeader, 1),
        ("unsupported version", header.replacingOccurrences("\"version\":1", "\"version\":2"), .malformedHeader, 1),
        ("zero fps", header.replacingOccurrences("\"fps\":30", "\"fps\":0"), .malformedHeader, 1),
        (
            "unknown keypoint names only",
            #"{"format":"pose-track","version":1,"keypoints":["kneeL","kneeR"],"fps":30,"width":640,"height":480}"#,
            .unknownKeypoints, 1
        ),
        ("empty file", "", .emptyFile, nil),
        ("poses not an array", header + "\n" + #"{"t":0,"poses":{}}"#, .malformedFrame, 2),
        ("frame is not an object", header + "\n" + "[1,2,3]", .malformedFrame, 2),
        ("error after blank lines", header + "\n\n" + goodFrame + "\n\n\n" + #"{"t":2}"#, .malformedFrame, 6),
    ]

    @Test(arguments: malformed.indices)
    func malformedInputNamesTheCodeAndLine(index: Int) throws {
        let testCase = Self.malformed[index]
        let error = try Self.readError(testCase.contents)
        #expect(error.code == testCase.code, "\(testCase.name): \(error)")
        #expect(error.line == testCase.line, "\(testCase.name): \(error)")
        #expect(!error.message.isEmpty)
        #expect(error.description.hasPrefix(error.file ?? "?"), "\(testCase.name): \(error.description)")
        // A line that is not JSON at all keeps the parser's error as its cause.
        if testCase.name == "truncated header" { #expect(error.cause != nil, "\(error)") }
    }

    @Test func aDirectoryIsAnIOError() throws {
        let folder = try TemporaryFolder()
        #expect(throws: PoseKitError.self) { try PoseTrackReader(path: folder.path) }
        do {
            _ = try PoseTrackReader(path: folder.path)
        } catch {
            #expect(error.code == .io)
            #expect(error.cause != nil, "\(error)")
            #expect(error.message.contains("directory"), "\(error)")
            #expect(error.file == folder.path)
        }
    }

    @Test func aMissingFileIsAnIOError() throws {
        let folder = try TemporaryFolder()
        do {
            _ = try PoseTrackReader(path: folder.path + "/nope.jsonl")
            Issue.record("opening a missing file should fail")
        } catch {
            #expect(error.code == .io)
        }
    }

    @Test func readsUnknownNamesCRLFAndAMissingFinalNewline() throws {
        let folder = try TemporaryFolder()
        let contents =
            #"{"format":"pose-track","version":1,"keypoints":["nose","tailBone","leftShoulder","rightShoulder"],"fps":25,"width":640,"height":480}"#
            + "\r\n" + #"{"t":0,"poses":[[320,100,0.9,1,1,1,290,150,0.8,350,150,0.7]]}"# + "\r\n  \r\n"
            + #"{"t":0.04,"poses":[]}"#
        let path = try folder.file("ok.jsonl", contents: contents)
        var reader = try PoseTrackReader(path: path)
        #expect(reader.ignoredKeypoints == ["tailBone"])
        let first = try #require(try reader.next())
        let second = try #require(try reader.next())
        let end = try reader.next()
        #expect(end == nil)
        #expect(first.poses.count == 1)
        #expect(first.poses[0][.nose] == Keypoint(x: 320, y: 100, confidence: 0.9))
        // neck is derived from the shoulders.
        #expect(first.poses[0][.neck] == Keypoint(x: 320, y: 150, confidence: 0.7))
        #expect(second.seconds == 0.04 && second.poses.isEmpty)
    }

    @Test func readsThreeDimensionsAndUnseenKeypoints() throws {
        let folder = try TemporaryFolder()
        let contents =
            #"{"format":"pose-track","version":1,"keypoints":["leftKnee","rightKnee"],"fps":30,"width":640,"height":480,"dimensions":3}"#
            + "\n" + #"{"t":0,"poses":[[100,200,-5,0.5,null,null,null,0]]}"#
        let path = try folder.file("3d.jsonl", contents: contents)
        let (header, frames) = try PoseTrackReader.readAll(path: path)
        #expect(header.dimensions == 3)
        let pose = try #require(frames.first?.poses.first)
        #expect(pose[.leftKnee] == Keypoint(x: 100, y: 200, z: -5, confidence: 0.5))
        #expect(pose[.rightKnee].confidence == 0)
    }
}

extension String {
    fileprivate func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }

    fileprivate func replacingTime(_ seconds: String) -> String {
        replacingOccurrences("\"t\":0.0", "\"t\":" + seconds)
    }
}

import PoseKit
import Testing

/// Every pose-track file of the shared test data reads without error and has a sane header.
struct SharedPoseTrackTests {
    @Test func sharedDataIsPresent() {
        let files = SharedData.poseTrackFiles
        #expect(
            files.count >= 200,
            "expected the pose-track files of ../shared/data/pose-tracks (240 in DATA.md) at \(SharedData.root); found \(files.count)"
        )
    }

    @Test(arguments: SharedData.poseTrackFiles)
    func readsWithSaneHeader(path: String) throws {
        let (header, frames) = try PoseTrackReader.readAll(path: path)
        #expect(header.fps > 0 && header.fps <= 240, "fps \(header.fps)")
        #expect(header.width > 0 && header.width <= 8192 && header.height > 0 && header.height <= 8192)
        #expect(header.keypoints.count >= 5)
        #expect(header.joints.compactMap { $0 }.count >= 5, "known keypoints: \(header.joints)")
        #expect(header.label("exercise") != nil, "every shared file is labelled with its exercise")
        #expect(!frames.isEmpty)
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.seconds <= $1.seconds })
        // Most seen points lie in (or near) the image.
        var inside = 0
        var seen = 0
        for frame in frames {
            for pose in frame.poses {
                for keypoint in pose.keypoints where keypoint.confidence > 0 {
                    seen += 1
                    let margin = 0.25
                    if keypoint.x >= -margin * Double(header.width), keypoint.x <= (1 + margin) * Double(header.width),
                        keypoint.y >= -margin * Double(header.height),
                        keypoint.y <= (1 + margin) * Double(header.height)
                    {
                        inside += 1
                    }
                }
            }
        }
        #expect(seen > 0)
        // The pose stages follow the one person of these recordings through (almost) every frame.
        var selector = PoseSelector()
        var smoother = PoseSmoother()
        var selected = 0
        var smoothed = 0
        for frame in frames {
            let pose = selector.ingest(frame)
            if pose != nil { selected += 1 }
            if smoother.ingest(pose, at: frame.seconds) != nil { smoothed += 1 }
        }
        let withPoses = frames.filter { !$0.poses.isEmpty }.count
        #expect(Double(selected) >= 0.9 * Double(withPoses), "selected \(selected) of \(withPoses) frames with a pose")
        #expect(smoothed >= selected)
        #expect(selector.swapCount <= frames.count / 20, "\(selector.swapCount) side swaps in \(frames.count) frames")
        #expect(Double(inside) >= 0.95 * Double(seen), "\(seen - inside) of \(seen) points far outside the image")
    }
}

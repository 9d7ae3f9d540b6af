import PoseKit
import Testing

@testable import PoseEstimation

struct MediaPipePoseEstimatorTests {
    // MARK: - Without the runtime

    @Test func missingLibraryIsReportedWithTheSetUpScript() {
        let configuration = MediaPipePoseEstimator.Configuration(
            modelPath: "/nonexistent/pose_landmarker_full.task",
            runtimePath: "/nonexistent/libmediapipe.so"
        )

        let error = #expect(throws: PoseEstimationError.self) {
            _ = try MediaPipePoseEstimator(configuration: configuration)
        }

        #expect(error?.code == .runtimeNotInstalled)
        #expect(error?.message.contains("/nonexistent/libmediapipe.so") == true)
        #expect(error?.message.contains("scripts/setup.sh") == true)
    }

    @Test func unloadableLibraryIsReportedWithTheSetUpScript() {
        // A file that exists but is no shared library: dlopen fails.
        let configuration = MediaPipePoseEstimator.Configuration(runtimePath: #filePath)

        let error = #expect(throws: PoseEstimationError.self) {
            _ = try MediaPipePoseEstimator(configuration: configuration)
        }

        // Either the model is missing (no runtime set up) or the library cannot be loaded.
        #expect(error?.code == .runtimeNotInstalled || error?.code == .modelNotFound)
        #expect(error?.message.contains("scripts/setup.sh") == true)
    }

    @Test func searchWalksUpToTheRuntimeFolder() throws {
        // Given a runtime folder at /repo/runtime and a start two levels below /repo
        let files: Set<String> = [
            "/repo/runtime/lib/libmediapipe.so",
            "/repo/runtime/models/pose_landmarker_full.task",
        ]

        let runtime = try MediaPipeRuntime.locate(
            libraryPath: nil,
            modelPath: nil,
            runtimeDirectory: nil,
            searchingUpFrom: ["/elsewhere", "/repo/.build/debug"],
            fileExists: files.contains
        )

        #expect(
            runtime
                == MediaPipeRuntime(
                    libraryPath: "/repo/runtime/lib/libmediapipe.so",
                    modelPath: "/repo/runtime/models/pose_landmarker_full.task"
                )
        )
    }

    @Test func environmentFolderWinsOverTheSearch() throws {
        let files: Set<String> = [
            "/repo/runtime/lib/libmediapipe.so", "/repo/runtime/models/pose_landmarker_full.task",
            "/opt/pt/lib/libmediapipe.so", "/opt/pt/models/pose_landmarker_full.task",
        ]

        let runtime = try MediaPipeRuntime.locate(
            libraryPath: nil,
            modelPath: nil,
            runtimeDirectory: "/opt/pt",
            searchingUpFrom: ["/repo"],
            fileExists: files.contains
        )

        #expect(runtime.libraryPath == "/opt/pt/lib/libmediapipe.so")
        #expect(runtime.modelPath == "/opt/pt/models/pose_landmarker_full.task")
    }

    @Test func missingModelNamesWhereItLookedAndTheSetUpScript() {
        let files: Set<String> = ["/repo/runtime/lib/libmediapipe.so"]

        let error = #expect(throws: PoseEstimationError.self) {
            _ = try MediaPipeRuntime.locate(
                libraryPath: nil,
                modelPath: nil,
                runtimeDirectory: nil,
                searchingUpFrom: ["/repo/sub"],
                fileExists: files.contains
            )
        }

        #expect(error?.code == .modelNotFound)
        #expect(error?.message.contains("runtime/models/pose_landmarker_full.task") == true)
        #expect(error?.message.contains("/repo/sub") == true)
        #expect(error?.message.contains("scripts/setup.sh") == true)
    }

    @Test(arguments: [
        MediaPipePoseEstimator.Configuration(numPoses: 0),
        MediaPipePoseEstimator.Configuration(minPoseDetectionConfidence: 1.5),
        MediaPipePoseEstimator.Configuration(minTrackingConfidence: -0.1),
    ])
    func configurationOutOfRangeIsRejected(_ configuration: MediaPipePoseEstimator.Configuration) {
        let error = #expect(throws: PoseEstimationError.self) {
            _ = try MediaPipePoseEstimator(configuration: configuration)
        }
        #expect(error?.code == .invalidConfiguration)
    }

    // MARK: - With the real runtime and model (set up by scripts/setup.sh)

    @Test func videoModeFindsThePersonInEveryFrameOfTheBicepCurl() throws {
        let frames = try VideoFrames.bicepCurl.get()
        let estimator = try Self.estimator(.video)
        var noseAboveShoulders = 0

        for (index, image) in frames.enumerated() {
            let frame = try estimator.estimate(in: image, at: Double(index) / 30)

            #expect(frame.seconds == Double(index) / 30)
            try #require(frame.poses.count == 1, "frame \(index): expected one person, found \(frame.poses.count)")
            Self.expectUprightPerson(frame.poses[0], in: image, frame: index)
            if Self.noseIsAboveShoulders(frame.poses[0]) { noseAboveShoulders += 1 }
        }

        // At the top of each curl the weight plate hides the face and the nose estimate sinks to shoulder
        // height for a few frames (23, 24 and 32 of 67); everywhere else the head is above the shoulders.
        #expect(
            noseAboveShoulders >= frames.count * 9 / 10,
            "nose above shoulders in \(noseAboveShoulders) of \(frames.count)"
        )
    }

    @Test func imageModeFindsThePersonInOneFrame() throws {
        let image = try #require(try VideoFrames.bicepCurl.get().dropFirst(20).first)
        let estimator = try Self.estimator(.image)

        let frame = try estimator.estimate(in: image, at: 0)
        let again = try estimator.estimate(in: image, at: 0)  // image mode ignores time

        try #require(frame.poses.count == 1)
        Self.expectUprightPerson(frame.poses[0], in: image, frame: 20)
        #expect(Self.noseIsAboveShoulders(frame.poses[0]))
        #expect(again.poses.count == 1)
    }

    @Test func paddedRowsGiveTheSameKeypointsAsPackedRows() throws {
        let image = try #require(try VideoFrames.bicepCurl.get().first)
        let padding = 13
        var padded: [UInt8] = []
        for row in 0..<image.height {
            let start = row * image.bytesPerRow
            padded += image.bytes[start..<start + image.width * 3]
            padded += Array(repeating: 255, count: padding)
        }
        let paddedImage = RGBImage(
            width: image.width,
            height: image.height,
            bytesPerRow: image.width * 3 + padding,
            bytes: padded
        )
        let estimator = try Self.estimator(.image)

        let packed = try #require(try estimator.estimate(in: image, at: 0).poses.first)
        let fromPadded = try #require(try estimator.estimate(in: paddedImage, at: 0).poses.first)

        for joint in [Joint.nose, .leftShoulder, .rightHip] {
            #expect(abs(packed[joint].x - fromPadded[joint].x) < 0.5, "\(joint)")
            #expect(abs(packed[joint].y - fromPadded[joint].y) < 0.5, "\(joint)")
        }
    }

    /// `rgb0` frames (what `analyze --annotate` decodes, to draw on in place) go to MediaPipe as SRGBA: the
    /// fourth byte is ignored, so the keypoints are exactly those of the `rgb24` frames, frame after frame.
    @Test func rgb0FramesGiveExactlyTheKeypointsOfRgb24Frames() throws {
        let frames = try VideoFrames.bicepCurl.get()
        let three = try Self.estimator(.video)
        let four = try Self.estimator(.video)
        var compared = 0
        for (index, image) in frames.prefix(30).enumerated() {
            var bytes = [UInt8](repeating: 0, count: image.width * image.height * 4)
            for pixel in 0..<image.width * image.height {
                bytes[pixel * 4] = image.bytes[pixel * 3]
                bytes[pixel * 4 + 1] = image.bytes[pixel * 3 + 1]
                bytes[pixel * 4 + 2] = image.bytes[pixel * 3 + 2]
                bytes[pixel * 4 + 3] = UInt8(truncatingIfNeeded: pixel)  // whatever is there is ignored
            }
            let rgb0 = RGBImage(width: image.width, height: image.height, bytesPerPixel: 4, bytes: bytes)
            let seconds = Double(index) / 30
            let expected = try three.estimate(in: image, at: seconds).poses
            let got = try four.estimate(in: rgb0, at: seconds).poses
            try #require(got.count == expected.count, "frame \(index): \(got.count) poses, expected \(expected.count)")
            for (a, b) in zip(expected, got) {
                #expect(a.keypoints == b.keypoints, "frame \(index): keypoints differ")
                compared += 1
            }
        }
        #expect(compared >= 25, "only \(compared) frames had a person")
    }

    @Test func videoModeRejectsTimeGoingBackwards() throws {
        let image = try #require(try VideoFrames.bicepCurl.get().first)
        let estimator = try Self.estimator(.video)
        _ = try estimator.estimate(in: image, at: 1.0)
        _ = try estimator.estimate(in: image, at: 1.0002)  // under a millisecond later: still accepted

        let error = #expect(throws: PoseEstimationError.self) {
            _ = try estimator.estimate(in: image, at: 0.5)
        }
        #expect(error?.code == .timestampNotIncreasing)
    }

    @Test func anotherStreamStartsItsTimesAgainAndFindsThePersonAsAFreshEstimatorDoes() throws {
        // Given an estimator that tracked a stream to 2 s, and a fresh one
        let images = try VideoFrames.bicepCurl.get()
        let image = try #require(images.first)
        let reused = try Self.estimator(.video)
        for (index, frame) in images.prefix(10).enumerated() {
            _ = try reused.estimate(in: frame, at: 1.1 + Double(index) / 10)
        }
        let fresh = try Self.estimator(.video)

        // When the next stream starts at 0 (a live server's next session)
        reused.startStream()
        let again = try reused.estimate(in: image, at: 0)
        let first = try fresh.estimate(in: image, at: 0)

        // Then its times are its own and it finds the same person within a few pixels
        #expect(again.seconds == 0)
        let pose = try #require(again.poses.first)
        let expected = try #require(first.poses.first)
        #expect(abs(pose[.nose].x - expected[.nose].x) < 8 && abs(pose[.nose].y - expected[.nose].y) < 8)
    }

    // MARK: - Helpers

    /// A real estimator. Without the runtime this throws, failing the test with
    /// "pose runtime not installed: … Run scripts/setup.sh …".
    private static func estimator(_ mode: MediaPipePoseEstimator.RunningMode) throws -> MediaPipePoseEstimator {
        try MediaPipePoseEstimator(configuration: .init(runningMode: mode))
    }

    private static func noseIsAboveShoulders(_ pose: Pose) -> Bool {
        pose[.nose].y < min(pose[.leftShoulder].y, pose[.rightShoulder].y)
    }

    /// Facts that hold for a person standing upright in the frame, seen from the side or the front.
    private static func expectUprightPerson(_ pose: Pose, in image: RGBImage, frame: Int) {
        let context = "frame \(frame)"
        for side in [(Joint.leftShoulder, Joint.leftHip), (.rightShoulder, .rightHip)] {
            #expect(pose[side.0].y < pose[side.1].y - 50, "\(context): \(side.0) above \(side.1)")
        }

        // What the model says it sees lies inside the picture: the legs below the thighs are cut off and
        // their extrapolated landmarks come with low visibility; the frame's top edge runs through the eyes,
        // which the model places up to 7 px above it.
        let width = Double(image.width)
        let height = Double(image.height)
        for joint in Joint.allCases where pose[joint].confidence >= 0.5 {
            let keypoint = pose[joint]
            #expect(
                (-0.05 * width...1.05 * width).contains(keypoint.x)
                    && (-0.05 * height...1.05 * height).contains(keypoint.y),
                "\(context): \(joint) at (\(keypoint.x), \(keypoint.y)) outside \(image.width)x\(image.height)"
            )
        }
        #expect(pose[.root].confidence > 0 && pose[.neck].confidence > 0, "\(context): neck and root derived")

        // World landmarks: metres, hip-centred, shoulders 0.3–0.7 m above the hips.
        guard let world = pose.worldKeypoints else {
            Issue.record("\(context): no world keypoints")
            return
        }
        let root = world[Joint.root.rawValue]
        #expect(
            abs(root.x) < 0.1 && abs(root.y) < 0.1 && abs(root.z ?? 0) < 0.1,
            "\(context): world origin at the hips"
        )
        let torso = world[Joint.root.rawValue].y - world[Joint.neck.rawValue].y
        #expect((0.3...0.7).contains(torso), "\(context): torso height \(torso) m")
    }
}

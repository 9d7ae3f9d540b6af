import PoseKit
import Testing

@testable import PoseEstimation

struct MediaPipeHandEstimatorTests {
    // MARK: - Without the runtime

    @Test func missingHandModelNamesItsPathAndTheSetUpScript() {
        let files: Set<String> = [
            "/repo/runtime/lib/libmediapipe.so", "/repo/runtime/models/pose_landmarker_full.task",
        ]

        let error = #expect(throws: PoseEstimationError.self) {
            _ = try MediaPipeRuntime.locate(
                .hands,
                libraryPath: nil,
                modelPath: nil,
                runtimeDirectory: nil,
                searchingUpFrom: ["/repo"],
                fileExists: files.contains
            )
        }

        #expect(error?.code == .modelNotFound)
        #expect(error?.message.hasPrefix("hand model not found") == true, "\(String(describing: error))")
        #expect(error?.message.contains("runtime/models/hand_landmarker.task") == true)
        #expect(error?.message.contains("scripts/setup.sh") == true)
    }

    @Test func theHandModelIsFoundBesideThePoseModel() throws {
        let files: Set<String> = [
            "/repo/runtime/lib/libmediapipe.so", "/repo/runtime/models/hand_landmarker.task",
        ]

        let runtime = try MediaPipeRuntime.locate(
            .hands,
            libraryPath: nil,
            modelPath: nil,
            runtimeDirectory: nil,
            searchingUpFrom: ["/repo/.build/debug"],
            fileExists: files.contains
        )

        #expect(runtime.modelPath == "/repo/runtime/models/hand_landmarker.task")
    }

    @Test(arguments: [
        MediaPipeHandEstimator.Configuration(numHands: 0),
        MediaPipeHandEstimator.Configuration(numHands: 5),
        MediaPipeHandEstimator.Configuration(minHandDetectionConfidence: 1.5),
        MediaPipeHandEstimator.Configuration(minHandPresenceConfidence: -0.1),
        MediaPipeHandEstimator.Configuration(minTrackingConfidence: 2),
    ])
    func configurationOutOfRangeIsRejected(_ configuration: MediaPipeHandEstimator.Configuration) {
        let error = #expect(throws: PoseEstimationError.self) {
            _ = try MediaPipeHandEstimator(configuration: configuration)
        }
        #expect(error?.code == .invalidConfiguration)
    }

    // MARK: - With the real runtime and model (set up by scripts/setup.sh)

    /// The fist video (20 fps): open hand 0–0.6 s, fist 1.1–2.25 s, open again from 2.6 s (labels.csv).
    @Test func videoModeTracksTheOneHandThroughTheFist() throws {
        let frames = try VideoFrames.fist.get()
        let estimator = try MediaPipeHandEstimator(configuration: .init(runningMode: .video, numHands: 2))
        var open = 0
        var fist = 0

        for (index, image) in frames.enumerated() {
            let seconds = Double(index) / 20
            let frame = try estimator.estimate(in: image, at: seconds)

            // One hand in view, and no second one made up although two are allowed.
            try #require(frame.hands.count == 1, "frame \(index): \(frame.hands.count) hands")
            let hand = frame.hands[0]
            #expect(hand.chirality == .left, "frame \(index)")
            for joint in HandJoint.allCases {
                let point = hand[joint]
                #expect(point.confidence == 1)
                #expect(
                    (0...Double(image.width)).contains(point.x) && (0...Double(image.height)).contains(point.y),
                    "frame \(index): \(joint) at (\(point.x), \(point.y))"
                )
            }
            let fingers: [Finger] = [.index, .middle, .ring]
            if seconds <= 0.6 || seconds >= 2.8 {
                // Fingers straight up: each tip well above its knuckle.
                for finger in fingers where hand[finger.tip].y < hand[finger.joints[0]].y - 60 { open += 1 }
            } else if (1.2...2.2).contains(seconds) {
                // Fingers curled into the palm: each tip below its knuckle (the fist's first and last frames by
                // eye, 1.1 and 2.25 s, are still closing and opening).
                for finger in fingers where hand[finger.tip].y > hand[finger.joints[0]].y { fist += 1 }
            }
            // World keypoints: metres, a hand's size (wrist to the middle finger's knuckle 6–12 cm).
            let world = try #require(hand.worldKeypoints, "frame \(index): no world keypoints")
            let palm = world[HandJoint.middleMCP.rawValue]
            let wrist = world[HandJoint.wrist.rawValue]
            let length = ((palm.x - wrist.x) * (palm.x - wrist.x) + (palm.y - wrist.y) * (palm.y - wrist.y))
                .squareRoot()
            #expect((0.06...0.12).contains(length), "frame \(index): wrist to middleMCP \(length) m")
        }

        let openFrames = frames.indices.filter { Double($0) / 20 <= 0.6 || Double($0) / 20 >= 2.8 }.count
        let fistFrames = frames.indices.filter { (1.2...2.2).contains(Double($0) / 20) }.count
        #expect(open == 3 * openFrames, "\(open) of \(3 * openFrames) fingers straight in the open frames")
        #expect(fist == 3 * fistFrames, "\(fist) of \(3 * fistFrames) fingers curled in the fist frames")
    }

    /// The hand's side is the person's own: the body model puts the same side's wrist on it. A mirrored picture
    /// shows the other hand, unless the estimator is told the picture is mirrored.
    @Test func theSideIsThePersonsOwnAndMirroringIsUndone() throws {
        let image = try #require(try VideoFrames.fist.get().first)
        let body = try MediaPipePoseEstimator(configuration: .init(runningMode: .image))
        let plain = try MediaPipeHandEstimator(configuration: .init(runningMode: .image))
        let told = try MediaPipeHandEstimator(configuration: .init(runningMode: .image, imageIsMirrored: true))

        let person = try #require(try body.estimate(in: image, at: 0).poses.first)
        let hand = try #require(try plain.estimate(in: image, at: 0).hands.first)
        let flipped = try #require(try plain.estimate(in: Self.mirrored(image), at: 0).hands.first)
        let undone = try #require(try told.estimate(in: Self.mirrored(image), at: 0).hands.first)

        // The body model's nearest wrist is its left one, seen, within 50 px of the hand's wrist.
        let left = person[.leftWrist]
        let right = person[.rightWrist]
        let wrist = hand[.wrist].point
        #expect(left.confidence > 0.9)
        #expect((left.point - wrist).length < 50, "left wrist \(left.point), hand wrist \(wrist)")
        #expect((left.point - wrist).length < (right.point - wrist).length)
        #expect(hand.chirality == .left)
        #expect(flipped.chirality == .right)
        #expect(undone.chirality == .left)
        // The mirrored hand lies where the mirror puts it.
        #expect(abs(flipped[.wrist].x - (Double(image.width) - wrist.x)) < 10)
    }

    @Test func videoModeRejectsTimeGoingBackwards() throws {
        let image = try #require(try VideoFrames.fist.get().first)
        let estimator = try MediaPipeHandEstimator(configuration: .init(runningMode: .video))
        _ = try estimator.estimate(in: image, at: 1.0)

        let error = #expect(throws: PoseEstimationError.self) {
            _ = try estimator.estimate(in: image, at: 0.5)
        }
        #expect(error?.code == .timestampNotIncreasing)
    }

    // MARK: - Helpers

    /// `image` flipped left to right, as a selfie preview shows it.
    private static func mirrored(_ image: RGBImage) -> RGBImage {
        var bytes = image.bytes
        let width = image.width
        for row in 0..<image.height {
            for column in 0..<width {
                let from = row * image.bytesPerRow + (width - 1 - column) * 3
                let to = row * image.bytesPerRow + column * 3
                bytes[to] = image.bytes[from]
                bytes[to + 1] = image.bytes[from + 1]
                bytes[to + 2] = image.bytes[from + 2]
            }
        }
        return RGBImage(width: width, height: image.height, bytesPerRow: image.bytesPerRow, bytes: bytes)
    }
}

import CoachKit
import Foundation
import MediaIO
import PoseKit
import Testing

struct OverlayRendererTests {
    static let background = (r: UInt8(60), g: UInt8(70), b: UInt8(80))

    static func backgroundImage(width: Int, height: Int) -> RGBImage {
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        for i in stride(from: 0, to: bytes.count, by: 3) {
            bytes[i] = background.r
            bytes[i + 1] = background.g
            bytes[i + 2] = background.b
        }
        return RGBImage(width: width, height: height, bytes: bytes)
    }

    /// An arm and a leg on each side, in a 640x360 frame.
    static func knownPose(confidence: Double = 0.9) -> Pose {
        Pose([
            .leftShoulder: Keypoint(x: 360, y: 80, confidence: confidence),
            .leftElbow: Keypoint(x: 360, y: 180, confidence: confidence),
            .leftWrist: Keypoint(x: 460, y: 180, confidence: confidence),
            .rightShoulder: Keypoint(x: 260, y: 80, confidence: confidence),
            .rightElbow: Keypoint(x: 260, y: 180, confidence: confidence),
            .rightWrist: Keypoint(x: 200, y: 260, confidence: confidence),
            .leftHip: Keypoint(x: 350, y: 250, confidence: confidence),
            .rightHip: Keypoint(x: 270, y: 250, confidence: confidence),
        ])
    }

    static func isBackground(_ pixel: (r: UInt8, g: UInt8, b: UInt8)) -> Bool {
        pixel.r == background.r && pixel.g == background.g && pixel.b == background.b
    }

    static func close(_ pixel: (r: UInt8, g: UInt8, b: UInt8), _ color: OverlayColor, tolerance: Int = 3) -> Bool {
        abs(Int(pixel.r) - Int(color.red)) <= tolerance && abs(Int(pixel.g) - Int(color.green)) <= tolerance
            && abs(Int(pixel.b) - Int(color.blue)) <= tolerance
    }

    static func countChanged(_ image: RGBImage, x: Range<Int>, y: Range<Int>) -> Int {
        var count = 0
        for row in y { for column in x where !isBackground(image[column, row]) { count += 1 } }
        return count
    }

    /// `image` as `rgb0` (4 bytes a pixel), the layout video frames are drawn on in place.
    static func fourBytesPerPixel(_ image: RGBImage) -> RGBImage {
        var four = RGBImage(width: image.width, height: image.height, bytesPerPixel: 4)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let pixel = image[x, y]
                let i = y * four.bytesPerRow + x * 4
                (four.bytes[i], four.bytes[i + 1], four.bytes[i + 2]) = (pixel.r, pixel.g, pixel.b)
            }
        }
        return four
    }

    /// Drawing in place on `rgb0` bytes (red and blue exchanged in Cairo's eyes) gives exactly the pixels of
    /// drawing on `rgb24` through a copy: every element, over a picture with detail in every channel.
    @Test(arguments: [false, true])
    func rgb0FramesGetExactlyTheRgb24Pixels(guidance: Bool) {
        var bytes = [UInt8](repeating: 0, count: 640 * 360 * 3)
        for i in bytes.indices {
            bytes[i] = UInt8(truncatingIfNeeded: (i / 3 % 640) &* 7 &+ (i / 1920) &* 3 &+ i % 3 &* 90)
        }
        var three = RGBImage(width: 640, height: 360, bytes: bytes)
        var four = Self.fourBytesPerPixel(three)
        var bystander = Self.knownPose()
        for index in bystander.keypoints.indices { bystander.keypoints[index].x -= 150 }
        let state = OverlayState(
            people: [bystander, Self.knownPose()],
            coachedIndex: 1,
            angle: .init(joint: .leftElbow, from: .leftShoulder, to: .leftWrist, degrees: 90, isInTarget: false),
            reps: 4,
            prescribedReps: 10,
            exerciseName: "Bicep curl",
            confidence: 0.55,
            cue: "Keep your elbow still",
            cueKind: .correction,
            warning: "Wrist bent too far",
            setupGuidance: guidance ? "Step back into the frame" : nil,
            rangeOfMotion: .init(progress: 0.9, target: 0.8...1.0, label: "ROM"),
            holdSeconds: 12,
            holdTargetSeconds: 30
        )
        let renderer = OverlayRenderer()
        renderer.render(state, onto: &three)
        renderer.render(state, onto: &four)
        var differing = 0
        var changed = 0
        for y in 0..<360 {
            for x in 0..<640 {
                if three[x, y] != four[x, y] { differing += 1 }
                if three[x, y] != (bytes[(y * 640 + x) * 3], bytes[(y * 640 + x) * 3 + 1], bytes[(y * 640 + x) * 3 + 2])
                {
                    changed += 1
                }
            }
        }
        #expect(changed > 20_000, "the overlay changed only \(changed) pixels")
        #expect(differing == 0, "\(differing) pixels differ between the rgb0 and the rgb24 frame")
    }

    @Test func emptyStateLeavesTheFrameUnchanged() {
        var bytes = [UInt8](repeating: 0, count: 64 * 48 * 3)
        for i in bytes.indices { bytes[i] = UInt8(truncatingIfNeeded: i &* 31) }
        let original = RGBImage(width: 64, height: 48, bytes: bytes)
        var image = original
        OverlayRenderer().render(OverlayState(), onto: &image)
        #expect(image.bytes == original.bytes)
    }

    @Test func jointsHaveTheirSideColourAtTheKeypoint() {
        var image = Self.backgroundImage(width: 640, height: 360)
        OverlayRenderer().render(OverlayState(people: [Self.knownPose()], coachedIndex: 0), onto: &image)
        #expect(Self.close(image[360, 180], .left), "left elbow pixel is \(image[360, 180])")
        #expect(Self.close(image[260, 180], .right), "right elbow pixel is \(image[260, 180])")
    }

    @Test func bonesAreDrawnBetweenJoints() {
        var image = Self.backgroundImage(width: 640, height: 360)
        OverlayRenderer().render(OverlayState(people: [Self.knownPose()], coachedIndex: 0), onto: &image)
        // Left upper arm (360,80)–(360,180); left forearm (360,180)–(460,180); shoulders cross the body.
        #expect(Self.close(image[360, 130], .left), "upper-arm midpoint is \(image[360, 130])")
        #expect(Self.close(image[410, 180], .left), "forearm midpoint is \(image[410, 180])")
        #expect(Self.close(image[310, 80], .center), "shoulder-line midpoint is \(image[310, 80])")
        // Nothing between the wrists: no bone there.
        #expect(Self.isBackground(image[330, 220]))
    }

    @Test func lowConfidenceJointsAndTheirBonesAreSkipped() {
        var pose = Self.knownPose()
        pose[.leftWrist].confidence = 0.1
        var image = Self.backgroundImage(width: 640, height: 360)
        OverlayRenderer().render(OverlayState(people: [pose], coachedIndex: 0), onto: &image)
        #expect(Self.isBackground(image[460, 180]), "the unseen wrist was drawn: \(image[460, 180])")
        #expect(Self.isBackground(image[420, 180]), "the forearm to the unseen wrist was drawn")
    }

    @Test func otherPeopleAreFaintAndTheCoachedPersonClear() {
        var other = Pose()
        for joint in Joint.allCases where Self.knownPose()[joint].confidence > 0 {
            var keypoint = Self.knownPose()[joint]
            keypoint.x -= 180
            other[joint] = keypoint
        }
        var image = Self.backgroundImage(width: 640, height: 360)
        OverlayRenderer().render(OverlayState(people: [other, Self.knownPose()], coachedIndex: 1), onto: &image)
        let faint = image[180, 180]  // the other person's left elbow
        #expect(!Self.isBackground(faint))
        #expect(!Self.close(faint, .left, tolerance: 40), "the other person is drawn as clearly: \(faint)")
        #expect(Int(faint.r) > Int(Self.background.r) && Int(faint.r) < 230)
        #expect(Self.close(image[360, 180], .left))
    }

    @Test func theAngleIsDrawnAsAnArcWithALabel() {
        let pose = Self.knownPose()
        var plain = Self.backgroundImage(width: 640, height: 360)
        var withAngle = plain
        let renderer = OverlayRenderer()
        renderer.render(OverlayState(people: [pose], coachedIndex: 0), onto: &plain)
        let angle = OverlayState.Angle(joint: .leftElbow, from: .leftShoulder, to: .leftWrist, degrees: 90)
        renderer.render(OverlayState(people: [pose], coachedIndex: 0, angle: angle), onto: &withAngle)
        // The wedge lies between the bones (up and right of the elbow); the label on the other side.
        var wedge = 0
        var label = 0
        for y in 120..<180 {
            for x in 361..<420 where withAngle[x, y] != plain[x, y] { wedge += 1 }
        }
        for y in 182..<260 {
            for x in 280..<358 where withAngle[x, y] != plain[x, y] { label += 1 }
        }
        #expect(wedge > 300, "only \(wedge) arc pixels")
        #expect(label > 150, "only \(label) label pixels")
        // The rim: radius 6 units (21.6 px at 640x360), half-way round.
        #expect(Self.close(withAngle[375, 165], .accent, tolerance: 40), "rim pixel is \(withAngle[375, 165])")
    }

    @Test func counterTitleCueAndWarningDrawText() {
        var image = Self.backgroundImage(width: 640, height: 360)
        let state = OverlayState(
            reps: 7,
            prescribedReps: 10,
            exerciseName: "Squat",
            confidence: 0.92,
            cue: "Keep your chest up",
            cueKind: .correction,
            warning: "Knee caving in"
        )
        OverlayRenderer().render(state, onto: &image)
        func whitePixels(x: Range<Int>, y: Range<Int>) -> Int {
            var count = 0
            for row in y {
                for column in x where image[column, row].r > 200 && image[column, row].g > 200 { count += 1 }
            }
            return count
        }
        #expect(whitePixels(x: 520..<640, y: 0..<80) > 100, "no digits in the counter box")
        #expect(whitePixels(x: 0..<160, y: 0..<50) > 60, "no exercise name in the title box")
        #expect(whitePixels(x: 100..<540, y: 300..<360) > 100, "no cue text at the bottom")
        // The warning banner is red and sits above the cue.
        var red = 0
        for y in 220..<320 {
            for x in 200..<440 where image[x, y].r > 200 && image[x, y].g < 90 { red += 1 }
        }
        #expect(red > 1000, "only \(red) red warning pixels")
    }

    @Test func rangeOfMotionGaugeFillsToTheProgress() {
        var image = Self.backgroundImage(width: 640, height: 360)
        let rom = OverlayState.RangeOfMotion(progress: 0.5, target: 0.8...1.0)
        OverlayRenderer().render(OverlayState(rangeOfMotion: rom), onto: &image)
        // Gauge: left edge, vertically centred; progress below target is amber, the bar above it is not.
        var amberRows: [Int] = []
        for y in 0..<360 where (0..<60).contains(where: { Self.close(image[$0, y], .caution, tolerance: 10) }) {
            amberRows.append(y)
        }
        let first = amberRows.first ?? 0
        let last = amberRows.last ?? 0
        #expect(last - first > 40, "amber fill spans rows \(first)...\(last)")
        #expect(first > 150, "the fill should stop half-way up, starts at row \(first)")
    }

    @Test func setupGuidanceDimsTheFrameAndShowsText() {
        var image = Self.backgroundImage(width: 640, height: 360)
        OverlayRenderer().render(OverlayState(setupGuidance: "Step back into the frame"), onto: &image)
        #expect(image[5, 5].r < Self.background.r, "the frame is not dimmed")
        var white = 0
        for y in 150..<210 { for x in 150..<490 where image[x, y].r > 220 { white += 1 } }
        #expect(white > 200)
    }

    @Test(arguments: [(320, 180), (3840, 2160), (1080, 1920)])
    func overlayScalesWithTheFrame(width: Int, height: Int) {
        // Counter box height and bone thickness, measured in pixels, relative to the shorter side.
        let renderer = OverlayRenderer()
        let shorter = Double(min(width, height))
        var image = Self.backgroundImage(width: width, height: height)
        renderer.render(OverlayState(reps: 3), onto: &image)
        var top = Int.max
        var bottom = 0
        let column = width - 1 - Int(shorter * 0.04)
        for y in 0..<height where !Self.isBackground(image[column, y]) {
            top = min(top, y)
            bottom = max(bottom, y)
        }
        let boxHeight = Double(bottom - top + 1) / shorter
        #expect(abs(boxHeight - 0.13) < 0.015, "counter box is \(boxHeight) of the shorter side")

        var pose = Pose()
        pose[.leftHip] = Keypoint(x: Double(width) * 0.2, y: Double(height) / 2, confidence: 1)
        pose[.leftKnee] = Keypoint(x: Double(width) * 0.8, y: Double(height) / 2, confidence: 1)
        var boneImage = Self.backgroundImage(width: width, height: height)
        renderer.render(OverlayState(people: [pose], coachedIndex: 0), onto: &boneImage)
        var thickness = 0
        for y in 0..<height where !Self.isBackground(boneImage[width / 2, y]) { thickness += 1 }
        // 0.95 units (bone plus halo), within a pixel of antialiasing either side.
        let relative = Double(thickness) / shorter
        #expect(abs(relative - 0.0095) < 0.0015 + 2 / shorter, "bone is \(thickness) px on a \(width)x\(height) frame")
    }

    // MARK: - Real data

    static var sharedData: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/data")
    }

    /// One decoded frame of a real video, through ffmpeg.
    static func decodeFrame(_ path: String, at seconds: Double, width: Int, height: Int) throws -> RGBImage {
        let ffmpeg = try PipeProcess(
            "ffmpeg",
            [
                "-v", "error", "-i", path, "-ss", String(seconds), "-frames:v", "1", "-vf", "scale=\(width):\(height)",
                "-f", "rawvideo", "-pix_fmt", "rgb24", "-",
            ]
        )
        let bytes = try ffmpeg.readAll()
        #expect(ffmpeg.waitForExit().succeeded, "ffmpeg: \(ffmpeg.lastErrorLine)")
        return RGBImage(width: width, height: height, bytes: bytes)
    }

    @Test func overlayOnARealSquatFrame() throws {
        let video = Self.sharedData.appendingPathComponent("videos/kaiakol/squat_correct_003.mp4").path
        let track = Self.sharedData.appendingPathComponent("pose-tracks/kaiakol/squat_correct_003.jsonl").path
        try #require(
            FileManager.default.fileExists(atPath: video) && FileManager.default.fileExists(atPath: track),
            "missing \(video) or \(track): the shared data folder must sit beside the repository"
        )
        let (header, frames) = try PoseTrackReader.readAll(path: track)
        let frame = try #require(frames.isEmpty ? nil : frames[frames.count / 2])
        var image = try Self.decodeFrame(video, at: frame.seconds, width: header.width, height: header.height)
        let pose = try #require(frame.poses.first)
        let degrees = try #require(pose.angle(at: .leftKnee, from: .leftHip, to: .leftAnkle))
        let state = OverlayState(
            people: frame.poses,
            coachedIndex: 0,
            angle: .init(joint: .leftKnee, from: .leftHip, to: .leftAnkle, degrees: 180 - degrees, isInTarget: true),
            reps: 3,
            prescribedReps: 10,
            exerciseName: "Squat",
            confidence: 0.94,
            cue: "Good depth — drive up through your heels",
            cueKind: .encouragement,
            warning: nil,
            rangeOfMotion: .init(progress: 0.86, target: 0.8...1.0, label: "Depth")
        )
        OverlayRenderer().render(state, onto: &image)
        let knee = pose[.leftKnee]
        #expect(
            Self.close(image[Int(knee.x), Int(knee.y)], .left),
            "left knee pixel is \(image[Int(knee.x), Int(knee.y)])"
        )
        if let folder = ProcessInfo.processInfo.environment["OVERLAY_SNAPSHOT_DIR"] {
            try Data(image.pngBytes()).write(
                to: URL(fileURLWithPath: folder).appendingPathComponent("overlay-squat.png")
            )
            var warned = image
            let warning = OverlayState(
                people: frame.poses,
                coachedIndex: 0,
                reps: 3,
                exerciseName: "Squat",
                confidence: 0.41,
                cue: "Push your knees out over your toes",
                cueKind: .correction,
                warning: "Knees caving in",
                setupGuidance: nil,
                rangeOfMotion: .init(progress: 0.45, target: 0.8...1.0, label: "Depth")
            )
            warned = try Self.decodeFrame(video, at: frame.seconds, width: header.width, height: header.height)
            OverlayRenderer().render(warning, onto: &warned)
            try Data(warned.pngBytes()).write(
                to: URL(fileURLWithPath: folder).appendingPathComponent("overlay-warning.png")
            )

            // The same at phone-clip size (522x294), keypoints scaled with the frame.
            let scale = 522.0 / Double(header.width)
            var phone = try Self.decodeFrame(video, at: frame.seconds, width: 522, height: 294)
            var small = state
            small.people = frame.poses.map { pose in
                var scaled = pose
                for index in scaled.keypoints.indices {
                    scaled.keypoints[index].x *= scale
                    scaled.keypoints[index].y *= scale
                }
                return scaled
            }
            small.warning = "Knees caving in"
            OverlayRenderer().render(small, onto: &phone)
            try Data(phone.pngBytes()).write(
                to: URL(fileURLWithPath: folder).appendingPathComponent("overlay-phone.png")
            )

            let curl = Self.sharedData.appendingPathComponent("videos/pose-trainer/sample_bicep_curl.mp4").path
            var guidance = try Self.decodeFrame(curl, at: 0.5, width: 522, height: 294)
            OverlayRenderer().render(
                OverlayState(
                    exerciseName: "Bicep curl",
                    confidence: 0.55,
                    setupGuidance: "Step back so your whole body is in the frame"
                ),
                onto: &guidance
            )
            try Data(guidance.pngBytes()).write(
                to: URL(fileURLWithPath: folder).appendingPathComponent("overlay-guidance.png")
            )
        }
    }
}

struct OverlayStateCoachSnapshotTests {
    @Test func aSnapshotMapsOntoTheOverlay() throws {
        var coached = OverlayRendererTests.knownPose()
        coached[.leftKnee] = Keypoint(x: 360, y: 320, confidence: 0.9)
        coached[.leftAnkle] = Keypoint(x: 360, y: 400, confidence: 0.9)
        var bystander = Pose()
        bystander[.leftShoulder] = Keypoint(x: 40, y: 40, confidence: 0.9)
        bystander[.leftHip] = Keypoint(x: 40, y: 140, confidence: 0.9)
        var snapshot = CoachSnapshot()
        snapshot.exerciseName = "Squat"
        snapshot.confidence = 0.8
        snapshot.repCount = 4
        snapshot.primaryAngle = 95
        snapshot.primaryAngleKind = .kneeFlexion
        snapshot.primaryJoint = .leftKnee
        snapshot.side = .left
        snapshot.targetRange = 90...120
        snapshot.rangeOfMotionProgress = 0.95
        snapshot.cueText = "Good depth"
        snapshot.cueKind = .encouragement
        snapshot.pose = coached
        let state = OverlayState(snapshot: snapshot, people: [bystander, coached], prescribedReps: 10)
        #expect(state.people.count == 2)
        #expect(state.coachedIndex == 1 && state.people[1] == coached)
        #expect(state.angle == .init(joint: .leftKnee, from: .leftHip, to: .leftAnkle, degrees: 95, isInTarget: true))
        #expect(state.reps == 4 && state.prescribedReps == 10)
        #expect(state.cueKind == .encouragement)
        #expect(state.rangeOfMotion?.progress == 0.95)
        // A hold shows the time held, not a repetition count that stays at 0.
        snapshot.repCount = 0
        snapshot.hold = try JSONDecoder().decode(
            HoldProgress.self,
            from: Data(#"{"heldSeconds":3,"targetSeconds":30,"holding":true}"#.utf8)
        )
        let hold = OverlayState(snapshot: snapshot, people: [coached], prescribedReps: 10)
        #expect(hold.reps == nil && hold.prescribedReps == nil)
        #expect(hold.holdSeconds == 3 && hold.holdTargetSeconds == 30)
        #expect(hold.angle?.joint == .leftKnee)
        // A repetition held at its peak, a hold there prescribed: the count stays, the time held shows under it.
        snapshot.hold = nil
        snapshot.repCount = 4
        snapshot.peakHold = try JSONDecoder().decode(
            HoldProgress.self,
            from: Data(#"{"heldSeconds":2.5,"targetSeconds":5,"holding":true}"#.utf8)
        )
        let held = OverlayState(snapshot: snapshot, people: [coached], prescribedReps: 10)
        #expect(held.reps == 4 && held.prescribedReps == 10)
        #expect(held.holdSeconds == 2.5 && held.holdTargetSeconds == 5)
    }

    @Test func withNoExerciseNamedTheOverlaySaysItIsObservingAndCounts() {
        var snapshot = CoachSnapshot()
        snapshot.recognition = .lowConfidence
        snapshot.repCount = 1
        let nobody = OverlayState(snapshot: snapshot, people: [])
        #expect(nobody.exerciseName == nil && nobody.reps == nil)
        snapshot.pose = OverlayRendererTests.knownPose()
        let state = OverlayState(snapshot: snapshot, people: [snapshot.pose!])
        #expect(state.exerciseName == OverlayState.observing && state.confidence == nil)
        #expect(state.reps == 1)
        #expect(state.rangeOfMotion == nil)
    }
}

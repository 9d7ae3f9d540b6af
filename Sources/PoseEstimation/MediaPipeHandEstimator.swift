import CMediaPipe
public import PoseKit

/// Finds hands with MediaPipe's hand landmarker (palm detector + hand landmark model, "full"), through its C
/// library: the counterpart of Vision's `VNDetectHumanHandPoseRequest`.
///
/// Each hand found becomes a ``PoseKit/HandPose``: 21 keypoints in pixels of the input image, in
/// ``PoseKit/HandJoint`` order (MediaPipe's landmark order), its ``PoseKit/Chirality`` (the person's own left or
/// right hand), and `worldKeypoints`, MediaPipe's 3-D landmarks in metres centred on the hand.
///
/// The model (`hand_landmarker.task`) is built by `scripts/setup.sh` from the `mediapipe==0.10.21` wheel and
/// found by ``MediaPipeRuntime/locate(_:libraryPath:modelPath:)`` with `.hands`; the runtime is the pose
/// estimator's `libmediapipe.so`.
///
/// ```swift
/// let estimator = try MediaPipeHandEstimator(configuration: .init(runningMode: .video, numHands: 2))
/// for (index, image) in frames.enumerated() {
///     let frame = try estimator.estimate(in: image, at: Double(index) / 30)
///     for hand in frame.hands { print(hand.chirality, hand[.indexTip]) }
/// }
/// ```
///
/// Use video mode for video: image mode runs the palm detector on every frame and misses a closed fist in a
/// third of the frames, video mode tracks the hand through it (`hand-runtime.md`). Inference runs on the
/// calling thread: about 16 ms a frame in video mode with `numHands` 1 on one core, about twice that with 2
/// (the palm detector keeps looking for the second hand while only one is in view).
///
/// **Left and right.** MediaPipe's Tasks graph labels the hand as the person's own for an image as a camera
/// takes it (not mirrored). A picture shown mirrored, as a selfie preview is, must be given as the camera
/// took it, or with ``Configuration/imageIsMirrored`` set, which swaps the sides back.
public final class MediaPipeHandEstimator: PoseEstimator {
    /// How frames relate to each other (as for the pose estimator).
    public typealias RunningMode = MediaPipePoseEstimator.RunningMode

    /// What to find, and where the runtime is.
    public struct Configuration: Sendable, Hashable {
        public var runningMode: RunningMode
        /// The most hands to find in one frame, 1...4.
        public var numHands: Int
        /// The palm detector's minimum score, 0...1.
        public var minHandDetectionConfidence: Double
        /// The landmark model's minimum hand presence score, 0...1.
        public var minHandPresenceConfidence: Double
        /// The minimum score to keep tracking rather than detect again (video and live modes), 0...1.
        public var minTrackingConfidence: Double
        /// The images are mirrored (a selfie preview): each hand's side is swapped back to the person's own.
        public var imageIsMirrored: Bool
        /// The `.task` model bundle; `nil` finds `runtime/models/hand_landmarker.task`.
        public var modelPath: String?
        /// The runtime library (`libmediapipe.so`); `nil` finds `runtime/lib/libmediapipe.so`.
        public var runtimePath: String?

        /// The defaults are those of MediaPipe's Python `solutions.hands` (two hands, scores 0.5).
        public init(
            runningMode: RunningMode = .image,
            numHands: Int = 2,
            minHandDetectionConfidence: Double = 0.5,
            minHandPresenceConfidence: Double = 0.5,
            minTrackingConfidence: Double = 0.5,
            imageIsMirrored: Bool = false,
            modelPath: String? = nil,
            runtimePath: String? = nil
        ) {
            self.runningMode = runningMode
            self.numHands = numHands
            self.minHandDetectionConfidence = minHandDetectionConfidence
            self.minHandPresenceConfidence = minHandPresenceConfidence
            self.minTrackingConfidence = minTrackingConfidence
            self.imageIsMirrored = imageIsMirrored
            self.modelPath = modelPath
            self.runtimePath = runtimePath
        }
    }

    /// The configuration the estimator was made with.
    public let configuration: Configuration
    /// The library and model files in use.
    public let runtime: MediaPipeRuntime

    private let library: MediaPipeLibrary
    private let landmarker: OpaquePointer
    private var input: MediaPipeFrameInput

    /// Loads the runtime and the hand model and creates a hand landmarker.
    ///
    /// - Throws: ``PoseEstimationError`` — `runtimeNotInstalled` or `modelNotFound` (the message says to run
    ///   `scripts/setup.sh`), `runtimeIncompatible`, `invalidConfiguration`, or `creationFailed`.
    public init(configuration: Configuration = Configuration()) throws(PoseEstimationError) {
        try Self.validate(configuration)
        let runtime = try MediaPipeRuntime.locate(
            .hands,
            libraryPath: configuration.runtimePath,
            modelPath: configuration.modelPath
        )
        let library = try MediaPipeLibrary.load(at: runtime.libraryPath)

        // C gets none of the C++ header's default values: every field is set.
        var options = MpHandLandmarkerOptions()
        options.base_options.file_descriptor = -1
        options.base_options.delegate = Int32(kMpDelegateCpu)
        options.base_options.host_system = Int32(kMpHostSystemLinux)
        options.running_mode = Int32(configuration.runningMode == .image ? kMpRunningModeImage : kMpRunningModeVideo)
        options.num_hands = Int32(configuration.numHands)
        options.min_hand_detection_confidence = Float(configuration.minHandDetectionConfidence)
        options.min_hand_presence_confidence = Float(configuration.minHandPresenceConfidence)
        options.min_tracking_confidence = Float(configuration.minTrackingConfidence)
        options.result_callback = nil

        var handle: OpaquePointer? = nil
        // withCString rethrows untyped errors, so the typed error travels out as a Result.
        try runtime.modelPath.withCString { path in
            options.base_options.model_asset_path = path
            return Result { () throws(PoseEstimationError) in
                try library.check(.creationFailed, "MediaPipe refused the hand model \(runtime.modelPath)") {
                    library.handLandmarkerCreate(&options, &handle, $0)
                }
            }
        }.get()
        guard let handle else {
            throw PoseEstimationError(.creationFailed, "MediaPipe created no hand landmarker from \(runtime.modelPath)")
        }
        self.configuration = configuration
        self.runtime = runtime
        self.library = library
        self.landmarker = handle
        self.input = MediaPipeFrameInput(library: library, tracking: configuration.runningMode != .image)
    }

    deinit {
        var message: UnsafeMutablePointer<CChar>? = nil
        _ = library.handLandmarkerClose(landmarker, &message)
        if let message { library.errorFree(message) }
    }

    // MARK: - Detection

    /// Finds the hands in `image`, taken `seconds` after the start of the stream.
    ///
    /// - Parameters:
    ///   - image: the frame; any size.
    ///   - seconds: the frame's time. Ignored in image mode; in video and live modes it must increase from
    ///     call to call (MediaPipe counts in whole milliseconds; frames closer than that are spaced by 1 ms).
    /// - Returns: one ``PoseKit/HandPose`` per hand found (at most `numHands`), keypoints in pixels of `image`.
    /// - Throws: ``PoseEstimationError`` — `timestampNotIncreasing`, `detectionFailed` or `unexpectedOutput`.
    public func estimate(in image: RGBImage, at seconds: Double) throws(PoseEstimationError) -> HandFrame {
        let timestamp = try input.timestamp(for: seconds)
        let mpImage = try input.image(from: image)
        defer { library.imageFree(mpImage) }

        var result = MpHandLandmarkerResult()
        let landmarker = self.landmarker
        let library = self.library
        if let timestamp {
            try library.check(.detectionFailed, "hand detection failed on the frame at \(seconds) s") {
                library.handLandmarkerDetectForVideo(landmarker, mpImage, nil, timestamp, &result, $0)
            }
        } else {
            try library.check(.detectionFailed, "hand detection failed on the image") {
                library.handLandmarkerDetectImage(landmarker, mpImage, nil, &result, $0)
            }
        }
        defer { library.handLandmarkerCloseResult(&result) }
        let hands = try Self.hands(
            from: result,
            width: Double(image.width),
            height: Double(image.height),
            mirrored: configuration.imageIsMirrored
        )
        return HandFrame(seconds: seconds, hands: hands)
    }

    /// Another stream begins (another video, or a live server's next session): its times start again from 0, a second
    /// on in the model's clock (long enough for the tracker to look afresh). The landmarker is kept: loading one is slow and, with MediaPipe, leaks
    /// some memory each time one is closed.
    public func startStream() { input.startStream() }

    // MARK: - Conversion

    private static func hands(
        from result: MpHandLandmarkerResult,
        width: Double,
        height: Double,
        mirrored: Bool
    ) throws(PoseEstimationError) -> [HandPose] {
        let count = Int(result.hand_landmarks_count)
        guard count > 0, let handLandmarks = result.hand_landmarks else { return [] }
        var hands: [HandPose] = []
        hands.reserveCapacity(count)
        for index in 0..<count {
            let landmarks = handLandmarks[index]
            guard Int(landmarks.landmarks_count) == HandJoint.count, let points = landmarks.landmarks else {
                throw PoseEstimationError(
                    .unexpectedOutput,
                    "MediaPipe returned \(landmarks.landmarks_count) landmarks for a hand, expected \(HandJoint.count): "
                        + "is \(MediaPipeRuntime.handModelRelativePath) the hand model? Run scripts/setup.sh."
                )
            }
            // The hand model scores the hand as a whole, not each landmark: every keypoint of a hand found
            // gets the confidence 1 (it passed minHandPresenceConfidence), unless MediaPipe gives one.
            let keypoints = (0..<HandJoint.count).map { i in
                let point = points[i]
                return Keypoint(
                    x: Double(point.x) * width,
                    y: Double(point.y) * height,
                    // MediaPipe's z is relative to the wrist, in the scale of x (normalised by the image width).
                    z: Double(point.z) * width,
                    confidence: confidence(point.has_visibility, point.visibility, point.has_presence, point.presence)
                )
            }
            var world: [Keypoint]? = nil
            if index < Int(result.hand_world_landmarks_count), let worldLandmarks = result.hand_world_landmarks?[index],
                Int(worldLandmarks.landmarks_count) == HandJoint.count, let worldPoints = worldLandmarks.landmarks
            {
                world = (0..<HandJoint.count).map { i in
                    let point = worldPoints[i]
                    return Keypoint(
                        x: Double(point.x),
                        y: Double(point.y),
                        z: Double(point.z),
                        confidence: keypoints[i].confidence
                    )
                }
            }
            var chirality = index < Int(result.handedness_count) ? Self.chirality(result.handedness[index]) : .unknown
            if mirrored { chirality = chirality.mirrored }
            hands.append(HandPose(keypoints: keypoints, chirality: chirality, worldKeypoints: world))
        }
        return hands
    }

    /// The side of the best handedness category ("Left" or "Right", the person's own for an unmirrored image).
    private static func chirality(_ categories: MpCategories) -> Chirality {
        let count = Int(categories.categories_count)
        guard count > 0, let categories = categories.categories else { return .unknown }
        var best = categories[0]
        for i in 1..<count where categories[i].score > best.score { best = categories[i] }
        guard let name = best.category_name else { return .unknown }
        switch String(cString: name).lowercased() {
        case "left": return .left
        case "right": return .right
        default: return .unknown
        }
    }

    private static func confidence(
        _ hasVisibility: Bool,
        _ visibility: Float,
        _ hasPresence: Bool,
        _ presence: Float
    ) -> Double {
        let value = hasVisibility ? visibility : hasPresence ? presence : 1
        return min(max(Double(value), 0), 1)
    }

    private static func validate(_ configuration: Configuration) throws(PoseEstimationError) {
        guard (1...4).contains(configuration.numHands) else {
            throw PoseEstimationError(
                .invalidConfiguration,
                "numHands (\(configuration.numHands)) must be between 1 and 4"
            )
        }
        let scores: [(String, Double)] = [
            ("minHandDetectionConfidence", configuration.minHandDetectionConfidence),
            ("minHandPresenceConfidence", configuration.minHandPresenceConfidence),
            ("minTrackingConfidence", configuration.minTrackingConfidence),
        ]
        for (name, value) in scores where !(0...1).contains(value) {
            throw PoseEstimationError(.invalidConfiguration, "\(name) (\(value)) must be between 0 and 1")
        }
    }
}

extension Chirality {
    /// The other hand, for a mirrored image; `unknown` stays so.
    fileprivate var mirrored: Chirality {
        switch self {
        case .left: .right
        case .right: .left
        case .unknown: .unknown
        }
    }
}

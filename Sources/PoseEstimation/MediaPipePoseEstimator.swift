import CMediaPipe
public import PoseKit

/// Finds body poses with MediaPipe's pose landmarker (BlazePose "full"), through its C library.
///
/// Each person found becomes a ``PoseKit/Pose`` whose keypoints are in pixels of the input image
/// (BlazePose's 33 landmarks mapped by ``PoseKit/SkeletonLayout/blazePose33``, confidence = MediaPipe's
/// visibility) and whose `worldKeypoints` are MediaPipe's hip-centred 3-D landmarks in metres.
///
/// The runtime (`libmediapipe.so`) and the model (`pose_landmarker_full.task`) are installed by
/// `scripts/setup.sh` and found by ``MediaPipeRuntime/locate(libraryPath:modelPath:)``. The library is
/// loaded with `dlopen` when the first estimator is made, so everything else builds and runs without it.
///
/// ```swift
/// let estimator = try MediaPipePoseEstimator(configuration: .init(runningMode: .video))
/// for (index, image) in frames.enumerated() {
///     let frame = try estimator.estimate(in: image, at: Double(index) / 30)
///     if let pose = frame.poses.first { print(pose[.leftKnee]) }
/// }
/// ```
///
/// Inference runs on the calling thread and takes about 15 ms per frame in video mode on one core
/// (about twice that in image mode, which runs the person detector on every frame).
public final class MediaPipePoseEstimator: PoseEstimator {
    /// How frames relate to each other.
    public enum RunningMode: Sendable, Hashable {
        /// Independent images: the person detector runs on every call and `seconds` is ignored.
        case image
        /// Frames of one video, `seconds` increasing: landmarks are tracked from frame to frame and the
        /// detector runs only when the track is lost.
        case video
        /// Frames of a live camera stream.
        ///
        /// MediaPipe's own LIVE_STREAM mode hands results to a C callback on one of its threads and may
        /// drop frames while busy. Here live mode runs the landmarker in VIDEO mode instead: the same
        /// tracking, a synchronous result for every frame given, stream times as timestamps. Dropping
        /// late frames is the pipeline's job (latest frame wins at the source), which keeps this type a
        /// plain synchronous stage.
        case liveStream
    }

    /// What to find, and where the runtime is.
    public struct Configuration: Sendable, Hashable {
        public var runningMode: RunningMode
        /// The most people to find in one frame.
        public var numPoses: Int
        /// The person detector's minimum score, 0...1.
        public var minPoseDetectionConfidence: Double
        /// The landmark model's minimum pose presence score, 0...1.
        public var minPosePresenceConfidence: Double
        /// The minimum score to keep tracking rather than detect again (video and live modes), 0...1.
        public var minTrackingConfidence: Double
        /// The `.task` model bundle; `nil` finds `runtime/models/pose_landmarker_full.task`.
        public var modelPath: String?
        /// The runtime library (`libmediapipe.so`); `nil` finds `runtime/lib/libmediapipe.so`.
        public var runtimePath: String?

        public init(
            runningMode: RunningMode = .image,
            numPoses: Int = 1,
            minPoseDetectionConfidence: Double = 0.5,
            minPosePresenceConfidence: Double = 0.5,
            minTrackingConfidence: Double = 0.5,
            modelPath: String? = nil,
            runtimePath: String? = nil
        ) {
            self.runningMode = runningMode
            self.numPoses = numPoses
            self.minPoseDetectionConfidence = minPoseDetectionConfidence
            self.minPosePresenceConfidence = minPosePresenceConfidence
            self.minTrackingConfidence = minTrackingConfidence
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

    /// Loads the runtime and the model and creates a pose landmarker.
    ///
    /// - Throws: ``PoseEstimationError`` — `runtimeNotInstalled` or `modelNotFound` (the message says to run
    ///   `scripts/setup.sh`), `runtimeIncompatible`, `invalidConfiguration`, or `creationFailed`.
    public init(configuration: Configuration = Configuration()) throws(PoseEstimationError) {
        try Self.validate(configuration)
        let runtime = try MediaPipeRuntime.locate(
            libraryPath: configuration.runtimePath,
            modelPath: configuration.modelPath
        )
        let library = try MediaPipeLibrary.load(at: runtime.libraryPath)

        var options = MpPoseLandmarkerOptions()
        options.base_options.file_descriptor = -1
        options.base_options.delegate = Int32(kMpDelegateCpu)
        options.base_options.host_system = Int32(kMpHostSystemLinux)
        options.running_mode = Int32(configuration.runningMode == .image ? kMpRunningModeImage : kMpRunningModeVideo)
        options.num_poses = Int32(configuration.numPoses)
        options.min_pose_detection_confidence = Float(configuration.minPoseDetectionConfidence)
        options.min_pose_presence_confidence = Float(configuration.minPosePresenceConfidence)
        options.min_tracking_confidence = Float(configuration.minTrackingConfidence)
        options.output_segmentation_masks = false
        options.result_callback = nil

        var handle: OpaquePointer? = nil
        // withCString rethrows untyped errors, so the typed error travels out as a Result.
        try runtime.modelPath.withCString { path in
            options.base_options.model_asset_path = path
            return Result { () throws(PoseEstimationError) in
                try library.check(.creationFailed, "MediaPipe refused the pose model \(runtime.modelPath)") {
                    library.poseLandmarkerCreate(&options, &handle, $0)
                }
            }
        }.get()
        guard let handle else {
            throw PoseEstimationError(.creationFailed, "MediaPipe created no pose landmarker from \(runtime.modelPath)")
        }
        self.configuration = configuration
        self.runtime = runtime
        self.library = library
        self.landmarker = handle
        self.input = MediaPipeFrameInput(library: library, tracking: configuration.runningMode != .image)
    }

    deinit {
        var message: UnsafeMutablePointer<CChar>? = nil
        _ = library.poseLandmarkerClose(landmarker, &message)
        if let message { library.errorFree(message) }
    }

    // MARK: - Detection

    /// Finds the people in `image`, taken `seconds` after the start of the stream.
    ///
    /// - Parameters:
    ///   - image: the frame; any size.
    ///   - seconds: the frame's time. Ignored in image mode; in video and live modes it must increase from
    ///     call to call (MediaPipe counts in whole milliseconds; frames closer than that are spaced by 1 ms).
    /// - Returns: one pose per person found (at most `numPoses`), keypoints in pixels of `image`.
    /// - Throws: ``PoseEstimationError`` — `timestampNotIncreasing`, `detectionFailed` or `unexpectedOutput`.
    public func estimate(in image: RGBImage, at seconds: Double) throws(PoseEstimationError) -> PoseFrame {
        let timestamp = try input.timestamp(for: seconds)
        let mpImage = try input.image(from: image)
        defer { library.imageFree(mpImage) }

        var result = MpPoseLandmarkerResult()
        let landmarker = self.landmarker
        let library = self.library
        if let timestamp {
            try library.check(.detectionFailed, "pose detection failed on the frame at \(seconds) s") {
                library.poseLandmarkerDetectForVideo(landmarker, mpImage, nil, timestamp, &result, $0)
            }
        } else {
            try library.check(.detectionFailed, "pose detection failed on the image") {
                library.poseLandmarkerDetectImage(landmarker, mpImage, nil, &result, $0)
            }
        }
        defer { library.poseLandmarkerCloseResult(&result) }
        let poses = try Self.poses(from: result, width: Double(image.width), height: Double(image.height))
        return PoseFrame(seconds: seconds, poses: poses)
    }

    /// Another stream begins (another video, or a live server's next session): its times start again from 0, a second
    /// on in the model's clock (long enough for the tracker to look afresh). The landmarker is kept: loading one is slow and, with MediaPipe, leaks
    /// some memory each time one is closed.
    public func startStream() { input.startStream() }

    // MARK: - Conversion

    /// BlazePose's landmark count.
    private static let landmarkCount = SkeletonLayout.blazePose33.joints.count

    private static func poses(
        from result: MpPoseLandmarkerResult,
        width: Double,
        height: Double
    ) throws(PoseEstimationError) -> [Pose] {
        let count = Int(result.pose_landmarks_count)
        guard count > 0, let poseLandmarks = result.pose_landmarks else { return [] }
        let worldCount = Int(result.pose_world_landmarks_count)
        var poses: [Pose] = []
        poses.reserveCapacity(count)
        for index in 0..<count {
            let landmarks = poseLandmarks[index]
            guard Int(landmarks.landmarks_count) == landmarkCount, let points = landmarks.landmarks else {
                throw PoseEstimationError(
                    .unexpectedOutput,
                    "MediaPipe returned \(landmarks.landmarks_count) landmarks for a pose, expected \(landmarkCount): "
                        + "is \(MediaPipeRuntime.modelRelativePath) the BlazePose model? Run scripts/setup.sh."
                )
            }
            let keypoints = (0..<landmarkCount).map { i in
                let point = points[i]
                return Keypoint(
                    x: Double(point.x) * width,
                    y: Double(point.y) * height,
                    // MediaPipe's z is in the scale of x (normalised by the image width).
                    z: Double(point.z) * width,
                    confidence: confidence(point.has_visibility, point.visibility, point.has_presence, point.presence)
                )
            }
            var pose = SkeletonLayout.blazePose33.pose(from: keypoints)
            if index < worldCount, let world = result.pose_world_landmarks?[index],
                Int(world.landmarks_count) == landmarkCount, let worldPoints = world.landmarks
            {
                let worldKeypoints = (0..<landmarkCount).map { i in
                    let point = worldPoints[i]
                    return Keypoint(
                        x: Double(point.x),
                        y: Double(point.y),
                        z: Double(point.z),
                        confidence: keypoints[i].confidence
                    )
                }
                pose.worldKeypoints = SkeletonLayout.blazePose33.pose(from: worldKeypoints).keypoints
            }
            poses.append(pose)
        }
        return poses
    }

    /// MediaPipe's visibility (likelihood of being visible, not occluded) as the keypoint's confidence,
    /// falling back to presence.
    private static func confidence(
        _ hasVisibility: Bool,
        _ visibility: Float,
        _ hasPresence: Bool,
        _ presence: Float
    )
        -> Double
    {
        let value = hasVisibility ? visibility : hasPresence ? presence : 1
        return min(max(Double(value), 0), 1)
    }

    private static func validate(_ configuration: Configuration) throws(PoseEstimationError) {
        guard configuration.numPoses >= 1 else {
            throw PoseEstimationError(
                .invalidConfiguration,
                "numPoses (\(configuration.numPoses)) must be at least 1"
            )
        }
        let scores: [(String, Double)] = [
            ("minPoseDetectionConfidence", configuration.minPoseDetectionConfidence),
            ("minPosePresenceConfidence", configuration.minPosePresenceConfidence),
            ("minTrackingConfidence", configuration.minTrackingConfidence),
        ]
        for (name, value) in scores where !(0...1).contains(value) {
            throw PoseEstimationError(.invalidConfiguration, "\(name) (\(value)) must be between 0 and 1")
        }
    }
}

public import CoachKit
import Foundation

/// How `ptcoach serve` runs.
public struct CoachServerConfiguration: Sendable {
    public var host: String
    public var port: Int
    /// Where the database lives.
    public var dataDirectory: String
    /// The exercise library.
    public var library: [ExerciseDefinition]
    /// The hand exercises (coached with the hand model: `CoachServer.run`'s `makeHandEstimator`).
    public var handLibrary: [HandExerciseDefinition]
    /// Camera sessions coached at once; the next is refused with a clear message.
    public var maxCameraSessions: Int
    /// Inference workers (0: one per core, the default (the pose model uses one core per frame).
    public var workers: Int
    /// The largest JPEG accepted in a camera frame.
    public var maxFrameBytes: Int
    /// The largest text message accepted (a keypoint frame, a start message).
    public var maxTextBytes: Int
    /// Sample videos for "try it with a sample video" (a folder with a `labels.csv` of file,exercise,reps).
    public var samplesDirectory: String?
    /// PEM files for HTTPS (phones need it for the camera).
    public var tlsCertificate: String?
    public var tlsKey: String?
    /// bcrypt's cost for passwords (12: about a quarter of a second per hash on one core).
    public var bcryptCost: UInt8

    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        dataDirectory: String,
        library: [ExerciseDefinition],
        handLibrary: [HandExerciseDefinition] = [],
        maxCameraSessions: Int = 8,
        workers: Int = 0,
        maxFrameBytes: Int = 1 << 20,
        maxTextBytes: Int = 256 << 10,
        samplesDirectory: String? = nil,
        tlsCertificate: String? = nil,
        tlsKey: String? = nil,
        bcryptCost: UInt8 = 12
    ) {
        self.host = host
        self.port = port
        self.dataDirectory = dataDirectory
        self.library = library
        self.handLibrary = handLibrary
        self.maxCameraSessions = maxCameraSessions
        self.workers = workers > 0 ? workers : ProcessInfo.processInfo.activeProcessorCount
        self.maxFrameBytes = maxFrameBytes
        self.maxTextBytes = maxTextBytes
        self.samplesDirectory = samplesDirectory
        self.tlsCertificate = tlsCertificate
        self.tlsKey = tlsKey
        self.bcryptCost = bcryptCost
    }
}

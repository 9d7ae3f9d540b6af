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
    /// Camera sessions coached at once, at most; the next is refused with a clear message. Fewer are admitted when
    /// the workers' measured rate could not coach each at 8 frames a second (``InferenceCapacity``).
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
    /// Keypoint sets (no pose model, but a socket and a set each) open at once from one address, and in all; the next
    /// is refused with "busy" (docs/server.md).
    public var maxKeypointSessionsPerAddress: Int
    public var maxKeypointSessions: Int
    /// How long a new connection may take to send its first request's head (a client that sends nothing, or half a
    /// head, is closed then), and how long a connection may then stay idle between requests or request parts.
    public var requestHeadTimeout: Duration
    public var idleTimeout: Duration
    /// Admission by capacity: the rate each camera session keeps, and how the workers' rate is measured.
    var admission = InferenceCapacity.Configuration()

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
        bcryptCost: UInt8 = 12,
        maxKeypointSessionsPerAddress: Int = 8,
        maxKeypointSessions: Int = 64,
        requestHeadTimeout: Duration = .seconds(10),
        idleTimeout: Duration = .seconds(20)
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
        self.maxKeypointSessionsPerAddress = maxKeypointSessionsPerAddress
        self.maxKeypointSessions = maxKeypointSessions
        self.requestHeadTimeout = requestHeadTimeout
        self.idleTimeout = idleTimeout
    }
}

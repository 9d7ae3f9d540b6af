import ArgumentParser
import CoachAnalysis
import CoachKit
import CoachPipeline
import CoachServer
import CoachStore
import Foundation
import Hummingbird
import Logging
import MediaIO
import PoseEstimation
import PoseKit

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "The live coach: the coaching page, its JSON API and the live WebSocket.",
        discussion: """
            Open the address it prints in a browser: pick an exercise, start the camera (or try a sample video), \
            and the coach draws the skeleton, counts repetitions and speaks its cues live. Sets are saved in \
            DATA-DIRECTORY/ptcoach.sqlite as their repetitions complete. The live protocol (for apps that send \
            JPEG frames or their own keypoints) is docs/live-protocol.md. SIGTERM or SIGINT finishes and saves the \
            open sets, then exits 0.
            """
    )

    @Option(name: .long, help: "The address to listen on (0.0.0.0 for every interface).")
    var host = "127.0.0.1"

    @Option(name: .long, help: "The port to listen on.")
    var port = 8080

    @OptionGroup var storage: StoreOptions

    @Option(
        name: .long,
        help: """
            Camera sessions coached at once, at most; fewer when the pose model, at the rate the server measures, \
            could not coach each at 8 frames a second. The next is refused with "busy" and when to try again.
            """
    )
    var maxSessions = 8

    @Option(name: .long, help: "Pose inference workers (default: one per core).")
    var workers: Int?

    @Option(
        name: .long,
        help: "Sample videos for \"try it with a sample video\": a folder with labels.csv (file,exercise,reps)."
    )
    var samples: String?

    @Option(name: .long, help: "PEM certificate for HTTPS (phones need HTTPS for the camera); needs --tls-key.")
    var tlsCertificate: String?

    @Option(name: .long, help: "PEM private key for HTTPS.")
    var tlsKey: String?

    @Option(name: .long, help: "A directory of exercise definition JSON files to use instead of the bundled library.")
    var exercisesDirectory: String?

    @Option(name: .long, help: "Log level: trace, debug, info, notice, warning, error.")
    var logLevel = "info"

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0…65535, got \(port)") }
        guard (1...1000).contains(maxSessions) else {
            throw ValidationError("--max-sessions must be 1…1000, got \(maxSessions)")
        }
        if let workers, !(1...256).contains(workers) {
            throw ValidationError("--workers must be 1…256, got \(workers)")
        }
        guard (tlsCertificate == nil) == (tlsKey == nil) else {
            throw ValidationError("give both --tls-certificate and --tls-key, or neither")
        }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be trace, debug, info, notice, warning or error, got \(logLevel)")
        }
    }

    func run() async throws {
        LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
        var logger = Logger(label: "ptcoach")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        let library = try BodyAnalysis.loadLibrary(directory: exercisesDirectory)
        // The pose runtime is checked now, not at the first camera frame: a missing set-up is one clear line.
        do {
            _ = try MediaPipeRuntime.locate()
        } catch {
            throw CLIError("\(error)")
        }
        let hands = try handExercises(logger: logger)
        let store = try await storage.open()
        let relay = try await storage.openRelay()
        if let samples, !FileManager.default.fileExists(atPath: samples + "/labels.csv") {
            throw ValidationError(
                "--samples \(samples) has no labels.csv (file,exercise,reps); give the folder that has one"
            )
        }
        let samplesDirectory = samples ?? Self.foundSamples()
        let configuration = CoachServerConfiguration(
            host: host,
            port: port,
            dataDirectory: storage.dataDirectory,
            library: library.exercises,
            handLibrary: hands,
            maxCameraSessions: maxSessions,
            workers: workers ?? 0,
            samplesDirectory: samplesDirectory,
            tlsCertificate: tlsCertificate,
            tlsKey: tlsKey
        )
        let makeHands: CameraHandEstimatorFactory? = hands.isEmpty ? nil : Self.handEstimator
        do {
            try await CoachServer.run(
                configuration: configuration,
                store: store,
                makeEstimator: { () throws(LiveFrameError) in
                    try Self.cameraEstimator("pose") { () throws(PoseEstimationError) in
                        try MediaPipePoseEstimator(configuration: .init(runningMode: .liveStream, numPoses: 1))
                    }
                },
                makeHandEstimator: makeHands,
                relay: relay,
                demonstrations: VideoDemonstrationPoses(),
                reports: LiveReportRenderer(library: library, hands: hands),
                logger: logger,
                onServerRunning: { port in
                    // Written at once (print would wait in a pipe's buffer): scripts wait for this line.
                    let line = await runningLine(port: port, samplesDirectory: samplesDirectory, store: store)
                    FileHandle.standardOutput.write(Data(line.utf8))
                }
            )
        } catch {
            throw serveError(error)
        }
    }

    // MARK: - The steps of `run`

    /// The hand exercises to coach: the library's when the hand model is set up; none without it (the server then
    /// coaches bodies only, and says so in a warning).
    private func handExercises(logger: Logger) throws -> [HandExerciseDefinition] {
        let hands = try HandAnalysis.library(directory: exercisesDirectory)?.exercises ?? []
        guard !hands.isEmpty else { return hands }
        do {
            _ = try MediaPipeRuntime.locate(.hands)
        } catch {
            logger.warning("serve: no hand exercises: \(error)")
            return []
        }
        return hands
    }

    /// A live session's hand estimator: video mode, up to three hands, as `ptcoach analyze` looks for them.
    @Sendable private static func handEstimator() throws(LiveFrameError) -> CameraEstimator<HandFrame> {
        try cameraEstimator("hand") { () throws(PoseEstimationError) in
            try MediaPipeHandEstimator(configuration: .init(runningMode: .video, numHands: HandAnalysis.handsSought))
        }
    }

    /// The line that says the server is live (scripts wait for it), with a hint when there is no therapist yet.
    private func runningLine(port: Int, samplesDirectory: String?, store: any ClinicStore) async -> String {
        let scheme = tlsCertificate == nil ? "http" : "https"
        let shown = host == "0.0.0.0" ? "127.0.0.1" : host
        let samplesLine =
            samplesDirectory.map { "sample videos from \($0)" }
            ?? "no sample videos found (give --samples DIR, a folder with labels.csv, to offer them)"
        var line = "PT Coach is live: open \(scheme)://\(shown):\(port)/ (sets saved in \(storage.description); "
        line += samplesLine + ")\n"
        if (try? await store.therapists().isEmpty) == true {
            // The options a command run beside this server needs to reach the same database.
            line += "No therapist yet: `ptcoach users add --role therapist --name NAME --login LOGIN"
            line += " \(storage.commandLine)` makes one; the clinic is at \(scheme)://\(shown):\(port)/clinic.html\n"
        }
        return line
    }

    /// The error `ptcoach serve` exits with when the server could not run or stopped on `error`.
    private func serveError(_ error: any Error) -> CLIError {
        if let error = error as? CoachServerError { return CLIError(error.message) }
        let text = String(describing: error)
        if text.contains("Address already in use") || text.contains("errno: 98") {
            return CLIError(
                "port \(port) on \(host) is in use (another ptcoach serve?): stop it, or give another --port"
            )
        }
        if text.contains("Permission denied") || text.contains("errno: 13") {
            return CLIError("port \(port) on \(host) needs more rights than this user has: give a --port above 1023")
        }
        return CLIError("could not serve on \(host):\(port) (\(text.prefix(200)))")
    }

    /// The sample videos of "try it with a sample video" when `--samples` is not given: `../shared/data/videos` next
    /// to the working directory, or next to the repository the binary was built in (`.build/debug/ptcoach`), so
    /// starting it from elsewhere finds them too.
    static func foundSamples(executable: String = CommandLine.arguments[0]) -> String? {
        let relative = "shared/data/videos"
        var candidates = [FileManager.default.currentDirectoryPath + "/../" + relative]
        var folder = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<5 {
            candidates.append(folder.path + "/../" + relative)
            candidates.append(folder.path + "/" + relative)
            folder.deleteLastPathComponent()
        }
        return candidates.first { FileManager.default.fileExists(atPath: $0 + "/labels.csv") }
            .map { URL(fileURLWithPath: $0).standardizedFileURL.path }
    }

    /// A live session's estimator: its camera frames through libjpeg-turbo, then the MediaPipe model `make` starts
    /// (video mode: one tracker per session).
    static func cameraEstimator<Frame>(
        _ model: String,
        _ make: () throws(PoseEstimationError) -> any PoseEstimator<Frame>
    ) throws(LiveFrameError) -> CameraEstimator<Frame> {
        let decoder: JPEGDecoder
        do {
            decoder = try JPEGDecoder()
        } catch {
            throw LiveFrameError(.model, error.message)
        }
        do {
            return CameraEstimator(decode: { try decoder.decode($0) }, estimator: try make())
        } catch {
            throw LiveFrameError(.model, "the \(model) model could not start: \(error.message)")
        }
    }
}

import CoachKit
public import CoachStore
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import HummingbirdWebSocket
public import Logging
import NIOCore
import NIOSSL
import NIOWebSocket
import PoseKit
import ServiceLifecycle
import UnixSignals

/// The live coach's web application: the coaching page, a small JSON API and the live WebSocket
/// (docs/live-protocol.md).
///
/// ```swift
/// try await CoachServer.run(configuration: configuration, store: store,
///                           makeEstimator: { try MyEstimator() }, reports: renderer, logger: logger)
/// // SIGTERM/SIGINT: each open socket gets its summary and a 1001 close, its set is saved, then the server stops
/// ```
public enum CoachServer {
    /// Runs the live coach until SIGTERM or SIGINT. At the signal, before the HTTP server stops, each open live
    /// socket gets its set's summary and is closed with 1001 "server shutting down", and its set is saved; then the
    /// server stops, and the process can exit 0.
    public static func run(
        configuration: CoachServerConfiguration,
        store: any ClinicStore,
        makeEstimator: @escaping CameraPoseEstimatorFactory,
        makeHandEstimator: CameraHandEstimatorFactory? = nil,
        relay: any LiveRelay = LocalLiveRelay(),
        demonstrations: (any DemonstrationPoses)? = nil,
        reports: any ReportRendering,
        logger: Logger,
        onServerRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in }
    ) async throws {
        let (application, shutdown) = try parts(
            configuration,
            store,
            makeEstimator,
            reports,
            logger,
            onServerRunning,
            makeHandEstimator,
            relay: relay,
            demonstrations: demonstrations
        )
        // Services stop in the reverse of this order: the sockets are closed with a reason before the server goes.
        let group = ServiceGroup(
            configuration: .init(
                services: [application, shutdown],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
        try await group.run()
    }

    /// The application, and the service that closes the live sockets first at shutdown (tests run them as
    /// ``run(configuration:store:makeEstimator:makeHandEstimator:relay:demonstrations:reports:logger:onServerRunning:)`` does, or the
    /// application alone). `relay` carries the live-watch messages between instances (one alone: in process).
    static func parts(
        _ configuration: CoachServerConfiguration,
        _ store: any ClinicStore,
        _ makeEstimator: @escaping CameraPoseEstimatorFactory,
        _ reports: any ReportRendering,
        _ logger: Logger,
        _ onServerRunning: @escaping @Sendable (_ port: Int) async -> Void,
        _ makeHandEstimator: CameraHandEstimatorFactory? = nil,
        relay: any LiveRelay = LocalLiveRelay(),
        demonstrations: (any DemonstrationPoses)? = nil
    ) throws -> (application: some ApplicationProtocol, shutdown: LiveShutdown) {
        let hub = LiveHub(
            configuration: configuration,
            store: store,
            makeEstimator: makeEstimator,
            makeHandEstimator: makeHandEstimator,
            relay: relay,
            demonstrations: demonstrations,
            logger: logger
        )
        let router = try buildRouter(hub: hub, reports: reports, logger: logger)
        let application = try buildApplication(
            router: router,
            hub: hub,
            logger: logger,
            onServerRunning: onServerRunning
        )
        return (application, LiveShutdown(hub: hub))
    }

    /// The one place the routes are wired: the pages and sample videos, the JSON API, the live socket, and the
    /// middlewares every answer goes through.
    static func buildRouter(
        hub: LiveHub,
        reports: any ReportRendering,
        logger: Logger
    ) throws -> Router<CoachRequestContext> {
        let configuration = hub.configuration
        let router = Router(context: CoachRequestContext.self)
        router.middlewares.add(LogRequestsMiddleware(.debug))
        router.middlewares.add(ResponseHeadersMiddleware())
        guard let publicFolder = Bundle.module.url(forResource: "Public", withExtension: nil)?.path else {
            throw HTTPError(.internalServerError, message: "the coaching page's files are missing from the build")
        }
        router.middlewares.add(FileMiddleware(publicFolder, searchForIndexHtml: true, logger: logger))
        let samples = configuration.samplesDirectory.map { SampleVideos(directory: $0, library: configuration.library) }
        if let samples {
            router.middlewares.add(FileMiddleware(samples.directory, urlBasePath: "/samples", logger: logger))
        }
        let auth = ClinicAuth(
            store: hub.store,
            bcryptCost: configuration.bcryptCost,
            secureCookies: configuration.tlsCertificate != nil
        )
        addAPI(to: router, hub: hub, samples: samples, reports: reports, auth: auth)
        addLiveSocket(to: router, hub: hub, auth: auth, maxMessage: configuration.maxMessageBytes)
        addWatchSocket(to: router, hub: hub, auth: auth)
        return router
    }

    /// The HTTP server around `router`: HTTP/1 with the WebSocket upgrade, TLS when configured, inside the guards
    /// of docs/server.md.
    static func buildApplication(
        router: Router<CoachRequestContext>,
        hub: LiveHub,
        logger: Logger,
        onServerRunning: @escaping @Sendable (_ port: Int) async -> Void
    ) throws -> some ApplicationProtocol {
        let configuration = hub.configuration
        let maxMessage = configuration.maxMessageBytes
        var tls: TLSConfiguration?
        if let certificate = configuration.tlsCertificate, let key = configuration.tlsKey {
            do {
                tls = TLSConfiguration.makeServerConfiguration(
                    certificateChain: try NIOSSLCertificate.fromPEMFile(certificate).map { .certificate($0) },
                    privateKey: .privateKey(try NIOSSLPrivateKey(file: key, format: .pem))
                )
            } catch {
                throw CoachServerError(
                    "cannot read the TLS certificate \(certificate) or key \(key) (\(error)); give PEM files (README: HTTPS)"
                )
            }
        }
        let webSocket = WebSocketServerConfiguration(
            maxFrameSize: maxMessage,
            autoPing: .enabled(timePeriod: .seconds(30))
        )
        // HTTP/1 with the WebSocket upgrade, as `HTTPServerBuilder.http1WebSocketUpgrade(webSocketRouter:)` builds it,
        // inside the guards of docs/server.md: a deadline for the first request's head, an answer to malformed
        // HTTP, an idle timeout, an error message for a WebSocket message over the limit.
        let http1 = HTTP1Channel.Configuration(
            idleTimeout: TimeAmount(configuration.idleTimeout),
            httpDecoderConfiguration: .init(
                maxHeaderFieldSize: 80 << 10,
                maxHeaderListSize: 80 << 10,
                maxHeaderFieldCount: 1000
            )
        )
        let webSocketResponder = router.buildResponder()
        let upgrade = HTTPServerBuilder { responder in
            GuardedChannel(
                base: HTTP1WebSocketUpgradeChannel(
                    responder: responder,
                    webSocketResponder: webSocketResponder,
                    configuration: .init(http1: http1, ws: webSocket)
                ),
                requestHeadTimeout: configuration.requestHeadTimeout,
                maxMessageBytes: maxMessage
            )
        }
        let application = Application(
            router: router,
            server: try tls.map { try .tls(upgrade, tlsConfiguration: $0) } ?? upgrade,
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port),
                serverName: "ptcoach"
            ),
            services: [hub],
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? configuration.port) },
            logger: logger
        )
        return application
    }

    /// Whether a request comes from this server's own pages. A browser may open the live socket only from them
    /// (another site must not use a visitor's camera session), and a login or join form posted from another site
    /// is refused (login CSRF). Browsers always send an http(s) Origin (or "null" from a file or sandbox, refused
    /// too); clients that send none are let in, and on the socket also those that send their own ws:// one (apps,
    /// tools).
    static func checkOrigin(_ request: Request, webSocket: Bool = true) throws {
        let host = request.head.authority ?? ""
        let allowed = ["http://\(host)".lowercased(), "https://\(host)".lowercased()]
        for origin in request.headers[values: .origin]
        where !(webSocket && (origin.hasPrefix("ws://") || origin.hasPrefix("wss://"))) {
            guard !host.isEmpty, allowed.contains(origin.lowercased()) else {
                throw HTTPError(
                    .forbidden,
                    message: webSocket
                        ? "WebSocket from origin \(origin) refused: open the coach from its own address"
                        : "requests from \(origin) are refused; use this server's own pages"
                )
            }
        }
    }

    // MARK: - API

    /// The JSON API: one controller per resource, under `/api`, each route reading who is logged in from the
    /// context (``ViewerMiddleware``; ``RequireViewer`` where a login or a role is needed).
    private static func addAPI(
        to router: Router<CoachRequestContext>,
        hub: LiveHub,
        samples: SampleVideos?,
        reports: any ReportRendering,
        auth: ClinicAuth
    ) {
        let library = LibraryController(hub: hub, samples: samples)
        router.get("/health", use: library.health)
        let api = router.group("/api").add(middleware: ViewerMiddleware(auth: auth))
        api.addRoutes(library.endpoints)
        api.addRoutes(AccountsController(auth: auth, store: hub.store) { hub.exerciseNames }.endpoints)
        api.addRoutes(PatientsController(hub: hub, reports: reports).endpoints, atPath: "/patients")
        api.addRoutes(SessionsController(hub: hub, reports: reports).endpoints, atPath: "/sessions")
        api.addRoutes(LearnController(hub: hub).endpoints, atPath: "/library")
    }

    /// A saved set with its summary and angle series, or `nil` when it has no summary (running, nobody coached). A
    /// hand set's summary is the hand summary (`analyze --json`'s hand object).
    /// `library`: the exercises the server coaches (a clinic exercise's definition goes with its set to the report).
    static func reportedSet(_ set: SetRecord, library: [ExerciseDefinition] = []) -> ReportedSet? {
        guard let text = set.summaryJSON, text != "null" else { return nil }
        let series =
            set.angleSeriesJSON.map(AngleSample.series(json:)) ?? []
        if let summary = try? SessionSummary(jsonText: text) {
            let id = summary.exercise ?? set.exercise
            let definition = library.first { $0.id == id }
            return ReportedSet(set: set, summary: summary, angleSeries: series, definition: definition)
        }
        guard let hand = try? JSONDecoder.coach().decode(HandSessionSummary.self, from: Data(text.utf8)) else {
            return nil
        }
        return ReportedSet(set: set, summary: hand.stored, angleSeries: series, hand: hand)
    }

    /// "Squat: 8 repetitions" / "Plank: held 31.0 s", and when and how long.
    static func setTitle(_ reported: ReportedSet, library: [ExerciseDefinition]) -> (title: String, subtitle: String) {
        let summary = reported.summary
        let isHold = library.first { $0.id == summary.exercise }?.isHold ?? false
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        var subtitle =
            "Live set, \(formatter.string(from: reported.set.startedAt)) · \(String(format: "%.1f", summary.durationSeconds)) s"
        if let figures = reported.hand?.figures { subtitle += " · " + figures }
        switch reported.set.practice {
        case .sampleVideo?: subtitle += " · practice with a sample video: not the patient's set"
        case .unprescribed?: subtitle += " · practice, not from the programme: does not count"
        case nil: break
        }
        return (summary.headline(isHold: isHold), subtitle)
    }

    static func report(
        _ sets: [ReportedSet],
        reports: any ReportRendering,
        format: ReportFormat,
        title: (title: String, subtitle: String)
    ) throws -> [UInt8] {
        do {
            return try reports.report(sets, title: title.title, subtitle: title.subtitle, format: format.rawValue)
        } catch {
            throw HTTPError(.internalServerError, message: "the report could not be written: \(error)")
        }
    }
}

/// A server start-up failure, with one line saying what to do.
public struct CoachServerError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The sample videos of "try it with a sample video": those of a folder's `labels.csv` whose exercise is in the
/// library (`file,exercise,reps_labelled,…`, paths relative to the folder's parent, as `../shared/data/videos`
/// has them).
struct SampleVideos: Sendable {
    struct Sample: Sendable {
        var name: String
        var path: String
        var exercise: String
        var reps: Int?
    }

    let directory: String
    let list: [Sample]

    init(directory: String, library: [ExerciseDefinition]) {
        self.directory = directory
        let ids = Set(library.map(\.id))
        let folder = (directory as NSString).lastPathComponent
        var list: [Sample] = []
        let text = (try? String(contentsOfFile: directory + "/labels.csv", encoding: .utf8)) ?? ""
        for row in ((try? CSVRows.parse(text)) ?? []).dropFirst() {
            let fields = row.fields
            guard fields.count >= 3, ids.contains(fields[1]) else { continue }
            var path = fields[0]
            if path.hasPrefix(folder + "/") { path.removeFirst(folder.count + 1) }
            guard !path.contains(".."), FileManager.default.fileExists(atPath: directory + "/" + path) else { continue }
            let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
            list.append(Sample(name: name, path: path, exercise: fields[1], reps: Int(fields[2])))
        }
        // Plain names for the list ("Squat, example 3 (2 repetitions)"), numbered within each exercise.
        let names = Dictionary(library.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        var numbered: [String: Int] = [:]
        self.list = list.sorted { ($0.exercise, $0.name) < ($1.exercise, $1.name) }.map { sample in
            var sample = sample
            numbered[sample.exercise, default: 0] += 1
            let reps = sample.reps.map { " (\($0) repetition\($0 == 1 ? "" : "s"))" } ?? ""
            sample.name = "\(names[sample.exercise] ?? sample.exercise), example \(numbered[sample.exercise]!)\(reps)"
            return sample
        }
    }
}

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
            makeHandEstimator
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
    /// ``run(configuration:store:makeEstimator:makeHandEstimator:reports:logger:onServerRunning:)`` does, or the application alone).
    static func parts(
        _ configuration: CoachServerConfiguration,
        _ store: any ClinicStore,
        _ makeEstimator: @escaping CameraPoseEstimatorFactory,
        _ reports: any ReportRendering,
        _ logger: Logger,
        _ onServerRunning: @escaping @Sendable (_ port: Int) async -> Void,
        _ makeHandEstimator: CameraHandEstimatorFactory? = nil
    ) throws -> (application: some ApplicationProtocol, shutdown: LiveShutdown) {
        let hub = LiveHub(
            configuration: configuration,
            store: store,
            makeEstimator: makeEstimator,
            makeHandEstimator: makeHandEstimator,
            logger: logger
        )
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
            store: store,
            bcryptCost: configuration.bcryptCost,
            secureCookies: configuration.tlsCertificate != nil
        )
        addAPI(to: router, hub: hub, samples: samples, reports: reports, auth: auth)
        ClinicAPI.add(to: router, hub: hub, auth: auth, reports: reports)
        let maxMessage = configuration.maxFrameBytes + (64 << 10)
        router.ws(
            "/live",
            shouldUpgrade: { request, _ in
                try checkOrigin(request)
                return .upgrade([:])
            },
            onUpgrade: { inbound, outbound, context in
                let outbox = LiveOutbox()
                // A patient logged in on this browser: their sets are saved as theirs and can follow the programme.
                let patient = try? await auth.viewer(context.request).map(\.user).flatMap {
                    $0.role == .patient ? $0 : nil
                }
                let address = context.requestContext.remoteAddress?.ipAddress ?? "unknown"
                let connection = LiveConnection(hub: hub, patient: patient, address: address, logger: context.logger) {
                    outbox.send($0)
                }
                hub.register(connection)
                defer { hub.unregister(connection) }
                await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        // A writer that has stopped (socket gone) must not leave the reader waiting for room.
                        defer { outbox.finish() }
                        for await item in outbox.messages {
                            defer { outbox.written() }
                            switch item {
                            case .text(let text):
                                try await outbound.write(.text(text))
                            case .close(let code, let reason):
                                try await outbound.close(code, reason: reason)
                                return
                            }
                        }
                    }
                    await withGracefulShutdownHandler {
                        do {
                            for try await message in inbound.messages(maxSize: maxMessage) {
                                guard await connection.handle(message) else { break }
                                await outbox.waitForRoom()
                            }
                        } catch {
                            context.logger.info("live: socket ended: \(error)")
                        }
                    } onGracefulShutdown: {
                        Task { await connection.shutDown() }
                    }
                    await connection.finish()
                    outbox.finish()
                    _ = try? await group.next()
                    group.cancelAll()
                }
            }
        )
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
        return (application, LiveShutdown(hub: hub))
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

    private static func addAPI(
        to router: Router<CoachRequestContext>,
        hub: LiveHub,
        samples: SampleVideos?,
        reports: any ReportRendering,
        auth: ClinicAuth
    ) {
        let library = hub.library
        router.get("/health") { _, _ in
            json(.object(["status": .string("ok"), "sessions": .number(Double(hub.openSets))]))
        }
        router.get("/api/exercises") { _, _ in
            var list: [JSONValue] = library.map { e in
                .object([
                    "id": .string(e.id), "name": .string(e.name), "view": .string(e.view.rawValue),
                    "kind": .string(e.isHold ? "hold" : "reps"), "summary": .string(e.summary),
                    "primary": .string(e.primaryAngle.rawValue),
                ])
            }
            // The hand exercises, marked "hand": true, when the server has the hand model.
            let hands = hub.handEstimators == nil ? [] : hub.handLibrary
            list += hands.map { e in
                .object([
                    "id": .string(e.id), "name": .string(e.name), "view": .string(e.view.rawValue),
                    "kind": .string("reps"), "summary": .string(e.summary), "primary": .string(e.primary.rawValue),
                    "hand": .bool(true),
                ])
            }
            return json(.array(list))
        }
        router.get("/api/samples") { _, _ in
            json(.array((samples?.list ?? []).map(\.json)))
        }
        router.get("/api/sessions") { request, _ in
            // Your own sets (a patient), or your patients' (a therapist); sets coached without logging in are
            // listed to nobody.
            let viewer = try await auth.require(request)
            let limit = request.uri.queryParameters.get("limit", as: Int.self).map { min(max($0, 1), 1000) } ?? 50
            var sets: [SetRecord] = []
            let patients =
                viewer.user.role == .patient
                ? [viewer.user] : try await hub.store.patients(therapistID: viewer.user.id)
            for patient in patients {
                // Practice sets (a sample video, or not from the programme and not kept) are not the patient's.
                sets += try await hub.store.sets(patientID: patient.id, since: nil, limit: limit)
                    .filter { $0.practice == nil }
            }
            sets = Array(sets.sorted { $0.startedAt > $1.startedAt }.prefix(limit))
            return json(.array(sets.map { .object(setJSON($0)) }))
        }
        router.get("/api/sessions/:id") { request, context in
            let set = try await savedSet(request, context, hub: hub, auth: auth)
            var object = setJSON(set)
            if let text = set.summaryJSON, let summary = try? JSONValue.parse(text) {
                object["summary"] = summary
            } else {
                // Still open, or interrupted: the repetitions saved so far.
                let repetitions = try await hub.store.repetitions(setID: set.id)
                object["repetitions"] = JSONValue.encoding(repetitions)
            }
            return json(.object(object))
        }
        router.get("/api/sessions/:id/:report") { request, context in
            let set = try await savedSet(request, context, hub: hub, auth: auth)
            let name = context.parameters.get("report") ?? ""
            guard let format = ["report.html": "html", "report.pdf": "pdf"][name] else {
                throw HTTPError(.notFound, message: "no such report: use report.html or report.pdf")
            }
            guard let reported = reportedSet(set) else {
                throw HTTPError(
                    .conflict,
                    message: "this set has no summary yet (still running, or nobody was coached)"
                )
            }
            let bytes = try report(
                [reported],
                reports: reports,
                format: format,
                title: setTitle(reported, library: hub.library)
            )
            return Response(
                status: .ok,
                headers: [.contentType: format == "pdf" ? "application/pdf" : "text/html; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: bytes))
            )
        }
    }

    /// A saved set with its summary and angle series, or `nil` when it has no summary (running, nobody coached). A
    /// hand set's summary is the hand summary (`analyze --json`'s hand object).
    static func reportedSet(_ set: SetRecord) -> ReportedSet? {
        guard let text = set.summaryJSON, text != "null" else { return nil }
        let series =
            set.angleSeriesJSON.flatMap { try? JSONValue.parse($0) }?.arrayValue?.compactMap(AngleSample.init(row:))
            ?? []
        if let summary = try? SessionSummary(jsonText: text) {
            return ReportedSet(set: set, summary: summary, angleSeries: series)
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
        format: String,
        title: (title: String, subtitle: String)
    ) throws -> [UInt8] {
        do {
            return try reports.report(sets, title: title.title, subtitle: title.subtitle, format: format)
        } catch {
            throw HTTPError(.internalServerError, message: "the report could not be written: \(error)")
        }
    }

    private static func savedSet(
        _ request: Request,
        _ context: CoachRequestContext,
        hub: LiveHub,
        auth: ClinicAuth
    ) async throws -> SetRecord {
        let id = context.parameters.get("id") ?? ""
        let viewer = try await auth.viewer(request)
        guard let set = try await hub.store.set(id: id),
            try await ClinicAPI.canRead(set, viewer: viewer, store: hub.store)
        else {
            throw HTTPError(.notFound, message: "no saved set \(id) of yours; GET /api/sessions lists them")
        }
        if let viewer, let patient = set.patientID, patient != viewer.user.id {
            try await hub.store.record(
                AuditEntry(
                    actorID: viewer.user.id,
                    actorName: viewer.user.name,
                    patientID: patient,
                    action: "opened set \(set.id)"
                )
            )
        }
        return set
    }

    static func setJSON(_ set: SetRecord) -> [String: JSONValue] {
        func optional(_ x: String?) -> JSONValue { x.map(JSONValue.string) ?? .null }
        let formatter = ISO8601DateFormatter()
        return [
            "id": .string(set.id), "startedAt": .string(formatter.string(from: set.startedAt)),
            "endedAt": optional(set.endedAt.map(formatter.string(from:))), "input": .string(set.input),
            "exercise": optional(set.exercise), "exerciseName": optional(set.exerciseName),
            "prescribedReps": set.prescribedReps.map { .number(Double($0)) } ?? .null,
            "prescribedHoldSeconds": set.prescribedHoldSeconds.map(JSONValue.number) ?? .null,
            "reps": .number(Double(set.reps)), "status": .string(set.status.rawValue),
            "programmeItem": set.programmeItem.map { .number(Double($0)) } ?? .null,
            "setNumber": set.setNumber.map { .number(Double($0)) } ?? .null,
            "pain": set.pain.map { .number(Double($0)) } ?? .null,
            "difficulty": set.difficulty.map { .number(Double($0)) } ?? .null,
            "peakAngle": set.peakAngle.map(JSONValue.number) ?? .null,
            "safetyWarnings": .number(Double(set.safetyWarnings)),
            "practice": set.practice.map { .string($0.rawValue) } ?? .null,
            "programmeVersion": set.programmeVersion.map { .number(Double($0)) } ?? .null,
            "prescription": set.prescription.map { JSONValue.encoding($0) } ?? .null,
            "stop": set.stopReason.map(JSONValue.string) ?? .null,
            "reviewedAt": optional(set.reviewedAt.map(formatter.string(from:))),
            "report": set.summaryJSON == nil || set.summaryJSON == "null"
                ? .null
                : .object([
                    "html": .string("/api/sessions/\(set.id)/report.html"),
                    "pdf": .string("/api/sessions/\(set.id)/report.pdf"),
                ]),
        ]
    }

    private static func json(_ value: JSONValue) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: value.jsonText))
        )
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

        var json: JSONValue {
            .object([
                "name": .string(name), "url": .string("/samples/" + path), "exercise": .string(exercise),
                "reps": reps.map { .number(Double($0)) } ?? .null,
            ])
        }
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

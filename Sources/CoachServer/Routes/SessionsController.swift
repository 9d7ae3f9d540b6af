import CoachKit
import CoachStore
import Foundation
import Hummingbird

/// The saved sets: `/api/sessions…` — the list (your own, or your patients'), one set with its summary and
/// reports, and what a patient or therapist does with one (rate it, keep a practice set, mark a stop seen). A set
/// coached without logging in belongs to nobody and is reached by its id alone (as its page's links give it).
struct SessionsController: Sendable {
    let hub: LiveHub
    let reports: any ReportRendering

    private var store: any ClinicStore { hub.store }

    var endpoints: RouteCollection<CoachRequestContext> {
        let routes = RouteCollection(context: CoachRequestContext.self)
        routes.get(":id", use: show)
        routes.get(":id/:report", use: report)
        let loggedIn = RouteCollection(context: CoachRequestContext.self).add(middleware: RequireViewer())
        loggedIn.get(use: list)
        let patient = RouteCollection(context: CoachRequestContext.self).add(middleware: RequireViewer(.patient))
        patient.post(":id/rating", use: rate)
        patient.post(":id/keep", use: keep)
        let therapist = RouteCollection(context: CoachRequestContext.self).add(middleware: RequireViewer(.therapist))
        therapist.post(":id/review", use: review)
        return routes.addRoutes(loggedIn).addRoutes(patient).addRoutes(therapist)
    }

    /// Your own sets (a patient), or your patients' (a therapist), newest first; practice sets (a sample video, or
    /// not from the programme and not kept) are not the patient's and are left out.
    @Sendable func list(_ request: Request, context: CoachRequestContext) async throws -> [SetResponse] {
        let viewer = try context.requireViewer()
        let limit = request.uri.queryParameters.get("limit", as: Int.self).map { min(max($0, 1), 1000) } ?? 50
        let patients =
            viewer.user.role == .patient ? [viewer.user] : try await store.patients(therapistID: viewer.user.id)
        var sets: [SetRecord] = []
        for patient in patients {
            sets += try await store.sets(patientID: patient.id, since: nil, limit: limit).filter { $0.practice == nil }
        }
        return sets.sorted { $0.startedAt > $1.startedAt }.prefix(limit).map(SetResponse.init)
    }

    /// One set: its summary (as `analyze --json`), or while it has none (still open, or interrupted) the
    /// repetitions saved so far.
    @Sendable func show(_ request: Request, context: CoachRequestContext) async throws -> SetResponse {
        let set = try await savedSet(context)
        var response = SetResponse(set)
        if let text = set.summaryJSON, let summary = try? EmbeddedJSON(text: text) {
            response.summary = summary
        } else {
            response.repetitions = try await store.repetitions(setID: set.id)
        }
        return response
    }

    /// The set's report, as `ptcoach analyze --report` writes it.
    @Sendable func report(_ request: Request, context: CoachRequestContext) async throws -> FileResponse {
        let set = try await savedSet(context)
        guard let format = ReportFormat(fileName: context.parameter("report")) else {
            throw HTTPError(.notFound, message: "no such report: use report.html or report.pdf")
        }
        guard let reported = CoachServer.reportedSet(set, library: hub.library) else {
            throw HTTPError(.conflict, message: "this set has no summary yet (still running, or nobody was coached)")
        }
        let bytes = try CoachServer.report(
            [reported],
            reports: reports,
            format: format,
            title: CoachServer.setTitle(reported, library: hub.library)
        )
        return FileResponse(bytes: bytes, contentType: format.contentType)
    }

    /// The patient rates their set; after pain 7 or more (or a safety stop in the set) the answer carries the
    /// advice to stop this exercise and contact the therapist.
    @Sendable func rate(_ request: Request, context: CoachRequestContext) async throws -> RatingResponse {
        let viewer = try context.requireViewer()
        let id = context.parameter("id")
        guard let set = try await store.set(id: id), set.patientID == viewer.user.id else {
            throw HTTPError(.notFound, message: "no set \(id) of yours")
        }
        let rating = try await request.decode(as: RatingRequest.self, context: context)
        try rating.validate()
        var rated = set
        (rated.pain, rated.difficulty) = (rating.pain, rating.difficulty)
        try await store.rate(setID: set.id, pain: rated.pain, difficulty: rated.difficulty)
        return RatingResponse(stop: rated.stopReason == nil ? nil : StopAdvice.text(for: rated, name: nil))
    }

    /// A practice set with the patient's own camera becomes theirs; a sample video's never does.
    @Sendable func keep(_ request: Request, context: CoachRequestContext) async throws -> OKResponse {
        let set = try await ClinicAPI.ownSet(context, viewer: try context.requireViewer(), store: store)
        guard set.practice != .sampleVideo else {
            throw HTTPError(.conflict, message: "a sample video's set is practice only; do the set with your camera")
        }
        try await store.setPractice(setID: set.id, nil)
        return OKResponse()
    }

    /// The therapist has seen a set that stopped its exercise: the patient is offered it again.
    @Sendable func review(_ request: Request, context: CoachRequestContext) async throws -> OKResponse {
        let viewer = try context.requireViewer()
        let set = try await ClinicAPI.ownSet(context, viewer: viewer, store: store)
        guard set.stopReason != nil else {
            throw HTTPError(.conflict, message: "this set did not stop its exercise; nothing to review")
        }
        try await store.review(setID: set.id, by: viewer.user.id, at: .now)
        if let patient = try await store.user(id: set.patientID ?? "") {
            try await ClinicAPI.audit(
                viewer,
                patient,
                "marked set \(set.id) seen (\(set.stopReason ?? ""))",
                store: store
            )
        }
        return OKResponse()
    }

    /// The set of the path's `:id` if the viewer may read it (audited when it is a patient's and someone else
    /// opens it), else 404.
    private func savedSet(_ context: CoachRequestContext) async throws -> SetRecord {
        let id = context.parameter("id")
        guard let set = try await store.set(id: id),
            try await ClinicAPI.canRead(set, viewer: context.viewer, store: store)
        else {
            throw HTTPError(.notFound, message: "no saved set \(id) of yours; GET /api/sessions lists them")
        }
        if let viewer = context.viewer, let patient = set.patientID, patient != viewer.user.id {
            try await store.record(
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
}

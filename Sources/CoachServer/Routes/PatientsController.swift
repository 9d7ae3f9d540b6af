import CoachKit
import CoachStore
import Foundation
import Hummingbird
import PoseKit

/// A therapist's patients and what is kept of each: `/api/patients…` (the list, a new patient and their
/// invitation, the programme, the audit log) for the therapist; a patient's history, exports and date-range
/// reports for the therapist and the patient themselves. Anyone else's patient is 404, as if it did not exist.
struct PatientsController: Sendable {
    let hub: LiveHub
    let reports: any ReportRendering

    private var store: any ClinicStore { hub.store }

    var endpoints: RouteCollection<CoachRequestContext> {
        let therapist = RouteCollection(context: CoachRequestContext.self).add(middleware: RequireViewer(.therapist))
        therapist.get(use: list)
        therapist.post(use: create)
        therapist.post(":id/invitation", use: invite)
        therapist.put(":id/programme", use: saveProgramme)
        therapist.get(":id/audit", use: auditLog)
        let either = RouteCollection(context: CoachRequestContext.self).add(middleware: RequireViewer())
        either.get(":id", use: overview)
        either.get(":id/export/:format", use: export)
        either.get(":id/report/:format", use: report)
        return RouteCollection(context: CoachRequestContext.self).addRoutes(therapist).addRoutes(either)
    }

    /// The therapist's patients: those with a set waiting for the therapist (pain 7 or more, a safety stop)
    /// first, then by name.
    @Sendable func list(_ request: Request, context: CoachRequestContext) async throws -> [PatientRow] {
        let viewer = try context.requireViewer()
        var rows: [PatientRow] = []
        let coached = try await store.patientsCoachedNow()
        for patient in try await store.patients(therapistID: viewer.user.id) {
            let (programme, _, progress) = try await ClinicAPI.progress(
                of: patient,
                days: 90,
                limit: 2000,
                store: store
            )
            rows.append(
                PatientRow(
                    patient,
                    progress: ProgressResponse(progress),
                    hasProgramme: programme != nil,
                    live: coached.contains(patient.id)
                )
            )
        }
        return rows.filter(\.needsReview) + rows.filter { !$0.needsReview }
    }

    @Sendable func create(
        _ request: Request,
        context: CoachRequestContext
    ) async throws -> EditedResponse<NewPatientResponse> {
        let viewer = try context.requireViewer()
        let name = try await request.decode(as: NewPatientRequest.self, context: context).name.trimmed
        if let problem = TypedText.lineProblem(name, field: "the patient's name", characters: 1...120) {
            throw HTTPError(.badRequest, message: problem)
        }
        let patient = User(role: .patient, name: name, login: nil, passwordHash: nil, therapistID: viewer.user.id)
        try await store.add(patient)
        let invitation = try await ClinicAPI.invite(patient, store: store)
        let user = UserResponse(patient)
        return EditedResponse(
            status: .created,
            response: NewPatientResponse(
                id: user.id,
                name: user.name,
                role: user.role,
                joined: user.joined,
                invitation: invitation
            )
        )
    }

    /// A new invitation code for a patient who has not joined yet.
    @Sendable func invite(
        _ request: Request,
        context: CoachRequestContext
    ) async throws -> EditedResponse<InvitationResponse> {
        let patient = try await ClinicAPI.patient(context, viewer: try context.requireViewer(), store: store)
        guard patient.login == nil else { throw HTTPError(.conflict, message: "\(patient.name) has already joined") }
        return EditedResponse(status: .created, response: try await ClinicAPI.invite(patient, store: store))
    }

    /// A patient's history and progress (audited when a therapist looks).
    @Sendable func overview(_ request: Request, context: CoachRequestContext) async throws -> PatientOverview {
        let viewer = try context.requireViewer()
        let patient = try await ClinicAPI.patient(context, viewer: viewer, store: store)
        try await ClinicAPI.audit(viewer, patient, "viewed history and progress", store: store)
        return try await ClinicAPI.overview(patient, store: store, names: hub.exerciseNames)
    }

    /// A new version of the programme: every item must be an exercise the server can coach, with numbers in range.
    @Sendable func saveProgramme(_ request: Request, context: CoachRequestContext) async throws -> ProgrammeResponse {
        let viewer = try context.requireViewer()
        let patient = try await ClinicAPI.patient(context, viewer: viewer, store: store)
        let (daysPerWeek, items) = try await request.decode(as: ProgrammeRequest.self, context: context).validated()
        for (index, item) in items.enumerated() {
            _ = await hub.knowsExercise(item.exercise)
            do throws(CoachKitError) {
                _ = try hub.prescribed(item)
            } catch {
                throw HTTPError(.badRequest, message: "item \(index + 1): \(error.message)")
            }
        }
        let saved = try await store.save(
            Programme(patientID: patient.id, items: items, daysPerWeek: daysPerWeek, createdBy: viewer.user.id)
        )
        try await ClinicAPI.audit(viewer, patient, "changed the programme (version \(saved.version))", store: store)
        return ProgrammeResponse(saved, names: hub.exerciseNames)
    }

    @Sendable func auditLog(_ request: Request, context: CoachRequestContext) async throws -> [AuditEntryResponse] {
        let patient = try await ClinicAPI.patient(context, viewer: try context.requireViewer(), store: store)
        return try await store.audit(patientID: patient.id, limit: 500).map(AuditEntryResponse.init)
    }

    /// The patient's sets as CSV, or as a FHIR bundle (practice sets are not the patient's: not exported).
    @Sendable func export(_ request: Request, context: CoachRequestContext) async throws -> FileResponse {
        let viewer = try context.requireViewer()
        let patient = try await ClinicAPI.patient(context, viewer: viewer, store: store)
        let sets = try await store.sets(patientID: patient.id, since: nil, limit: 100_000).filter { $0.practice == nil }
        switch context.parameter("format") {
        case "sets.csv":
            try await ClinicAPI.audit(viewer, patient, "exported CSV", store: store)
            return FileResponse(
                bytes: Array(ClinicExport.csv(sets: sets).utf8),
                contentType: "text/csv; charset=utf-8",
                disposition: "attachment; filename=\"ptcoach-sets.csv\""
            )
        case "fhir.json":
            try await ClinicAPI.audit(viewer, patient, "exported FHIR", store: store)
            let therapist = try await patient.therapistID.asyncMap { try await store.user(id: $0) } ?? nil
            let bundle = ClinicExport.fhirBundle(
                patient: patient,
                therapist: therapist,
                sets: sets,
                programme: try await store.programme(patientID: patient.id, version: nil),
                names: hub.exerciseNames,
                library: hub.library
            )
            return FileResponse(bytes: Array(bundle.jsonText.utf8), contentType: "application/fhir+json; charset=utf-8")
        default:
            throw HTTPError(.notFound, message: "exports: sets.csv or fhir.json")
        }
    }

    /// The sets of a date range in one report (the offline report writer, a section per set), with what the
    /// programme asked for over the range: its sets a day times its days a week, for each week (begun) of the
    /// range since the programme was set.
    @Sendable func report(_ request: Request, context: CoachRequestContext) async throws -> FileResponse {
        let viewer = try context.requireViewer()
        let patient = try await ClinicAPI.patient(context, viewer: viewer, store: store)
        guard let format = ReportFormat(fileName: context.parameter("format")) else {
            throw HTTPError(
                .notFound,
                message: "reports: report.html or report.pdf, with ?from=YYYY-MM-DD&to=YYYY-MM-DD"
            )
        }
        let (from, to) = try ClinicAPI.dateRange(request)
        let sets = try await store.sets(patientID: patient.id, since: from, limit: 10_000)
            .filter { $0.startedAt < to && $0.practice == nil }.reversed().compactMap {
                CoachServer.reportedSet($0, library: hub.library)
            }
        guard !sets.isEmpty else {
            throw HTTPError(.notFound, message: "no coached set between these dates; choose other dates")
        }
        let (first, last) = (ClinicAPI.day(from), ClinicAPI.day(to - 1))
        try await ClinicAPI.audit(viewer, patient, "exported a report (\(first) to \(last))", store: store)
        let programme = try await store.programme(patientID: patient.id, version: nil)
        let start = max(from, PatientProgress.calendar.startOfDay(for: programme?.createdAt ?? from))
        let weeks = max(0, (to.timeIntervalSince(start) / (7 * 86400)).rounded(.up))
        let prescribed = programme.map { $0.items.reduce(0) { $0 + $1.sets } * $0.daysPerWeek * Int(weeks) }
        do {
            let bytes = try reports.summary(
                Array(sets),
                prescribedSets: prescribed,
                title: "\(patient.name): \(sets.count) set\(sets.count == 1 ? "" : "s")",
                subtitle: "Live sets from \(first) to \(last)",
                format: format.rawValue
            )
            return FileResponse(bytes: bytes, contentType: format.contentType)
        } catch {
            throw HTTPError(.internalServerError, message: "the report could not be written: \(error)")
        }
    }
}

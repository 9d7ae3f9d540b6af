import CoachKit
import CoachStore
import Foundation
import Hummingbird
import NIOCore
import PoseKit

/// What the clinic's controllers share: who may see which patient and set (a patient reaches only their own data, a
/// therapist only their own patients'; anything else is 404, as if it did not exist), the audit log, invitations,
/// a patient's progress and the date range of a report.
enum ClinicAPI {
    // MARK: - Helpers

    /// A set of the path's `:id` that `viewer` may change: a patient's own, or a therapist's patient's; else 404.
    static func ownSet(_ context: CoachRequestContext, viewer: Viewer, store: any ClinicStore) async throws -> SetRecord
    {
        let id = context.parameters.get("id") ?? ""
        guard let set = try await store.set(id: id), set.patientID != nil,
            try await canRead(set, viewer: viewer, store: store)
        else {
            throw HTTPError(.notFound, message: "no set \(id) of yours")
        }
        return set
    }

    /// The patient of the path's `:id` as `viewer` may see them (themselves, or one of their patients), or 404.
    static func patient(_ context: CoachRequestContext, viewer: Viewer, store: any ClinicStore) async throws -> User {
        let id = context.parameter("id")
        let patient = try await store.user(id: id)
        guard let patient, patient.role == .patient,
            patient.id == viewer.user.id || (viewer.user.role == .therapist && patient.therapistID == viewer.user.id)
        else {
            throw HTTPError(.notFound, message: "no patient \(id) of yours")
        }
        return patient
    }

    /// Whether `viewer` may read a saved set: a patient's own, a therapist's patient's; a set coached without
    /// logging in belongs to nobody and is reached by its id alone (as its page's links give it).
    static func canRead(_ set: SetRecord, viewer: Viewer?, store: any ClinicStore) async throws -> Bool {
        guard let owner = set.patientID else { return true }
        guard let viewer else { return false }
        if owner == viewer.user.id { return true }
        guard viewer.user.role == .therapist else { return false }
        return try await store.user(id: owner)?.therapistID == viewer.user.id
    }

    static func audit(_ viewer: Viewer, _ patient: User, _ action: String, store: any ClinicStore) async throws {
        guard viewer.user.id != patient.id else { return }
        try await store.record(
            AuditEntry(actorID: viewer.user.id, actorName: viewer.user.name, patientID: patient.id, action: action)
        )
    }

    /// A new invitation for `patient`, valid 14 days.
    static func invite(_ patient: User, store: any ClinicStore) async throws -> InvitationResponse {
        let code = ClinicAuth.invitationCode()
        let expires = Date.now.addingTimeInterval(14 * 86400)
        try await store.add(Invitation(codeHash: ClinicAuth.sha256(code), patientID: patient.id, expiresAt: expires))
        return InvitationResponse(code: code, expiresAt: WireDate.string(expires), link: "/clinic.html#join=\(code)")
    }

    /// A patient's history and progress over the last year: at most 200 sets, practice left out.
    static func overview(
        _ patient: User,
        store: any ClinicStore,
        names: [String: String]
    ) async throws -> PatientOverview {
        let (programme, sets, progress) = try await Self.progress(of: patient, days: 365, limit: 5000, store: store)
        return PatientOverview(
            patient,
            progress: ProgressResponse(progress),
            programme: programme.map { ProgrammeResponse($0, names: names) },
            sets: sets.filter { $0.practice == nil }.prefix(200).map(SetResponse.init)
        )
    }

    /// A patient's current programme, their sets of the last `days` days (newest first) and what they add up to.
    static func progress(
        of patient: User,
        days: Double,
        limit: Int,
        store: any ClinicStore
    ) async throws -> (Programme?, [SetRecord], PatientProgress) {
        let programme = try await store.programme(patientID: patient.id, version: nil)
        let sets = try await store.sets(patientID: patient.id, since: .now - days * 86400, limit: limit)
        return (programme, sets, PatientProgress(sets: sets, programme: programme, now: .now))
    }

    /// `?from=YYYY-MM-DD&to=YYYY-MM-DD` (days in UTC, `to` included), by default the last 28 days.
    static func dateRange(_ request: Request) throws -> (from: Date, to: Date) {
        let calendar = PatientProgress.calendar
        func parse(_ name: String) throws -> Date? {
            guard let text = request.uri.queryParameters.get(name) else { return nil }
            let parts = text.split(separator: "-").compactMap { Int($0) }
            guard parts.count == 3,
                let date = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))
            else {
                throw HTTPError(.badRequest, message: "\(name) must be a date as YYYY-MM-DD, got \(text)")
            }
            return date
        }
        let to = (try parse("to")).map { $0 + 86400 } ?? calendar.startOfDay(for: .now) + 86400
        let from = try parse("from") ?? to - 28 * 86400
        guard from < to else { throw HTTPError(.badRequest, message: "from must be before to") }
        return (from, to)
    }

    static func day(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: date)
    }
}

extension String {
    var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}

extension Optional {
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let self else { return nil }
        return try await transform(self)
    }
}

import CoachKit
import CoachStore
import Foundation
import Hummingbird
import NIOCore
import PoseKit

/// The clinic's JSON API: logins, patients and their invitations, programmes, history, progress, ratings, the
/// audit log and exports. Every route checks who asks: a patient reaches only their own data, a therapist only
/// their own patients'; anything else is 404, as if it did not exist.
enum ClinicAPI {
    static func add(
        to router: Router<CoachRequestContext>,
        hub: LiveHub,
        auth: ClinicAuth,
        reports: any ReportRendering
    ) {
        let store = hub.store
        let names = hub.exerciseNames

        // MARK: Login

        router.post("/api/login") { request, context in
            try CoachServer.checkOrigin(request, webSocket: false)
            let body = try await json(request)
            guard let login = body["login"]?.stringValue, let password = body["password"]?.stringValue else {
                throw HTTPError(.badRequest, message: "send {\"login\": …, \"password\": …}")
            }
            // A session the browser had before is ended: the new one gets a new token (no fixation).
            try await auth.logout(request)
            let address = context.remoteAddress?.ipAddress ?? "unknown"
            let (viewer, token) = try await auth.login(login, password: password, address: address)
            return reply(me(viewer), cookie: auth.cookieHeader(token: token))
        }
        router.post("/api/logout") { request, _ in
            _ = try await auth.require(request)
            try await auth.logout(request)
            return reply(.object(["ok": .bool(true)]), cookie: auth.cookieHeader(token: nil))
        }
        router.get("/api/me") { request, _ in
            // Not logged in is an answer, not an error: pages ask before they know.
            guard let viewer = try await auth.viewer(request) else { return reply(.object(["user": .null])) }
            return reply(me(viewer))
        }
        router.post("/api/join") { request, context in
            try CoachServer.checkOrigin(request, webSocket: false)
            let address = "join:" + (context.remoteAddress?.ipAddress ?? "unknown")
            try auth.refuseIfBlocked([address], "invitation codes that did not work")
            let body = try await json(request)
            guard let code = body["code"]?.stringValue, let login = body["login"]?.stringValue?.trimmed,
                let password = body["password"]?.stringValue
            else {
                throw HTTPError(.badRequest, message: "send {\"code\": …, \"login\": …, \"password\": …}")
            }
            if let problem = TypedText.lineProblem(login, field: "the login", characters: 3...120) {
                throw HTTPError(.badRequest, message: problem)
            }
            guard !login.contains(where: \.isWhitespace) else {
                throw HTTPError(.badRequest, message: "the login must be 3 to 120 characters, without spaces")
            }
            if let problem = ClinicAuth.passwordProblem(password) { throw HTTPError(.badRequest, message: problem) }
            let codeHash = ClinicAuth.sha256(code.uppercased().filter { $0.isLetter || $0.isNumber })
            // The code before the password's bcrypt: a made-up code costs a lookup, and counts against the address.
            guard try await store.invitationIsOpen(codeHash: codeHash, at: .now) else {
                auth.limiter.fail([address], now: .now)
                throw HTTPError(
                    .notFound,
                    message: "this invitation code is unknown, used or expired; ask your therapist for a new one"
                )
            }
            let patient: User?
            do {
                patient = try await store.redeem(
                    codeHash: codeHash,
                    login: login,
                    passwordHash: auth.hashPassword(password),
                    at: .now
                )
            } catch let error as StoreError {
                throw HTTPError(.conflict, message: error.message)
            }
            guard let patient else {
                throw HTTPError(
                    .notFound,
                    message: "this invitation code is unknown, used or expired; ask your therapist for a new one"
                )
            }
            try await auth.logout(request)
            let (viewer, token) = try await auth.startSession(for: patient)
            return reply(me(viewer), cookie: auth.cookieHeader(token: token))
        }

        // MARK: Therapist: patients

        router.get("/api/patients") { request, _ in
            let viewer = try await auth.require(request, role: .therapist)
            // Patients with a set waiting for the therapist (pain 7 or more, a safety stop) first, then by name.
            var rows: [(needsReview: Bool, row: JSONValue)] = []
            for patient in try await store.patients(therapistID: viewer.user.id) {
                let (programme, _, progress) = try await Self.progress(of: patient, days: 90, limit: 2000, store: store)
                let summary = progress.json
                var row = userJSON(patient)
                for key in ["adherence", "flags", "lastSession", "needsReview"] { row[key] = summary[key] }
                row["hasProgramme"] = .bool(programme != nil)
                rows.append((progress.needsReview, .object(row)))
            }
            let ordered = rows.filter { $0.needsReview } + rows.filter { !$0.needsReview }
            return reply(.array(ordered.map { $0.row }))
        }
        router.post("/api/patients") { request, context in
            let viewer = try await auth.require(request, role: .therapist)
            let body = try await json(request)
            guard let name = body["name"]?.stringValue?.trimmed else {
                throw HTTPError(
                    .badRequest,
                    message: "send {\"name\": …} with the patient's name (1 to 120 characters)"
                )
            }
            if let problem = TypedText.lineProblem(name, field: "the patient's name", characters: 1...120) {
                throw HTTPError(.badRequest, message: problem)
            }
            let patient = User(role: .patient, name: name, login: nil, passwordHash: nil, therapistID: viewer.user.id)
            try await store.add(patient)
            let invitation = try await invite(patient, store: store)
            var object = userJSON(patient)
            object["invitation"] = invitation
            return reply(.object(object), status: .created)
        }
        router.post("/api/patients/:id/invitation") { request, context in
            let viewer = try await auth.require(request, role: .therapist)
            let patient = try await patient(context, viewer: viewer, store: store)
            guard patient.login == nil else {
                throw HTTPError(.conflict, message: "\(patient.name) has already joined")
            }
            return reply(try await invite(patient, store: store), status: .created)
        }
        router.get("/api/patients/:id") { request, context in
            let viewer = try await auth.require(request)
            let patient = try await patient(context, viewer: viewer, store: store)
            try await audit(viewer, patient, "viewed history and progress", store: store)
            return reply(try await overview(patient, store: store, names: names))
        }
        router.put("/api/patients/:id/programme") { request, context in
            let viewer = try await auth.require(request, role: .therapist)
            let patient = try await patient(context, viewer: viewer, store: store)
            let body = try await json(request)
            let daysPerWeek = body["daysPerWeek"]?.intValue ?? 0
            guard (1...7).contains(daysPerWeek) else {
                throw HTTPError(.badRequest, message: "\"daysPerWeek\" must be 1 to 7")
            }
            guard let itemsJSON = body["items"], let list = itemsJSON.arrayValue, (1...30).contains(list.count) else {
                throw HTTPError(.badRequest, message: "\"items\" must list 1 to 30 exercises")
            }
            let items: [Prescription]
            do {
                items = try JSONDecoder.coach().decode([Prescription].self, from: Data(itemsJSON.jsonText.utf8))
            } catch {
                throw HTTPError(.badRequest, message: "an item is not a valid prescription: \(error)")
            }
            for (index, item) in items.enumerated() {
                do throws(CoachKitError) {
                    _ = try hub.prescribed(item)
                } catch {
                    throw HTTPError(.badRequest, message: "item \(index + 1): \(error.message)")
                }
            }
            let saved = try await store.save(
                Programme(patientID: patient.id, items: items, daysPerWeek: daysPerWeek, createdBy: viewer.user.id)
            )
            try await audit(viewer, patient, "changed the programme (version \(saved.version))", store: store)
            return reply(programmeJSON(saved, names: names))
        }
        router.get("/api/patients/:id/audit") { request, context in
            let viewer = try await auth.require(request, role: .therapist)
            let patient = try await patient(context, viewer: viewer, store: store)
            let formatter = ISO8601DateFormatter()
            let entries = try await store.audit(patientID: patient.id, limit: 500)
            return reply(
                .array(
                    entries.map {
                        .object([
                            "at": .string(formatter.string(from: $0.at)), "who": .string($0.actorName),
                            "whoID": .string($0.actorID), "action": .string($0.action),
                        ])
                    }
                )
            )
        }
        router.get("/api/patients/:id/export/:format") { request, context in
            let viewer = try await auth.require(request)
            let patient = try await patient(context, viewer: viewer, store: store)
            // Practice sets are not the patient's sets: not exported.
            let sets = try await store.sets(patientID: patient.id, since: nil, limit: 100_000).filter {
                $0.practice == nil
            }
            switch context.parameters.get("format") {
            case "sets.csv":
                try await audit(viewer, patient, "exported CSV", store: store)
                return Response(
                    status: .ok,
                    headers: [
                        .contentType: "text/csv; charset=utf-8",
                        .contentDisposition: "attachment; filename=\"ptcoach-sets.csv\"",
                    ],
                    body: .init(
                        byteBuffer: ByteBuffer(string: ClinicExport.csv(sets: sets))
                    )
                )
            case "fhir.json":
                try await audit(viewer, patient, "exported FHIR", store: store)
                let therapist = try await patient.therapistID.asyncMap { try await store.user(id: $0) } ?? nil
                let bundle = ClinicExport.fhirBundle(
                    patient: patient,
                    therapist: therapist,
                    sets: sets,
                    programme: try await store.programme(patientID: patient.id, version: nil),
                    names: names,
                    library: hub.library
                )
                return Response(
                    status: .ok,
                    headers: [.contentType: "application/fhir+json; charset=utf-8"],
                    body: .init(byteBuffer: ByteBuffer(string: bundle.jsonText))
                )
            default:
                throw HTTPError(.notFound, message: "exports: sets.csv or fhir.json")
            }
        }

        router.get("/api/patients/:id/report/:format") { request, context in
            // The sets of a date range in one report (the offline report writer, a section per set).
            let viewer = try await auth.require(request)
            let patient = try await patient(context, viewer: viewer, store: store)
            guard let format = ["report.html": "html", "report.pdf": "pdf"][context.parameters.get("format") ?? ""]
            else {
                throw HTTPError(
                    .notFound,
                    message: "reports: report.html or report.pdf, with ?from=YYYY-MM-DD&to=YYYY-MM-DD"
                )
            }
            let (from, to) = try dateRange(request)
            let sets = try await store.sets(patientID: patient.id, since: from, limit: 10_000)
                .filter { $0.startedAt < to && $0.practice == nil }.reversed().compactMap(CoachServer.reportedSet)
            guard !sets.isEmpty else {
                throw HTTPError(.notFound, message: "no coached set between these dates; choose other dates")
            }
            try await audit(viewer, patient, "exported a report (\(day(from)) to \(day(to - 1)))", store: store)
            // What the programme asked for over the range: its sets a day times its days a week, for each week
            // (begun) of the range since the programme was set.
            let programme = try await store.programme(patientID: patient.id, version: nil)
            let start = max(from, PatientProgress.calendar.startOfDay(for: programme?.createdAt ?? from))
            let weeks = max(0, (to.timeIntervalSince(start) / (7 * 86400)).rounded(.up))
            let prescribed = programme.map { $0.items.reduce(0) { $0 + $1.sets } * $0.daysPerWeek * Int(weeks) }
            let bytes: [UInt8]
            do {
                bytes = try reports.summary(
                    Array(sets),
                    prescribedSets: prescribed,
                    title: "\(patient.name): \(sets.count) set\(sets.count == 1 ? "" : "s")",
                    subtitle: "Live sets from \(day(from)) to \(day(to - 1))",
                    format: format
                )
            } catch {
                throw HTTPError(.internalServerError, message: "the report could not be written: \(error)")
            }
            return Response(
                status: .ok,
                headers: [.contentType: format == "pdf" ? "application/pdf" : "text/html; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: bytes))
            )
        }

        // MARK: Patient

        router.get("/api/me/programme") { request, _ in
            let viewer = try await auth.require(request, role: .patient)
            guard let programme = try await store.programme(patientID: viewer.user.id, version: nil) else {
                return reply(.null)
            }
            var object = programmeJSON(programme, names: names).objectValue ?? [:]
            // Today's counted sets of each item of this version (as the live set numbers them), and the items
            // stopped until the therapist has seen a set (pain 7 or more, a safety stop).
            let sets = try await store.sets(patientID: viewer.user.id, since: nil, limit: 1000)
            object["doneToday"] = .array(
                programme.items.indices.map { index in
                    .number(Double(StopAdvice.setsDoneToday(sets, item: index, version: programme.version)))
                }
            )
            object["stopped"] = .array(
                programme.items.map { item in
                    StopAdvice.blocking(sets, exercise: item.exercise).map {
                        JSONValue.string(StopAdvice.text(for: $0, name: names[item.exercise]))
                    } ?? JSONValue.null
                }
            )
            return reply(.object(object))
        }
        router.post("/api/sessions/:id/rating") { request, context in
            let viewer = try await auth.require(request, role: .patient)
            let id = context.parameters.get("id") ?? ""
            guard let set = try await store.set(id: id), set.patientID == viewer.user.id else {
                throw HTTPError(.notFound, message: "no set \(id) of yours")
            }
            let body = try await json(request)
            func rating(_ key: String) throws -> Int? {
                guard let value = body[key], value != .null else { return nil }
                guard let n = value.intValue, (0...10).contains(n) else {
                    throw HTTPError(.badRequest, message: "\"\(key)\" must be a whole number from 0 to 10")
                }
                return n
            }
            var rated = set
            (rated.pain, rated.difficulty) = (try rating("pain"), try rating("difficulty"))
            try await store.rate(setID: set.id, pain: rated.pain, difficulty: rated.difficulty)
            // Pain 7 or more (or a safety stop in the set): stop this exercise and contact the therapist.
            let stop = rated.stopReason == nil ? nil : StopAdvice.text(for: rated, name: nil)
            return reply(.object(["ok": .bool(true), "stop": stop.map(JSONValue.string) ?? .null]))
        }
        router.post("/api/sessions/:id/keep") { request, context in
            // A practice set with the patient's own camera becomes theirs; a sample video's never does.
            let viewer = try await auth.require(request, role: .patient)
            let set = try await ownSet(context, viewer: viewer, store: store)
            guard set.practice != .sampleVideo else {
                throw HTTPError(
                    .conflict,
                    message: "a sample video's set is practice only; do the set with your camera"
                )
            }
            try await store.setPractice(setID: set.id, nil)
            return reply(.object(["ok": .bool(true)]))
        }
        router.post("/api/sessions/:id/review") { request, context in
            // The therapist has seen a set that stopped its exercise: the patient is offered it again.
            let viewer = try await auth.require(request, role: .therapist)
            let set = try await ownSet(context, viewer: viewer, store: store)
            guard set.stopReason != nil else {
                throw HTTPError(.conflict, message: "this set did not stop its exercise; nothing to review")
            }
            try await store.review(setID: set.id, by: viewer.user.id, at: .now)
            if let patient = try await store.user(id: set.patientID ?? "") {
                try await audit(viewer, patient, "marked set \(set.id) seen (\(set.stopReason ?? ""))", store: store)
            }
            return reply(.object(["ok": .bool(true)]))
        }
    }

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
        let id = context.parameters.get("id") ?? ""
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

    static func invite(_ patient: User, store: any ClinicStore) async throws -> JSONValue {
        let code = ClinicAuth.invitationCode()
        let expires = Date.now.addingTimeInterval(14 * 86400)
        try await store.add(Invitation(codeHash: ClinicAuth.sha256(code), patientID: patient.id, expiresAt: expires))
        return .object([
            "code": .string(code), "expiresAt": .string(ISO8601DateFormatter().string(from: expires)),
            "link": .string("/clinic.html#join=\(code)"),
        ])
    }

    static func overview(
        _ patient: User,
        store: any ClinicStore,
        names: [String: String]
    ) async throws -> JSONValue {
        let (programme, sets, progress) = try await Self.progress(of: patient, days: 365, limit: 5000, store: store)
        var object = userJSON(patient)
        for (key, value) in progress.json.objectValue ?? [:] { object[key] = value }
        object["programme"] = programme.map { programmeJSON($0, names: names) } ?? .null
        // Practice sets are not the patient's sets (unless kept): not listed.
        object["sets"] = .array(sets.filter { $0.practice == nil }.prefix(200).map { .object(CoachServer.setJSON($0)) })
        return .object(object)
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

    /// - Parameter names: the exercises' names by id (``LiveHub/exerciseNames``).
    static func programmeJSON(_ programme: Programme, names: [String: String]) -> JSONValue {
        var object = JSONValue.encoding(programme).objectValue ?? [:]
        object["createdAt"] = .string(ISO8601DateFormatter().string(from: programme.createdAt))
        object["names"] = .array(
            programme.items.map { item in .string(names[item.exercise] ?? item.exercise) }
        )
        return .object(object)
    }

    static func userJSON(_ user: User) -> [String: JSONValue] {
        [
            "id": .string(user.id), "name": .string(user.name), "role": .string(user.role.rawValue),
            "joined": .bool(user.login != nil),
        ]
    }

    static func me(_ viewer: Viewer) -> JSONValue {
        var user = userJSON(viewer.user)
        user["login"] = viewer.user.login.map(JSONValue.string) ?? .null
        return .object(["user": .object(user), "csrfToken": .string(viewer.session.csrfToken)])
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

    static func json(_ request: Request) async throws -> JSONValue {
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: 256 << 10)
        } catch {
            throw HTTPError(.contentTooLarge, message: "the request body is over 256 kB")
        }
        do {
            let value = try JSONValue.parse(String(buffer: buffer))
            guard value.objectValue != nil else { throw HTTPError(.badRequest, message: "send a JSON object") }
            return value
        } catch let error as HTTPError {
            throw error
        } catch {
            throw HTTPError(.badRequest, message: "the body is not valid JSON (\(error))")
        }
    }

    static func reply(_ value: JSONValue, status: HTTPResponse.Status = .ok, cookie: String? = nil) -> Response {
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"]
        if let cookie { headers[.setCookie] = cookie }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: value.jsonText)))
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

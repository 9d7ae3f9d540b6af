import CoachKit
import CoachStore
import Foundation
import PoseKit

/// A patient's data for other systems: a CSV of sets, and a FHIR R4 `Bundle` (the patient, each set's
/// `Observation`s, the programme as a `CarePlan` with a `ServiceRequest` per exercise).
enum ClinicExport {
    static let codeSystem = "https://ptcoach.org/fhir/CodeSystem/ptcoach"

    // MARK: CSV

    static func csv(sets: [SetRecord]) -> String {
        let formatter = ISO8601DateFormatter()
        var lines = [
            "date,exercise,programme_item,set,reps,prescribed_reps,prescribed_hold_s,peak_angle_deg,safety_warnings,pain,difficulty,status,set_id"
        ]
        for set in sets.reversed() {
            let fields: [String] = [
                formatter.string(from: set.startedAt), set.exercise ?? "", set.programmeItem.map { "\($0 + 1)" } ?? "",
                set.setNumber.map(String.init) ?? "", String(set.reps), set.prescribedReps.map(String.init) ?? "",
                set.prescribedHoldSeconds.map { String(format: "%g", $0) } ?? "",
                set.peakAngle.map { String(format: "%.1f", $0) } ?? "", String(set.safetyWarnings),
                set.pain.map(String.init) ?? "", set.difficulty.map(String.init) ?? "", set.status.rawValue, set.id,
            ]
            lines.append(fields.map(field).joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// RFC 4180 quoting, and a leading quote for text a spreadsheet would run as a formula.
    static func field(_ text: String) -> String {
        var text = text
        if let first = text.first, "=+-@\t\r".contains(first), Double(text) == nil { text = "'" + text }
        guard text.contains(where: { ",\"\n\r".contains($0) }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    // MARK: FHIR

    static func fhirBundle(
        patient: User,
        therapist: User?,
        sets: [SetRecord],
        programme: Programme?,
        names: [String: String],
        now: Date = .now
    ) -> JSONValue {
        let formatter = ISO8601DateFormatter()
        func reference(_ type: String, _ id: String) -> JSONValue { .object(["reference": .string("\(type)/\(id)")]) }
        func coding(_ system: String, _ code: String, _ display: String) -> JSONValue {
            .object(["system": .string(system), "code": .string(code), "display": .string(display)])
        }
        func concept(_ codings: [JSONValue], text: String) -> JSONValue {
            .object(["coding": .array(codings), "text": .string(text)])
        }
        func entry(_ resource: JSONValue, type: String, id: String) -> JSONValue {
            // RESTful full URLs, so that the resources' "Type/id" references resolve within the bundle.
            .object(["fullUrl": .string("https://ptcoach.invalid/fhir/\(type)/\(id)"), "resource": resource])
        }
        let category = JSONValue.array([
            concept(
                [coding("http://terminology.hl7.org/CodeSystem/observation-category", "exam", "Exam")],
                text: "Exam"
            )
        ])
        func name(_ id: String?) -> String { id.map { names[$0] ?? $0 } ?? "unrecognised exercise" }

        /// A Patient or Practitioner: an id and a name.
        func person(_ type: String, _ user: User) -> JSONValue {
            let id = fhirID(user.id)
            return entry(
                .object([
                    "resourceType": .string(type), "id": .string(id),
                    "name": .array([.object(["text": .string(user.name)])]),
                ]),
                type: type,
                id: id
            )
        }
        let patientID = fhirID(patient.id)
        var entries = [person("Patient", patient)]
        if let therapist { entries.append(person("Practitioner", therapist)) }
        for set in sets.reversed() where set.status != .open {
            let when = formatter.string(from: set.startedAt)
            let exercise = name(set.exercise)
            func observation(_ suffix: String, code: JSONValue, value: [String: JSONValue]) -> JSONValue {
                let id = fhirID(set.id + "-" + suffix)
                var resource: [String: JSONValue] = [
                    "resourceType": .string("Observation"), "id": .string(id), "status": .string("final"),
                    "category": category, "code": code, "subject": reference("Patient", patientID),
                    "effectiveDateTime": .string(when),
                    "note": .array([
                        .object(["text": .string("\(exercise), set \(set.setNumber ?? 1) (PT Coach set \(set.id))")])
                    ]),
                ]
                for (key, item) in value { resource[key] = item }
                return entry(.object(resource), type: "Observation", id: id)
            }
            entries.append(
                observation(
                    "reps",
                    code: concept(
                        [coding(codeSystem, "repetitions", "Repetitions completed")],
                        text: "\(exercise): repetitions"
                    ),
                    value: ["valueInteger": .number(Double(set.reps))]
                )
            )
            if let peak = set.peakAngle {
                entries.append(
                    observation(
                        "rom",
                        code: concept(
                            [coding(codeSystem, "peak-joint-angle", "Peak joint angle reached (2-D camera)")],
                            text: "\(exercise): peak angle"
                        ),
                        value: [
                            "valueQuantity": .object([
                                "value": .number((peak * 10).rounded() / 10), "unit": .string("deg"),
                                "system": .string("http://unitsofmeasure.org"), "code": .string("deg"),
                            ])
                        ]
                    )
                )
            }
            if let pain = set.pain {
                entries.append(
                    observation(
                        "pain",
                        code: concept(
                            [
                                coding(
                                    "http://loinc.org",
                                    "72514-3",
                                    "Pain severity - 0-10 verbal numeric rating [Score] - Reported"
                                )
                            ],
                            text: "Pain after \(exercise)"
                        ),
                        value: [
                            "valueQuantity": .object([
                                "value": .number(Double(pain)), "unit": .string("{score}"),
                                "system": .string("http://unitsofmeasure.org"), "code": .string("{score}"),
                            ])
                        ]
                    )
                )
            }
        }
        if let programme {
            let planID = fhirID("\(patient.id)-programme-\(programme.version)")
            var activities: [JSONValue] = []
            for (index, item) in programme.items.enumerated() {
                let id = fhirID("\(patient.id)-programme-\(programme.version)-item-\(index)")
                var detail: [String] = ["\(item.sets) set(s)"]
                if let reps = item.reps { detail.append("\(reps) repetitions") }
                if let hold = item.holdSeconds { detail.append("hold \(String(format: "%g", hold)) s") }
                detail.append("rest \(String(format: "%g", item.restSeconds)) s")
                if let side = item.side { detail.append("\(side.rawValue) side") }
                if let low = item.targetMin, let high = item.targetMax {
                    detail.append("target \(Int(low))–\(Int(high))°")
                }
                if let limit = item.safetyMax { detail.append("stop past \(Int(limit))°") }
                let text = "\(name(item.exercise)): " + detail.joined(separator: ", ")
                var request: [String: JSONValue] = [
                    "resourceType": .string("ServiceRequest"), "id": .string(id), "status": .string("active"),
                    "intent": .string("order"),
                    "code": concept([coding(codeSystem, item.exercise, name(item.exercise))], text: text),
                    "subject": reference("Patient", patientID),
                    "authoredOn": .string(formatter.string(from: programme.createdAt)),
                    "occurrenceTiming": .object([
                        "repeat": .object([
                            "frequency": .number(1), "period": .number(1), "periodUnit": .string("d"),
                            "count": .number(Double(programme.daysPerWeek)),
                        ])
                    ]),
                    "patientInstruction": .string(item.note.isEmpty ? text : text + ". " + item.note),
                ]
                if let therapist { request["requester"] = reference("Practitioner", fhirID(therapist.id)) }
                entries.append(entry(.object(request), type: "ServiceRequest", id: id))
                activities.append(.object(["reference": reference("ServiceRequest", id)]))
            }
            var plan: [String: JSONValue] = [
                "resourceType": .string("CarePlan"), "id": .string(planID), "status": .string("active"),
                "intent": .string("plan"), "title": .string("Home exercise programme, version \(programme.version)"),
                "description": .string("\(programme.daysPerWeek) day(s) a week"),
                "subject": reference("Patient", patientID),
                "created": .string(formatter.string(from: programme.createdAt)),
                "activity": .array(activities),
            ]
            if let therapist { plan["author"] = reference("Practitioner", fhirID(therapist.id)) }
            entries.append(entry(.object(plan), type: "CarePlan", id: planID))
        }
        return .object([
            "resourceType": .string("Bundle"), "type": .string("collection"),
            "timestamp": .string(formatter.string(from: now)), "entry": .array(entries),
        ])
    }

    /// A FHIR id: letters, digits, '-' and '.', at most 64 characters.
    static func fhirID(_ text: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-.")
        let cleaned = String(text.map { allowed.contains($0) ? $0 : "-" })
        return cleaned.count <= 64 ? cleaned : String(ClinicAuth.sha256(text).prefix(64))
    }
}

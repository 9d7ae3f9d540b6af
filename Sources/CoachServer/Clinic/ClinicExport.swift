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
            "date,exercise,programme_version,programme_item,set,reps,prescribed_reps,prescribed_hold_s,"
                + "target_min_deg,target_max_deg,stop_past_deg,peak_angle_deg,safety_warnings,pain,difficulty,"
                + "reviewed_at,status,set_id"
        ]
        func degrees(_ x: Double?) -> String { x.map { String(format: "%g", $0) } ?? "" }
        for set in sets.reversed() {
            let fields: [String] = [
                formatter.string(from: set.startedAt), set.exercise ?? "", set.programmeVersion.map(String.init) ?? "",
                set.programmeItem.map { "\($0 + 1)" } ?? "", set.setNumber.map(String.init) ?? "", String(set.reps),
                set.prescribedReps.map(String.init) ?? "",
                set.prescribedHoldSeconds.map { String(format: "%g", $0) } ?? "",
                degrees(set.prescription?.targetMin), degrees(set.prescription?.targetMax),
                degrees(set.prescription?.safetyMax), set.peakAngle.map { String(format: "%.1f", $0) } ?? "",
                String(set.safetyWarnings), set.pain.map(String.init) ?? "", set.difficulty.map(String.init) ?? "",
                set.reviewedAt.map(formatter.string(from:)) ?? "", set.status.rawValue, set.id,
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
        library: [ExerciseDefinition] = [],
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
                // Which joint (the body site) and how it was measured (the method), so a receiving system can tell
                // a knee's flexion from a shoulder's.
                let angle = library.first { $0.id == set.exercise }?.primaryAngle
                var value: [String: JSONValue] = [
                    "valueQuantity": .object([
                        "value": .number((peak * 10).rounded() / 10), "unit": .string("deg"),
                        "system": .string("http://unitsofmeasure.org"), "code": .string("deg"),
                    ]),
                    "method": concept(
                        [coding(codeSystem, "video-pose-2d", "Joint angle from 2-D video pose estimation")],
                        text: "Camera, 2-D pose estimation (MediaPipe BlazePose), "
                            + "\(angle?.displayName ?? "primary angle"), clinical neutral-zero degrees"
                    ),
                ]
                if let angle, let site = bodySite(angle, side: side(of: set)) {
                    value["bodySite"] = concept(
                        [coding("http://snomed.info/sct", site.code, site.display)],
                        text: site.text
                    )
                }
                entries.append(
                    observation(
                        "rom",
                        code: concept(
                            [coding(codeSystem, "peak-joint-angle", "Peak joint angle reached (2-D camera)")],
                            text: "\(exercise): peak \(angle?.displayName ?? "angle")"
                        ),
                        value: value
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
                    // Days a week as the timing (frequency N per 1 week); the sets and repetitions of each day
                    // as coded order details and, for a reader of numbers, the quantity (sets per day).
                    "occurrenceTiming": .object([
                        "repeat": .object([
                            "frequency": .number(Double(programme.daysPerWeek)), "period": .number(1),
                            "periodUnit": .string("wk"),
                        ]),
                        "code": .object(["text": .string("\(programme.daysPerWeek) day(s) a week")]),
                    ]),
                    "quantityQuantity": .object([
                        "value": .number(Double(item.sets)), "unit": .string("sets"),
                        "system": .string("http://unitsofmeasure.org"), "code": .string("{sets}"),
                    ]),
                    "orderDetail": .array(orderDetails(item, concept: concept, coding: coding)),
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

    /// A programme item's sets, repetitions, hold and rest, each as a coded detail with its number in the text.
    static func orderDetails(
        _ item: Prescription,
        concept: ([JSONValue], String) -> JSONValue,
        coding: (String, String, String) -> JSONValue
    ) -> [JSONValue] {
        var details: [(String, String, String)] = [("sets-per-session", "Sets per session", "\(item.sets) sets")]
        if let reps = item.reps {
            details.append(("repetitions-per-set", "Repetitions per set", "\(reps) repetitions per set"))
        }
        if let hold = item.holdSeconds {
            details.append(("hold-seconds", "Hold at the peak, seconds", "hold \(String(format: "%g", hold)) s"))
        }
        details.append(
            ("rest-seconds", "Rest between sets, seconds", "rest \(String(format: "%g", item.restSeconds)) s")
        )
        return details.map { concept([coding(codeSystem, $0.0, $0.1)], $0.2) }
    }

    /// The side a set measured: the prescription's, else the first repetition's in its summary.
    static func side(of set: SetRecord) -> String? {
        if let side = set.prescription?.side { return side.rawValue }
        let summary = set.summaryJSON.flatMap { try? JSONValue.parse($0) }
        return summary?["repetitions"]?.arrayValue?.first?["side"]?.stringValue
    }

    /// The joint measured, as a SNOMED CT body structure (the side in the text).
    static func bodySite(_ angle: AngleKind, side: String?) -> (code: String, display: String, text: String)? {
        let joint: (String, String)? =
            switch angle {
            case .kneeFlexion: ("72696002", "Knee joint structure")
            case .hipFlexion, .hipAbduction: ("24136001", "Hip joint structure")
            case .shoulderFlexion, .shoulderAbduction, .shoulderScaption, .shoulderExtension, .shoulderRotation:
                ("91774008", "Shoulder joint structure")
            case .elbowFlexion: ("16953009", "Elbow joint structure")
            case .anklePlantarFlexion: ("70258002", "Ankle joint structure")
            default: nil
            }
        guard let joint else { return nil }
        let (code, display) = joint
        let name = display.replacingOccurrences(of: " structure", with: "").lowercased()
        return (code, display, side.map { "\($0) \(name)" } ?? name)
    }

    /// A FHIR id: letters, digits, '-' and '.', at most 64 characters.
    static func fhirID(_ text: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-.")
        let cleaned = String(text.map { allowed.contains($0) ? $0 : "-" })
        return cleaned.count <= 64 ? cleaned : String(ClinicAuth.sha256(text).prefix(64))
    }
}

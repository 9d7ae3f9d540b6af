import CoachKit
import CoachStore
import Foundation
import PoseKit

/// The FHIR R4 resources of ``ClinicExport/fhirBundle(patient:therapist:sets:programme:names:library:now:)``, one
/// method per resource, each a bundle entry with its RESTful full URL (so that the resources' `Type/id`
/// references resolve within the bundle).
struct FHIRWriter {
    let patient: User
    let therapist: User?
    /// The exercises' names by id.
    let names: [String: String]
    let library: [ExerciseDefinition]
    let formatter = ISO8601DateFormatter()

    var patientID: String { ClinicExport.fhirID(patient.id) }

    static func reference(_ type: String, _ id: String) -> JSONValue {
        .object(["reference": .string("\(type)/\(id)")])
    }

    static func coding(_ system: String, _ code: String, _ display: String) -> JSONValue {
        .object(["system": .string(system), "code": .string(code), "display": .string(display)])
    }

    static func concept(_ codings: [JSONValue], text: String) -> JSONValue {
        .object(["coding": .array(codings), "text": .string(text)])
    }

    static func quantity(_ value: Double, unit: String, code: String) -> JSONValue {
        .object([
            "value": .number(value), "unit": .string(unit), "system": .string("http://unitsofmeasure.org"),
            "code": .string(code),
        ])
    }

    static func entry(_ resource: [String: JSONValue], type: String, id: String) -> JSONValue {
        .object(["fullUrl": .string("https://ptcoach.invalid/fhir/\(type)/\(id)"), "resource": .object(resource)])
    }

    /// An exercise's name, for the texts.
    func name(_ id: String?) -> String { id.map { names[$0] ?? $0 } ?? "unrecognised exercise" }

    /// A Patient or Practitioner: an id and a name.
    func person(_ type: String, _ user: User) -> JSONValue {
        let id = ClinicExport.fhirID(user.id)
        return Self.entry(
            [
                "resourceType": .string(type), "id": .string(id),
                "name": .array([.object(["text": .string(user.name)])]),
            ],
            type: type,
            id: id
        )
    }

    // MARK: - A set's observations

    /// A set's repetitions, its peak angle (with the joint and the method) and the pain rated after it.
    func observations(_ set: SetRecord) -> [JSONValue] {
        let exercise = name(set.exercise)
        let system = ClinicExport.codeSystem
        var entries = [
            observation(
                set,
                "reps",
                code: Self.concept(
                    [Self.coding(system, "repetitions", "Repetitions completed")],
                    text: "\(exercise): repetitions"
                ),
                value: ["valueInteger": .number(Double(set.reps))]
            )
        ]
        if let peak = set.peakAngle { entries.append(peakAngle(set, peak)) }
        if let pain = set.pain {
            let loinc = Self.coding(
                "http://loinc.org",
                "72514-3",
                "Pain severity - 0-10 verbal numeric rating [Score] - Reported"
            )
            entries.append(
                observation(
                    set,
                    "pain",
                    code: Self.concept([loinc], text: "Pain after \(exercise)"),
                    value: ["valueQuantity": Self.quantity(Double(pain), unit: "{score}", code: "{score}")]
                )
            )
        }
        return entries
    }

    /// The peak angle, with which joint (the body site) and how it was measured (the method), so a receiving
    /// system can tell a knee's flexion from a shoulder's.
    private func peakAngle(_ set: SetRecord, _ peak: Double) -> JSONValue {
        let angle = library.first { $0.id == set.exercise }?.primaryAngle
        let system = ClinicExport.codeSystem
        var value: [String: JSONValue] = [
            "valueQuantity": Self.quantity((peak * 10).rounded() / 10, unit: "deg", code: "deg"),
            "method": Self.concept(
                [Self.coding(system, "video-pose-2d", "Joint angle from 2-D video pose estimation")],
                text: "Camera, 2-D pose estimation (MediaPipe BlazePose), "
                    + "\(angle?.displayName ?? "primary angle"), clinical neutral-zero degrees"
            ),
        ]
        if let angle, let site = ClinicExport.bodySite(angle, side: ClinicExport.side(of: set)) {
            value["bodySite"] = Self.concept(
                [Self.coding("http://snomed.info/sct", site.code, site.display)],
                text: site.text
            )
        }
        return observation(
            set,
            "rom",
            code: Self.concept(
                [Self.coding(system, "peak-joint-angle", "Peak joint angle reached (2-D camera)")],
                text: "\(name(set.exercise)): peak \(angle?.displayName ?? "angle")"
            ),
            value: value
        )
    }

    private func observation(
        _ set: SetRecord,
        _ suffix: String,
        code: JSONValue,
        value: [String: JSONValue]
    ) -> JSONValue {
        let id = ClinicExport.fhirID(set.id + "-" + suffix)
        let category = Self.concept(
            [Self.coding("http://terminology.hl7.org/CodeSystem/observation-category", "exam", "Exam")],
            text: "Exam"
        )
        var resource: [String: JSONValue] = [
            "resourceType": .string("Observation"), "id": .string(id), "status": .string("final"),
            "category": .array([category]), "code": code, "subject": Self.reference("Patient", patientID),
            "effectiveDateTime": .string(formatter.string(from: set.startedAt)),
            "note": .array([
                .object(["text": .string("\(name(set.exercise)), set \(set.setNumber ?? 1) (PT Coach set \(set.id))")])
            ]),
        ]
        for (key, item) in value { resource[key] = item }
        return Self.entry(resource, type: "Observation", id: id)
    }

    // MARK: - The programme

    /// The programme as a `CarePlan`, after a `ServiceRequest` per exercise.
    func carePlan(_ programme: Programme) -> [JSONValue] {
        let planID = ClinicExport.fhirID("\(patient.id)-programme-\(programme.version)")
        var entries: [JSONValue] = []
        var activities: [JSONValue] = []
        for (index, item) in programme.items.enumerated() {
            let id = ClinicExport.fhirID("\(patient.id)-programme-\(programme.version)-item-\(index)")
            entries.append(serviceRequest(item, id: id, programme: programme))
            activities.append(.object(["reference": Self.reference("ServiceRequest", id)]))
        }
        var plan: [String: JSONValue] = [
            "resourceType": .string("CarePlan"), "id": .string(planID), "status": .string("active"),
            "intent": .string("plan"), "title": .string("Home exercise programme, version \(programme.version)"),
            "description": .string("\(programme.daysPerWeek) day(s) a week"),
            "subject": Self.reference("Patient", patientID),
            "created": .string(formatter.string(from: programme.createdAt)),
            "activity": .array(activities),
        ]
        if let therapist { plan["author"] = Self.reference("Practitioner", ClinicExport.fhirID(therapist.id)) }
        return entries + [Self.entry(plan, type: "CarePlan", id: planID)]
    }

    /// One exercise of the programme: days a week as the timing (frequency N per 1 week); the sets and repetitions
    /// of each day as coded order details and, for a reader of numbers, the quantity (sets per day).
    private func serviceRequest(_ item: Prescription, id: String, programme: Programme) -> JSONValue {
        var detail: [String] = ["\(item.sets) set(s)"]
        if let reps = item.reps { detail.append("\(reps) repetitions") }
        if let hold = item.holdSeconds { detail.append("hold \(String(format: "%g", hold)) s") }
        detail.append("rest \(String(format: "%g", item.restSeconds)) s")
        if let side = item.side { detail.append("\(side.rawValue) side") }
        if let low = item.targetMin, let high = item.targetMax { detail.append("target \(Int(low))–\(Int(high))°") }
        if let limit = item.safetyMax { detail.append("stop past \(Int(limit))°") }
        let text = "\(name(item.exercise)): " + detail.joined(separator: ", ")
        var request: [String: JSONValue] = [
            "resourceType": .string("ServiceRequest"), "id": .string(id), "status": .string("active"),
            "intent": .string("order"),
            "code": Self.concept(
                [Self.coding(ClinicExport.codeSystem, item.exercise, name(item.exercise))],
                text: text
            ),
            "subject": Self.reference("Patient", patientID),
            "authoredOn": .string(formatter.string(from: programme.createdAt)),
            "occurrenceTiming": .object([
                "repeat": .object([
                    "frequency": .number(Double(programme.daysPerWeek)), "period": .number(1),
                    "periodUnit": .string("wk"),
                ]),
                "code": .object(["text": .string("\(programme.daysPerWeek) day(s) a week")]),
            ]),
            "quantityQuantity": Self.quantity(Double(item.sets), unit: "sets", code: "{sets}"),
            "orderDetail": .array(ClinicExport.orderDetails(item)),
            "patientInstruction": .string(item.note.isEmpty ? text : text + ". " + item.note),
        ]
        if let therapist { request["requester"] = Self.reference("Practitioner", ClinicExport.fhirID(therapist.id)) }
        return Self.entry(request, type: "ServiceRequest", id: id)
    }
}

import CoachKit
import CoachStore
import Foundation

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

    /// An exercise's name, for the texts.
    func name(_ id: String?) -> String { id.map { names[$0] ?? $0 } ?? "unrecognised exercise" }

    /// A Patient or Practitioner: an id and a name.
    func person(_ type: String, _ user: User) -> FHIREntry {
        let id = ClinicExport.fhirID(user.id)
        return FHIREntry(
            .person(FHIRPerson(resourceType: type, id: id, name: [FHIRText(text: user.name)])),
            type: type,
            id: id
        )
    }

    // MARK: - A set's observations

    /// A set's repetitions, its peak angle (with the joint and the method) and the pain rated after it.
    func observations(_ set: SetRecord) -> [FHIREntry] {
        let exercise = name(set.exercise)
        let system = ClinicExport.codeSystem
        var entries = [
            observation(
                set,
                "reps",
                code: FHIRConcept(
                    [FHIRCoding(system, "repetitions", "Repetitions completed")],
                    text: "\(exercise): repetitions"
                )
            ) { $0.valueInteger = set.reps }
        ]
        if let peak = set.peakAngle { entries.append(peakAngle(set, peak)) }
        if let pain = set.pain {
            let loinc = FHIRCoding(
                "http://loinc.org",
                "72514-3",
                "Pain severity - 0-10 verbal numeric rating [Score] - Reported"
            )
            entries.append(
                observation(
                    set,
                    "pain",
                    code: FHIRConcept([loinc], text: "Pain after \(exercise)")
                ) { $0.valueQuantity = FHIRQuantity(Double(pain), unit: "{score}", code: "{score}") }
            )
        }
        return entries
    }

    /// The peak angle, with which joint (the body site) and how it was measured (the method), so a receiving
    /// system can tell a knee's flexion from a shoulder's.
    private func peakAngle(_ set: SetRecord, _ peak: Double) -> FHIREntry {
        let angle = library.first { $0.id == set.exercise }?.primaryAngle
        let system = ClinicExport.codeSystem
        let site = angle.flatMap { ClinicExport.bodySite($0, side: ClinicExport.side(of: set)) }
        return observation(
            set,
            "rom",
            code: FHIRConcept(
                [FHIRCoding(system, "peak-joint-angle", "Peak joint angle reached (2-D camera)")],
                text: "\(name(set.exercise)): peak \(angle?.displayName ?? "angle")"
            )
        ) {
            $0.valueQuantity = FHIRQuantity((peak * 10).rounded() / 10, unit: "deg", code: "deg")
            $0.method = FHIRConcept(
                [FHIRCoding(system, "video-pose-2d", "Joint angle from 2-D video pose estimation")],
                text: "Camera, 2-D pose estimation (MediaPipe BlazePose), "
                    + "\(angle?.displayName ?? "primary angle"), clinical neutral-zero degrees"
            )
            $0.bodySite = site.map {
                FHIRConcept([FHIRCoding("http://snomed.info/sct", $0.code, $0.display)], text: $0.text)
            }
        }
    }

    /// An observation of `set`; `value` fills in what it observed.
    private func observation(
        _ set: SetRecord,
        _ suffix: String,
        code: FHIRConcept,
        value: (inout FHIRObservation) -> Void
    ) -> FHIREntry {
        let id = ClinicExport.fhirID(set.id + "-" + suffix)
        let category = FHIRConcept(
            [FHIRCoding("http://terminology.hl7.org/CodeSystem/observation-category", "exam", "Exam")],
            text: "Exam"
        )
        var resource = FHIRObservation(
            id: id,
            category: [category],
            code: code,
            subject: FHIRReference("Patient", patientID),
            effectiveDateTime: formatter.string(from: set.startedAt),
            note: [FHIRText(text: "\(name(set.exercise)), set \(set.setNumber ?? 1) (PT Coach set \(set.id))")]
        )
        value(&resource)
        return FHIREntry(.observation(resource), type: "Observation", id: id)
    }

    // MARK: - The programme

    /// The programme as a `CarePlan`, after a `ServiceRequest` per exercise.
    func carePlan(_ programme: Programme) -> [FHIREntry] {
        let planID = ClinicExport.fhirID("\(patient.id)-programme-\(programme.version)")
        var entries: [FHIREntry] = []
        var activities: [FHIRCarePlan.Activity] = []
        for (index, item) in programme.items.enumerated() {
            let id = ClinicExport.fhirID("\(patient.id)-programme-\(programme.version)-item-\(index)")
            entries.append(serviceRequest(item, id: id, programme: programme))
            activities.append(.init(reference: FHIRReference("ServiceRequest", id)))
        }
        let plan = FHIRCarePlan(
            id: planID,
            title: "Home exercise programme, version \(programme.version)",
            description: "\(programme.daysPerWeek) day(s) a week",
            subject: FHIRReference("Patient", patientID),
            created: formatter.string(from: programme.createdAt),
            activity: activities,
            author: therapist.map { FHIRReference("Practitioner", ClinicExport.fhirID($0.id)) }
        )
        return entries + [FHIREntry(.carePlan(plan), type: "CarePlan", id: planID)]
    }

    /// One exercise of the programme: days a week as the timing (frequency N per 1 week); the sets and repetitions
    /// of each day as coded order details and, for a reader of numbers, the quantity (sets per day).
    private func serviceRequest(_ item: Prescription, id: String, programme: Programme) -> FHIREntry {
        var detail: [String] = ["\(item.sets) set(s)"]
        if let reps = item.reps { detail.append("\(reps) repetitions") }
        if let hold = item.holdSeconds { detail.append("hold \(String(format: "%g", hold)) s") }
        detail.append("rest \(String(format: "%g", item.restSeconds)) s")
        if let side = item.side { detail.append("\(side.rawValue) side") }
        if let low = item.targetMin, let high = item.targetMax { detail.append("target \(Int(low))–\(Int(high))°") }
        if let limit = item.safetyMax { detail.append("stop past \(Int(limit))°") }
        let text = "\(name(item.exercise)): " + detail.joined(separator: ", ")
        let request = FHIRServiceRequest(
            id: id,
            code: FHIRConcept([FHIRCoding(ClinicExport.codeSystem, item.exercise, name(item.exercise))], text: text),
            subject: FHIRReference("Patient", patientID),
            authoredOn: formatter.string(from: programme.createdAt),
            occurrenceTiming: .init(
                repeat: .init(frequency: programme.daysPerWeek),
                code: FHIRText(text: "\(programme.daysPerWeek) day(s) a week")
            ),
            quantityQuantity: FHIRQuantity(Double(item.sets), unit: "sets", code: "{sets}"),
            orderDetail: ClinicExport.orderDetails(item),
            patientInstruction: item.note.isEmpty ? text : text + ". " + item.note,
            requester: therapist.map { FHIRReference("Practitioner", ClinicExport.fhirID($0.id)) }
        )
        return FHIREntry(.serviceRequest(request), type: "ServiceRequest", id: id)
    }
}

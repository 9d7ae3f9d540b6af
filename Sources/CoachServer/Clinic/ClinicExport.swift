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

    /// A patient's data as a FHIR R4 `Bundle` of type `collection`: the patient (and their therapist), each ended
    /// set's `Observation`s (repetitions, the peak angle with its joint and method, pain), and the programme as a
    /// `CarePlan` with a `ServiceRequest` per exercise.
    static func fhirBundle(
        patient: User,
        therapist: User?,
        sets: [SetRecord],
        programme: Programme?,
        names: [String: String],
        library: [ExerciseDefinition] = [],
        now: Date = .now
    ) -> FHIRBundle {
        let writer = FHIRWriter(patient: patient, therapist: therapist, names: names, library: library)
        var entries = [writer.person("Patient", patient)]
        if let therapist { entries.append(writer.person("Practitioner", therapist)) }
        for set in sets.reversed() where set.status != .open { entries += writer.observations(set) }
        if let programme { entries += writer.carePlan(programme) }
        return FHIRBundle(timestamp: writer.formatter.string(from: now), entry: entries)
    }

    /// A programme item's sets, repetitions, hold and rest, each as a coded detail with its number in the text.
    static func orderDetails(_ item: Prescription) -> [FHIRConcept] {
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
        return details.map { FHIRConcept([FHIRCoding(codeSystem, $0.0, $0.1)], text: $0.2) }
    }

    /// The side a set measured: the prescription's, else the first repetition's in its summary.
    static func side(of set: SetRecord) -> String? {
        if let side = set.prescription?.side { return side.rawValue }
        struct Summary: Decodable {
            struct Repetition: Decodable { var side: String? }
            var repetitions: [Repetition]?
        }
        let summary = set.summaryJSON.flatMap { try? JSONDecoder().decode(Summary.self, from: Data($0.utf8)) }
        return summary?.repetitions?.first?.side
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

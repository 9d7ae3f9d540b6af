import CoachKit
import CoachStore
import Foundation
import Testing

@testable import CoachServer
@testable import PoseKit

/// The therapist's flags are per exercise and follow each one's trend; practice never counts; the FHIR export codes
/// the prescription's timing and the joint measured.
struct PatientProgressTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)  // a fixed moment: no rule reads the clock

    /// A completed set of `exercise`, `hoursAgo` before ``now``, rated `pain`.
    static func set(
        _ id: String,
        _ exercise: String,
        hoursAgo: Double,
        pain: Int?,
        practice: SetRecord.Practice? = nil,
        warnings: Int = 0
    ) -> SetRecord {
        var record = SetRecord(
            id: id,
            startedAt: now - hoursAgo * 3600,
            input: "camera",
            exercise: exercise,
            exerciseName: exercise.capitalized,
            prescribedReps: 10,
            prescribedHoldSeconds: nil
        )
        record.status = .completed
        record.reps = 10
        record.pain = pain
        record.practice = practice
        record.safetyWarnings = warnings
        record.programmeItem = 0
        return record
    }

    @Test("A later push-up rated 1 does not clear the squat's pain 8: the squat waits for the therapist")
    func painIsPerExercise() {
        let sets = [
            Self.set("p", "push-up", hoursAgo: 1, pain: 1),
            Self.set("s", "squat", hoursAgo: 2, pain: 8),
        ]
        let progress = PatientProgress(sets: sets, programme: nil, now: Self.now)
        #expect(progress.flags.first?.kind == .stop && progress.flags.first?.exercise == "squat")
        #expect(progress.flags.first?.setID == "s" && progress.needsReview)
        #expect(!progress.flags.contains { $0.exercise == "push-up" })
    }

    @Test("Pain rising over one exercise's last three sets is flagged, whatever other exercises were rated between")
    func risingPainIsPerExercise() {
        let sets = [
            Self.set("s3", "squat", hoursAgo: 1, pain: 6),
            Self.set("p2", "push-up", hoursAgo: 2, pain: 0),
            Self.set("s2", "squat", hoursAgo: 3, pain: 4),
            Self.set("p1", "push-up", hoursAgo: 4, pain: 5),
            Self.set("s1", "squat", hoursAgo: 5, pain: 2),
        ]
        let flags = PatientProgress(sets: sets, programme: nil, now: Self.now).flags
        #expect(flags.map(\.kind) == [.painRising], "\(flags)")
        #expect(flags.first?.message.contains("2 → 4 → 6") == true && flags.first?.exercise == "squat")
    }

    @Test("A safety stop waits for the therapist; once seen it is a warning; practice sets count for nothing")
    func safetyStopsAndPractice() {
        var stopped = Self.set("s", "squat", hoursAgo: 1, pain: nil, warnings: 1)
        let sample = Self.set("v", "lunge", hoursAgo: 2, pain: 9, practice: .sampleVideo, warnings: 2)
        let free = Self.set("f", "lunge", hoursAgo: 3, pain: 2, practice: .unprescribed)
        var progress = PatientProgress(sets: [stopped, sample, free], programme: nil, now: Self.now)
        #expect(progress.flags.map(\.kind) == [.stop], "\(progress.flags)")
        #expect(progress.setsDone == 1 && progress.daysDone == 1)
        #expect(progress.progress["lunge"] == nil)
        stopped.reviewedAt = Self.now
        progress = PatientProgress(sets: [stopped, sample, free], programme: nil, now: Self.now)
        #expect(progress.flags.map(\.kind) == [.safety] && !progress.needsReview)
    }

    @Test("FHIR: days a week as the timing, sets and repetitions as details, the peak angle with its joint")
    func fhirTimingAndBodySite() throws {
        let patient = User(role: .patient, name: "Pat", login: nil, passwordHash: nil, therapistID: nil)
        var set = Self.set("s", "squat", hoursAgo: 1, pain: 2)
        set.peakAngle = 92.34
        set.prescription = Prescription(exercise: "squat", sets: 3, reps: 8, side: .left)
        let programme = Programme(
            patientID: patient.id,
            version: 1,
            items: [Prescription(exercise: "squat", sets: 3, reps: 8)],
            daysPerWeek: 3,
            createdBy: "t"
        )
        let bundle = ClinicExport.fhirBundle(
            patient: patient,
            therapist: nil,
            sets: [set],
            programme: programme,
            names: ["squat": "Squat"],
            library: try ExerciseLibrary.bundled().exercises,
            now: Self.now
        )
        let json = try JSONValue.parse(bundle.jsonText)
        let resources = json["entry"]?.arrayValue?.compactMap { $0["resource"] } ?? []
        let request = try #require(resources.first { $0["resourceType"]?.stringValue == "ServiceRequest" })
        let timing = request["occurrenceTiming"]?["repeat"]
        #expect(timing?["frequency"]?.intValue == 3 && timing?["periodUnit"]?.stringValue == "wk")
        #expect(timing?["count"] == nil)
        let details = request["orderDetail"]?.arrayValue?.compactMap { $0["text"]?.stringValue } ?? []
        #expect(details.contains("3 sets") && details.contains("8 repetitions per set"), "\(details)")
        let peak = try #require(resources.first { $0["id"]?.stringValue?.hasSuffix("-rom") == true })
        #expect(peak["bodySite"]?["coding"]?.arrayValue?.first?["code"]?.stringValue == "72696002")
        #expect(peak["bodySite"]?["text"]?.stringValue == "left knee joint")
        #expect(peak["method"]?["text"]?.stringValue?.contains("pose estimation") == true)
    }
}

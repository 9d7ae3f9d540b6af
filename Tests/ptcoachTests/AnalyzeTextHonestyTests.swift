import CoachAnalysis
import CoachKit
import CoachPipeline
import Foundation
import MediaIO
import PoseKit
import Testing

@testable import ptcoach

/// The text output says only what was measured and judged: the angle of the side measured (not a far arm whose
/// keypoints were guessed), no angle a joint cannot take given as measured, "form not checked: <reason>" instead of
/// praise where nothing was judged, and one line per safety crossing with its peak and duration.
struct AnalyzeTextHonestyTests {
    /// A pull-up repetition as `analyze --json` writes it: the left elbow measured (3–123°, peaking at 123°), the
    /// right one guessed (1–173°).
    static func pullUp(
        _ index: Int,
        left: (Double, Double) = (3, 123),
        right: (Double, Double) = (1, 173),
        verdict: String = "not-checked",
        reason: String? = "the camera view does not suit the exercise"
    ) -> String {
        """
        {"index":\(index),"exercise":"pull-up","startSeconds":\(index * 3),"endSeconds":\(index * 3 + 2),\
        "angles":[{"angle":"elbowFlexion","side":"left","min":\(left.0),"max":\(left.1),"atPeak":\(left.1)},\
        {"angle":"elbowFlexion","side":"right","min":\(right.0),"max":\(right.1),"atPeak":90}],\
        "peakAngle":\(left.1),"rangeOfMotion":1.1,\
        "range":{"status":"reached","peak":\(left.1),"targetMin":90,"targetMax":140,"fraction":1.1,"unit":"°"},\
        "tempo":{"toPeakSeconds":1,"fromPeakSeconds":1},"verdict":"\(verdict)","issues":[],"safetyBreaches":[],\
        "measurementReliable":true,"uncheckedRules":[]\(reason.map { #","uncheckedReason":"\#($0)""# } ?? "")}
        """
    }

    static func summary(
        _ repetitions: [String],
        safety: String = "",
        secondsWithPerson: Double = 10
    ) throws
        -> SessionSummary
    {
        let json = """
            {"exercise":"pull-up","exerciseName":"Pull-up","exerciseSource":"given","countedBy":"angle",\
            "reps":\(repetitions.count),"repetitions":[\(repetitions.joined(separator: ","))],"holds":[],\
            "segments":[],"formIssues":[],"safetyWarnings":[\(safety)],"cues":[],\
            "averages":{},"durationSeconds":12,"secondsWithPerson":\(secondsWithPerson)}
            """
        return try SessionSummary(jsonText: json)
    }

    @Test func theTextGivesTheMeasuredSidesAngleNotTheGuessedFarArm() throws {
        let summary = try Self.summary([Self.pullUp(1), Self.pullUp(2)])
        let text = BodyAnalysis.report(summary, file: "pull-up_9.mp4")
        #expect(text.contains("rep 1: 3.0–5.0 s, elbow flexion left 3–123°"), "\(text)")
        #expect(!text.contains("173"), "\(text)")
        #expect(summary.repetitions[0].measuredPrimaryRange?.side == .left)
    }

    @Test func anAngleTheJointCannotTakeIsNotGivenAsMeasured() throws {
        // The measured side itself swept to 173°: keypoints guessed, not an elbow.
        let summary = try Self.summary([Self.pullUp(1, left: (1, 173))])
        let text = BodyAnalysis.report(summary, file: "f")
        #expect(text.contains("elbow flexion left not measured"), "\(text)")
        #expect(text.contains("range not measured"), "\(text)")
        #expect(!text.contains("target reached"), "\(text)")
        #expect(summary.repetitions[0].measuredPrimaryRange?.isAnatomicallyPossible == false)
        // Nor in the report: no peak, no range against the target, and the reason in the notes.
        let row = try #require(ReportInput.Exercise(summary: summary).repetitions.first)
        #expect(row.peakDegrees == nil && row.rangeOfMotion == nil && row.rangeStatus == .notMeasurable)
        #expect(row.issues.contains { $0.contains("past what the joint can do") }, "\(row.issues)")
        #expect(summary.repetitions[0].angles[0].angle.anatomicalRange?.contains(150) == true)
    }

    @Test func theJSONMarksAnAngleTheJointCannotTakeAsNotPossible() throws {
        let summary = try Self.summary([Self.pullUp(1)])
        let encoded = try JSONEncoder().encode(summary.repetitions[0].angles)
        let angles = try #require(JSONSerialization.jsonObject(with: encoded) as? [[String: Any]])
        // The left elbow (3–123°) is a measurement; the right one's 1–173° is not, and says so.
        #expect(angles[0]["possible"] == nil)
        #expect(angles[1]["possible"] as? Bool == false)
        #expect(angles[1]["max"] as? Double == 173)
        // Read back, the ranges are the same (the flag follows from them).
        #expect(try JSONDecoder().decode([Repetition.AngleRange].self, from: encoded) == summary.repetitions[0].angles)
    }

    @Test func noRepetitionJudgedIsFormNotCheckedNeverPraisedNorBest() throws {
        let summary = try Self.summary([Self.pullUp(1), Self.pullUp(2, left: (5, 110))])
        #expect(summary.formNotCheckedReason == "the camera view does not suit the exercise")
        let text = BodyAnalysis.report(summary, file: "f")
        #expect(text.contains("form not checked: the camera view does not suit the exercise"), "\(text)")
        #expect(!text.contains("good form:"), "\(text)")
        let captions = AnalysisOutputs.stillRepetitions(summary.repetitions).map(\.caption)
        #expect(!captions.contains("Best repetition") && !captions.contains("Needs most work"), "\(captions)")
        // Nobody seen, nothing counted: that is the reason, not "well done".
        #expect(try Self.summary([], secondsWithPerson: 0).formNotCheckedReason == "nobody was seen")
        #expect(try Self.summary([], secondsWithPerson: 5).formNotCheckedReason == "no repetitions counted")
    }

    @Test func bestAndNeedsMostWorkAreOnlyAmongJudgedRepetitions() throws {
        let summary = try Self.summary([
            Self.pullUp(1, verdict: "good", reason: nil), Self.pullUp(2),
            Self.pullUp(3, verdict: "good", reason: nil),
        ])
        #expect(summary.formNotCheckedReason == nil)
        let stills = AnalysisOutputs.stillRepetitions(summary.repetitions)
        #expect(!stills.map(\.rep.index).contains(2), "repetition 2 was not judged: \(stills.map(\.rep.index))")
    }

    @Test func aSafetyCrossingIsOneLineWithItsPeakAndDuration() throws {
        let warning = """
            {"angle":"elbowFlexion","side":"left","value":151,"limit":150,"text":"Stop","seconds":4.2,\
            "peak":156,"durationSeconds":0.2}
            """
        let text = BodyAnalysis.report(try Self.summary([Self.pullUp(1)], safety: warning), file: "f")
        let lines = text.split(separator: "\n").filter { $0.contains("safety at") }
        #expect(lines == ["  safety at 4.2 s: Stop (elbow flexion peak 156°, limit 150°, 0.2 s)"], "\(text)")
    }
}

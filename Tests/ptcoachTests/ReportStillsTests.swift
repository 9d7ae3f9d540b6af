import CoachAnalysis
import CoachKit
import CoachPipeline
import Foundation
import Testing

@testable import ptcoach

struct ReportStillsTests {
    /// A repetition as `analyze --json` writes it: `rom` of the target, `issues` form cues.
    static func repetition(_ index: Int, rom: Double?, issues: [String] = []) throws -> Repetition {
        let issueJSON = issues.map {
            #"{"rule":"depth","cue":"\#($0)","angle":"kneeFlexion","value":60,"limit":70,"priority":3}"#
        }
        let json = """
            {"index":\(index),"startSeconds":\(index * 2),"endSeconds":\(index * 2 + 1),"angles":[],\
            \(rom.map { #""rangeOfMotion":\#($0),"# } ?? "")"tempo":{"toPeakSeconds":0.5,"fromPeakSeconds":0.5},\
            "verdict":"\(issues.isEmpty ? "good" : "needs-work")","issues":[\(issueJSON.joined(separator: ","))],\
            "safetyBreaches":[],"measurementReliable":true}
            """
        return try JSONDecoder().decode(Repetition.self, from: Data(json.utf8))
    }

    @Test func everyRepetitionGoodShowsTheSmallestRangeNotOneNeedingWork() throws {
        // pull-up_14: five good pull-ups, the first the smallest (144 %); the report said "Needs most work:
        // repetition 1 (repetition 1)".
        let reps = try [1.44, 1.51, 1.47, 1.45, 1.49].enumerated().map { try Self.repetition($0 + 1, rom: $1) }
        let stills = AnalysisOutputs.stillRepetitions(reps)
        #expect(stills.map(\.rep.index) == [2, 1])
        #expect(stills.map(\.caption) == ["Best repetition", "Smallest range of motion"])
    }

    @Test func aRepetitionWithAnIssueNeedsMostWork() throws {
        let reps = try [
            Self.repetition(1, rom: 1.0), Self.repetition(2, rom: 0.8, issues: ["Squat a little deeper"]),
            Self.repetition(3, rom: 1.1),
        ]
        let stills = AnalysisOutputs.stillRepetitions(reps)
        #expect(stills.map(\.rep.index) == [3, 2])
        #expect(stills.map(\.caption) == ["Best repetition", "Needs most work"])
        // The report adds "(repetition N)": no caption names its repetition itself.
        #expect(stills.allSatisfy { !$0.caption.contains("\($0.rep.index)") })
    }

    @Test func stillsAreTakenWhereTheOverlayShowedTheExercise() throws {
        // push-up_37 with no exercise: repetition 1 ended before the push-up was recognised, so its still showed
        // "Observing…"; the stills come from the repetitions the overlay showed as push-ups.
        let reps = try [1.1, 1.3, 1.2, 1.0].enumerated().map { try Self.repetition($0 + 1, rom: $1) }
        let stills = AnalysisOutputs.stillRepetitions(reps, shown: { $0.index >= 3 })
        #expect(stills.map(\.rep.index) == [3, 4])
        // None shown: every repetition is a candidate, as before.
        #expect(AnalysisOutputs.stillRepetitions(reps, shown: { _ in false }).map(\.rep.index) == [2, 4])
        #expect(AnalysisOutputs.stillRepetitions(reps, shown: { $0.index == 1 }).map(\.rep.index) == [1])
    }

    @Test func oneRepetitionIsOneStill() throws {
        let stills = AnalysisOutputs.stillRepetitions([try Self.repetition(1, rom: nil)])
        #expect(stills.map(\.caption) == ["Repetition shown"])
    }
}

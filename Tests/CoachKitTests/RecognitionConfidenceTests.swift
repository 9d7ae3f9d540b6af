import CoachKit
import CoachTestSupport
import PoseKit
import Testing

/// The fitted threshold below which a recognised exercise is not named: on the snapshot the live coach shows and on
/// the summary reports print.
struct RecognitionConfidenceTests {
    static let threshold = RecognitionConfidence.fitted.namedAtLeast

    @Test func theSentenceSaysItCannotTell() {
        #expect(RecognitionConfidence.unsureSentence == "I can't tell which exercise this is: pick it")
    }

    @Test(arguments: [(0.2, true), (threshold - 0.01, true), (threshold, false), (0.95, false), (.nan, true)])
    func belowTheThresholdIsUnsure(confidence: Double, unsure: Bool) {
        #expect(RecognitionConfidence.fitted.isUnsure(confidence) == unsure, "confidence \(confidence)")
    }

    @Test func aSnapshotIsUnsureOnlyOfAnExerciseRecognisedBelowTheThreshold() {
        var snapshot = CoachSnapshot()
        // Nothing recognised: nothing to be unsure of.
        snapshot.confidence = 0.3
        #expect(!snapshot.recognitionUnsure)
        snapshot.exerciseID = "squat"
        snapshot.recognition = .exercise(id: "squat", confidence: 0.3)
        #expect(snapshot.recognitionUnsure)
        snapshot.confidence = Self.threshold + 0.05
        #expect(!snapshot.recognitionUnsure)
        // An exercise given has confidence 1.
        snapshot.confidence = 1
        #expect(!snapshot.recognitionUnsure)
    }

    @Test func aSummaryIsUnsureByItsExercisesBestSegment() throws {
        // Given a real clip analysed with no exercise given, named with a confidence
        let summary = try Self.recognisedSummary()
        try #require(summary.exerciseSource == .recognized)
        let named = try #require(summary.recognitionConfidence)
        #expect(named == summary.segments.filter { $0.exercise == summary.exercise }.map(\.confidence).max())
        // Then it is unsure exactly when every segment naming its exercise is below the threshold
        var low = summary
        for i in low.segments.indices { low.segments[i].confidence = Self.threshold - 0.1 }
        #expect(low.recognitionUnsure)
        var high = summary
        for i in high.segments.indices { high.segments[i].confidence = Self.threshold + 0.1 }
        #expect(!high.recognitionUnsure)
        // An exercise given is never unsure.
        var given = low
        given.exerciseSource = .given
        #expect(given.recognitionConfidence == nil)
        #expect(!given.recognitionUnsure)
    }

    /// A kaiakol push-up clip (recognised as a push-up) analysed with no exercise given.
    static func recognisedSummary() throws -> SessionSummary {
        try BuiltInFeedbackTests.summary(
            try SharedData.path("pose-tracks/kaiakol/pushup_correct_001.jsonl"),
            exercise: nil
        )
    }
}

/// With no exercise given, a repetition completed while the exercise is recognised below the fitted confidence is
/// counted aloud, never praised or corrected as that exercise.
struct UnsureRecognitionCueTests {
    @Test func anUnsureExerciseIsCountedNotCorrected() throws {
        // Given KIMORE's lateral trunk tilt, which the recogniser calls a shoulder press at about 0.5
        let path = try SharedData.path("pose-tracks/kimore/es2_rec2.jsonl")
        let (header, frames) = try PoseTrackReader.readAll(path: path)
        var session = try BuiltInFeedbackTests.session(exercise: nil, header: header)
        var unsureRepetitions = 0
        for frame in frames {
            let events = session.ingest(frame)
            // Then every cue given while unsure, at a repetition, only counts it
            guard session.snapshot.recognitionUnsure else { continue }
            for event in events {
                if case .repCompleted = event { unsureRepetitions += 1 }
                guard case .cue(let cue) = event else { continue }
                #expect(cue.kind != .form, "a form cue for an exercise the coach cannot tell: \(cue.text)")
                if cue.kind == .encouragement { #expect(cue.text.hasPrefix("Rep "), "\(cue.text)") }
            }
        }
        #expect(unsureRepetitions > 0, "no repetition completed while the recognition was unsure")
    }
}

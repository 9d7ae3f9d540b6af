import CoachKit
import CoachServer
import CoachStore
import CoachTestSupport
import Foundation
import MediaIO
import PoseKit
import Testing

@testable import CoachAnalysis
@testable import ptcoach

/// The report of a saved live hand set: the body report's HTML with the hand's section, as `ptcoach analyze
/// --exercise finger-flexion --report` writes it (a chart per finger, the repetitions with their range and cue).
struct LiveReportRendererTests {
    @Test("A hand set's report shows its repetitions, TAM and one chart per finger")
    func handSetReport() throws {
        let fist = try #require(try HandExerciseLibrary.bundled().exercises.first { $0.id == "finger-flexion" })
        var session = HandCoachingSession(exercise: fist, width: 640, height: 480)
        var series: [AngleSample] = []
        var rng = SplitMix64(seed: 7)
        // Two fists, 2 s each, at 15 frames a second.
        for k in 0..<75 {
            let t = Double(k) / 15
            let share = (1 - cos(.pi * t)) / 2
            var hand = SyntheticHand(chirality: .left)
            for finger in [Finger.index, .middle, .ring, .little] {
                hand.flexion[finger.joints[0]] = 85 * share
                hand.flexion[finger.joints[1]] = 100 * share
                hand.flexion[finger.joints[2]] = 60 * share
            }
            let pose = hand.pose(viewDegrees: 0, noise: 1, using: &rng)
            let snapshot = session.ingest(HandFrame(seconds: t, hands: [pose]))
            if let value = snapshot.value {
                series.append(AngleSample(seconds: t, degrees: value, fingers: snapshot.fingers))
            }
        }
        let hand = session.summary()
        #expect(hand.reps == 2)
        var record = SetRecord(
            id: "hand-set",
            startedAt: .now,
            input: "camera",
            exercise: fist.id,
            exerciseName: fist.name,
            prescribedReps: 10,
            prescribedHoldSeconds: nil
        )
        record.summaryJSON = try hand.jsonText(file: "live:hand-set", prescribedReps: 10)
        let renderer = LiveReportRenderer(library: try ExerciseLibrary.bundled(), hands: [fist])
        let reported = ReportedSet(set: record, summary: hand.stored, angleSeries: series, hand: hand)
        let html = String(
            decoding: try renderer.report(
                [reported],
                title: "Fist: 2 repetitions",
                subtitle: "Live set",
                format: "html"
            ),
            as: UTF8.self
        )
        for finger in ["Index", "Middle", "Ring", "Little"] {
            #expect(html.contains("\(finger) finger flexion (MCP+PIP+DIP)"), "a chart for the \(finger) finger")
        }
        #expect(html.contains("<h2>Finger flexion and extension</h2>"))
        #expect(html.contains("<h3>Repetitions</h3>"))
        #expect(html.components(separatedBy: "</td></tr>").count - 1 == 2, "a row per repetition")
        let pdf = try renderer.report([reported], title: "Fist", subtitle: "Live set", format: "pdf")
        #expect(pdf.starts(with: Array("%PDF".utf8)))
    }

    /// A saved programme set of three synthetic squats, followed with `prescription`.
    static func squatSet(_ id: String, prescription: Prescription, pain: Int?) throws -> ReportedSet {
        let library = try ExerciseLibrary.bundled()
        let followed = try prescription.prescribed(from: library.exercises)
        var session = CoachingSession(
            configuration: .analysis(
                exercise: followed,
                library: library.exercises,
                width: SyntheticExercise.width,
                height: SyntheticExercise.height
            )
        )
        var series: [AngleSample] = []
        for frame in SyntheticExercise(kind: .squat).frames(reps: 3) {
            _ = session.ingest(frame)
            if let degrees = session.snapshot.primaryAngle {
                series.append(.init(seconds: frame.seconds, degrees: degrees))
            }
        }
        _ = session.finish()
        let summary = session.summary()
        var record = SetRecord(
            id: id,
            startedAt: Date(timeIntervalSince1970: 1_795_000_000),
            input: "camera",
            exercise: "squat",
            exerciseName: "Squat",
            prescribedReps: prescription.reps,
            prescribedHoldSeconds: nil
        )
        record.summaryJSON = try summary.jsonText(file: "live:\(id)", prescribedReps: prescription.reps)
        record.status = .completed
        record.prescription = prescription
        record.programmeVersion = 2
        record.setNumber = 1
        record.pain = pain
        record.reps = summary.reps
        record.peakAngle = summary.repetitions.compactMap(\.peakAngle).max()
        return ReportedSet(set: record, summary: summary, angleSeries: series)
    }

    @Test("A programme set's report draws the prescription's target and stop-past limit, not the library's")
    func prescribedTargetInTheReport() throws {
        let prescription = Prescription(
            exercise: "squat",
            sets: 3,
            reps: 3,
            targetMin: 60,
            targetMax: 80,
            safetyMax: 85
        )
        let reported = try Self.squatSet("s1", prescription: prescription, pain: 2)
        let renderer = LiveReportRenderer(library: try ExerciseLibrary.bundled())
        let html = String(
            decoding: try renderer.report([reported], title: "Squat", subtitle: "", format: "html"),
            as: UTF8.self
        )
        #expect(
            html.contains("Prescribed (programme version 2, set 1 of 3): 3 repetitions, target 60–80°, stop past 85°")
        )
        #expect(html.contains("stop past 85°</text>"), "the limit drawn on the angle chart")
        #expect(!html.contains("80–120"), "the library's default target must not show")
        // Without a prescription (a free set) the library's target stands and no limit is drawn.
        var free = reported
        free.set.prescription = nil
        let plain = String(
            decoding: try renderer.report([free], title: "Squat", subtitle: "", format: "html"),
            as: UTF8.self
        )
        #expect(!plain.contains("stop past") && !plain.contains("Prescribed"))
    }

    @Test("A clinic exercise's set (its definition not in the renderer's library) reports its prescription")
    func clinicExerciseInTheReport() throws {
        let prescription = Prescription(
            exercise: "squat",
            sets: 3,
            reps: 3,
            targetMin: 60,
            targetMax: 80,
            safetyMax: 85
        )
        var reported = try Self.squatSet("s1", prescription: prescription, pain: 2)
        let bundled = try ExerciseLibrary.bundled()
        // The server started without it (learned since): only the set carries the definition.
        let renderer = LiveReportRenderer(
            library: try ExerciseLibrary(exercises: bundled.exercises.filter { $0.id != "squat" })
        )
        let line = "Prescribed (programme version 2, set 1 of 3): 3 repetitions, target 60–80°, stop past 85°"
        let without = String(
            decoding: try renderer.report([reported], title: "Squat", subtitle: "", format: "html"),
            as: UTF8.self
        )
        #expect(!without.contains(line), "the renderer cannot know the exercise by itself")
        reported.definition = bundled["squat"]
        let html = String(
            decoding: try renderer.report([reported], title: "Squat", subtitle: "", format: "html"),
            as: UTF8.self
        )
        #expect(html.contains(line))
        #expect(html.contains("stop past 85°</text>"))
    }

    @Test("A date range opens with a clinical summary: adherence, the trend per exercise, each set with its time")
    func dateRangeSummary() throws {
        let prescription = Prescription(exercise: "squat", sets: 3, reps: 3, targetMin: 60, targetMax: 80)
        var first = try Self.squatSet("a", prescription: prescription, pain: 2)
        var second = try Self.squatSet("b", prescription: prescription, pain: 8)
        first.set.programmeItem = 0
        second.set.programmeItem = 0
        second.set.startedAt += 86400 + 600
        second.set.setNumber = 2
        let (lines, tables) = ClinicalSummary(sets: [first, second], prescribedSets: 9).parts
        #expect(
            lines.first
                == "2 sets on 2 days (9 prescribed by the programme over these dates: 22 % done); pain rated after 2 of them."
        )
        #expect(
            lines.contains { $0.hasPrefix("Stopped: Squat on Thu 19 Nov 11:16, pain 8/10 (not yet seen") },
            "\(lines)"
        )
        #expect(tables.map(\.title) == ["Trend per exercise (first set → last)", "Each set"])
        #expect(tables[0].rows.first?[5] == "2 → 8")
        #expect(tables[1].rows.map { $0[0] } == ["Wed 18 Nov 11:06", "Thu 19 Nov 11:16"])
        let pdf = try LiveReportRenderer(library: try ExerciseLibrary.bundled())
            .summary([first, second], prescribedSets: 9, title: "Pat", subtitle: "range", format: "pdf")
        #expect(pdf.starts(with: Array("%PDF".utf8)))
    }
}

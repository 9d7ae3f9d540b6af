import CoachKit
import CoachServer
import CoachStore
import CoachTestSupport
import Foundation
import PoseKit
import Testing

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
}

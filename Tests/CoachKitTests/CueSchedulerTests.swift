import CoachKit
import Testing

struct CueSchedulerTests {
    @Test func mostImportantWaitingCueWinsAfterTheCooldown() {
        var cues = CueScheduler(configuration: .init(cooldownSeconds: 4))
        _ = cues.offer(Cue(kind: .encouragement, text: "Good rep!", seconds: 0))
        #expect(cues.ingest(at: 0)?.text == "Good rep!")
        // During the cooldown: praise, then a form cue of priority 2, then one of priority 1.
        _ = cues.offer(Cue(kind: .encouragement, text: "Nice!", seconds: 1))
        _ = cues.offer(Cue(kind: .form, text: "Keep your chest up", priority: 2, seconds: 1.5))
        _ = cues.offer(Cue(kind: .form, text: "Knees out", priority: 1, seconds: 2))
        #expect(cues.ingest(at: 3) == nil)  // still cooling down
        #expect(cues.ingest(at: 4)?.text == "Knees out")
        #expect(cues.ingest(at: 4.1) == nil)  // one at a time
    }

    @Test func safetyGoesOutAtOnceEvenDuringTheCooldown() {
        var cues = CueScheduler(configuration: .init(cooldownSeconds: 4))
        _ = cues.offer(Cue(kind: .form, text: "Knees out", seconds: 0))
        #expect(cues.ingest(at: 0) != nil)
        let safety = cues.offer(Cue(kind: .safety, text: "Stop", seconds: 0.5))
        #expect(safety?.text == "Stop")
    }

    @Test func staleCuesAreDroppedAndRepeatsSpaced() {
        var cues = CueScheduler(configuration: .init(cooldownSeconds: 4, maximumWaitSeconds: 3, repeatSeconds: 10))
        _ = cues.offer(Cue(kind: .form, text: "A", seconds: 0))
        #expect(cues.ingest(at: 0)?.text == "A")
        _ = cues.offer(Cue(kind: .form, text: "B", seconds: 0.5))
        #expect(cues.ingest(at: 4) == nil)  // B waited 3.5 s > 3 s: dropped
        _ = cues.offer(Cue(kind: .form, text: "A", seconds: 5))
        #expect(cues.ingest(at: 5) == nil)  // the same text within 10 s
    }
}

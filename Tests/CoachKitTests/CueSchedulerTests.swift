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

    @Test func theEndOfAHoldIsSaidAtOnceEveryTime() {
        // Repetitions held 5 s every 8 s: "now come back" is right only at the end of each hold, even 8 s after
        // the same words and 3 s after another cue.
        var cues = CueScheduler(configuration: .init(cooldownSeconds: 4, repeatSeconds: 10))
        let comeBack = "5 s: now come back slowly"
        #expect(cues.offer(Cue(kind: .timing, text: comeBack, seconds: 5))?.seconds == 5)
        _ = cues.offer(Cue(kind: .form, text: "Keep your knee straight", seconds: 10))
        #expect(cues.ingest(at: 10) != nil)
        #expect(cues.offer(Cue(kind: .timing, text: comeBack, seconds: 13))?.seconds == 13)
        #expect(cues.current?.text == comeBack)
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

import CoachKit
import CoachTestSupport
import Foundation
import PoseKit
import Testing

@testable import ptcoach

/// The Kapandji video's pinch (thumb tip to index tip, 2.18–2.73 s, the only one under 0.25 hand lengths) starts a
/// set the first time, every time, whichever of its frames a server has time for: the gestures read the frames'
/// capture times. The hands are found with the real hand model (`ptcoach poses --hands`).
///
/// Measured on this track: the rule it replaces (8 frames in a row, or 0.45 s over 3) started the set in 10 of 10
/// phases at 15 frames a second, 5 at 10, 4 at 8, 3 at 6, none at 5; this one in 10 of 10 from 60 down to 4 frames a
/// second, and 6 of 10 at 3 (then the pinch spans less than two frame intervals).
struct HandPinchRealVideoTests {
    /// The frames a server answering `fps` frames a second from `phase` gets: the first frame at or after each tick.
    static func answered(_ frames: [HandFrame], fps: Double, phase: Double) -> [HandFrame] {
        var out: [HandFrame] = []
        var k = 0
        var t = phase
        while let last = frames.last, t <= last.seconds {
            while k < frames.count, frames[k].seconds < t - 1e-9 { k += 1 }
            guard k < frames.count else { break }
            if out.last?.seconds != frames[k].seconds { out.append(frames[k]) }
            t += 1 / fps
        }
        return out
    }

    @Test func theKapandjiPinchStartsTheSetAtAnyFrameRateTheServerManages() async throws {
        let input = try SharedData.path("videos/hands/thumb-opposition_wakeexer_kapandji.mp4")
        let path = NSTemporaryDirectory() + "kapandji-pinch-\(UUID().uuidString).hands.jsonl"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let ran = try await InProcessCommand.run(["poses", input, "--hands", "--num-hands", "1", "--quiet", "-o", path])
        try #require(ran, "ptcoach poses --hands failed on \(input)")
        let frames = try HandTrackReader.readAll(path: path).frames
        try #require(frames.count > 500, "\(frames.count) frames")
        for fps in [30.0, 15, 10, 6, 4] {
            for step in 0..<10 {
                let phase = Double(step) / (10 * fps)
                var control = HandGestureControl()
                var started: Double?
                for frame in Self.answered(frames, fps: fps, phase: phase) {
                    if control.ingest(frame.hands, at: frame.seconds) == .start, started == nil {
                        started = frame.seconds
                    }
                }
                guard let started else {
                    Issue.record("\(fps) fps, phase \(phase): the pinch never started the set")
                    continue
                }
                // Within the pinch, once held a quarter of a second (give or take a frame interval and a half).
                #expect(started >= 2.18 && started <= 2.75, "\(fps) fps, phase \(phase): started at \(started) s")
            }
        }
    }
}

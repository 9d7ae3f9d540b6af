import CoachTestSupport
import Foundation
import PoseKit
import Testing

@testable import CoachKit

/// The same movement gives the same count however many of its frames arrive: a busy live server drops camera
/// frames, so a set recorded at 30 fps is counted from 15, 10, 7.5 or 5 of them a second, or from a random 70 %.
struct FrameRateTests {
    /// The ways a server thins 30 fps: every k-th frame (15, 10, 7.5, 5 fps) and 30 % dropped at random (seeded).
    static let thinnings: [(name: String, keep: @Sendable (Int, inout SplitMix64) -> Bool)] = [
        ("15 fps", { i, _ in i % 2 == 0 }),
        ("10 fps", { i, _ in i % 3 == 0 }),
        ("7.5 fps", { i, _ in i % 4 == 0 }),
        ("5 fps", { i, _ in i % 6 == 0 }),
        ("30 % dropped", { _, rng in rng.uniform() >= 0.3 }),
    ]

    static func thinned<T>(_ frames: [T], _ keep: (Int, inout SplitMix64) -> Bool, seed: UInt64 = 7) -> [T] {
        var rng = SplitMix64(seed: seed)
        return frames.enumerated().filter { keep($0.offset, &rng) }.map(\.element)
    }

    @Test(arguments: [
        (SyntheticExercise.Kind.squat, "squat", 8),
        (.shoulderAbduction, "shoulder-abduction", 10),
        (.bicepCurl, "bicep-curl", 6),
    ])
    func theCountIsTheSameAtEveryFrameRate(kind: SyntheticExercise.Kind, id: String, reps: Int) throws {
        let frames = SyntheticExercise(kind: kind).frames(reps: reps)
        let given = try CoachingSessionTests.run(frames, exercise: id).session.summary().reps
        let none = try CoachingSessionTests.run(frames, exercise: nil).session.summary().reps
        #expect(given == reps)
        #expect(none >= reps - 1, "no exercise given, all frames: \(none)")
        for (name, keep) in Self.thinnings {
            let fewer = Self.thinned(frames, keep)
            let givenThinned = try CoachingSessionTests.run(fewer, exercise: id).session.summary().reps
            #expect(givenThinned == given, "\(id), \(name): \(givenThinned) of \(given)")
            let noneThinned = try CoachingSessionTests.run(fewer, exercise: nil).session.summary().reps
            #expect(noneThinned == none, "\(id) with no exercise given, \(name): \(noneThinned) of \(none)")
        }
    }

    @Test func theRepetitionCounterCountsASineAtEveryRate() {
        // 10 repetitions of 1.2 s (a brisk push-up): a five-frame median at 5 fps is one of a whole second.
        for fps in [30.0, 15, 10, 7.5, 5] {
            var counter = RepCounter(configuration: .init(direction: 1, minimumRange: 15))
            let n = Int(13 * fps)
            for i in 0..<n {
                let t = Double(i) / fps
                let angle = t < 0.5 ? 0 : 45 * (0.5 - 0.5 * cos(2 * .pi * (t - 0.5) / 1.2))
                _ = counter.ingest(angle, at: t)
            }
            #expect(counter.count == 10, "\(fps) fps: \(counter.count)")
        }
    }

    @Test func theMedianIsTakenOverCaptureTime() {
        // 30 fps: the last five frames; a one-frame glitch is removed.
        var median = MedianFilter()
        var out: [Double] = []
        for i in 0..<10 { out.append(median.ingest(i == 5 ? 100 : 1, at: Double(i) / 30)) }
        #expect(out.allSatisfy { $0 == 1 })
        // 5 fps: each value alone in the span, so a movement is followed, not flattened.
        var sparse = MedianFilter()
        let values = [0.0, 10, 40, 10, 0]
        let filtered = values.enumerated().map { sparse.ingest($0.element, at: Double($0.offset) / 5) }
        #expect(filtered == values)
        // 10 fps: the mean of the last two.
        var ten = MedianFilter()
        #expect([0.0, 10, 40].enumerated().map { ten.ingest($0.element, at: Double($0.offset) / 10) } == [0, 5, 25])
        // Without times, the last five values whatever their rate.
        var untimed = MedianFilter()
        #expect([1.0, 100, 1, 100, 100].map { untimed.ingest($0) }.last == 100)
        #expect([1.0, 1, 1].map { untimed.ingest($0) }.last == 1)
    }

    @Test func aHeldTouchCountsAtEveryRate() {
        // The thumb on one fingertip for 0.35 s, away 0.65 s, five times (letting go is seen from the first frame
        // away to one 0.25 s later: at 5 fps three frames away).
        for fps in [30.0, 15, 10, 7.5, 5] {
            var touches = TouchCounter(
                configuration: .init(touchDistance: 0.2, releaseDistance: 0.3, countsNewTarget: false)
            )
            for i in 0..<Int(5 * fps) {
                let t = Double(i) / fps
                let phase = t.truncatingRemainder(dividingBy: 1)
                _ = touches.ingest(distance: phase < 0.35 ? 0.1 : 0.6, target: 1, at: t)
            }
            #expect(touches.count == 5, "\(fps) fps: \(touches.count)")
        }
        // One frame close among far ones is no touch, at 30 fps as at 10.
        for fps in [30.0, 10] {
            var touches = TouchCounter(
                configuration: .init(touchDistance: 0.2, releaseDistance: 0.3, countsNewTarget: false)
            )
            for i in 0..<Int(5 * fps) {
                _ = touches.ingest(distance: i % 7 == 3 ? 0.05 : 0.6, target: 1, at: Double(i) / fps)
            }
            #expect(touches.count == 0, "\(fps) fps")
        }
    }

    @Test func theMovementCounterSamplesTheSameGridAtEveryRate() throws {
        // The movement counter alone (no session): a squat set from 30 fps and from 7.5 fps.
        let frames = SyntheticExercise(kind: .squat).frames(reps: 8)
        func count(_ frames: [PoseFrame]) -> Int {
            var counter = PeriodicMotionCounter()
            for frame in frames { counter.ingest(frame.poses.first, at: frame.seconds, valid: true) }
            counter.finish()
            return counter.count
        }
        let full = count(frames)
        #expect(full == 8)
        for (name, keep) in Self.thinnings {
            #expect(count(Self.thinned(frames, keep)) == full, "\(name)")
        }
    }

    @Test(arguments: [(30.0, 100), (29.97, 100), (25, 100), (20, 100), (15, 100), (10, 100), (7.5, 75), (5, 50)])
    func theTenHertzSamplesAreTheFirstFrameOfEachTenthOfASecond(fps: Double, samples: Int) {
        // 10 s of frames: one sample in each 0.1-s interval of capture time that holds a frame, the first of it.
        var grid = SampleGrid()
        var times: [Double] = []
        for i in 0..<Int((10 * fps).rounded()) {
            // Times as a pose-track writes them (to 1e-4 s): 0.3 is read back as 0.3, not 0.30000000000000004.
            let t = (Double(i) / fps * 10_000).rounded() / 10_000
            if grid.isDue(at: t) {
                grid.take(at: t)
                times.append(t)
            }
        }
        #expect(times.count == samples, "\(fps) fps: \(times.count) samples")
        for (k, t) in times.enumerated() where fps >= 10 {
            // Within one frame interval after its grid point.
            #expect(t >= Double(k) / 10 - 1e-9 && t < Double(k) / 10 + 1 / fps, "\(fps) fps: sample \(k) at \(t)")
        }
        // A frame captured before the last sample (a new recording) is one again.
        #expect(grid.isDue(at: 0.05))
    }

    @Test func theRingSamplesTheSameMomentsAtEveryRateFromTenFramesASecond() {
        // The ring's samples of a squat set at 30 and at 15 fps: one each 0.1 s, within a frame of each other.
        func sampled(fps: Double) -> [Double] {
            var ring = AngleSampleRing(capacity: 100)
            for i in 0..<Int(8 * fps) where ring.isDue(at: Double(i) / fps) {
                _ = ring.beginSample(at: Double(i) / fps)
            }
            return (0..<ring.count).map { ring.times[ring.index(chronological: $0)] }
        }
        let full = sampled(fps: 30)
        for fps in [25.0, 15, 10] {
            let fewer = sampled(fps: fps)
            #expect(fewer.count == full.count, "\(fps) fps: \(fewer.count) samples of \(full.count)")
            #expect(zip(full, fewer).allSatisfy { abs($0 - $1) < 1 / fps }, "\(fps) fps")
        }
    }
}

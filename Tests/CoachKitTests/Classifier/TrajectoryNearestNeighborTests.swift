import CoachKit
import PoseKit
import Testing

struct TrajectoryNearestNeighborTests {
    /// One channel: a bump centred at `centre` (0–1) over `length` steps.
    static func bump(length: Int, centre: Double) -> [Double] {
        (0..<length).map { step in
            let t = Double(step) / Double(length - 1)
            return t > centre - 0.2 && t < centre + 0.2 ? 1 - abs(t - centre) / 0.2 : 0
        }
    }

    @Test func dtwOfIdenticalSequencesIsZeroAndSymmetric() {
        let a = Self.bump(length: 32, centre: 0.4)
        let b = Self.bump(length: 32, centre: 0.6)
        #expect(TrajectoryNearestNeighbor.dtw(a, a, length: 32, channels: 1, radius: 8) == 0)
        let ab = TrajectoryNearestNeighbor.dtw(a, b, length: 32, channels: 1, radius: 8)
        let ba = TrajectoryNearestNeighbor.dtw(b, a, length: 32, channels: 1, radius: 8)
        #expect(ab == ba)
    }

    @Test func warpingForgivesAShiftInTimeThatEuclideanDistancePunishes() {
        let a = Self.bump(length: 32, centre: 0.4)
        let b = Self.bump(length: 32, centre: 0.55)
        let euclidean = TrajectoryNearestNeighbor.dtw(a, b, length: 32, channels: 1, radius: 0)
        let warped = TrajectoryNearestNeighbor.dtw(a, b, length: 32, channels: 1, radius: 8)
        var squares = 0.0
        for i in 0..<32 { squares += (a[i] - b[i]) * (a[i] - b[i]) }
        #expect(abs(euclidean - squares) < 1e-12)
        #expect(warped < 0.1 * euclidean)
    }

    @Test func twoChannelsShareOneWarpingPath() {
        // Interleaved (time-major) two-channel sequences: channel 1 is channel 0 negated.
        let a = Self.bump(length: 16, centre: 0.5).flatMap { [$0, -$0] }
        let b = Self.bump(length: 16, centre: 0.5).flatMap { [$0, $0] }
        let distance = TrajectoryNearestNeighbor.dtw(a, b, length: 16, channels: 2, radius: 4)
        #expect(distance > 0)
        #expect(TrajectoryNearestNeighbor.dtw(b, b, length: 16, channels: 2, radius: 4) == 0)
    }

    @Test func predictsTheLabelOfTheNearestTrajectory() {
        let templates = [Self.bump(length: 24, centre: 0.3), Self.bump(length: 24, centre: 0.3).map { $0 * 3 }]
        let model = TrajectoryNearestNeighbor.fit(
            trajectories: templates,
            classes: [0, 1],
            classCount: 2,
            length: 24,
            radius: 6
        )
        let small = model.probabilities(Self.bump(length: 24, centre: 0.4).map { $0 * 1.1 })
        let large = model.probabilities(Self.bump(length: 24, centre: 0.25).map { $0 * 2.8 })
        #expect(small[0] > small[1])
        #expect(large[1] > large[0])
        #expect(abs(small.reduce(0, +) - 1) < 1e-12)
        #expect(model.probabilities(templates[1]) == [0, 1])
    }

    @Test func trajectoryIgnoresPositionScaleAndMirroring() throws {
        let (sequences, labels) = ActionClassifierTests.trainingSet()
        let spec = try SequenceFeatureSpec.fitted(to: sequences, timeBins: 4)
        #expect(labels.count == sequences.count)
        for motion in SyntheticMotion.allCases {
            let original = motion.sequence(variant: 7)
            let copy = original.transformed(swapSides: true) { x, y in ((640 - x) * 1.3 + 25, y * 1.3 - 40) }
            let a = spec.trajectory(for: original, length: 32)
            let b = spec.trajectory(for: copy, length: 32)
            try #require(a.count == 32 * spec.trajectoryChannelCount)
            try #require(a.count == b.count)
            for k in a.indices {
                #expect(abs(a[k] - b[k]) <= 1e-6 * max(1, abs(a[k])), "value \(k): \(a[k]) vs \(b[k])")
            }
        }
    }

    @Test func shortRecordingsAreInterpolatedNotPadded() throws {
        let (sequences, _) = ActionClassifierTests.trainingSet()
        let spec = try SequenceFeatureSpec.fitted(to: sequences, timeBins: 4)
        let frames = SyntheticMotion.armRaise.frames(reps: 1, variant: 3).prefix(10)
        let trajectory = spec.trajectory(for: PoseSequence(frames: Array(frames)), length: 32)
        #expect(trajectory.count == 32 * spec.trajectoryChannelCount)
        #expect(trajectory.allSatisfy { $0.isFinite })
    }
}

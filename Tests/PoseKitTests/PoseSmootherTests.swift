import PoseKit
import Testing

struct PoseSmootherTests {
    private static func person(noise: Double, using generator: inout SeededGenerator) -> Pose {
        SyntheticPerson(centerX: 320, top: 60, height: 360).pose(noise: noise, using: &generator)
    }

    @Test func smoothsEveryJointOfAStillPerson() throws {
        var generator = SeededGenerator(seed: 1)
        let truth = SyntheticPerson(centerX: 320, top: 60, height: 360).pose()
        var smoother = PoseSmoother()
        var rawError = 0.0
        var smoothError = 0.0
        for i in 0..<300 {
            let noisy = Self.person(noise: 3, using: &generator)
            let result = smoother.ingest(noisy, at: Double(i) / 30)
            let smooth = try #require(result)
            guard i >= 30 else { continue }
            for joint in Joint.vision {
                rawError += (noisy[joint].point - truth[joint].point).length
                smoothError += (smooth[joint].point - truth[joint].point).length
                #expect(smooth[joint].confidence == noisy[joint].confidence)
            }
        }
        #expect(smoothError < 0.5 * rawError)
    }

    @Test func bridgesAShortGapWithDecayingConfidence() throws {
        var generator = SeededGenerator(seed: 2)
        var smoother = PoseSmoother(configuration: .init(maximumGapSeconds: 0.3))
        var last = Pose()
        for i in 0..<30 {
            let result = smoother.ingest(Self.person(noise: 1, using: &generator), at: Double(i) / 30)
            last = try #require(result)
        }
        // The left wrist is not seen for 0.2 s (6 frames): it stays at its last position, fading.
        var confidences: [Double] = []
        for i in 30..<36 {
            var pose = Self.person(noise: 1, using: &generator)
            pose[.leftWrist] = .missing
            let result = smoother.ingest(pose, at: Double(i) / 30)
            let smooth = try #require(result)
            #expect(smooth[.leftWrist].point == last[.leftWrist].point)
            confidences.append(smooth[.leftWrist].confidence)
        }
        #expect(confidences.allSatisfy { $0 >= 0.45 && $0 < 0.9 })
        #expect(zip(confidences, confidences.dropFirst()).allSatisfy { $0 > $1 }, "\(confidences)")
        // A low-confidence detection counts as not seen too.
        var faint = Self.person(noise: 1, using: &generator)
        faint[.leftWrist].confidence = 0.1
        let result = smoother.ingest(faint, at: 36.0 / 30)
        #expect(try #require(result)[.leftWrist].point == last[.leftWrist].point)
    }

    @Test func dropsAJointMissingLongerThanTheGap() throws {
        var generator = SeededGenerator(seed: 3)
        var smoother = PoseSmoother(configuration: .init(maximumGapSeconds: 0.31))
        for i in 0..<30 { _ = smoother.ingest(Self.person(noise: 1, using: &generator), at: Double(i) / 30) }
        var lastSeenFrame: Int?
        for i in 30..<45 {
            var pose = Self.person(noise: 1, using: &generator)
            pose[.leftWrist] = .missing
            let result = smoother.ingest(pose, at: Double(i) / 30)
            let smooth = try #require(result)
            if smooth[.leftWrist].confidence > 0 { lastSeenFrame = i }
            #expect(smooth[.rightWrist].confidence > 0)
        }
        // Last seen at frame 29 (t = 0.967 s); held while the gap is at most 0.31 s, i.e. up to frame 38.
        #expect(lastSeenFrame == 38)
        // When it comes back it starts from the new position, not from a stale filter state.
        var back = Self.person(noise: 0, using: &generator)
        back[.leftWrist].x += 100
        let result = smoother.ingest(back, at: 45.0 / 30)
        #expect(try #require(result)[.leftWrist] == back[.leftWrist])
    }

    @Test func bridgesAFrameWithNobodyThenReturnsNil() throws {
        var generator = SeededGenerator(seed: 4)
        var smoother = PoseSmoother(configuration: .init(maximumGapSeconds: 0.2))
        for i in 0..<10 { _ = smoother.ingest(Self.person(noise: 1, using: &generator), at: Double(i) / 30) }
        let held = smoother.ingest(nil, at: 10.0 / 30)
        #expect(try #require(held)[.nose].confidence > 0)
        let later = smoother.ingest(nil, at: 0.6)
        #expect(later == nil)
    }

    @Test func timeGoingBackwardsResets() throws {
        var smoother = PoseSmoother()
        let a = SyntheticPerson(centerX: 200).pose()
        let b = SyntheticPerson(centerX: 400).pose()
        _ = smoother.ingest(a, at: 10)
        let result = smoother.ingest(b, at: 0)
        #expect(try #require(result) == b)
    }

    @Test func smoothsDepthWhenPresent() throws {
        var smoother = PoseSmoother()
        var pose = SyntheticPerson().pose()
        pose[.leftKnee].z = 100
        _ = smoother.ingest(pose, at: 0)
        pose[.leftKnee].z = 110
        let result = smoother.ingest(pose, at: 1.0 / 30)
        let smooth = try #require(result)
        let z = try #require(smooth[.leftKnee].z)
        #expect(z > 100 && z < 110)
        #expect(smooth[.rightKnee].z == nil)
    }
}

import Testing

@testable import CoachServer

/// Admission by capacity with made-up frame costs: no clock is read, the costs are what the workers would have
/// measured.
struct InferenceCapacityTests {
    static func capacity(costs: [Duration], window: Int = 240) -> InferenceCapacity {
        var configuration = InferenceCapacity.Configuration()
        configuration.window = window
        var capacity = InferenceCapacity(configuration: configuration)
        for cost in costs { capacity.record(frameCost: cost) }
        return capacity
    }

    static func isBusy(_ admission: InferenceCapacity.Admission, near rate: Double) -> Bool {
        guard case .busy(let retry, let measured) = admission else { return false }
        return retry == 30 && abs(measured - rate) < 1e-6
    }

    @Test func beforeEnoughFramesEverySessionIsAdmitted() {
        let capacity = Self.capacity(costs: Array(repeating: .seconds(1), count: 29))
        #expect(capacity.framesPerSecond(workers: 2) == nil)
        #expect(capacity.admission(running: 100, workers: 2) == .admit)
    }

    @Test(arguments: [(1, 3), (2, 6), (4, 12)])
    func sessionsAreAdmittedWhileEachKeepsEightFramesASecond(workers: Int, admitted: Int) throws {
        // 40 ms a frame: each worker coaches 25 frames a second.
        let capacity = Self.capacity(costs: Array(repeating: .milliseconds(40), count: 100))
        let rate = try #require(capacity.framesPerSecond(workers: workers))
        #expect(abs(rate - Double(workers) * 25) < 1e-6)
        for running in 0..<admitted { #expect(capacity.admission(running: running, workers: workers) == .admit) }
        #expect(Self.isBusy(capacity.admission(running: admitted, workers: workers), near: Double(workers) * 25))
    }

    @Test func theFigureFollowsTheLastFrames() {
        // Frames got slower (another process took a core): the old, fast ones leave the window.
        var capacity = Self.capacity(costs: Array(repeating: .milliseconds(20), count: 50), window: 50)
        #expect(capacity.admission(running: 9, workers: 2) == .admit)
        for _ in 0..<50 { capacity.record(frameCost: .milliseconds(100)) }
        #expect(abs((capacity.framesPerSecond(workers: 2) ?? 0) - 20) < 1e-6)
        #expect(capacity.admission(running: 1, workers: 2) == .admit)
        #expect(Self.isBusy(capacity.admission(running: 2, workers: 2), near: 20))
    }
}

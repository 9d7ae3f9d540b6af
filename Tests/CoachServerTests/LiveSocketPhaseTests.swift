import CoachKit
import Testing

@testable import CoachServer

/// The phases of a live socket, without a socket: what each message does in each phase.
struct LiveSocketPhaseTests {
    static func set(_ input: LiveInput) -> LiveSet {
        LiveSet(
            id: "test-\(input.rawValue)",
            input: input,
            exercise: nil,
            library: [],
            prescribedReps: nil,
            prescribedHoldSeconds: nil,
            keypointHeader: nil,
            estimators: nil,
            send: { _ in },
            completed: { _ in }
        )
    }

    @Test("Before a start, frames and end are refused as not started; a start is taken")
    func waiting() {
        let phase = LiveSocketPhase()
        for action in [phase.received(.end), phase.received(.frame(id: 1, text: "{}")), phase.receivedCameraFrame()] {
            guard case .refuse(let error) = action else {
                Issue.record("\(action) before a start")
                continue
            }
            #expect(error.code == .notStarted)
        }
        guard case .start = phase.received(.start(StartMessage())) else {
            Issue.record("a start was not taken")
            return
        }
    }

    @Test("While coaching, the set's own kind of frame is coached and the other refused; end leaves the set")
    func coaching() {
        var phase = LiveSocketPhase()
        let set = Self.set(.keypoints)
        let started = phase.started(set, seat: .keypoints(address: "a"))
        #expect(started)
        guard case .coachKeypoints(let coached, let id, _) = phase.received(.frame(id: 7, text: "{}")) else {
            Issue.record("a keypoint frame was not coached")
            return
        }
        #expect(coached === set && id == 7)
        guard case .refuse(let error) = phase.receivedCameraFrame() else {
            Issue.record("a camera frame on a keypoint set was taken")
            return
        }
        #expect(error.code == .badFrame)
        guard case .end = phase.received(.end) else {
            Issue.record("end was not taken")
            return
        }
        let ended = phase.ending()
        #expect(ended?.set === set && ended?.seat == .keypoints(address: "a"))
        let again = phase.ending()
        #expect(phase.set == nil && again == nil, "a set ends once")
    }

    @Test("Once closed nothing is read, and a set opened meanwhile is handed back to be finished")
    func closed() {
        var phase = LiveSocketPhase()
        let started = phase.started(Self.set(.camera), seat: .camera)
        #expect(started)
        let running = phase.close()
        #expect(running?.seat == .camera)
        let again = phase.close()
        #expect(phase.isClosed && again == nil)
        guard case .ignore = phase.received(.end) else {
            Issue.record("a message was read after the close")
            return
        }
        let kept = phase.started(Self.set(.camera), seat: .camera)
        #expect(!kept, "a set opened after the close is not kept")
    }
}

import CoachKit
import CoachTestSupport
import PoseKit
import Testing

/// The pinch's evidence counting and the set control it drives, on generated hands.
struct HandGestureTests {
    /// An open right hand, palm to the camera; with `pinch`, the thumb tip moved onto the index tip.
    private static func hand(pinch: Bool = false, chirality: Chirality = .right, dx: Double = 0) -> HandPose {
        var rng = SplitMix64(seed: 1)
        var hand = SyntheticHand(chirality: chirality).pose(viewDegrees: 0, using: &rng)
        if pinch { hand[.thumbTip] = hand[.indexTip] }
        hand.keypoints = hand.keypoints.map { Keypoint(x: $0.x + dx, y: $0.y, z: $0.z, confidence: $0.confidence) }
        return hand
    }

    private static func fist() -> HandPose {
        var synthetic = SyntheticHand(chirality: .right)
        for finger in [Finger.index, .middle, .ring, .little] {
            for joint in finger.joints.prefix(3) { synthetic.flexion[joint] = 80 }
        }
        var rng = SplitMix64(seed: 2)
        return synthetic.pose(viewDegrees: 0, using: &rng)
    }

    @Test func aPinchIsPinchedOnlyAfterEnoughFramesOfEvidence() {
        var pinch = PinchGesture()
        #expect(pinch.ingest(Self.hand()) == .possibleApart)
        var states: [PinchGesture.State] = []
        for _ in 0..<10 { states.append(pinch.ingest(Self.hand(pinch: true))) }
        #expect(states.prefix(7).allSatisfy { $0 == .possiblePinch })
        #expect(states[7] == .pinched && states[9] == .pinched)
        #expect(pinch.ingest(Self.hand()) == .possibleApart)
        // The hand lost for two frames keeps the evidence; for a third, it starts again.
        #expect(pinch.ingest(nil) == .possibleApart)
        #expect(pinch.ingest(nil) == .possibleApart)
        #expect(pinch.ingest(nil) == .unknown)
    }

    /// The hand model loses a hand for a frame now and then, mid-pinch: such a frame neither adds evidence nor starts
    /// it again, so a held pinch is still recognised after 8 frames of it.
    @Test func aFrameWithoutTheHandMidPinchKeepsTheEvidence() {
        var pinch = PinchGesture()
        var states: [PinchGesture.State] = []
        for i in 0..<10 { states.append(pinch.ingest(i == 4 ? nil : Self.hand(pinch: true))) }
        #expect(states[7] == .possiblePinch && states[8] == .pinched, "\(states)")
    }

    /// Frames with their times: a pinch held half a second is a pinch however few frames the camera or a loaded
    /// server delivers (4 frames at 6 a second here), while a brief touch still does nothing; at 30 frames a second
    /// the 8 frames decide, as without times.
    @Test func aPinchHeldHalfASecondIsPinchedAtAFewFramesASecond() {
        var slow = PinchGesture()
        var states: [PinchGesture.State] = []
        for i in 0..<4 { states.append(slow.ingest(Self.hand(pinch: true), at: 10 + Double(i) / 6)) }
        #expect(states[2] == .possiblePinch && states[3] == .pinched, "\(states)")
        // The same 4 frames without times are not enough evidence.
        var untimed = PinchGesture()
        for _ in 0..<4 { #expect(untimed.ingest(Self.hand(pinch: true)) == .possiblePinch) }
        // A touch of 0.3 s at 6 frames a second (2 frames), again and again: nothing.
        var control = HandGestureControl()
        for i in 0..<60 {
            let touching = i % 6 < 2
            #expect(control.ingest([Self.hand(pinch: touching)], at: Double(i) / 6) == nil)
        }
        // At 30 frames a second: pinched at the 8th frame (0.23 s), as the frame count says.
        var fast = PinchGesture()
        var fastStates: [PinchGesture.State] = []
        for i in 0..<8 { fastStates.append(fast.ingest(Self.hand(pinch: true), at: Double(i) / 30)) }
        #expect(fastStates[6] == .possiblePinch && fastStates[7] == .pinched)
    }

    @Test func aBriefTouchDoesNothing() {
        var control = HandGestureControl()
        var commands: [HandGestureControl.Command] = []
        for i in 0..<100 {
            // Touches of 5 frames (a sixth of a second at 30 fps) every 20 frames.
            let touching = i % 20 < 5
            if let command = control.ingest([Self.hand(pinch: touching)]) { commands.append(command) }
        }
        #expect(commands.isEmpty)
        #expect(control.setState == .idle)
    }

    @Test func aHeldPinchStartsPausesAndResumesAndAnOpenPalmEnds() {
        var control = HandGestureControl()
        var commands: [HandGestureControl.Command] = []
        func show(_ hand: HandPose?, frames: Int) {
            for _ in 0..<frames {
                if let command = control.ingest(hand.map { [$0] } ?? []) { commands.append(command) }
            }
        }
        show(Self.hand(pinch: true), frames: 30)  // held: one start, not one a frame
        show(Self.fist(), frames: 20)  // apart, and no open palm
        show(Self.hand(pinch: true), frames: 12)
        show(nil, frames: 3)
        show(Self.hand(pinch: true), frames: 12)
        #expect(commands == [.start, .pause, .resume])
        show(Self.hand(), frames: 14)
        #expect(commands.count == 3)
        show(Self.hand(), frames: 5)
        #expect(commands == [.start, .pause, .resume, .end])
        #expect(control.setState == .ended)
    }

    @Test func theBackOfTheHandOrAFistIsNoPalm() {
        #expect(OpenPalm.isShown(Self.hand()))
        #expect(OpenPalm.isShown(Self.hand(chirality: .left)))
        var rng = SplitMix64(seed: 4)
        for chirality in [Chirality.right, .left] {
            let back = SyntheticHand(chirality: chirality).pose(viewDegrees: 180, using: &rng)
            #expect(OpenPalm.isShown(back) == false, "the back of a \(chirality) hand")
        }
        #expect(OpenPalm.isShown(Self.fist()) == false)
        #expect(OpenPalm.isShown(Self.hand(pinch: true)) == false)
    }

    @Test func theCoachedHandsMovementsAreNotCommands() {
        var control = HandGestureControl()
        for _ in 0..<30 {
            // The coached hand (index 0) pinches, as in thumb opposition; the other hand stays open.
            #expect(control.ingest([Self.hand(pinch: true), Self.hand(dx: 250)], coached: 0) == nil)
        }
        var commands: [HandGestureControl.Command] = []
        for _ in 0..<30 {
            if let command = control.ingest([Self.hand(), Self.hand(pinch: true, dx: 250)], coached: 0) {
                commands.append(command)
            }
        }
        #expect(commands == [.start])
    }
}

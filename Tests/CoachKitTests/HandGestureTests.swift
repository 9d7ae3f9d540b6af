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

    /// The first frame at which a pinch held from `start` for `held` seconds is pinched, with frames every `1 / fps`
    /// seconds from `phase` (each frame kept when `kept` says so: the ones a loaded server had time for); `nil` when
    /// it never is.
    private static func pinchedAt(
        fps: Double,
        phase: Double,
        start: Double = 10,
        held: Double,
        kept: (Int) -> Bool = { _ in true }
    ) -> Double? {
        var pinch = PinchGesture()
        for k in 0..<Int(20 * fps) {
            let t = phase + Double(k) / fps
            guard kept(k) else { continue }
            let touching = t >= start && t < start + held
            if pinch.ingest(Self.hand(pinch: touching), at: t) == .pinched { return t }
        }
        return nil
    }

    /// Timed by the frames' capture times, the same pinch is pinched at about the same moment at any frame rate and
    /// whichever frames arrive: a quarter of a second after it began, give or take a frame and a half, at 30, 15,
    /// 10 and 6 frames a second, at every phase of the frames, and at 30 a second with frames dropped at random.
    @Test func theSamePinchIsPinchedWhateverFramesArrive() {
        let evidence = PinchGesture.Configuration().evidenceSeconds
        for fps in [30.0, 15, 10, 6] {
            for step in 0..<6 {
                let phase = Double(step) / (6 * fps)
                guard let t = Self.pinchedAt(fps: fps, phase: phase, held: 0.6) else {
                    Issue.record("a 0.6-s pinch at \(fps) fps, phase \(phase): never pinched")
                    continue
                }
                #expect(abs(t - (10 + evidence)) <= 1.5 / fps + 1e-9, "\(fps) fps, phase \(phase): pinched at \(t)")
            }
        }
        // A loaded server: each frame of 30 a second kept with a probability of one half, or one third.
        var rng = SplitMix64(seed: 7)
        for share in [0.5, 0.33] {
            for _ in 0..<20 {
                let keep = (0..<600).map { _ in Double(rng.next() % 1000) / 1000 < share }
                guard let t = Self.pinchedAt(fps: 30, phase: 0, held: 0.8, kept: { keep[$0] }) else {
                    Issue.record("a 0.8-s pinch, \(share) of the frames kept: never pinched")
                    continue
                }
                // Off by at most a frame interval and a half, of the intervals the server left around the pinch.
                let times = (0..<600).filter { keep[$0] }.map { Double($0) / 30 }.filter { $0 >= 9.5 && $0 <= 11 }
                let gap = zip(times, times.dropFirst()).map { $1 - $0 }.max() ?? 1
                #expect(abs(t - (10 + evidence)) <= 1.5 * gap + 1e-9, "\(share) of the frames: pinched at \(t)")
            }
        }
    }

    /// A touch in passing does nothing at any frame rate, and a pinch that only one frame sees is not taken (it says
    /// nothing of how long it lasted).
    @Test func aBriefTouchIsNoPinchAtAnyFrameRate() {
        for fps in [30.0, 15, 10, 6] {
            for step in 0..<6 {
                let phase = Double(step) / (6 * fps)
                #expect(Self.pinchedAt(fps: fps, phase: phase, held: 0.12) == nil, "\(fps) fps, phase \(phase)")
            }
        }
        // At 3 frames a second a 0.3-s pinch falls within one frame interval: one frame sees it, or none.
        for step in 0..<6 {
            #expect(Self.pinchedAt(fps: 3, phase: Double(step) / 18, held: 0.3) == nil)
        }
        // Without times, 4 frames of a pinch are not enough evidence (8 in a row are).
        var untimed = PinchGesture()
        for _ in 0..<4 { #expect(untimed.ingest(Self.hand(pinch: true)) == .possiblePinch) }
    }

    /// An open palm ends the set once held half a second, at any frame rate.
    @Test func anOpenPalmHeldHalfASecondEndsTheSetAtAnyFrameRate() {
        for fps in [30.0, 15, 6] {
            var control = HandGestureControl(setState: .running)
            var ended: Double?
            for k in 0..<Int(3 * fps) {
                let t = Double(k) / fps
                if control.ingest([t >= 1 ? Self.hand() : Self.fist()], at: t) == .end, ended == nil { ended = t }
            }
            guard let t = ended else {
                Issue.record("\(fps) fps: the open palm never ended the set")
                continue
            }
            #expect(abs(t - 1.5) <= 1.5 / fps + 1e-9, "\(fps) fps: ended at \(t)")
        }
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

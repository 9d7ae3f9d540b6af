import Foundation
import PoseKit
import Testing

@testable import CoachKit

/// ``AngleMeter``: an exercise's angles per ``AngleSlot``, the three-frame history and each repetition's statistics.
struct AngleMeterTests {
    /// A person seen from the side with each knee bent `left` and `right` degrees (image plane, hip above knee).
    static func legs(left: Double, right: Double, rightAnkleConfidence: Double = 0.9) -> Pose {
        var pose = Pose()
        for (side, flexion) in [(BodySide.left, left), (.right, right)] {
            let x = side == .left ? 400.0 : 600.0
            let r = flexion * .pi / 180
            let isLeft = side == .left
            pose[isLeft ? .leftHip : .rightHip] = Keypoint(x: x, y: 300, confidence: 0.9)
            pose[isLeft ? .leftKnee : .rightKnee] = Keypoint(x: x, y: 500, confidence: 0.9)
            pose[isLeft ? .leftAnkle : .rightAnkle] = Keypoint(
                x: x + 200 * sin(r),
                y: 500 + 200 * cos(r),
                confidence: isLeft ? 0.9 : rightAnkleConfidence
            )
        }
        return pose
    }

    static let leftKnee = AngleSlot(angle: 0, side: .left)
    static let rightKnee = AngleSlot(angle: 0, side: .right)

    /// A meter of the knees only, one counter of both sides.
    static func meter(direction: Double = 1) -> AngleMeter {
        AngleMeter(configuration: .init(angles: [.kneeFlexion], direction: direction, counters: 1))
    }

    @Test func aSlotIsAnAngleOnASideAndKeepsTheJudgesLayout() {
        #expect(AngleSlot(angle: 2, side: .right).index == 5)
        #expect(AngleSlot(index: 4) == AngleSlot(angle: 2, side: .left))
        for index in 0..<8 { #expect(AngleSlot(index: index).index == index) }
    }

    @Test func aValueSeenInOneFrameOnlyDoesNotEnterTheRange() throws {
        var meter = Self.meter()
        let visibility = JointVisibility()
        var measured: [Double] = []
        // 20°, 20°, a flip to 150° for one frame, then 30°, 30°.
        for flexion in [20.0, 20, 150, 30, 30] {
            let pose = Self.legs(left: flexion, right: flexion)
            meter.measure(pose, useDepth: false)
            meter.see(pose, visibility: visibility)
            measured.append(try #require(meter.value(Self.leftKnee)))
            meter.follow(counter: 0, side: nil, value: meter.value(Self.leftKnee), active: false, valid: true)
        }
        #expect(abs(measured[2] - 150) < 1, "the meter measures what it is shown: \(measured)")
        let statistics = meter.statistics
        // The median of each three frames: 20, 30, 30 — the flip is never held for two frames.
        #expect(abs((statistics[Self.leftKnee].low ?? .nan) - measured[0]) < 1e-9)
        #expect(abs((statistics[Self.leftKnee].high ?? .nan) - measured[3]) < 1e-9)
        #expect((statistics[Self.leftKnee].high ?? .infinity) < 100)
    }

    @Test func aFrameWithoutAPersonStartsTheHistoryAgain() {
        var meter = Self.meter()
        let visibility = JointVisibility()
        for flexion in [20.0, 20] {
            meter.measure(Self.legs(left: flexion, right: flexion), useDepth: false)
            meter.see(Self.legs(left: flexion, right: flexion), visibility: visibility)
        }
        meter.lostPerson()
        // Two frames after the gap: not three in a row, nothing enters the statistics.
        for flexion in [60.0, 60] {
            meter.measure(Self.legs(left: flexion, right: flexion), useDepth: false)
            meter.see(Self.legs(left: flexion, right: flexion), visibility: visibility)
            meter.follow(counter: 0, side: nil, value: meter.value(Self.leftKnee), active: false, valid: true)
        }
        #expect(meter.statistics[Self.leftKnee].low == nil)
        // A third frame does.
        meter.measure(Self.legs(left: 60, right: 60), useDepth: false)
        meter.follow(counter: 0, side: nil, value: meter.value(Self.leftKnee), active: false, valid: true)
        #expect(meter.statistics[Self.leftKnee].low != nil)
        // A frame with a person not measured by this meter (no depth in it, an image-plane meter) goes on from the
        // frame it last measured, as the 3-D meter's history goes on.
        var shadow = Self.meter()
        shadow.measure(Self.legs(left: 40, right: 40), useDepth: false)
        shadow.lostPerson()
        shadow.skip()
        shadow.measure(Self.legs(left: 40, right: 40), useDepth: false)
        shadow.measure(Self.legs(left: 40, right: 40), useDepth: false)
        shadow.follow(counter: 0, side: nil, value: shadow.value(Self.leftKnee), active: false, valid: true)
        #expect(shadow.statistics[Self.leftKnee].low != nil)
    }

    @Test func theValueAtThePeakIsWhereTheCountedSignalWentFurthestWhileActive() throws {
        for direction in [1.0, -1.0] {
            var meter = Self.meter(direction: direction)
            let visibility = JointVisibility()
            // Rest, then a repetition whose signal peaks at 90° (direction +1) or 10° (direction −1).
            let path: [(flexion: Double, active: Bool)] = [
                (10, false), (10, false), (10, false), (50, true), (50, true), (90, true), (90, true), (90, true),
                (50, true), (10, true), (10, true), (10, true), (10, false),
            ]
            for (flexion, active) in path {
                let pose = Self.legs(left: flexion, right: flexion)
                meter.measure(pose, useDepth: false)
                meter.see(pose, visibility: visibility)
                meter.follow(counter: 0, side: nil, value: meter.value(Self.leftKnee), active: active, valid: true)
            }
            let atPeak = try #require(meter.statistics[Self.leftKnee].atPeak)
            if direction > 0 {
                #expect(abs(atPeak - 90) < 1, "direction +1: \(atPeak)")
            } else {
                #expect(abs(atPeak - 10) < 1, "direction -1: \(atPeak)")
            }
        }
    }

    @Test func closingARepetitionFoldsTheCountersRestAndPeakIntoTheSlotCounted() {
        var meter = Self.meter()
        let visibility = JointVisibility()
        for _ in 0..<3 {
            let pose = Self.legs(left: 40, right: 40)
            meter.measure(pose, useDepth: false)
            meter.see(pose, visibility: visibility)
            meter.follow(counter: 0, side: nil, value: 40, active: false, valid: true)
        }
        let kept = meter.statistics
        let closed = meter.closeRepetition(counted: Self.leftKnee, rest: 5, peak: 95)
        #expect(closed[Self.leftKnee].low == 5)
        #expect(closed[Self.leftKnee].high == 95)
        #expect(closed[Self.leftKnee].atPeak == 95)
        // The other side keeps its own.
        #expect(abs((closed[Self.rightKnee].high ?? .nan) - 40) < 1)
        // Statistics kept from before close the same way, without touching the meter.
        let recounted = AngleMeter.closing(kept, counted: Self.rightKnee, rest: 1, peak: 99)
        #expect(recounted[Self.rightKnee].low == 1 && recounted[Self.rightKnee].atPeak == 99)
        #expect(abs((recounted[Self.leftKnee].high ?? .nan) - 40) < 1)
    }

    @Test func aSidesRepetitionStartsAfreshOnItsSideOnlyAndAnUnseenSlotNamesItsParts() {
        var meter = Self.meter()
        let visibility = JointVisibility()
        // The right ankle not seen: its slot stays out of the statistics, and the feet are what kept it out.
        for _ in 0..<3 {
            let pose = Self.legs(left: 40, right: 40, rightAnkleConfidence: 0.05)
            meter.measure(pose, useDepth: false)
            meter.see(pose, visibility: visibility)
            meter.follow(counter: 0, side: nil, value: 40, active: false, valid: true)
        }
        #expect(meter.seenValue(Self.rightKnee) == nil)
        #expect(meter.seenValue(Self.leftKnee) != nil)
        #expect(meter.statistics[Self.rightKnee].low == nil)
        #expect(meter.statistics[Self.rightKnee].missingParts == BodyPart.feet)
        #expect(meter.statistics[Self.leftKnee].missingParts == 0)
        // Starting the right side afresh leaves the left's range.
        meter.startRepetition(counter: 0, side: .right)
        #expect(meter.statistics[Self.rightKnee].missingParts == 0)
        #expect(meter.statistics[Self.leftKnee].low != nil)
        // Not measurable: both sides start again.
        meter.follow(counter: 0, side: nil, value: 40, active: false, valid: false)
        #expect(meter.statistics[Self.leftKnee].low == nil)
    }
}

import CoachKit
import CoachTestSupport
import Foundation
import PoseKit

/// Generated stick-figure recordings for classifier tests: a standing person who raises one arm
/// sideways, or who squats, with small deterministic variations of amplitude, tempo and body size.
enum SyntheticMotion: String, CaseIterable {
    case armRaise, squat

    /// Frames of `reps` repetitions; `variant` changes amplitude, tempo, size and position a little.
    func frames(reps: Int = 2, variant: Int = 0) -> [PoseFrame] {
        var generator = SplitMix64(seed: UInt64(variant) &+ 17)
        func jitter(_ spread: Double) -> Double {
            (Double(generator.next() % 10_000) / 10_000 - 0.5) * 2 * spread
        }
        let amplitude = 1 + jitter(0.15)
        let framesPerRep = 40 + Int(jitter(8))
        let scale = 100 * (1 + jitter(0.2))
        let centerX = 320 + jitter(40)
        let footY = 440 + jitter(20)
        var frames: [PoseFrame] = []
        for f in 0..<(reps * framesPerRep) {
            let phase = Double(f % framesPerRep) / Double(framesPerRep)
            let s = (1 - cos(2 * .pi * phase)) / 2  // 0 → 1 → 0 over a rep
            var points: [Joint: (Double, Double)] = [:]
            let knee = self == .squat ? s * 1.2 * amplitude : 0  // bend, radians
            let shin = 1.0
            let thigh = 1.0
            let kneeY = -shin * cos(knee * 0.5)
            let kneeX = shin * sin(knee * 0.5)
            let hipY = kneeY - thigh * cos(knee * 0.5)
            let hipX = kneeX - thigh * sin(knee * 0.5)
            for (side, dx) in [("left", 0.25), ("right", -0.25)] {
                points[Joint(name: side + "Ankle")!] = (dx, 0)
                points[Joint(name: side + "Knee")!] = (dx + kneeX, kneeY)
                points[Joint(name: side + "Hip")!] = (dx + hipX, hipY)
                let shoulderY = hipY - 1.6
                points[Joint(name: side + "Shoulder")!] = (dx * 1.4 + hipX, shoulderY)
                // The left arm rises sideways in an arm raise; arms hang otherwise.
                let raise = self == .armRaise && side == "left" ? s * 2.4 * amplitude : 0.1
                let direction = dx > 0 ? 1.0 : -1.0
                let elbow = (dx * 1.4 + hipX + direction * 0.8 * sin(raise), shoulderY + 0.8 * cos(raise))
                points[Joint(name: side + "Elbow")!] = elbow
                points[Joint(name: side + "Wrist")!] = (
                    elbow.0 + direction * 0.7 * sin(raise), elbow.1 + 0.7 * cos(raise)
                )
            }
            points[.nose] = (hipX, hipY - 2.1)
            var pose = Pose()
            for (joint, point) in points {
                let x = centerX + point.0 * scale + jitter(0.01 * scale)
                let y = footY + point.1 * scale + jitter(0.01 * scale)
                pose[joint] = Keypoint(x: x, y: y, confidence: 0.9)
            }
            pose.deriveMidpoints()
            frames.append(PoseFrame(seconds: Double(f) / 30, poses: [pose]))
        }
        return frames
    }

    func sequence(variant: Int) -> PoseSequence {
        PoseSequence(frames: frames(variant: variant), name: "\(rawValue)-\(variant)")
    }
}

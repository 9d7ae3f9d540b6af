public import CoachKit
import Foundation
public import PoseKit

/// Generates pose frames of a person doing an exercise, for tests: N repetitions, noise, a walk-in,
/// idle periods, a bystander, stretches out of frame.
///
/// ```swift
/// let frames = SyntheticExercise(kind: .squat).frames(reps: 8)
/// ```
public struct SyntheticExercise: Sendable {
    public enum Kind: Sendable {
        case squat, shoulderAbduction, bicepCurl, wallSit, walkOnly, standStill, hipExtension, lateralTilt, legCurl
    }

    public var kind: Kind
    public var fps = 30.0
    public var repSeconds = 2.4
    /// Seconds each repetition is held at its peak (a raise held at the top, as programmes prescribe).
    public var holdSeconds = 0.0
    /// Seconds standing at rest between repetitions.
    public var restSeconds = 0.3
    public var noisePixels = 1.5
    public var walkInSeconds = 0.0
    public var idleBeforeSeconds = 1.0
    public var idleAfterSeconds = 1.0
    public var bystander = false
    /// Peak of the moving angle (degrees); default per kind.
    public var peakDegrees: Double?
    public var legsCutOff = false
    /// A close camera: the body 200 px lower, hips and legs below the picture where a pose estimator
    /// guesses them (confidence 0.3, kept by the smoother).
    public var waistUp = false
    public var seed: UInt64 = 42

    public static let width = 640.0
    public static let height = 480.0

    public init(
        kind: Kind,
        fps: Double = 30.0,
        repSeconds: Double = 2.4,
        holdSeconds: Double = 0.0,
        restSeconds: Double = 0.3,
        noisePixels: Double = 1.5,
        walkInSeconds: Double = 0.0,
        idleBeforeSeconds: Double = 1.0,
        idleAfterSeconds: Double = 1.0,
        bystander: Bool = false,
        peakDegrees: Double? = nil,
        legsCutOff: Bool = false,
        waistUp: Bool = false,
        seed: UInt64 = 42
    ) {
        self.kind = kind
        self.fps = fps
        self.repSeconds = repSeconds
        self.holdSeconds = holdSeconds
        self.restSeconds = restSeconds
        self.noisePixels = noisePixels
        self.walkInSeconds = walkInSeconds
        self.idleBeforeSeconds = idleBeforeSeconds
        self.idleAfterSeconds = idleAfterSeconds
        self.bystander = bystander
        self.peakDegrees = peakDegrees
        self.legsCutOff = legsCutOff
        self.waistUp = waistUp
        self.seed = seed
    }

    /// The frames of a session with `reps` repetitions (or a hold of `reps` seconds for `.wallSit`).
    public func frames(reps: Int) -> [PoseFrame] {
        var rng = SplitMix64(seed: seed)
        var frames: [PoseFrame] = []
        var t = 0.0
        let dt = 1 / fps
        let cx = 320.0
        func add(_ pose: Pose) {
            var poses = [jitter(waistUp ? Self.lowered(pose) : pose, &rng)]
            if bystander {
                // A smaller person further back, waving an arm: never the coached one.
                let wave = 60 + 50 * sin(2 * .pi * t * 1.3)
                poses.append(jitter(Self.body(cx: 590, scale: 0.35, view: .front, abduction: (wave, 20)), &rng))
                poses.swapAt(0, 1)  // the bystander is listed first
            }
            frames.append(PoseFrame(seconds: t, poses: poses))
            t += dt
        }
        // Walk in from the left edge with swinging legs.
        if walkInSeconds > 0 {
            let n = Int(walkInSeconds * fps)
            for i in 0..<n {
                let x = -80 + (cx + 80) * Double(i) / Double(n)
                let swing = 25 + 20 * sin(2 * .pi * Double(i) * dt * 1.6)
                add(Self.body(cx: x, view: .side, knee: swing, elbow: 20 + swing / 2))
            }
        }
        let idle = restPose(cx)
        for _ in 0..<Int(idleBeforeSeconds * fps) { add(idle) }
        switch kind {
        case .walkOnly:
            // Walks across the room at a steady pace, out of the frame on the right, and back.
            let n = Int(Double(reps) * repSeconds * fps)
            for i in 0..<n {
                let u = Double(i) / Double(n)
                let x = -80 + 800 * (u < 0.5 ? 2 * u : 2 - 2 * u)
                let swing = 25 + 20 * sin(2 * .pi * Double(i) * dt * 1.6)
                add(Self.body(cx: x, view: .side, knee: swing, elbow: 20 + swing / 2))
            }
        case .standStill:
            for _ in 0..<Int(Double(reps) * repSeconds * fps) { add(idle) }
        case .wallSit:
            let down = Int(1.5 * fps)
            for i in 0..<down { add(Self.body(cx: cx, view: .side, knee: 90 * Double(i) / Double(down), lean: 10)) }
            for _ in 0..<Int(Double(reps) * fps) { add(Self.body(cx: cx, view: .side, knee: 90, lean: 10)) }
            for i in 0..<down {
                add(Self.body(cx: cx, view: .side, knee: 90 * (1 - Double(i) / Double(down)), lean: 10))
            }
        default:
            let n = Int(repSeconds * fps)
            for _ in 0..<reps {
                for i in 0..<n {
                    let phase = 0.5 - 0.5 * cos(2 * .pi * Double(i) / Double(n))  // 0 → 1 → 0
                    add(pose(phase, cx))
                    if i == n / 2 { for _ in 0..<Int(holdSeconds * fps) { add(pose(1, cx)) } }
                }
                for _ in 0..<Int(restSeconds * fps) { add(idle) }
            }
        }
        for _ in 0..<Int(idleAfterSeconds * fps) { add(idle) }
        return frames
    }

    private func restPose(_ cx: Double) -> Pose { pose(0, cx) }

    private func pose(_ phase: Double, _ cx: Double) -> Pose {
        switch kind {
        case .squat, .wallSit, .walkOnly, .standStill:
            let knee = 5 + phase * ((peakDegrees ?? 95) - 5)
            var pose = Self.body(cx: cx, view: .side, knee: knee, lean: knee * 0.3)
            if legsCutOff {
                for joint in [Joint.leftKnee, .rightKnee, .leftAnkle, .rightAnkle] { pose[joint] = .missing }
            }
            return pose
        case .shoulderAbduction:
            return Self.body(cx: cx, view: .front, abduction: (15 + phase * ((peakDegrees ?? 100) - 15), 12))
        case .bicepCurl:
            return Self.body(cx: cx, view: .side, elbow: 10 + phase * ((peakDegrees ?? 135) - 10))
        case .hipExtension:
            return Self.body(cx: cx, view: .side, legBack: phase * (peakDegrees ?? 20))
        case .lateralTilt:
            return Self.body(cx: cx, view: .front, tilt: phase * (peakDegrees ?? 30))
        case .legCurl:
            return Self.body(cx: cx, view: .side, legCurl: phase * (peakDegrees ?? 90))
        }
    }

    public enum View: Sendable { case front, side }

    /// A person standing on the floor: knee flexion and trunk lean (side view), shoulder abduction of
    /// the left and right arm (front view), elbow flexion; the near (right) leg swung straight back by `legBack`
    /// (side view), the trunk bent sideways by `tilt` about the hips, toward the image right (front view).
    public static func body(
        cx: Double,
        scale: Double = 1,
        view: View,
        knee: Double = 5,
        lean: Double = 0,
        abduction: (left: Double, right: Double) = (12, 12),
        elbow: Double = 10,
        legBack: Double = 0,
        tilt: Double = 0,
        legCurl: Double = 0
    ) -> Pose {
        let r = Double.pi / 180
        let floor = 445.0
        let shank = 80 * scale
        let thigh = 85 * scale
        let trunk = 115 * scale
        let upperArm = 60 * scale
        let forearm = 55 * scale
        var p: [Joint: Keypoint] = [:]
        func set(_ joint: Joint, _ x: Double, _ y: Double) { p[joint] = Keypoint(x: x, y: y, confidence: 0.9) }
        switch view {
        case .side:
            // Facing image right. Knee flexion splits between shank (forward) and thigh (backward).
            let alpha = knee / 2 * r
            let beta = knee / 2 * r
            let ankle = (x: cx, y: floor)
            let kneeP = (x: ankle.x + shank * sin(alpha), y: ankle.y - shank * cos(alpha))
            let hip = (x: kneeP.x - thigh * sin(beta), y: kneeP.y - thigh * cos(beta))
            let neck = (x: hip.x + trunk * sin(lean * r), y: hip.y - trunk * cos(lean * r))
            for side in [BodySide.left, .right] {
                let d = side == .left ? -1.5 : 1.5  // a little apart, as a real side view
                set(side == .left ? .leftAnkle : .rightAnkle, ankle.x + d, ankle.y)
                set(side == .left ? .leftFootIndex : .rightFootIndex, ankle.x + 22 * scale + d, ankle.y + 4)
                set(side == .left ? .leftKnee : .rightKnee, kneeP.x + d, kneeP.y)
                set(side == .left ? .leftHip : .rightHip, hip.x + d, hip.y)
                set(side == .left ? .leftShoulder : .rightShoulder, neck.x + d, neck.y + 4)
                // Upper arm hangs along the trunk; forearm bends forward by `elbow`.
                let ex = neck.x + d + upperArm * sin(lean * r * 0.3)
                let ey = neck.y + 4 + upperArm * cos(lean * r * 0.3)
                set(side == .left ? .leftElbow : .rightElbow, ex, ey)
                set(
                    side == .left ? .leftWrist : .rightWrist,
                    ex + forearm * sin(elbow * r),
                    ey + forearm * cos(elbow * r)
                )
            }
            set(.neck, neck.x, neck.y)
            set(.root, hip.x, hip.y)
            set(.nose, neck.x + 12 * scale, neck.y - 25 * scale)
            if legBack > 0 {
                // The right leg, straight, turned back (image left) about its hip, the foot off the floor.
                let h = p[.rightHip]!
                let a = legBack * r
                set(.rightKnee, h.x - thigh * sin(a), h.y + thigh * cos(a))
                set(.rightAnkle, h.x - (thigh + shank) * sin(a), h.y + (thigh + shank) * cos(a))
                set(.rightFootIndex, h.x - (thigh + shank) * sin(a) + 22 * scale, h.y + (thigh + shank) * cos(a) + 4)
            }
            if legCurl > 0 {
                // The right knee bent, the shank turned back (image left) about it, the thigh still.
                let k = p[.rightKnee]!
                let a = legCurl * r
                set(.rightAnkle, k.x - shank * sin(a), k.y + shank * cos(a))
                set(
                    .rightFootIndex,
                    k.x - shank * sin(a) + 22 * scale * cos(a),
                    k.y + shank * cos(a) + 22 * scale * sin(a)
                )
            }
        case .front:
            // Facing the camera: the person's left is on the image right.
            let hipY = floor - (shank + thigh) * cos(knee / 2 * r)
            let neckY = hipY - trunk
            for side in [BodySide.left, .right] {
                let s = side == .left ? 1.0 : -1.0
                set(side == .left ? .leftAnkle : .rightAnkle, cx + s * 20 * scale, floor)
                set(side == .left ? .leftKnee : .rightKnee, cx + s * 20 * scale, floor - shank)
                set(side == .left ? .leftHip : .rightHip, cx + s * 18 * scale, hipY)
                let sx = cx + s * 38 * scale
                let sy = neckY + 5
                set(side == .left ? .leftShoulder : .rightShoulder, sx, sy)
                let a = (side == .left ? abduction.left : abduction.right) * r
                let ex = sx + s * upperArm * sin(a)
                let ey = sy + upperArm * cos(a)
                set(side == .left ? .leftElbow : .rightElbow, ex, ey)
                set(side == .left ? .leftWrist : .rightWrist, ex + s * forearm * sin(a), ey + forearm * cos(a))
            }
            set(.neck, cx, neckY)
            set(.root, cx, hipY)
            set(.nose, cx, neckY - 28 * scale)
            if tilt != 0 {
                // Everything above the hips turns about the root.
                let (c, s) = (cos(tilt * r), sin(tilt * r))
                for joint in [
                    Joint.neck, .nose, .leftShoulder, .rightShoulder, .leftElbow, .rightElbow, .leftWrist,
                    .rightWrist,
                ] {
                    let k = p[joint]!
                    let (dx, dy) = (k.x - cx, k.y - hipY)
                    set(joint, cx + dx * c - dy * s, hipY + dx * s + dy * c)
                }
            }
        }
        return Pose(p)
    }

    /// `pose` 200 px lower, its hips and legs guessed (confidence 0.3).
    private static func lowered(_ pose: Pose) -> Pose {
        var pose = pose
        for joint in Joint.allCases where pose[joint].confidence > 0 { pose[joint].y += 200 }
        for joint in [Joint.root, .leftHip, .rightHip, .leftKnee, .rightKnee, .leftAnkle, .rightAnkle] {
            pose[joint].confidence = 0.3
        }
        return pose
    }

    private func jitter(_ pose: Pose, _ rng: inout SplitMix64) -> Pose {
        guard noisePixels > 0 else { return pose }
        var pose = pose
        for joint in Joint.allCases where pose[joint].confidence > 0 {
            pose[joint].x += rng.gaussian() * noisePixels
            pose[joint].y += rng.gaussian() * noisePixels
        }
        return pose
    }
}

/// Uniform and normal draws from the classifier's deterministic generator.
extension SplitMix64 {
    public mutating func uniform() -> Double { Double(next() >> 11) / Double(1 << 53) }
    public mutating func gaussian() -> Double {
        let u = max(uniform(), 1e-12)
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * uniform())
    }
}

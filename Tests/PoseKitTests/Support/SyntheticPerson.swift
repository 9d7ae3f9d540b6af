import PoseKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A generated person: Vision's 19 joints with simple body proportions, for stage tests.
///
/// `height` is top of the head to the ankles in pixels; `centerX` the body's vertical axis; `top` the
/// head's top. Facing the camera, the person's left is on the image's right (larger x). `sideSpread`
/// scales the left–right distances (1 = front view, about 0.1 = side view where the sides nearly overlap).
struct SyntheticPerson {
    var centerX: Double = 320
    var top: Double = 60
    var height: Double = 360
    var sideSpread: Double = 1
    /// Arm abduction from hanging (0°) to overhead (180°), both arms.
    var armDegrees: Double = 0
    var confidence: Double = 0.9

    /// The pose, with Gaussian pixel noise of `noise` when a generator is given.
    func pose(noise: Double = 0, using generator: inout SeededGenerator) -> Pose {
        var pose = Pose()
        let h = height
        func put(_ joint: Joint, _ dx: Double, _ dy: Double) {
            let nx = noise > 0 ? generator.gaussian(sigma: noise) : 0
            let ny = noise > 0 ? generator.gaussian(sigma: noise) : 0
            pose[joint] = Keypoint(x: centerX + dx * sideSpread * h + nx, y: top + dy * h + ny, confidence: confidence)
        }
        put(.nose, 0, 0.06)
        put(.leftEye, 0.02, 0.05)
        put(.rightEye, -0.02, 0.05)
        put(.leftEar, 0.045, 0.06)
        put(.rightEar, -0.045, 0.06)
        put(.leftShoulder, 0.12, 0.18)
        put(.rightShoulder, -0.12, 0.18)
        let radians = armDegrees * Double.pi / 180
        let sx = sin(radians)
        let sy = cos(radians)
        put(.leftElbow, 0.12 + 0.17 * sx / sideSpread, 0.18 + 0.17 * sy)
        put(.rightElbow, -0.12 - 0.17 * sx / sideSpread, 0.18 + 0.17 * sy)
        put(.leftWrist, 0.12 + 0.32 * sx / sideSpread, 0.18 + 0.32 * sy)
        put(.rightWrist, -0.12 - 0.32 * sx / sideSpread, 0.18 + 0.32 * sy)
        put(.leftHip, 0.08, 0.52)
        put(.rightHip, -0.08, 0.52)
        put(.leftKnee, 0.085, 0.75)
        put(.rightKnee, -0.085, 0.75)
        put(.leftAnkle, 0.09, 0.97)
        put(.rightAnkle, -0.09, 0.97)
        pose.deriveMidpoints()
        return pose
    }

    func pose() -> Pose {
        var generator = SeededGenerator(seed: 0)
        return pose(noise: 0, using: &generator)
    }
}

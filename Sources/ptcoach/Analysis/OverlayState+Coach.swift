import CoachKit
import MediaIO
import PoseKit

extension OverlayState {
    /// What the overlay shows for one frame: every person seen, the coached one clearly, and the coach's state.
    ///
    /// - Parameters:
    ///   - frame: the poses the estimator found (drawn faintly, except the coached person's).
    ///   - snapshot: the session's state after ingesting `frame`.
    ///   - prescribedReps: the reps to reach, when a programme says so.
    init(frame: PoseFrame, snapshot: CoachSnapshot, prescribedReps: Int? = nil) {
        var people = frame.poses
        var coachedIndex: Int?
        if let coached = snapshot.pose {
            // The raw pose nearest the smoothed, selected one is the coached person; draw the smoothed one.
            if let nearest = people.indices.min(by: { Self.distance(people[$0], coached) < Self.distance(people[$1], coached) }) {
                people[nearest] = coached
                coachedIndex = nearest
            } else {
                people.append(coached)
                coachedIndex = people.count - 1
            }
        }
        var angle: Angle?
        if let kind = snapshot.primaryAngleKind, kind.isDegrees, let degrees = snapshot.primaryAngle,
            let joints = Self.arcJoints(kind, side: snapshot.side ?? .left)
        {
            let inTarget = snapshot.targetRange.map { $0.contains(degrees) }
            angle = Angle(joint: joints.vertex, from: joints.from, to: joints.to, degrees: degrees, isInTarget: inTarget)
        }
        let rangeOfMotion = snapshot.targetRange.map {
            RangeOfMotion(progress: snapshot.rangeOfMotionProgress, target: $0, label: snapshot.primaryAngleKind?.displayName ?? "ROM")
        }
        let cueKind: CueKind =
            switch snapshot.cueKind {
            case .safety?: .safety
            case .form?: .correction
            case .encouragement?: .encouragement
            case .setup?, nil: .info
            }
        self.init(
            people: people,
            coachedIndex: coachedIndex,
            angle: angle,
            reps: snapshot.exerciseID == nil && snapshot.repCount == 0 ? nil : snapshot.repCount,
            prescribedReps: prescribedReps,
            exerciseName: snapshot.exerciseName,
            confidence: snapshot.exerciseName == nil ? nil : snapshot.confidence,
            cue: snapshot.cueText,
            cueKind: cueKind,
            warning: snapshot.safetyWarning,
            setupGuidance: snapshot.setupGuidance,
            rangeOfMotion: rangeOfMotion,
            holdSeconds: snapshot.hold?.heldSeconds,
            holdTargetSeconds: snapshot.hold?.targetSeconds
        )
    }

    /// Where the arc of a clinical angle is drawn: its vertex and the two joints its rays point to.
    static func arcJoints(_ kind: AngleKind, side: BodySide) -> (vertex: Joint, from: Joint, to: Joint)? {
        let left = side == .left
        let shoulder: Joint = left ? .leftShoulder : .rightShoulder
        let elbow: Joint = left ? .leftElbow : .rightElbow
        let wrist: Joint = left ? .leftWrist : .rightWrist
        let hip: Joint = left ? .leftHip : .rightHip
        let knee: Joint = left ? .leftKnee : .rightKnee
        let ankle: Joint = left ? .leftAnkle : .rightAnkle
        switch kind {
        case .kneeFlexion: return (knee, hip, ankle)
        case .hipFlexion: return (hip, shoulder, knee)
        case .hipAbduction: return (hip, .neck, knee)
        case .shoulderFlexion, .shoulderAbduction, .shoulderScaption, .shoulderExtension: return (shoulder, hip, elbow)
        case .elbowFlexion: return (elbow, shoulder, wrist)
        case .anklePlantarFlexion: return (ankle, knee, left ? .leftFootIndex : .rightFootIndex)
        case .bodyLine: return (hip, shoulder, ankle)
        case .shoulderRotation: return (elbow, shoulder, wrist)
        case .trunkLean, .kneeWidthRatio, .headShoulderRatio: return nil
        }
    }

    private static func distance(_ a: Pose, _ b: Pose) -> Double {
        guard let p = a.boundingBox(), let q = b.boundingBox() else { return .infinity }
        let dx = (p.minX + p.maxX - q.minX - q.maxX) / 2
        let dy = (p.minY + p.maxY - q.minY - q.maxY) / 2
        return dx * dx + dy * dy
    }
}

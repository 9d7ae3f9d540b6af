public import CoachKit
public import PoseKit

extension OverlayState {
    /// The overlay for the coach's state after one frame.
    ///
    /// The coached person is drawn from the snapshot's smoothed pose; of the frame's raw `people`, the
    /// one nearest to it is dropped and the others are drawn faintly. The angle arc goes at the primary
    /// angle's joint when the measurement is a three-joint angle; it turns green inside the target range.
    /// The range-of-motion gauge shows progress toward the person's usual peak (1 = as far as usual),
    /// with `rangeOfMotionTarget` as its band.
    ///
    /// ```swift
    /// _ = session.ingest(frame)
    /// let state = OverlayState(snapshot: session.snapshot, people: frame.poses, prescribedReps: 10)
    /// renderer.render(state, onto: &image)
    /// ```
    public init(
        snapshot: CoachSnapshot,
        people: [Pose],
        prescribedReps: Int? = nil,
        rangeOfMotionTarget: ClosedRange<Double> = 0.9...1.0
    ) {
        var others = people
        var coachedIndex: Int?
        if let coached = snapshot.pose {
            if let centre = Self.centre(of: coached),
                let nearest = others.indices.min(by: {
                    Self.distance(Self.centre(of: others[$0]), centre)
                        < Self.distance(Self.centre(of: others[$1]), centre)
                })
            {
                others.remove(at: nearest)
            }
            others.append(coached)
            coachedIndex = others.count - 1
        }
        self.init(people: others, coachedIndex: coachedIndex)

        if let kind = snapshot.primaryAngleKind, let vertex = snapshot.primaryJoint, let value = snapshot.primaryAngle,
            kind.isDegrees
        {
            let joints = kind.joints(side: snapshot.side ?? .left)
            if joints.count == 3, let position = joints.firstIndex(of: vertex) {
                let ends = joints.enumerated().filter { $0.offset != position }.map(\.element)
                let inTarget = snapshot.targetRange.map { $0.contains(value) }
                angle = Angle(
                    joint: vertex,
                    from: ends[0],
                    to: ends[1],
                    degrees: value,
                    isInTarget: inTarget == true ? true : nil
                )
            }
        }
        if let name = snapshot.exerciseName {
            exerciseName = name
            // How sure the recogniser is of someone it sees: "100% confidence" beside nobody is no truth.
            confidence = snapshot.pose == nil ? nil : snapshot.confidence
            // A hold shows its time held (below), not a repetition count that stays at 0.
            if snapshot.hold == nil {
                // With a repetition the exercise's counter found and the movement has yet to confirm: the first
                // repetitions show when they end, not a cycle later.
                reps = snapshot.repCount + snapshot.provisionalReps
                self.prescribedReps = prescribedReps
            }
        } else if snapshot.pose != nil, snapshot.hold == nil {
            // No exercise given and none recognised yet: the recogniser is watching, as Apple's sample says it,
            // and the movement's count shows from the start (the first repetition often ends before the exercise
            // is named).
            exerciseName = Self.observing
            reps = snapshot.repCount
            self.prescribedReps = prescribedReps
        }
        // The warning banner already says it; the cue line would repeat it.
        cue = snapshot.cueText == snapshot.safetyWarning ? nil : snapshot.cueText
        cueKind =
            switch snapshot.cueKind {
            case .safety?: .safety
            case .form?: .correction
            case .encouragement?, .timing?: .encouragement
            case .setup?, nil: .info
            }
        warning = snapshot.safetyWarning
        setupGuidance = snapshot.setupGuidance
        // No gauge where the range cannot be measured from this view (the repetitions say "not measurable").
        if snapshot.exerciseName != nil, snapshot.pose != nil, snapshot.hold == nil, snapshot.rangeMeasurable {
            rangeOfMotion = RangeOfMotion(progress: snapshot.rangeOfMotionProgress, target: rangeOfMotionTarget)
        }
        // A hold exercise's time, or the prescribed hold at a repetition's peak (under the count).
        if let hold = snapshot.hold ?? snapshot.peakHold {
            holdSeconds = hold.heldSeconds
            holdTargetSeconds = hold.targetSeconds
        }
    }

    /// The title while a person is seen and no exercise is named.
    public static let observing = "Observing…"

    private static func centre(of pose: Pose) -> Vector2? {
        pose.boundingBox().map { Vector2(x: ($0.minX + $0.maxX) / 2, y: ($0.minY + $0.maxY) / 2) }
    }

    private static func distance(_ a: Vector2?, _ b: Vector2) -> Double {
        a.map { ($0 - b).length } ?? .infinity
    }
}

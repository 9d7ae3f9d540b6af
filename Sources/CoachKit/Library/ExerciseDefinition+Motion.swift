extension ExerciseDefinition {
    /// What a repetition looks like as movement, in body terms: the segment that moves most relative to
    /// the trunk, where its far end goes, which other segments may move too, and whether the hips change
    /// height. Recognition scores a window of motion against it (`Recognition/ExerciseRecognizer.swift`).
    ///
    /// Declared as the `motion` block of a definition (SCHEMA.md); when a file has none it is derived
    /// from the primary angle (``derived(primary:)``).
    ///
    /// ```swift
    /// let abduction = try library.exercise(id: "shoulder-abduction")
    /// abduction.motion.segment    // .upperArm
    /// abduction.motion.direction  // .sideways
    /// ```
    public struct Motion: Sendable, Hashable, Codable {
        /// A body segment, seen relative to the trunk (the trunk itself relative to the vertical).
        public enum Segment: String, Sendable, Hashable, Codable, CaseIterable {
            /// Shoulder → elbow.
            case upperArm
            /// Elbow → wrist.
            case forearm
            /// Hip → knee.
            case thigh
            /// Knee → ankle.
            case shank
            /// Hips → neck, against the vertical.
            case trunk
            /// The shoulder girdle against the head (a shrug).
            case shoulders
            /// The height of the hips above the feet (the whole body rising or lowering).
            case hips
        }

        /// Where the far end of the moving segment goes from the start position to the peak, relative to
        /// the trunk. The recognizer does not know which end of a swing is the start, so a direction and
        /// its reverse are the same signature (a squat and a sit-to-stand both swing the thigh forward).
        public enum Direction: String, Sendable, Hashable, Codable, CaseIterable {
            /// In front of the body (and up), e.g. shoulder flexion, hip flexion, knee extension.
            case forward
            /// Behind the body, e.g. shoulder extension.
            case backward
            /// Out to the side (and up), e.g. shoulder or hip abduction.
            case sideways
            /// Between forward and sideways (the scapular plane, 30° forward of the side).
            case scapular
            /// Toward the midline and up, e.g. pressing overhead from shoulder height.
            case inward
            /// Straight up along the trunk, e.g. a curl's forearm, a shrug, a heel raise.
            case up
            /// A sweep around the segment above it, whose angle to it stays (shoulder rotation with
            /// the elbow bent).
            case around
        }

        /// Whether the hips keep their height during a repetition.
        public enum Hips: String, Sendable, Hashable, Codable, CaseIterable {
            /// The body stays at its height (arm raises, leg raises while standing).
            case still
            /// The body lowers and rises (squats, lunges, push-ups, jumps).
            case move
        }

        /// What the hands do in the picture while the shoulders move: the difference between an exercise
        /// done holding on to something that stays put (a bar, the floor) and one where the hands travel.
        public enum Hands: String, Sendable, Hashable, Codable, CaseIterable {
            /// They stay where they are while the shoulders move (pull-up and dip: on the bar; push-up: on
            /// the floor).
            case anchored
            /// They travel well beyond the shoulders' own movement (jumping jack, burpee).
            case move
        }

        /// What the joint at the far end of the moving segment does (the elbow for an upper arm, the
        /// knee for a thigh): the clinical difference between a straight-leg raise and a knee lift.
        public enum Hinge: String, Sendable, Hashable, Codable, CaseIterable {
            /// It stays as it is while the segment moves (a straight-leg raise: the shank turns with the
            /// thigh).
            case straight
            /// It bends about as far as the segment turns (a hurdle step or knee lift: the shank stays
            /// near vertical while the thigh comes up).
            case bends
        }

        /// The segment that moves most.
        public var segment: Segment
        /// Where its far end goes.
        public var direction: Direction
        /// Other segments that may move as much (e.g. the shank in a squat); every other one should stay
        /// quiet.
        public var also: [Segment]
        /// Whether the hips change height.
        public var hips: Hips
        /// How far the moving limb segment turns, in degrees, from the start position to the peak of a
        /// typical repetition (`nil`: the primary angle's |peak − start|). Measured as the angle between
        /// the segment's directions at the two ends of its swing, so it does not depend on where the
        /// swing starts or on the camera view (e.g. 120 for an abduction raised above shoulder height,
        /// 90 for a scaption raise to shoulder height).
        public var reach: Double?
        /// Whether the joint at the moving segment's far end stays straight or bends during the movement
        /// (`nil`: not judged): the knee of a thigh movement (a straight-leg raise against a knee lift), the
        /// elbow of an upper-arm movement (a straight-arm raise against a press).
        public var hinge: Hinge?
        /// What the hands do in the picture relative to the shoulders (`nil`: not judged; most exercises,
        /// since a patient may hold on to a chair in any standing exercise).
        public var hands: Hands?

        public init(
            segment: Segment,
            direction: Direction,
            also: [Segment] = [],
            hips: Hips = .still,
            reach: Double? = nil,
            hinge: Hinge? = nil,
            hands: Hands? = nil
        ) {
            self.segment = segment
            self.direction = direction
            self.also = also
            self.hips = hips
            self.reach = reach
            self.hinge = hinge
            self.hands = hands
        }

        /// The signature implied by a primary angle alone, for definitions without a `motion` block.
        public static func derived(primary: AngleKind) -> Motion {
            switch primary {
            case .shoulderAbduction: Motion(segment: .upperArm, direction: .sideways)
            case .shoulderFlexion, .upperArmInclination: Motion(segment: .upperArm, direction: .forward)
            case .shoulderScaption: Motion(segment: .upperArm, direction: .scapular)
            case .shoulderExtension: Motion(segment: .upperArm, direction: .backward)
            case .shoulderRotation: Motion(segment: .forearm, direction: .around)
            case .elbowFlexion: Motion(segment: .forearm, direction: .up)
            case .hipFlexion: Motion(segment: .thigh, direction: .forward, also: [.shank])
            case .hipAbduction, .kneeWidthRatio: Motion(segment: .thigh, direction: .sideways)
            case .kneeFlexion: Motion(segment: .shank, direction: .backward)
            case .anklePlantarFlexion: Motion(segment: .hips, direction: .up, hips: .move)
            case .trunkLean, .bodyLine: Motion(segment: .trunk, direction: .forward, hips: .move)
            case .headShoulderRatio: Motion(segment: .shoulders, direction: .up)
            }
        }
    }
}

extension ExerciseDefinition {
    /// Whether the exercise's own movement holds or lifts the hands above the head: hanging from a bar, pressing
    /// overhead, a jump with the hands travelling (jumping jack, burpee), or an upper-arm raise whose target goes
    /// past 120° (the arm then points up). The live page's hands-up gesture would end such a set by mistake.
    public var raisesHandsOverhead: Bool {
        if posture == .hanging || motion.direction == .inward || motion.hands == .move { return true }
        guard motion.segment == .upperArm, [.forward, .sideways, .scapular].contains(motion.direction) else {
            return false
        }
        let overhead = 120.0  // degrees of shoulder flexion/abduction past which the hand is above the shoulder's top
        return (target?.max ?? repetition?.peak ?? 0) > overhead
    }
}

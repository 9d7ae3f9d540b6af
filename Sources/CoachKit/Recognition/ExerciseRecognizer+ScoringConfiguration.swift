extension ExerciseRecognizer.Scoring {
    /// Every tuned number of the recogniser's score, with why it has its value and, where it was read off data,
    /// which data (`Guides.md`, "Recognition", has the measurements). Chord values are the distance between
    /// unit directions (0…2: 0.3 ≈ 17°, 0.5 ≈ 29°, 1 = 60°); hip and hand travel are in torso lengths.
    public struct Configuration: Sendable, Hashable {
        // MARK: - Posture

        /// An upright or hanging exercise wants the trunk within this many degrees of vertical (a forward lean
        /// in a squat stays below it; a push-up's trunk is near 90°).
        public var uprightTrunkAtMost = 40.0
        /// A horizontal exercise wants the trunk at least this far from vertical (halfway, plus the margin
        /// of a skeleton's lean noise).
        public var horizontalTrunkAtLeast = 45.0
        /// The factor for a wrong posture: low enough that the right posture wins any close call, not zero,
        /// since a 2-D trunk angle can be wrong.
        public var wrongPosture = 0.15
        /// A seated exercise with both thighs hanging (mean forward component below ``seatedThighForward``):
        /// the person stands, which all but rules it out.
        public var standingForSeated = 0.03
        /// The mean forward component of the more forward thigh below which the thighs hang (standing).
        public var seatedThighForward = 0.25
        /// …and above which a thigh points forward (sitting); in between is a wrong posture.
        public var seatedThighForwardFull = 0.5
        /// `posture: any` is less specific: when it and a specific posture explain the motion equally (squat
        /// and sit-to-stand), the specific one wins.
        public var anyPosture = 0.9
        /// The share of the window with the hands beyond the head that, with anchored hands, is hanging from a
        /// bar (at the top of a pull-up the hands are at the chin, below the head). Read off the calimiro
        /// pull-ups (real videos).
        public var hangingOverhead = 0.4
        /// Below this share (where the hands are seen) nobody hangs from them: a kaiakol 1.1-s squat with the
        /// arms raised forward to balance was named a pull-up (0.1–0.3 gave the same).
        public var hangingOverheadAtLeast = 0.2

        // MARK: - Holds

        /// A hold wants no segment swinging more than this (chord, ≈ 20°): held still, keypoint noise stays
        /// well below it.
        public var holdStillSwing = 0.35
        /// …and the hips moving at most this much (torso lengths).
        public var holdStillHips = 0.15
        /// The best a hold scores: below a repetition exercise that explains a swing, since being still is
        /// weak evidence.
        public var holdPrior = 0.8

        // MARK: - Activity

        /// The declared segment must swing more than this (chord, ≈ 7°) for the exercise to score at all:
        /// above keypoint noise.
        public var minimumSwing = 0.12
        /// A swing of this (chord, ≈ 17°) or more is full activity; below, the activity falls with its square.
        public var fullSwing = 0.3
        /// `side: both`: the weaker side swings at least this share of the stronger one for full credit…
        public var bothSidesShare = 0.6
        /// …beyond which the fit falls as exp(−shortfall / this).
        public var bothSidesTolerance = 0.15
        /// Segments the definition does not name swing at most this share of the declared one for full
        /// credit…
        public var othersShare = 0.6
        /// …beyond which the fit falls as exp(−excess / this).
        public var othersTolerance = 0.3
        /// Segments that may move too (`also`) swing at most this many times the declared one (else the
        /// movement is theirs: a forearm sweeping around a still upper arm is not an arm raise)…
        public var companionsShare = 1.3
        /// …beyond which the fit falls as exp(−excess / this).
        public var companionsTolerance = 0.3
        /// `direction: around`: the upper arm swings at most this share of the forearm's sweep…
        public var aroundUpperArmShare = 0.4
        /// …beyond which the fit falls as exp(−excess / this).
        public var aroundUpperArmTolerance = 0.15

        // MARK: - Midline segments

        /// The shoulders' height range (torso lengths) times this is their "swing" (a shrug's 0.1 torso
        /// length compares with a limb's 0.4 chord).
        public var shouldersSwingScale = 4.0
        /// The hips' height range times this is their "swing" (a squat's hips travel about half a torso).
        public var hipsSwingScale = 1.5

        // MARK: - Hips

        /// `hips: still`: the hips' height range (torso lengths) at most this for full credit…
        public var stillHips = 0.2
        /// …beyond which the fit falls as exp(−excess / this).
        public var stillHipsTolerance = 0.1
        /// `hips: move`: the hips' height range at least this for full credit; below, the fit falls with the
        /// square of the shortfall…
        public var movingHips = 0.15
        /// …down to this floor.
        public var movingHipsFloor = 0.05

        // MARK: - Hands

        /// `hands: anchored`: the hand travel (against the shoulders') at most this for full credit. Read off
        /// the calimiro real videos: 0.05–0.49 for 14 of 17 pull-ups, 3.4–5.2 for jumping jacks.
        public var anchoredHands = 0.5
        /// `hands: move`: the hand travel at least this for full credit (same videos).
        public var movingHands = 1.5
        /// Beyond either bound the fit falls as exp(−excess / this) (twice this for moving hands).
        public var handsTolerance = 0.3
        /// The hands' fit never drops below this: wrist keypoints jitter and leave the picture.
        public var handsFloor = 0.1
        /// The shoulders' travel counts as at least this (torso lengths) against the hands', so that a body
        /// standing still cannot make any hand movement look large.
        public var leastShoulderTravel = 0.1

        // MARK: - Direction

        /// The direction factor never drops below this: the chance that a skeleton shows a limb's swing in the
        /// wrong direction (2-D ambiguity, distorted or mislabelled joints), so that one wrong heading does not
        /// veto an exercise the rest of the evidence supports.
        public var directionFloor = 0.1
        /// The heading factor is exp(−(1 − cos Δ) / this): 0.5 gives 0.77 at 30° off (the scapular plane
        /// against the frontal one; about what a depth estimate from one camera can tell apart), 0.14 at 90°.
        public var headingTolerance = 0.5
        /// A thigh swinging backward counts as forward, times this (UI-PRMD's distorted hurdle steps swing the
        /// lifted knee backward; no library exercise swings a thigh backward).
        public var reversedThighSense = 0.5
        /// The scapular plane's heading (outward, forward): about 30° forward of the frontal plane.
        public var scapularHeading = Heading(outward: 0.87, forward: 0.5)
        /// A heading vector (2 × raised end − other end, horizontal) shorter than this has no clear heading (a
        /// raise straight overhead)…
        public var clearHeading = 0.15
        /// …and then scores this cosine.
        public var unclearHeadingCosine = 0.3
        /// In 2-D the hidden axis (from foreshortening) is only a magnitude, and noisy: it counts this much.
        public var hiddenAxisWeight = 0.5
        /// A swing whose ends differ in height by less than this share of the swing is level: which end is the
        /// start is unknown, so the better of the two readings is taken.
        public var levelSwingRise = 0.3
        /// A forearm folds at the elbow when the elbow angle changes (as a chord) at least this share of the
        /// forearm's swing, and sweeps around the upper arm below it.
        public var forearmFold = 0.5
        /// Past ``forearmFold`` the wrong way, the fit falls as exp(−excess / this).
        public var forearmFoldTolerance = 0.3

        // MARK: - Hinge

        /// The knee's (or elbow's) bend against the thigh's (upper arm's) swing, both as chords: a straight-leg
        /// raise keeps it below this, a knee lift above.
        public var hingeBend = 0.5
        /// Beyond ``hingeBend`` the wrong way, the fit falls as exp(−excess / this) (UI-PRMD s01–s03)…
        public var hingeTolerance = 0.15
        /// …to this floor, for the same reason as the direction's.
        public var hingeFloor = 0.1

        // MARK: - Reach

        /// How far the turned angle may be from the definition's `reach`: a log-normal tolerance (0.25 ≈ a
        /// factor of 1.28 at one standard deviation; separates UI-PRMD's scaptions, 77–89°, from its
        /// abductions, 105–119°)…
        public var reachTolerance = 0.25
        /// …with this floor, for the same reason as the direction's.
        public var reachFloor = 0.15

        // MARK: - Excursion and rules

        /// The primary angle's range against start → peak is weak evidence (2-D angles and distorted skeletons
        /// mislead it): it weighs at most this much (the factor is 1 − this + this × closeness)…
        public var excursionWeight = 0.6
        /// …with the closeness a log-normal of this width (a factor of 1.8 at one standard deviation)…
        public var excursionTolerance = 0.6
        /// …and this factor when the angle was not measured (the closeness taken as 1/3).
        public var unmeasuredExcursion = 0.6
        /// A `throughout` form rule's bound on another angle is broken by more than this many degrees before it
        /// counts against the exercise (a badly done exercise is still that exercise)…
        public var ruleSlack = 25.0
        /// …and then the fit falls as exp(−excess / this)…
        public var ruleTolerance = 25.0
        /// …and the rules weigh at most this much (at most halve the score: a tie-breaker).
        public var rulesWeight = 0.5

        // MARK: - Confidence

        /// The score of "none of these" in the confidence (winner / (winner + runner-up + background)).
        public var background = 0.05
        /// An exercise of the other kind than the winner's (a hold when a repetition exercise wins, or the
        /// reverse) counts this share of its score as the runner-up in the confidence: the held top of a push-up
        /// meets a straight-arm plank's conditions, which says little against the push-up that explains the
        /// swing. 1 counts it fully.
        public var otherKindRunnerUp = 1.0

        /// A horizontal heading in the trunk's frame (outward, forward).
        public struct Heading: Sendable, Hashable {
            public var outward: Double
            public var forward: Double

            public init(outward: Double, forward: Double) {
                self.outward = outward
                self.forward = forward
            }
        }

        public init() {}
    }
}

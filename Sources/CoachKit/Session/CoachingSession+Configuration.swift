public import PoseKit

/// The session's configuration, its mode (exercise given or recognised) and the camera views it tells apart.
extension CoachingSession {
    public struct Configuration: Sendable {
        /// The exercise prescribed; `nil` to recognise it from `library` and count any periodic movement.
        public var exercise: ExerciseDefinition?
        /// The exercises recognition chooses from (when `exercise` is `nil`).
        public var library: [ExerciseDefinition]
        /// The image size, to tell when the person is at the edge of the frame.
        public var frameWidth: Double?
        public var frameHeight: Double?
        public var selector: PoseSelector.Configuration
        public var smoother: PoseSmoother.Configuration
        public var cues: CueScheduler.Configuration
        public var recognition: ExerciseRecognizer.Configuration
        /// Measure angles in 3-D when keypoints have depth, unless ``DepthJitterCheck`` finds it a video pose
        /// estimator's guess (then it is ignored and angles are measured in the image plane).
        public var useDepth: Bool
        /// How long the person must be in frame and not walking before a repetition may start. Waived when
        /// the person is already in frame and still at the start of the recording (a clip that starts in
        /// position), so a short clip's first repetition is not lost.
        public var settleSeconds: Double
        /// Joints below this confidence are not seen.
        public var minimumJointConfidence: Double
        /// Joints closer than this fraction of the frame size to its edge are out of frame.
        public var edgeMarginFraction: Double
        /// Horizontal movement of the feet (or the root when no foot is seen), in torso lengths in one
        /// second, above which the person is walking.
        public var walkingTorsoLengths: Double
        /// Whether to report the pose as an event every frame.
        public var emitsPoseEvents: Bool
        /// An invalid stretch (out of frame, walking, nobody seen) shorter than this is a glitch of the pose
        /// estimator (a skeleton that collapses for a few frames, a wrist at the edge): it neither drops the
        /// repetition under way nor restarts the settling time; those frames are just not counted.
        public var glitchSeconds: Double
        /// After a stretch out of frame (or without a pose) at most this long, in which the person did not
        /// walk, a repetition may start at once: the person is still in position.
        public var briefAbsenceSeconds: Double
        /// An invalid stretch longer than a glitch but shorter than this (the pose lost, the feet out of the
        /// picture for a moment) is bridged when the person did not walk, is found again where they were, and
        /// the counted angle after it continues what it did before (still past the lower threshold in a
        /// repetition, still short of the upper one at rest, ``RepCounter/continues(with:)``): the repetition
        /// under way survives and records the gap (``Repetition/gapSeconds``). Otherwise it is dropped, as
        /// any longer stretch drops it. Exercise given, repetitions only.
        public var bridgeSeconds: Double

        public init(
            exercise: ExerciseDefinition? = nil,
            library: [ExerciseDefinition] = [],
            frameWidth: Double? = nil,
            frameHeight: Double? = nil,
            selector: PoseSelector.Configuration = .init(),
            smoother: PoseSmoother.Configuration = .init(),
            cues: CueScheduler.Configuration = .init(),
            recognition: ExerciseRecognizer.Configuration = .init(),
            useDepth: Bool = true,
            settleSeconds: Double = 0.5,
            minimumJointConfidence: Double = 0.2,
            edgeMarginFraction: Double = 0.005,
            walkingTorsoLengths: Double = 0.8,
            emitsPoseEvents: Bool = true,
            glitchSeconds: Double = 0.3,
            briefAbsenceSeconds: Double = 1.5,
            bridgeSeconds: Double = 1.0
        ) {
            self.exercise = exercise
            self.library = library
            self.frameWidth = frameWidth
            self.frameHeight = frameHeight
            self.selector = selector
            self.smoother = smoother
            self.cues = cues
            self.recognition = recognition
            self.useDepth = useDepth
            self.settleSeconds = settleSeconds
            self.minimumJointConfidence = minimumJointConfidence
            self.edgeMarginFraction = edgeMarginFraction
            self.walkingTorsoLengths = walkingTorsoLengths
            self.emitsPoseEvents = emitsPoseEvents
            self.glitchSeconds = glitchSeconds
            self.briefAbsenceSeconds = briefAbsenceSeconds
            self.bridgeSeconds = bridgeSeconds
        }
    }

    /// The numbers the session itself was tuned with (its parts name their own in their configurations). None was
    /// read off a particular recording, as far as the history says; each is a judgement with the reason given.
    enum Tuning {
        /// The 10-Hz samples of the body's angles kept: 30 s, more than the longest repetition
        /// (``ExerciseDefinition/RepetitionSpec/maximumSeconds``) and a recognition window.
        static let angleSampleCapacity = 300
        /// The priority of a hold's unmet condition among the set-up cues (lower is said first): after the set-up
        /// guidance (priority 1), which must be fixed before a condition can be judged.
        static let holdConditionCuePriority = 2
        /// How long a cue stays on the overlay after it is given.
        static let cueShownSeconds = 3.0
        /// A hold recognised late is timed back over the 10-Hz samples while they follow each other at most this far
        /// apart: a longer stretch without samples (the person not seen, not steady) ends it.
        static let holdSampleGapSeconds = 0.5
        /// The provisional repetition the end of the recording counts ended at most one cycle before it, and a cycle
        /// is taken as the repetition's own length within these bounds: the movement confirms a cycle late (squat_19's
        /// second squat ended 0.5 s before the clip).
        static let provisionalAtEndSeconds = 1.0...2.0
    }

    /// The view the camera has of the person, from shoulder width relative to torso length.
    public enum View: String, Sendable, Hashable, Codable {
        case front, side, oblique, unknown
    }

    /// The two ways a session coaches: the exercise given (prescribed), or recognised from the library while any
    /// periodic movement is counted.
    enum Mode: Sendable {
        case given(GivenDefinition)
        case recognised(library: [ExerciseDefinition])

        /// The exercise given (`nil` when it is recognised).
        var exercise: ExerciseDefinition? {
            if case .given(let given) = self { given.definition } else { nil }
        }

        var isRecognised: Bool { if case .recognised = self { true } else { false } }

        /// Whether the exercise given is a hold (`nil`: none given), read without copying its definition.
        var givenIsHold: Bool? { if case .given(let given) = self { given.definition.isHold } else { nil } }
    }
}

/// The exercise given, held by reference: the session reads it on every frame, and a definition copied out of
/// ``CoachingSession/Mode`` each time cost a copy of every field (with its reference counts) per read.
final class GivenDefinition: Sendable {
    let definition: ExerciseDefinition

    init(_ definition: ExerciseDefinition) {
        self.definition = definition
    }
}

public import PoseKit

/// Learns an exercise definition from one demonstration: a few repetitions of a movement, filmed once.
///
/// The demonstration goes through the coach exactly as an analysis with no exercise given and an empty library
/// does (person selection, smoothing, set-up check): the exercise-agnostic ``PeriodicMotionCounter`` finds the
/// repetitions (where it finds none, each joint angle is counted on its own as a definition would count it, and
/// the angle that counts most gives them: ``angleRepetitions(_:samples:useDepth:width:height:)``). Every joint angle of ``AngleKind`` is then measured on the selected person's smoothed poses, and
/// the one that moves most, consistently in every repetition (the lower quartile of its per-repetition range),
/// becomes the primary angle. Its rest and peak give the repetition, the peak with a margin the default target
/// band; the repetitions' timing gives the tempo; the view estimator the camera view; angles that stayed still
/// become `at: range` form rules ("Keep your trunk still"). The reasoning of each number is in
/// ``Configuration``; `docs/learn.md` in the repository measures how well it works.
///
/// ```swift
/// let learned = try ExerciseLearner().learn(frames, width: 640, height: 480, name: "Step-up")
/// learned.definition.primaryAngle   // .kneeFlexion
/// try learned.jsonText()            // the definition file, in the library's format
/// ```
public struct ExerciseLearner: Sendable {
    public struct Configuration: Sendable, Hashable {
        /// Fewest repetitions a demonstration must show. One is accepted (a short clip), though only several
        /// say what is consistent; the command asks for 3–5.
        public var minimumRepetitions = 1
        /// The smallest consistent per-repetition range (degrees) a primary angle needs: above the 5–10° a pose
        /// model's angles jitter by on a still joint, below the 20–30° of the smallest library movements.
        public var minimumPrimaryRange = 15.0
        /// Keypoints below this confidence are not used (the session's own default).
        public var minimumJointConfidence = 0.2
        /// An angle must be measurable in at least this share of a repetition's poses for that repetition to count.
        public var minimumMeasuredShare = 0.6
        /// Angles within this fraction of the best score are considered equal, and the one whose plane suits the
        /// camera view is preferred (hip flexion and hip abduction read the same thigh from the side).
        public var tieFraction = 0.8
        /// The trunk's lean is the primary angle only when it moves this many times as far as any joint (a lateral
        /// trunk tilt); else a swing of the whole body would beat the joint that carries the movement.
        public var trunkLeadFactor = 1.5
        /// Both sides move together (`side: both`) when the smaller side's range is at least this share of the
        /// larger's; else one side moves at a time (`either`).
        public var bilateralShare = 0.6
        /// The near edge of the target band lies this far short of the demonstration's peak: the larger of these
        /// degrees, this fraction of the excursion, and twice the spread of the demonstration's own peaks. 10° is
        /// about what a 2-D pose model's angle is off by on a good frame (`clinical.md`), so a patient reaching
        /// the demonstrated depth is not told to go further; a therapist narrows it.
        public var nearMarginDegrees = 10.0
        public var nearMarginFraction = 0.15
        /// The far edge lies this far beyond the peak: going somewhat further than the demonstration is allowed.
        public var farMarginDegrees = 15.0
        public var farMarginFraction = 0.25
        /// A body part stayed still when its median per-repetition range (degrees) is at most this.
        public var stillRange = 10.0
        /// The `max` of a stillness rule: the larger of these degrees and twice the part's median range in the
        /// demonstration (rounded up to 5°). A pose model's still joint spans 3–8° over a repetition; a trunk
        /// swinging a curl up 20–40°. A part whose range exceeds it in a quarter of the demonstration's
        /// repetitions did not stay still.
        public var stillRuleMinimum = 15.0
        /// At most this many stillness rules, most important first (the coach gives one cue at a time).
        public var maximumStillRules = 3
        /// The peak is held when the angle stays within 10 % of the excursion from it (the tempo's `atPeakSeconds`)
        /// for at least this long in the median repetition; the definition then prescribes that hold.
        public var holdFromSeconds = 2.0
        /// The posture from the trunk's median lean (degrees from the vertical): over `horizontalFromLean` lying
        /// (plank, push-up: 70–90°), up to `uprightUpToLean` standing or sitting (a squat's lean averages 10–30°
        /// over a set); between, `any` (a hinge, a burpee).
        public var horizontalFromLean = 55.0
        public var uprightUpToLean = 35.0
        /// Upright with both thighs forward by at least this (hip flexion, degrees) is seated: a chair's 90°, less a
        /// slouch and a 2-D view's foreshortening.
        public var seatedHipFlexion = 60.0
        /// Upright with both wrists above the head (half a torso above the shoulders) in at least this share of the
        /// poses is hanging (a bar held between repetitions too).
        public var hangingShare = 0.6
        /// A still part held under this angle (degrees) is held straight: "Keep your knee straight", not "still".
        public var straightBelow = 20.0
        /// The hips lowering by more than this share of the torso on the way to the peak makes the way down
        /// eccentric (squat, lunge, push-up).
        public var loweringTorsoShare = 0.1

        public init() {}
    }

    public let configuration: Configuration

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    /// One pose of the demonstrator, as the coach selected and smoothed it.
    struct Sample {
        var seconds: Double
        var pose: Pose
        var view: CoachingSession.View
    }

    /// Learns a definition from the frames of a demonstration.
    ///
    /// - Parameters:
    ///   - frames: The demonstration, as a pose-track's frames.
    ///   - width: The image size the keypoints refer to.
    ///   - name: The exercise's display name, as the therapist gives it.
    ///   - id: The exercise id; derived from `name` when `nil` ("Step-up" → `step-up`).
    ///   - primary: The primary angle, when the therapist names it; else the angle that moved most.
    ///   - source: What the demonstration is called in error messages (a file name).
    /// - Throws: ``CoachKitError`` `.unmeasurable` when nobody is seen, no repetition is found, or no joint angle
    ///   moved consistently; `.invalidDefinition` when the name gives no id.
    public func learn(
        _ frames: some Sequence<PoseFrame>,
        width: Double,
        height: Double,
        name: String,
        id: String? = nil,
        primary: AngleKind? = nil,
        source: String = "the demonstration"
    ) throws(CoachKitError) -> LearnedExercise {
        if let primary, !primary.countsRepetitions {
            throw CoachKitError(
                .invalidDefinition,
                "\(primary.rawValue) cannot count repetitions (a ratio, or how still the upper arm stays); "
                    + "choose a joint angle"
            )
        }
        let exerciseID: String
        if let id { exerciseID = id } else { exerciseID = try Self.id(forName: name) }
        let frames = Array(frames)
        var session = CoachingSession(
            configuration: .analysis(exercise: nil, library: [], width: width, height: height)
        )
        var samples: [Sample] = []
        var count = 0
        for frame in frames {
            count += 1
            _ = session.ingest(frame)
            if let pose = session.snapshot.pose {
                samples.append(Sample(seconds: frame.seconds, pose: pose, view: session.view))
            }
        }
        do {
            try session.checkCoached(frames: count, name: source)
        } catch {
            var error = error
            error.message += "; the demonstration must show one person, whole body in the picture"
            throw error
        }
        let useDepth = session.setUp.depthTrusted == true
        var repetitions = session.summary().repetitions.map { (start: $0.startSeconds, end: $0.endSeconds) }
        if repetitions.count < configuration.minimumRepetitions {
            repetitions = angleRepetitions(frames, samples: samples, useDepth: useDepth, width: width, height: height)
        }
        guard repetitions.count >= configuration.minimumRepetitions else {
            let found = repetitions.isEmpty ? "no repetition" : "only \(repetitions.count) repetitions"
            throw CoachKitError(
                .unmeasurable,
                "\(source): \(found) found in the demonstration; perform the movement 3–5 times, through its "
                    + "whole range, pausing briefly at the start position, with the whole body in the picture"
            )
        }
        var analysis = DemonstrationAnalysis(
            samples: samples,
            repetitions: repetitions,
            useDepth: useDepth,
            configuration: configuration
        )
        return try analysis.definition(id: exerciseID, name: name, source: source, given: primary)
    }

    /// An exercise id from a display name: lower-case letters and digits, other characters as single dashes.
    ///
    /// - Throws: ``CoachKitError`` `.invalidDefinition` when the name has no letter or digit.
    public static func id(forName name: String) throws(CoachKitError) -> String {
        var id = ""
        for character in name.lowercased() {
            if character.isASCII, character.isLetter || character.isNumber {
                id.append(character)
            } else if !id.isEmpty, id.last != "-" {
                id.append("-")
            }
        }
        while id.last == "-" { id.removeLast() }
        guard !id.isEmpty else {
            throw CoachKitError(
                .invalidDefinition,
                "the name '\(name)' gives no exercise id: use letters or digits (e.g. \"Step-up\"), or give an id"
            )
        }
        return id
    }
}

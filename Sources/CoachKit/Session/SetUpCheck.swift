import PoseKit

/// What keeps the coach from coaching right now, with its reason; ``sentence`` is what the person is told (on the
/// page, aloud, in the summary's guidance). ``SetUpCheck`` finds it.
enum SetUpIssue: Hashable, Sendable {
    /// Nobody seen for ``SetUpCheck/Configuration/notSeenSeconds``.
    case notSeen
    /// Joints the exercise needs to be followed at all (its required joints; with none given, the neck and
    /// shoulders) are out of the picture: these parts (those of the side missing less, when either side will do).
    case jointsOutOfPicture(BodyParts)
    /// The same joints are not seen, but none of them is out of the picture: each is inside it with too low a
    /// confidence (hidden behind the body or an object, blurred), or not found while its mirror joint is seen in
    /// the picture. Stepping back would not show them: the person is told what the coach cannot see.
    case jointsUnclear(BodyParts)
    /// The person is walking.
    case walking
    /// The exercise is measured from this camera view, the camera has seen the person from the other one for
    /// ``SetUpCheck/Configuration/wrongViewSeconds`` (the view smoothed over about a second: a rear view is a front
    /// one), there is no measured depth to make up for it, and no repetition was counted in that view yet: once
    /// one is, the view measures the primary angle, and what it cannot judge the summary says ("full-pull needs a
    /// front view"), not the set-up line (a pull-up filmed from the side counts every repetition).
    case needsView(ExerciseDefinition.CameraView)
    /// For ``SetUpCheck/Configuration/formJointsSeconds``, a form rule the camera view lets the coach judge missed
    /// these parts on both sides (those of the side missing less), each beyond the picture's edge or not found at
    /// all: counting goes on, the rule cannot be checked. A joint hidden in the picture (the far knee from the
    /// side) is not out of it, and a rule that needs another view is not asked for: the summary says it was not
    /// checked ("knees-out needs a front view").
    case formJointsOutOfPicture(BodyParts)

    /// What the person is told.
    var sentence: String {
        switch self {
        case .notSeen: "Step into the camera view"
        case .jointsOutOfPicture: "Step back so that your whole body is in the picture"
        case .jointsUnclear(let parts): "I cannot see your \(parts.names) clearly"
        case .walking: "Stand still in your start position"
        case .needsView(.front): "Face the camera so I can measure the movement"
        case .needsView: "Turn sideways to the camera so I can measure the movement"
        case .formJointsOutOfPicture(let parts):
            "Step back so that your \(parts.names) \(parts == .head ? "is" : "are") in the picture, so I can check your form"
        }
    }

    /// Whether the two are told with the same ``sentence``, found without building it: a change of the parts out of
    /// the picture that the sentence does not name (``jointsOutOfPicture(_:)``'s) is nothing new to say.
    func isSaidAs(_ other: SetUpIssue) -> Bool {
        switch (self, other) {
        case (.jointsOutOfPicture, .jointsOutOfPicture): true
        default: self == other
        }
    }
}

/// The set-up check, frame by frame: is the person in the picture, walking, seen from a view the exercise can be
/// measured in, with depth that is measured or guessed, settled, and are the joints the form rules need in the
/// picture; and the one ``SetUpIssue`` to tell them, if any.
///
/// A frame with a person goes through ``look(at:at:)`` (in frame, walking, the depth's verdict), then
/// ``check(_:_:at:recognizedIndex:)`` (the view, presence, the issue), and once counted, ``counted(_:)``: in between, a session whose depth just proved
/// a guess recounts in the image plane, judged in the view of the frames it counted. A frame with nobody goes through
/// ``ingestNobody(at:)``. Allocation-free but for the sentence of a new issue and the gaps bridged.
///
/// The issues, most pressing first: the required joints out of the picture (or, when none of them is, not seen
/// clearly), walking, the wrong view for the exercise
/// given (without measured depth), and (once the person is measurable, for an exercise given that counts
/// repetitions and can be measured in this view) a form rule's joints out of the picture on both sides for a
/// second: "Step back so that your knees are in the picture, so I can check your form". A frame the pose estimator
/// glitched (``PresenceTracker``) keeps the issue shown; nobody seen for a second is ``SetUpIssue/notSeen``.
///
/// ```swift
/// var setUp = SetUpCheck(exercise: squat, library: [], configuration: .init())
/// let look = setUp.look(at: pose, at: t)
/// let check = setUp.check(pose, look, at: t, recognizedIndex: nil)
/// if let guidance = check.guidance { print(guidance.issue?.sentence ?? "(guidance cleared)") }
/// ```
struct SetUpCheck: Sendable {
    struct Configuration: Sendable {
        /// Whether a joint is seen and in the picture.
        var visibility = JointVisibility()
        var walking = WalkingDetector.Configuration()
        var presence = PresenceTracker.Configuration()
        /// Measure angles in 3-D when keypoints have depth, unless ``DepthJitterCheck`` finds it a guess.
        var useDepth = true
        /// How long nobody is seen before they are asked to step into the view: a frame or two without a pose is
        /// the pose estimator, not the person leaving.
        var notSeenSeconds = 1.0
        /// How long a form rule's joints stay out of the picture before the person is asked to step back: a limb
        /// that leaves the picture for a moment at the end of a movement is not worth a cue.
        var formJointsSeconds = 1.0
        /// How long the camera sees the person from the view the exercise is not measured in before they are asked
        /// to turn: a turn while getting into position, or a swing on a bar, is not worth a cue.
        var wrongViewSeconds = 1.0
    }

    /// The first step of a frame with a person (``look(at:at:)``).
    struct Look: Sendable, Hashable {
        /// The joints the exercise needs are in the picture.
        var inFrame: Bool
        var walking: Bool
        /// The depth's verdict, in the frame it is made (``DepthJitterCheck``): `true` measured, `false` a guess.
        var depthVerdict: Bool?
    }

    /// The guidance shown changed to `issue` (`nil`: nothing to say any more).
    struct Guidance: Sendable, Hashable {
        var issue: SetUpIssue?
    }

    /// What a frame is, for the session.
    struct Check: Sendable, Hashable {
        /// The person is measurable: in frame, and not walking.
        var valid: Bool
        /// Glitches, gaps and settling (``PresenceTracker``).
        var presence: PresenceTracker.Frame
        /// Whether the camera view lets the exercise's range be measured (given, or else recognised).
        var rangeMeasurable: Bool
        /// The guidance, when it changed in this frame.
        var guidance: Guidance?
    }

    let configuration: Configuration
    /// The exercise given (`nil`: recognised from `library`).
    private let given: ExerciseDefinition?
    private let library: [ExerciseDefinition]
    /// The joints each form rule's angle needs on the left and the right (the midline ones on both), and the view the
    /// rule needs. Counting does not wait for them; when one the view lets the coach judge is out of the picture for
    /// a second, the person is asked to step back so that it is in (a push-up with the feet cut off cannot be judged
    /// for its body line).
    private let ruleJoints: [(left: [Joint], right: [Joint], angle: AngleKind, view: ExerciseDefinition.CameraView)]

    private var inFrame: InFrameCheck
    private var walking: WalkingDetector
    private var viewEstimator = ViewEstimator()
    private var depthCheck = DepthJitterCheck()
    /// Glitches, gaps and interruptions, and whether the person has settled.
    private(set) var presence: PresenceTracker
    /// Whether angles are measured in 3-D in this frame: the keypoints have depth, not found to be a guess.
    private(set) var hasDepth = false
    /// When a person was last seen.
    private var lastPersonSeconds: Double?
    /// The issue shown (its sentence is the guidance).
    private(set) var shown: SetUpIssue?
    /// The parts a form rule last missed, since when (`nil` while none is missed), and whether they were shown.
    private var formParts = BodyParts()
    private var formPartsSince: Double?
    private var formPartsShown = false
    /// Since when the settled view is the one the exercise is not measured in (`nil`: it is not).
    private var wrongViewSince: Double?
    /// Whether a repetition was counted while the settled view was the front (the side) one: that view measures the
    /// primary angle, and the person is not asked to leave it (``SetUpIssue/needsView(_:)``).
    private var countedFromFront = false
    private var countedFromSide = false
    /// The repetitions counted, as of the latest frame checked.
    private var repetitionsCounted = 0
    /// Whether the latest frame's person was measurable: in frame, and not walking (`false` when nobody was seen).
    private(set) var lastFrameValid = false
    /// ``isReliable(recognizedIndex:)`` for its key, as last worked out: reading an exercise's definition on every
    /// frame copies it (a few hundred bytes and a dozen buffers retained).
    private var reliability: (key: ReliabilityKey, value: Bool)?

    /// What ``isReliable(recognizedIndex:)`` depends on: the exercise (the library's index of the one recognised;
    /// `nil` for the one given, or none), the depth and the view.
    private struct ReliabilityKey: Equatable {
        var recognizedIndex: Int?
        var hasDepth: Bool
        var view: CoachingSession.View
    }

    init(exercise: ExerciseDefinition?, library: [ExerciseDefinition], configuration: Configuration) {
        self.configuration = configuration
        given = exercise
        self.library = library
        inFrame = InFrameCheck(exercise: exercise, visibility: configuration.visibility)
        walking = WalkingDetector(configuration: configuration.walking)
        presence = PresenceTracker(configuration: configuration.presence)
        ruleJoints = (exercise?.formRules ?? []).map { rule in
            (rule.angle.joints(side: .left), rule.angle.joints(side: .right), rule.angle, rule.view)
        }
    }

    // MARK: - What the session reads

    /// Whether a joint is seen and in the picture.
    var visibility: JointVisibility { configuration.visibility }
    /// The view at the latest frame.
    var view: CoachingSession.View { viewEstimator.view }
    /// The view smoothed over about a second (``ViewEstimator/settledView``): what the person is asked about.
    var settledView: CoachingSession.View { viewEstimator.settledView }
    /// ``ViewEstimator/facesCameraSquarely``.
    var facesCameraSquarely: Bool { viewEstimator.facesCameraSquarely }
    /// The torso length in the image, smoothed (0 until measured).
    var torso: Double { walking.torso }
    /// Whether the depth is measured (`nil` before the verdict, ``DepthJitterCheck``).
    var depthTrusted: Bool? { depthCheck.trusted }
    /// The joints the exercise needs that were never seen in frame (``InFrameCheck/jointsNeverSeen``).
    var jointsNeverSeen: [Joint] { inFrame.jointsNeverSeen }

    // MARK: - Each frame

    /// The first step of a frame with a person: in frame, walking, and the depth's verdict.
    mutating func look(at pose: Pose, at t: Double) -> Look {
        lastPersonSeconds = t
        let inFrame = self.inFrame.ingest(pose)
        let walking = self.walking.ingest(pose, at: t)
        hasDepth =
            configuration.useDepth && pose[.leftShoulder].z != nil && pose[.rightShoulder].z != nil
            && pose[.leftHip].z != nil
        var verdict: Bool?
        if hasDepth, depthCheck.trusted == nil {
            depthCheck.ingest(pose)
            verdict = depthCheck.trusted
        }
        // Once the depth proved a guess, angles are measured in the image plane.
        hasDepth = hasDepth && depthCheck.trusted != false
        return Look(inFrame: inFrame, walking: walking, depthVerdict: verdict)
    }

    /// The second step: the view, presence, and the issue to tell. `recognizedIndex`: the exercise recognised, with
    /// none given.
    mutating func check(_ pose: Pose, _ look: Look, at t: Double, recognizedIndex: Int?) -> Check {
        _ = viewEstimator.ingest(pose, torso: walking.torso)
        // The overlay shows no range gauge where the repetition's range will be "not measurable" (the same test).
        let rangeMeasurable = isReliable(recognizedIndex: recognizedIndex)
        let valid = look.inFrame && !look.walking
        lastFrameValid = valid
        let bodyX = pose[.root].confidence > 0 ? pose[.root].x : pose[.neck].confidence > 0 ? pose[.neck].x : nil
        let presence = self.presence.ingest(
            valid: valid,
            walking: look.walking,
            bodyX: bodyX,
            torso: walking.torso,
            at: t
        )
        let wrongView = wrongViewIssue(at: t)
        var issue: SetUpIssue?
        if presence.glitch {
            issue = shown  // a glitch changes nothing the person is told
        } else if !look.inFrame {
            issue =
                missesJointsOutOfPicture(pose)
                ? .jointsOutOfPicture(inFrame.missingParts) : .jointsUnclear(inFrame.missingParts)
        } else if look.walking {
            issue = .walking
        } else if let wrongView {
            issue = wrongView
        }
        if issue == nil, valid { issue = formJointsIssue(pose, at: t) } else { formPartsSince = nil }
        return Check(valid: valid, presence: presence, rangeMeasurable: rangeMeasurable, guidance: show(issue))
    }

    /// After the frame's counting: the session has counted `repetitions` so far. One counted since the last call was
    /// counted in the view settled now, which measures the primary angle: a ``SetUpIssue/needsView(_:)`` shown about
    /// it is taken back in the same frame (the guidance returned).
    mutating func counted(_ repetitions: Int) -> Guidance? {
        guard repetitions > repetitionsCounted else {
            repetitionsCounted = repetitions
            return nil
        }
        repetitionsCounted = repetitions
        let settled = viewEstimator.settledView
        if settled == .front { countedFromFront = true }
        if settled == .side { countedFromSide = true }
        guard case .needsView? = shown, (settled == .front && countedFromFront) || (settled == .side && countedFromSide)
        else { return nil }
        wrongViewSince = nil
        return show(nil)
    }

    /// A frame with nobody seen: presence, and the guidance when it changed (``SetUpIssue/notSeen`` after a second).
    mutating func ingestNobody(at t: Double) -> (presence: PresenceTracker.Frame, guidance: Guidance?) {
        lastFrameValid = false
        let presence = self.presence.ingestNobody(at: t)
        let gone = lastPersonSeconds.map { t - $0 >= configuration.notSeenSeconds } ?? true
        return (presence, gone ? show(.notSeen) : nil)
    }

    /// Decides, over the first frames after a held gap, whether it was a gap in the same repetition
    /// (``PresenceTracker/decideGapReturn(continues:at:)``).
    mutating func decideGapReturn(continues: Bool, at t: Double) -> Bool? {
        presence.decideGapReturn(continues: continues, at: t)
    }

    /// Whether the camera view lets the exercise be measured (``MeasurementContext/isReliable(for:hasDepth:view:)``):
    /// the one recognised (`recognizedIndex`), else the one given.
    mutating func isReliable(recognizedIndex: Int?) -> Bool {
        let key = ReliabilityKey(recognizedIndex: recognizedIndex, hasDepth: hasDepth, view: view)
        if let reliability, reliability.key == key { return reliability.value }
        let exercise = recognizedIndex.map { library[$0] } ?? given
        let value = MeasurementContext.isReliable(for: exercise, hasDepth: hasDepth, view: view)
        reliability = (key, value)
        return value
    }

    // MARK: - The issue

    /// Shows `issue`: the guidance, when it says something else than the one shown.
    private mutating func show(_ issue: SetUpIssue?) -> Guidance? {
        switch (issue, shown) {
        case (nil, nil): return nil
        case (let new?, let old?) where new.isSaidAs(old):
            shown = new  // the same sentence; its reason kept up to date
            return nil
        default:
            shown = issue
            return Guidance(issue: issue)
        }
    }

    /// ``SetUpIssue/needsView(_:)`` when, for ``Configuration/wrongViewSeconds``, the settled view is the one the
    /// exercise given is not measured in (without measured depth) and no repetition was counted in it; `nil`
    /// otherwise.
    private mutating func wrongViewIssue(at t: Double) -> SetUpIssue? {
        let settled = viewEstimator.settledView
        guard let needed = given?.view, !hasDepth,
            (needed == .side && settled == .front && !countedFromFront)
                || (needed == .front && settled == .side && !countedFromSide)
        else {
            wrongViewSince = nil
            return nil
        }
        let since = wrongViewSince ?? t
        wrongViewSince = since
        return t - since >= configuration.wrongViewSeconds ? .needsView(needed) : nil
    }

    /// Whether a joint a form rule needs is out of the picture: not seen, and beyond the picture's edge or not found
    /// at all while its mirror joint is not seen in the picture either. One seen with low confidence inside the
    /// picture, or not found while its mirror is in the picture (the far knee from the side, dropped by the
    /// smoother), is hidden behind the body, and stepping back would not show it.
    private func isOutOfPicture(_ joint: Joint, in pose: Pose, vertex: Keypoint) -> Bool {
        let k = pose[joint]
        guard !visibility.isSeen(k, vertex: vertex) else { return false }
        if k.confidence > 0 { return !visibility.isInside(k) }
        let mirror = pose[joint.mirrored]
        return joint.mirrored == joint || mirror.confidence < visibility.minimumJointConfidence
            || !visibility.isInside(mirror)
    }

    /// Whether a joint the exercise needs (``InFrameCheck``), not seen in `pose`, is out of the picture
    /// (``isOutOfPicture(_:in:vertex:)``): then the person is asked to step back, else told what is not seen.
    private func missesJointsOutOfPicture(_ pose: Pose) -> Bool {
        for (index, joint) in inFrame.joints.enumerated() {
            let vertex = inFrame.anchors[index].map { pose[inFrame.joints[$0]] } ?? .missing
            if isOutOfPicture(joint, in: pose, vertex: vertex) { return true }
        }
        return false
    }

    /// ``SetUpIssue/formJointsOutOfPicture(_:)`` when, for ``Configuration/formJointsSeconds``, a form rule the camera
    /// view could judge misses joints on both sides; `nil` otherwise. For an exercise given that counts repetitions,
    /// in a view it can be measured in.
    private mutating func formJointsIssue(_ pose: Pose, at t: Double) -> SetUpIssue? {
        guard given?.isHold == false, isReliable(recognizedIndex: nil) else {
            formPartsSince = nil
            return nil
        }
        var missing = BodyParts()
        var judged = false
        for rule in ruleJoints {
            let settled = viewEstimator.settledView
            if rule.view != .any, !hasDepth, !(rule.view == .front && settled == .front),
                !(rule.view == .side && settled == .side)
            {
                continue
            }
            judged = true
            var left = BodyParts()
            var right = BodyParts()
            let leftVertex = pose[rule.angle.vertexJoint(side: .left)]
            let rightVertex = pose[rule.angle.vertexJoint(side: .right)]
            for joint in rule.left where isOutOfPicture(joint, in: pose, vertex: leftVertex) {
                left.insert(BodyParts(joint))
            }
            for joint in rule.right where isOutOfPicture(joint, in: pose, vertex: rightVertex) {
                right.insert(BodyParts(joint))
            }
            guard !left.isEmpty, !right.isEmpty else { continue }
            // The side that misses less is the one to bring into the picture.
            missing.formUnion(left.count <= right.count ? left : right)
        }
        // A frame where no rule can be judged (the view changed for a moment) clears nothing shown, and starts the
        // second over for what is not shown yet.
        if !judged {
            if !formPartsShown { formPartsSince = nil }
            guard formPartsShown, case .formJointsOutOfPicture(let parts)? = shown, parts == formParts else {
                return nil
            }
            return shown
        }
        if missing.isEmpty {
            formPartsSince = nil
            return nil
        }
        if missing != formParts || formPartsSince == nil {
            formParts = missing
            formPartsSince = t
            formPartsShown = false
        }
        guard let since = formPartsSince, t - since >= configuration.formJointsSeconds else { return nil }
        formPartsShown = true
        return .formJointsOutOfPicture(missing)
    }
}

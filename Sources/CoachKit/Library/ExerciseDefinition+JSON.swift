extension ExerciseDefinition {
    /// Reads and validates a definition from its JSON text (schema: `Resources/Exercises/SCHEMA.md`).
    ///
    /// - Parameter file: The file name used in error messages.
    /// - Throws: ``CoachKitError`` `.invalidDefinition` naming the file and the field that is wrong.
    public init(jsonText: String, file: String) throws(CoachKitError) {
        let form = try SchemaDecoding.decode(Closed<File>.self, from: jsonText, file: file, what: "exercise").value
        try self.init(form, file: file)
    }

    /// A definition file as written: what `JSONDecoder` reads, before the checks between fields.
    struct File: ClosedSchema {
        enum CodingKeys: String, CodingKey, CaseIterable {
            case id, name, summary, view, posture, side, kind, angles, primary, repetition, hold, target, formRules
            case safety, maximumAsymmetry, praise, motion
        }
        static let blockName = "the schema"

        enum Kind: String, CaseIterable { case reps, hold }

        struct Repetition: Decodable {
            var start: Double
            var peak: Double
            var towardPeak: OneOf<Contraction>
            var minimumRange: Double?
            var minimumSeconds: Double?
            var maximumSeconds: Double?
            var holdSeconds: Double?
        }

        struct Hold: Decodable {
            struct Condition: Decodable {
                var angle: OneOf<AngleKind>
                var min: Double
                var max: Double
                var cue: String
            }
            var seconds: Double
            var conditions: [Condition]
        }

        struct Rule: Decodable {
            var id: String
            var angle: OneOf<AngleKind>
            var at: OneOf<RuleTiming>
            var min: Double?
            var max: Double?
            var cue: String
            var priority: Double?
            var view: OneOf<CameraView>?
        }

        struct Safety: Decodable {
            var angle: OneOf<AngleKind>
            var min: Double?
            var max: Double?
            var warning: String
        }

        struct Motion: ClosedSchema {
            enum CodingKeys: String, CodingKey, CaseIterable {
                case segment, direction, also, hips, reach, hinge, hands
            }
            static let blockName = "the motion block"

            var segment: OneOf<ExerciseDefinition.Motion.Segment>
            var direction: OneOf<ExerciseDefinition.Motion.Direction>
            var also: [OneOf<ExerciseDefinition.Motion.Segment>]?
            var hips: OneOf<ExerciseDefinition.Motion.Hips>?
            var reach: Double?
            var hinge: OneOf<ExerciseDefinition.Motion.Hinge>?
            var hands: OneOf<ExerciseDefinition.Motion.Hands>?
        }

        var id: String
        var name: String
        var summary: String?
        var view: OneOf<CameraView>
        var posture: OneOf<Posture>?
        var side: OneOf<SideMode>
        var kind: OneOf<Kind>
        var angles: [OneOf<AngleKind>]
        var primary: OneOf<AngleKind>
        var repetition: Repetition?
        var hold: Hold?
        var target: TargetRange?
        var formRules: [Rule]?
        var safety: [Safety]?
        var maximumAsymmetry: Double?
        var praise: String?
        var motion: Closed<Motion>?
    }

    /// The definition of a decoded file, checked across its fields.
    private init(_ form: File, file: String) throws(CoachKitError) {
        var problem = SchemaDecoding.Problem(file: file, context: "")
        let id = try problem.id(form.id)
        problem.context = "exercise '\(id)': "
        let angles = form.angles.map(\.value)
        guard !angles.isEmpty else {
            throw problem(
                "angles",
                "must be a non-empty array of angle names (\(AngleKind.allCases.map(\.rawValue).prefix(5).joined(separator: ", ")), …)"
            )
        }
        let primary = form.primary.value
        guard angles.first == primary else {
            throw problem("primary", "'\(primary.rawValue)' must be listed first in \"angles\"")
        }
        let kind = form.kind.value

        var repetition: RepetitionSpec?
        var hold: HoldSpec?
        switch kind {
        case .reps:
            guard let rep = form.repetition else {
                throw problem(
                    "repetition",
                    "is required for kind \"reps\": {\"start\": …, \"peak\": …, \"towardPeak\": …}"
                )
            }
            repetition = try Self.repetition(rep, problem)
        case .hold:
            guard let spec = form.hold else {
                throw problem("hold", "is required for kind \"hold\": {\"seconds\": …, \"conditions\": […]}")
            }
            hold = try Self.hold(spec, primary: primary, problem)
        }

        if let target = form.target {
            guard target.min <= target.max else {
                throw problem("target.max", "must be at least target.min (\(target.min)) (got \(target.max))")
            }
        } else if kind == .reps {
            throw problem(
                "target",
                "is required for kind \"reps\": the range the primary angle should reach at the peak"
            )
        }

        var rules: [FormRule] = []
        for (index, rule) in (form.formRules ?? []).enumerated() {
            let path = "formRules[\(index)]"
            let angle = rule.angle.value
            guard angles.contains(angle) else {
                throw problem(path + ".angle", "'\(angle.rawValue)' must also be listed in \"angles\"")
            }
            guard rule.min != nil || rule.max != nil else { throw problem(path, "needs \"min\", \"max\" or both") }
            if let min = rule.min, let max = rule.max, min >= max {
                throw problem(path + ".max", "must be above min (\(min)) (got \(max))")
            }
            let priority = Int(rule.priority ?? 2)
            guard priority >= 1 else { throw problem(path + ".priority", "must be 1 or more (1 = most important)") }
            rules.append(
                FormRule(
                    id: try problem.nonEmpty(rule.id, path + ".id"),
                    angle: angle,
                    at: rule.at.value,
                    min: rule.min,
                    max: rule.max,
                    cue: try problem.nonEmpty(rule.cue, path + ".cue"),
                    priority: priority,
                    view: rule.view?.value ?? .any
                )
            )
        }

        var limits: [SafetyLimit] = []
        for (index, limit) in (form.safety ?? []).enumerated() {
            let path = "safety[\(index)]"
            let angle = limit.angle.value
            guard angles.contains(angle) else {
                throw problem(path + ".angle", "'\(angle.rawValue)' must also be listed in \"angles\"")
            }
            guard limit.min != nil || limit.max != nil else { throw problem(path, "needs \"min\", \"max\" or both") }
            let warning = try problem.nonEmpty(limit.warning, path + ".warning")
            limits.append(SafetyLimit(angle: angle, min: limit.min, max: limit.max, warning: warning))
        }

        let side = form.side.value
        if form.maximumAsymmetry != nil, side != .both {
            throw problem(
                "maximumAsymmetry",
                "only applies to exercises with \"side\": \"both\" (this one is \"\(side.rawValue)\")"
            )
        }

        self.init(
            id: id,
            name: try problem.nonEmpty(form.name, "name"),
            summary: form.summary ?? "",
            view: form.view.value,
            posture: form.posture?.value ?? .any,
            side: side,
            angles: angles,
            primaryAngle: primary,
            repetition: repetition,
            hold: hold,
            target: form.target,
            formRules: rules,
            safetyLimits: limits,
            maximumAsymmetry: form.maximumAsymmetry,
            praise: form.praise ?? (kind == .hold ? "Well held!" : "Good rep!"),
            motion: try form.motion.map { motion throws(CoachKitError) in try Self.motion(motion.value, problem) }
                ?? .derived(primary: primary)
        )
    }

    private static func repetition(
        _ rep: File.Repetition,
        _ problem: SchemaDecoding.Problem
    ) throws(CoachKitError) -> RepetitionSpec {
        let span = abs(rep.peak - rep.start)
        guard span > 1e-9 else {
            throw problem("repetition.peak", "must differ from repetition.start (both \(rep.start))")
        }
        let minimumRange = rep.minimumRange ?? span * 0.3
        guard minimumRange > 0, minimumRange <= span else {
            throw problem(
                "repetition.minimumRange",
                "must be above 0 and at most |peak − start| = \(span) (got \(minimumRange))"
            )
        }
        let minimumSeconds = rep.minimumSeconds ?? 0.5
        let maximumSeconds = rep.maximumSeconds ?? 20
        guard minimumSeconds >= 0, maximumSeconds > minimumSeconds else {
            throw problem(
                "repetition.maximumSeconds",
                "must be above minimumSeconds (\(minimumSeconds)) (got \(maximumSeconds))"
            )
        }
        let spec = RepetitionSpec(
            start: rep.start,
            peak: rep.peak,
            towardPeak: rep.towardPeak.value,
            minimumRange: minimumRange,
            minimumSeconds: minimumSeconds,
            maximumSeconds: maximumSeconds,
            holdSeconds: rep.holdSeconds
        )
        if let holdSeconds = rep.holdSeconds, !spec.acceptsHold(holdSeconds) {
            throw problem(
                "repetition.holdSeconds",
                "must be above 0 and below maximumSeconds (\(maximumSeconds)) (got \(holdSeconds))"
            )
        }
        return spec
    }

    private static func hold(
        _ hold: File.Hold,
        primary: AngleKind,
        _ problem: SchemaDecoding.Problem
    ) throws(CoachKitError) -> HoldSpec {
        guard hold.seconds > 0 else { throw problem("hold.seconds", "must be positive (got \(hold.seconds))") }
        guard !hold.conditions.isEmpty else {
            throw problem("hold.conditions", "must be a non-empty array of {\"angle\", \"min\", \"max\", \"cue\"}")
        }
        var conditions: [HoldCondition] = []
        for (index, condition) in hold.conditions.enumerated() {
            let path = "hold.conditions[\(index)]"
            guard condition.min < condition.max else {
                throw problem(path + ".max", "must be above min (\(condition.min)) (got \(condition.max))")
            }
            conditions.append(
                HoldCondition(
                    angle: condition.angle.value,
                    min: condition.min,
                    max: condition.max,
                    cue: try problem.nonEmpty(condition.cue, path + ".cue")
                )
            )
        }
        guard conditions[0].angle == primary else {
            throw problem("hold.conditions[0].angle", "must be the primary angle '\(primary.rawValue)'")
        }
        return HoldSpec(seconds: hold.seconds, conditions: conditions)
    }

    private static func motion(
        _ motion: File.Motion,
        _ problem: SchemaDecoding.Problem
    ) throws(CoachKitError) -> Motion {
        let segment = motion.segment.value
        if let reach = motion.reach, !(reach > 0 && reach <= 180) {
            throw problem(
                "motion.reach",
                "must be the degrees the segment turns in a repetition, more than 0 and at most 180 (got \(reach))"
            )
        }
        if motion.hinge != nil, segment != .thigh, segment != .upperArm {
            throw problem(
                "motion.hinge",
                "is only judged for a thigh (the knee) or upper-arm movement (the elbow), but the segment is "
                    + "\(segment.rawValue): remove it"
            )
        }
        return Motion(
            segment: segment,
            direction: motion.direction.value,
            also: (motion.also ?? []).map(\.value),
            hips: motion.hips?.value ?? .still,
            reach: motion.reach,
            hinge: motion.hinge?.value,
            hands: motion.hands?.value
        )
    }
}

public import PoseKit

extension ExerciseDefinition {
    /// Reads and validates a definition from its JSON text.
    ///
    /// - Parameter file: The file name used in error messages.
    /// - Throws: ``CoachKitError`` `.invalidDefinition` naming the file and the field that is wrong.
    public init(jsonText: String, file: String) throws(CoachKitError) {
        try self.init(json: try FieldReader.parse(jsonText, file: file), file: file)
    }

    /// Reads and validates a definition from parsed JSON.
    public init(json: JSONValue, file: String) throws(CoachKitError) {
        var reader = FieldReader(file: file)
        guard let object = json.objectValue else {
            throw reader.fail("", "the file must hold one JSON object with an exercise definition (see SCHEMA.md)")
        }
        let id = try reader.string(object, "id")
        reader.context = "exercise '\(id)': "
        guard !id.isEmpty, id.allSatisfy({ ($0.isLetter && $0.isLowercase) || $0.isNumber || $0 == "-" }) else {
            throw reader.fail("id", "must be lower-case letters, digits and '-' (got '\(id)')")
        }
        let name = try reader.string(object, "name")
        let summary = try reader.optionalString(object, "summary") ?? ""
        let view: CameraView = try reader.enumeration(object, "view")
        let posture: Posture = try reader.enumeration(object, "posture", default: .any)
        let side: SideMode = try reader.enumeration(object, "side")
        let kind = try reader.string(object, "kind")
        guard kind == "reps" || kind == "hold" else {
            throw reader.fail("kind", "must be \"reps\" or \"hold\" (got \"\(kind)\")")
        }
        guard let anglesJSON = object["angles"]?.arrayValue, !anglesJSON.isEmpty else {
            throw reader.fail(
                "angles",
                "must be a non-empty array of angle names (\(AngleKind.allCases.map(\.rawValue).prefix(5).joined(separator: ", ")), …)"
            )
        }
        var angles: [AngleKind] = []
        for (index, value) in anglesJSON.enumerated() {
            angles.append(try reader.angle(value, "angles[\(index)]"))
        }
        let primary = try reader.angle(object["primary"], "primary")
        guard angles.first == primary else {
            throw reader.fail("primary", "'\(primary.rawValue)' must be listed first in \"angles\"")
        }

        var repetition: RepetitionSpec?
        var hold: HoldSpec?
        if kind == "reps" {
            guard let rep = object["repetition"]?.objectValue else {
                throw reader.fail(
                    "repetition",
                    "is required for kind \"reps\": {\"start\": …, \"peak\": …, \"towardPeak\": …}"
                )
            }
            let start = try reader.number(rep, "repetition.start", key: "start")
            let peak = try reader.number(rep, "repetition.peak", key: "peak")
            guard abs(peak - start) > 1e-9 else {
                throw reader.fail("repetition.peak", "must differ from repetition.start (both \(start))")
            }
            let towardPeak: Contraction = try reader.enumeration(rep, "towardPeak", path: "repetition.towardPeak")
            let minimumRange =
                try reader.optionalNumber(rep, "minimumRange", path: "repetition.minimumRange") ?? abs(peak - start)
                * 0.3
            guard minimumRange > 0, minimumRange <= abs(peak - start) else {
                throw reader.fail(
                    "repetition.minimumRange",
                    "must be above 0 and at most |peak − start| = \(abs(peak - start)) (got \(minimumRange))"
                )
            }
            let minimumSeconds =
                try reader.optionalNumber(rep, "minimumSeconds", path: "repetition.minimumSeconds") ?? 0.5
            let maximumSeconds =
                try reader.optionalNumber(rep, "maximumSeconds", path: "repetition.maximumSeconds") ?? 20
            guard minimumSeconds >= 0, maximumSeconds > minimumSeconds else {
                throw reader.fail(
                    "repetition.maximumSeconds",
                    "must be above minimumSeconds (\(minimumSeconds)) (got \(maximumSeconds))"
                )
            }
            let holdSeconds = try reader.optionalNumber(rep, "holdSeconds", path: "repetition.holdSeconds")
            let spec = RepetitionSpec(
                start: start,
                peak: peak,
                towardPeak: towardPeak,
                minimumRange: minimumRange,
                minimumSeconds: minimumSeconds,
                maximumSeconds: maximumSeconds,
                holdSeconds: holdSeconds
            )
            if let holdSeconds, !spec.acceptsHold(holdSeconds) {
                throw reader.fail(
                    "repetition.holdSeconds",
                    "must be above 0 and below maximumSeconds (\(maximumSeconds)) (got \(holdSeconds))"
                )
            }
            repetition = spec
        } else {
            guard let holdObject = object["hold"]?.objectValue else {
                throw reader.fail("hold", "is required for kind \"hold\": {\"seconds\": …, \"conditions\": […]}")
            }
            let seconds = try reader.number(holdObject, "hold.seconds", key: "seconds")
            guard seconds > 0 else { throw reader.fail("hold.seconds", "must be positive (got \(seconds))") }
            guard let conditionsJSON = holdObject["conditions"]?.arrayValue, !conditionsJSON.isEmpty else {
                throw reader.fail(
                    "hold.conditions",
                    "must be a non-empty array of {\"angle\", \"min\", \"max\", \"cue\"}"
                )
            }
            var conditions: [HoldCondition] = []
            for (index, value) in conditionsJSON.enumerated() {
                let path = "hold.conditions[\(index)]"
                guard let c = value.objectValue else { throw reader.fail(path, "must be an object") }
                let angle = try reader.angle(c["angle"], path + ".angle")
                let min = try reader.number(c, path + ".min", key: "min")
                let max = try reader.number(c, path + ".max", key: "max")
                guard min < max else { throw reader.fail(path + ".max", "must be above min (\(min)) (got \(max))") }
                let cue = try reader.string(c, "cue", path: path + ".cue")
                conditions.append(HoldCondition(angle: angle, min: min, max: max, cue: cue))
            }
            guard conditions[0].angle == primary else {
                throw reader.fail("hold.conditions[0].angle", "must be the primary angle '\(primary.rawValue)'")
            }
            hold = HoldSpec(seconds: seconds, conditions: conditions)
        }

        var target: TargetRange?
        if let t = object["target"] {
            guard let t = t.objectValue else {
                throw reader.fail("target", "must be an object {\"min\": …, \"max\": …}")
            }
            let min = try reader.number(t, "target.min", key: "min")
            let max = try reader.number(t, "target.max", key: "max")
            guard min <= max else {
                throw reader.fail("target.max", "must be at least target.min (\(min)) (got \(max))")
            }
            target = TargetRange(min: min, max: max)
        } else if kind == "reps" {
            throw reader.fail(
                "target",
                "is required for kind \"reps\": the range the primary angle should reach at the peak"
            )
        }

        var rules: [FormRule] = []
        for (index, value) in (try reader.optionalArray(object, "formRules")).enumerated() {
            let path = "formRules[\(index)]"
            guard let r = value.objectValue else { throw reader.fail(path, "must be an object") }
            let ruleID = try reader.string(r, "id", path: path + ".id")
            let angle = try reader.angle(r["angle"], path + ".angle")
            guard angles.contains(angle) else {
                throw reader.fail(path + ".angle", "'\(angle.rawValue)' must also be listed in \"angles\"")
            }
            let at: RuleTiming = try reader.enumeration(r, "at", path: path + ".at")
            let min = try reader.optionalNumber(r, "min", path: path + ".min")
            let max = try reader.optionalNumber(r, "max", path: path + ".max")
            guard min != nil || max != nil else { throw reader.fail(path, "needs \"min\", \"max\" or both") }
            if let min, let max, min >= max {
                throw reader.fail(path + ".max", "must be above min (\(min)) (got \(max))")
            }
            let cue = try reader.string(r, "cue", path: path + ".cue")
            let priority = Int(try reader.optionalNumber(r, "priority", path: path + ".priority") ?? 2)
            guard priority >= 1 else { throw reader.fail(path + ".priority", "must be 1 or more (1 = most important)") }
            let ruleView: CameraView = try reader.enumeration(r, "view", default: .any, path: path + ".view")
            rules.append(
                FormRule(
                    id: ruleID,
                    angle: angle,
                    at: at,
                    min: min,
                    max: max,
                    cue: cue,
                    priority: priority,
                    view: ruleView
                )
            )
        }

        var limits: [SafetyLimit] = []
        for (index, value) in (try reader.optionalArray(object, "safety")).enumerated() {
            let path = "safety[\(index)]"
            guard let s = value.objectValue else { throw reader.fail(path, "must be an object") }
            let angle = try reader.angle(s["angle"], path + ".angle")
            guard angles.contains(angle) else {
                throw reader.fail(path + ".angle", "'\(angle.rawValue)' must also be listed in \"angles\"")
            }
            let min = try reader.optionalNumber(s, "min", path: path + ".min")
            let max = try reader.optionalNumber(s, "max", path: path + ".max")
            guard min != nil || max != nil else { throw reader.fail(path, "needs \"min\", \"max\" or both") }
            let warning = try reader.string(s, "warning", path: path + ".warning")
            limits.append(SafetyLimit(angle: angle, min: min, max: max, warning: warning))
        }

        let asymmetry = try reader.optionalNumber(object, "maximumAsymmetry", path: "maximumAsymmetry")
        if asymmetry != nil, side != .both {
            throw reader.fail(
                "maximumAsymmetry",
                "only applies to exercises with \"side\": \"both\" (this one is \"\(side.rawValue)\")"
            )
        }
        let praise = try reader.optionalString(object, "praise") ?? (kind == "hold" ? "Well held!" : "Good rep!")

        let motion = try reader.motion(object["motion"], primary: primary)

        let known: Set<String> = [
            "id", "name", "summary", "view", "posture", "side", "kind", "angles", "primary", "repetition", "hold",
            "target", "formRules", "safety", "maximumAsymmetry", "praise", "motion",
        ]
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw reader.fail(
                unknown,
                "is not a field of the schema (known: \(known.sorted().joined(separator: ", ")))"
            )
        }

        self.init(
            id: id,
            name: name,
            summary: summary,
            view: view,
            posture: posture,
            side: side,
            angles: angles,
            primaryAngle: primary,
            repetition: repetition,
            hold: hold,
            target: target,
            formRules: rules,
            safetyLimits: limits,
            maximumAsymmetry: asymmetry,
            praise: praise,
            motion: motion
        )
    }
}

/// Reads typed fields and builds the error messages (file, exercise, field path).
struct FieldReader {
    let file: String
    var context = ""

    /// Parses a definition file's text.
    ///
    /// - Throws: ``CoachKitError`` `.invalidDefinition` for text that is not JSON.
    static func parse(_ text: String, file: String) throws(CoachKitError) -> JSONValue {
        do {
            return try JSONValue.parse(text)
        } catch {
            throw CoachKitError(.invalidDefinition, "not valid JSON (\(error))", file: file, cause: error)
        }
    }

    func fail(_ field: String, _ message: String) -> CoachKitError {
        let prefix = field.isEmpty ? context : "\(context)field \"\(field)\" "
        return CoachKitError(.invalidDefinition, prefix + message, file: file)
    }

    func string(_ object: [String: JSONValue], _ key: String, path: String? = nil) throws(CoachKitError) -> String {
        guard let value = object[key] else { throw fail(path ?? key, "is missing") }
        guard let s = value.stringValue, !s.isEmpty else {
            throw fail(path ?? key, "must be a non-empty string (got \(value.jsonText))")
        }
        return s
    }

    func optionalString(_ object: [String: JSONValue], _ key: String) throws(CoachKitError) -> String? {
        guard let value = object[key] else { return nil }
        guard let s = value.stringValue else { throw fail(key, "must be a string (got \(value.jsonText))") }
        return s
    }

    func number(_ object: [String: JSONValue], _ path: String, key: String) throws(CoachKitError) -> Double {
        guard let value = object[key] else { throw fail(path, "is missing") }
        guard let n = value.doubleValue, n.isFinite else {
            throw fail(path, "must be a number (got \(value.jsonText))")
        }
        return n
    }

    func optionalNumber(_ object: [String: JSONValue], _ key: String, path: String) throws(CoachKitError) -> Double? {
        guard let value = object[key] else { return nil }
        guard let n = value.doubleValue, n.isFinite else {
            throw fail(path, "must be a number (got \(value.jsonText))")
        }
        return n
    }

    func optionalArray(_ object: [String: JSONValue], _ key: String) throws(CoachKitError) -> [JSONValue] {
        guard let value = object[key] else { return [] }
        guard let array = value.arrayValue else { throw fail(key, "must be an array (got \(value.jsonText))") }
        return array
    }

    func angle(_ value: JSONValue?, _ path: String) throws(CoachKitError) -> AngleKind {
        guard let value else { throw fail(path, "is missing") }
        guard let s = value.stringValue, let angle = AngleKind(rawValue: s) else {
            throw fail(
                path,
                "must be one of \(AngleKind.allCases.map(\.rawValue).joined(separator: ", ")) (got \(value.jsonText))"
            )
        }
        return angle
    }

    func motion(_ value: JSONValue?, primary: AngleKind) throws(CoachKitError) -> ExerciseDefinition.Motion {
        guard let value else { return .derived(primary: primary) }
        guard let object = value.objectValue else {
            throw fail(
                "motion",
                "must be an object {\"segment\", \"direction\", \"also\"?, \"hips\"?, \"reach\"?, \"hinge\"?, \"hands\"?} (got \(value.jsonText))"
            )
        }
        let segment: ExerciseDefinition.Motion.Segment = try enumeration(object, "segment", path: "motion.segment")
        let direction: ExerciseDefinition.Motion.Direction = try enumeration(
            object,
            "direction",
            path: "motion.direction"
        )
        let hips: ExerciseDefinition.Motion.Hips = try enumeration(object, "hips", default: .still, path: "motion.hips")
        var also: [ExerciseDefinition.Motion.Segment] = []
        if let list = object["also"] {
            guard let array = list.arrayValue else {
                throw fail("motion.also", "must be an array of segment names (got \(list.jsonText))")
            }
            for (index, item) in array.enumerated() {
                guard let name = item.stringValue, let s = ExerciseDefinition.Motion.Segment(rawValue: name) else {
                    throw fail(
                        "motion.also[\(index)]",
                        "must be one of \(ExerciseDefinition.Motion.Segment.allCases.map(\.rawValue).joined(separator: ", ")) (got \(item.jsonText))"
                    )
                }
                also.append(s)
            }
        }
        let reach = try optionalNumber(object, "reach", path: "motion.reach")
        if let reach, !(reach > 0 && reach <= 180) {
            throw fail(
                "motion.reach",
                "must be the degrees the segment turns in a repetition, more than 0 and at most 180 (got \(reach))"
            )
        }
        var hinge: ExerciseDefinition.Motion.Hinge?
        if object["hinge"] != nil {
            hinge = try enumeration(object, "hinge", path: "motion.hinge") as ExerciseDefinition.Motion.Hinge
            guard segment == .thigh || segment == .upperArm else {
                throw fail(
                    "motion.hinge",
                    "is only judged for a thigh (the knee) or upper-arm movement (the elbow), but the segment is "
                        + "\(segment.rawValue): remove it"
                )
            }
        }
        var hands: ExerciseDefinition.Motion.Hands?
        if object["hands"] != nil {
            hands = try enumeration(object, "hands", path: "motion.hands") as ExerciseDefinition.Motion.Hands
        }
        if let unknown = object.keys.sorted().first(where: {
            !["segment", "direction", "also", "hips", "reach", "hinge", "hands"].contains($0)
        }) {
            throw fail(
                "motion.\(unknown)",
                "is not a field of the motion block (known: also, direction, hands, hinge, hips, reach, segment)"
            )
        }
        return .init(
            segment: segment,
            direction: direction,
            also: also,
            hips: hips,
            reach: reach,
            hinge: hinge,
            hands: hands
        )
    }

    func enumeration<E: RawRepresentable & CaseIterable>(
        _ object: [String: JSONValue],
        _ key: String,
        default defaultValue: E? = nil,
        path: String? = nil
    ) throws(CoachKitError) -> E where E.RawValue == String {
        guard let value = object[key] else {
            if let defaultValue { return defaultValue }
            throw fail(path ?? key, "is missing (one of \(E.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        guard let s = value.stringValue, let e = E(rawValue: s) else {
            throw fail(
                path ?? key,
                "must be one of \(E.allCases.map(\.rawValue).joined(separator: ", ")) (got \(value.jsonText))"
            )
        }
        return e
    }
}

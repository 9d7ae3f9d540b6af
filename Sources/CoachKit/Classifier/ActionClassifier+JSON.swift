import PoseKit

extension ActionClassifier {
    /// The model file's `format` value.
    public static let modelFormat = "ptcoach-action-classifier"
    /// The model file version this code writes and reads. Version 2 added `method` (logistic regression,
    /// form logistic regression or DTW nearest neighbour), the nearest-neighbour `trajectory` block,
    /// `features.formVersion` and the `selection` record. A `vote` model keeps its three members under
    /// `members` (`logistic`, `form-logistic`, `nearest-neighbor`), each laid out like a model of that
    /// method alone. Version 3 added the rule models (`rule-logistic`, `rule-verdict`, and `rule-vote`,
    /// whose members are the vote's three and `rule-verdict`) and the `rules` block (the exercise id and its form rules, so that `predict` measures what `train` did even if
    /// the library changes); version 2 files are still read.
    public static let modelVersion = 3
    /// The model file versions this code reads.
    public static let readableModelVersions: ClosedRange<Int> = 2...3

    /// The model as one JSON document (keys sorted, numbers in shortest round-trip form, so the same
    /// model always gives the same text).
    public var jsonText: String {
        func numbers(_ values: [Double]) -> JSONValue { .array(values.map(JSONValue.number)) }
        var object: [String: JSONValue] = [
            "format": .string(Self.modelFormat),
            "version": .number(Double(Self.modelVersion)),
            "method": .string(model.method.rawValue),
            "labels": .array(labels.map(JSONValue.string)),
            "features": .object([
                "version": .number(Double(SequenceFeatureSpec.currentVersion)),
                "joints": .array(spec.joints.map { .string($0.name) }),
                "origin": .string(spec.origin.name),
                "scale": .string(spec.scale.rawValue),
                "timeBins": .number(Double(spec.timeBins)),
                "count": .number(Double(spec.featureCount)),
                "formVersion": .number(Double(SequenceFeatureSpec.formVersion)),
                "formCount": .number(Double(spec.formFeatureCount)),
            ]),
            "training": .object([
                "method": .string(configuration.method.rawValue),
                "regularization": .number(configuration.regularization),
                "maximumIterations": .number(Double(configuration.maximumIterations)),
                "trajectoryLength": .number(Double(configuration.trajectoryLength)),
                "warpingRadius": .number(Double(configuration.warpingRadius)),
                "selectionMargin": .number(configuration.selectionMargin),
            ]),
        ]
        if let rules = configuration.rules {
            object["rules"] = Self.rulesBlock(rules)
        }
        if let selection {
            var record: [String: JSONValue] = [
                "chosen": .string(selection.chosen.rawValue),
                "protocol": .string(selection.protocolName),
                "logisticCorrect": .number(Double(selection.logisticCorrect)),
                "formLogisticCorrect": .number(Double(selection.formLogisticCorrect)),
                "nearestNeighborCorrect": .number(Double(selection.nearestNeighborCorrect)),
                "voteCorrect": .number(Double(selection.voteCorrect)),
                "total": .number(Double(selection.total)),
            ]
            if let correct = selection.ruleLogisticCorrect { record["ruleLogisticCorrect"] = .number(Double(correct)) }
            if let correct = selection.ruleVerdictCorrect { record["ruleVerdictCorrect"] = .number(Double(correct)) }
            if let correct = selection.ruleVoteCorrect { record["ruleVoteCorrect"] = .number(Double(correct)) }
            object["selection"] = .object(record)
        }
        func regressionBlock(_ regression: LogisticRegression) -> [String: JSONValue] { regression.jsonBlock }
        func neighborsBlock(_ neighbors: TrajectoryNearestNeighbor) -> [String: JSONValue] {
            [
                "trajectory": .object([
                    "version": .number(Double(SequenceFeatureSpec.trajectoryVersion)),
                    "length": .number(Double(neighbors.length)),
                    "radius": .number(Double(neighbors.radius)),
                    "channels": .number(Double(neighbors.channelCount)),
                    "mean": numbers(neighbors.means),
                    "std": numbers(neighbors.scales),
                    "templates": .array(neighbors.templates.map(numbers)),
                    "classes": .array(neighbors.templateClasses.map { .number(Double($0)) }),
                ])
            ]
        }
        func verdictBlock(_ verdict: RuleVerdict) -> [String: JSONValue] {
            ["verdict": .object(["counts": .array(verdict.counts.map { .array($0.map { .number(Double($0)) }) })])]
        }
        switch model {
        case .logistic(let regression), .formLogistic(let regression), .ruleLogistic(let regression):
            object.merge(regressionBlock(regression)) { $1 }
        case .ruleVerdict(let verdict):
            object.merge(verdictBlock(verdict)) { $1 }
        case .ruleVote(let logistic, let form, let neighbors, let verdict):
            object["members"] = .object([
                Configuration.Method.logistic.rawValue: .object(regressionBlock(logistic)),
                Configuration.Method.formLogistic.rawValue: .object(regressionBlock(form)),
                Configuration.Method.nearestNeighbor.rawValue: .object(neighborsBlock(neighbors)),
                Configuration.Method.ruleVerdict.rawValue: .object(verdictBlock(verdict)),
            ])
        case .nearestNeighbor(let neighbors):
            object.merge(neighborsBlock(neighbors)) { $1 }
        case .vote(let logistic, let form, let neighbors):
            object["members"] = .object([
                Configuration.Method.logistic.rawValue: .object(regressionBlock(logistic)),
                Configuration.Method.formLogistic.rawValue: .object(regressionBlock(form)),
                Configuration.Method.nearestNeighbor.rawValue: .object(neighborsBlock(neighbors)),
            ])
        }
        return JSONValue.object(object).jsonText
    }

    /// Reads a model written by ``jsonText``.
    ///
    /// - Parameter source: a name for messages (the model file's path).
    /// - Throws: ``CoachKitError`` (`.malformedModel`) saying what is wrong and what to do.
    public init(jsonText: String, source: String = "model") throws(CoachKitError) {
        func fail(_ message: String) -> CoachKitError {
            CoachKitError(.malformedModel, "\(source): \(message)")
        }
        let json: JSONValue
        do {
            json = try JSONValue.parse(jsonText)
        } catch {
            throw fail("not a classifier model (not JSON: \(error)); give a file written by `ptcoach train --out`")
        }
        guard let object = json.objectValue, object["format"]?.stringValue == Self.modelFormat else {
            throw fail(
                "not a classifier model (no \"format\": \"\(Self.modelFormat)\"); give a file written by `ptcoach train --out`"
            )
        }
        guard let version = object["version"]?.intValue, Self.readableModelVersions.contains(version) else {
            throw fail(
                "model version \(object["version"]?.jsonText ?? "missing") is not supported (this ptcoach reads "
                    + "versions \(Self.readableModelVersions.lowerBound)–\(Self.readableModelVersions.upperBound)); "
                    + "retrain it with this ptcoach: `ptcoach train --manifest M.csv --out MODEL.json`"
            )
        }
        func numbers(_ value: JSONValue?, _ name: String) throws(CoachKitError) -> [Double] {
            do {
                return try LogisticRegression.finiteNumbers(value, name)
            } catch {
                throw fail(error.message)
            }
        }
        guard let labelValues = object["labels"]?.arrayValue, labelValues.count >= 2 else {
            throw fail("\"labels\" must list at least two labels")
        }
        let labels = labelValues.compactMap(\.stringValue)
        guard labels.count == labelValues.count else { throw fail("\"labels\" must hold strings") }
        guard let methodName = object["method"]?.stringValue,
            let method = Configuration.Method(rawValue: methodName), method != .automatic
        else {
            throw fail(
                "\"method\" is \(object["method"]?.jsonText ?? "missing"); it must be \"logistic\", "
                    + "\"form-logistic\", \"nearest-neighbor\", \"vote\", \"rule-logistic\", \"rule-verdict\" or \"rule-vote\""
            )
        }
        guard let features = object["features"]?.objectValue else { throw fail("\"features\" is missing") }
        guard features["version"]?.intValue == SequenceFeatureSpec.currentVersion else {
            throw fail(
                "feature version \(features["version"]?.jsonText ?? "missing") is not supported (this ptcoach "
                    + "computes version \(SequenceFeatureSpec.currentVersion)); retrain the model with this ptcoach"
            )
        }
        var joints: [Joint] = []
        for name in features["joints"]?.arrayValue ?? [] {
            guard let joint = name.stringValue.flatMap(Joint.init(name:)), PoseSequence.trackedIndex(of: joint) != nil
            else { throw fail("\"features.joints\" holds \(name.jsonText), which is not a joint the classifier uses") }
            joints.append(joint)
        }
        guard let originName = features["origin"]?.stringValue, let origin = Joint(name: originName),
            PoseSequence.trackedIndex(of: origin) != nil
        else { throw fail("\"features.origin\" must be a joint name such as \"root\"") }
        guard let scaleName = features["scale"]?.stringValue,
            let scale = SequenceFeatureSpec.ScaleReference(rawValue: scaleName)
        else { throw fail("\"features.scale\" must be \"torso\" or \"shoulders\"") }
        guard let timeBins = features["timeBins"]?.intValue, (1...1000).contains(timeBins) else {
            throw fail("\"features.timeBins\" must be an integer from 1 to 1000")
        }
        let spec = SequenceFeatureSpec(joints: joints, origin: origin, scale: scale, timeBins: timeBins)
        var rules: RuleFeatureSpec? = nil
        if let block = object["rules"] {
            do {
                rules = try Self.rules(from: block)
            } catch {
                throw fail(error.message)
            }
        }
        if [.ruleLogistic, .ruleVerdict, .ruleVote].contains(method), rules == nil {
            throw fail("a \(method.rawValue) model needs the \"rules\" block; retrain it with this ptcoach")
        }
        let training = object["training"]?.objectValue ?? [:]
        func neighbors(in container: [String: JSONValue]) throws(CoachKitError) -> TrajectoryNearestNeighbor {
            guard let block = container["trajectory"]?.objectValue else { throw fail("\"trajectory\" is missing") }
            guard block["version"]?.intValue == SequenceFeatureSpec.trajectoryVersion else {
                throw fail(
                    "trajectory version \(block["version"]?.jsonText ?? "missing") is not supported (this ptcoach "
                        + "computes version \(SequenceFeatureSpec.trajectoryVersion)); retrain the model with this ptcoach"
                )
            }
            guard let length = block["length"]?.intValue, (2...4096).contains(length) else {
                throw fail("\"trajectory.length\" must be an integer from 2 to 4096")
            }
            guard let radius = block["radius"]?.intValue, radius >= 0 else {
                throw fail("\"trajectory.radius\" must be a non-negative integer")
            }
            let channels = spec.trajectoryChannelCount
            let means = try numbers(block["mean"], "trajectory.mean")
            let scales = try numbers(block["std"], "trajectory.std")
            guard means.count == channels, scales.count == channels else {
                throw fail(
                    "the trajectory has \(means.count) means and \(scales.count) stds; the joints give \(channels) channels"
                )
            }
            guard scales.allSatisfy({ $0 > 0 }) else { throw fail("\"trajectory.std\" must be positive") }
            guard let templateRows = block["templates"]?.arrayValue, !templateRows.isEmpty else {
                throw fail("\"trajectory.templates\" must list the training trajectories")
            }
            var templates: [[Double]] = []
            for (i, row) in templateRows.enumerated() {
                let values = try numbers(row, "trajectory.templates[\(i)]")
                guard values.count == length * channels else {
                    throw fail(
                        "\"trajectory.templates[\(i)]\" has \(values.count) numbers; expected \(length * channels)"
                    )
                }
                templates.append(values)
            }
            let classValues = try numbers(block["classes"], "trajectory.classes")
            let classes = classValues.compactMap { Int(exactly: $0) }
            guard classes.count == classValues.count, classes.count == templates.count,
                classes.allSatisfy({ labels.indices.contains($0) })
            else {
                throw fail("\"trajectory.classes\" must give one label index (0..<\(labels.count)) per template")
            }
            return TrajectoryNearestNeighbor(
                length: length,
                radius: radius,
                means: means,
                scales: scales,
                templates: templates,
                templateClasses: classes,
                classCount: labels.count
            )
        }
        func regression(
            _ method: Configuration.Method,
            in container: [String: JSONValue]
        ) throws(CoachKitError) -> LogisticRegression {
            if method == .formLogistic, features["formVersion"]?.intValue != SequenceFeatureSpec.formVersion {
                throw fail(
                    "form feature version \(features["formVersion"]?.jsonText ?? "missing") is not supported (this "
                        + "ptcoach computes version \(SequenceFeatureSpec.formVersion)); retrain the model with this ptcoach"
                )
            }
            let d =
                switch method {
                case .formLogistic: spec.formFeatureCount
                case .ruleLogistic: rules?.featureCount ?? 0
                default: spec.featureCount
                }
            do {
                return try LogisticRegression(jsonBlock: container, featureCount: d, classCount: labels.count)
            } catch {
                throw fail(error.message)
            }
        }
        func member(_ method: Configuration.Method) throws(CoachKitError) -> [String: JSONValue] {
            guard let block = object["members"]?.objectValue?[method.rawValue]?.objectValue else {
                throw fail(
                    "\"members.\(method.rawValue)\" is missing; a vote model needs all \(method == .ruleVote ? "four" : "three") members"
                )
            }
            return block
        }
        func verdict(in container: [String: JSONValue], rules: RuleFeatureSpec) throws(CoachKitError) -> RuleVerdict {
            guard let rows = container["verdict"]?.objectValue?["counts"]?.arrayValue, rows.count == labels.count else {
                throw fail("\"verdict.counts\" must have one row per label (\(labels.count))")
            }
            var counts: [[Int]] = []
            for (k, row) in rows.enumerated() {
                let values = try numbers(row, "verdict.counts[\(k)]")
                let integers = values.compactMap { Int(exactly: $0) }
                guard integers.count == 2, values.count == 2, integers.allSatisfy({ $0 >= 0 }) else {
                    throw fail("\"verdict.counts[\(k)]\" must be two non-negative integers (rules kept, broken)")
                }
                counts.append(integers)
            }
            return RuleVerdict(counts: counts, rules: rules)
        }
        let model: Model =
            switch method {
            case .nearestNeighbor: .nearestNeighbor(try neighbors(in: object))
            case .formLogistic: .formLogistic(try regression(.formLogistic, in: object))
            case .vote:
                .vote(
                    logistic: try regression(.logistic, in: try member(.logistic)),
                    form: try regression(.formLogistic, in: try member(.formLogistic)),
                    neighbors: try neighbors(in: try member(.nearestNeighbor))
                )
            case .ruleLogistic: .ruleLogistic(try regression(.ruleLogistic, in: object))
            case .ruleVerdict: .ruleVerdict(try verdict(in: object, rules: rules!))
            case .ruleVote:
                .ruleVote(
                    logistic: try regression(.logistic, in: try member(.logistic)),
                    form: try regression(.formLogistic, in: try member(.formLogistic)),
                    neighbors: try neighbors(in: try member(.nearestNeighbor)),
                    verdict: try verdict(in: try member(.ruleVerdict), rules: rules!)
                )
            case .logistic, .automatic: .logistic(try regression(.logistic, in: object))
            }
        let defaults = Configuration()
        let configuration = Configuration(
            regularization: max(1e-12, training["regularization"]?.doubleValue ?? defaults.regularization),
            maximumIterations: max(1, training["maximumIterations"]?.intValue ?? defaults.maximumIterations),
            timeBins: timeBins,
            method: training["method"]?.stringValue.flatMap(Configuration.Method.init(rawValue:)) ?? method,
            trajectoryLength: max(2, training["trajectoryLength"]?.intValue ?? defaults.trajectoryLength),
            warpingRadius: max(0, training["warpingRadius"]?.intValue ?? defaults.warpingRadius),
            selectionMargin: max(0, training["selectionMargin"]?.doubleValue ?? defaults.selectionMargin),
            rules: rules
        )
        var selection: ModelSelection.Outcome? = nil
        if let record = object["selection"]?.objectValue,
            let chosen = record["chosen"]?.stringValue.flatMap(Configuration.Method.init(rawValue:)),
            let logistic = record["logisticCorrect"]?.intValue,
            let form = record["formLogisticCorrect"]?.intValue,
            let neighbor = record["nearestNeighborCorrect"]?.intValue,
            let total = record["total"]?.intValue
        {
            selection = ModelSelection.Outcome(
                chosen: chosen,
                logisticCorrect: logistic,
                formLogisticCorrect: form,
                nearestNeighborCorrect: neighbor,
                voteCorrect: record["voteCorrect"]?.intValue ?? 0,
                total: total,
                protocolName: record["protocol"]?.stringValue ?? "",
                ruleLogisticCorrect: record["ruleLogisticCorrect"]?.intValue,
                ruleVerdictCorrect: record["ruleVerdictCorrect"]?.intValue,
                ruleVoteCorrect: record["ruleVoteCorrect"]?.intValue
            )
        }
        self.init(labels: labels, spec: spec, model: model, configuration: configuration, selection: selection)
    }
}

// MARK: - Rules block

extension ActionClassifier {
    /// The `rules` block of a model file: what ``RuleFeatureSpec`` needs to measure the same features.
    static func rulesBlock(_ rules: RuleFeatureSpec) -> JSONValue {
        .object([
            "version": .number(Double(RuleFeatureSpec.currentVersion)),
            "exercise": .string(rules.exerciseID),
            "primary": .string(rules.primaryAngle.rawValue),
            "direction": .number(rules.direction),
            "side": .string(rules.side.rawValue),
            "count": .number(Double(rules.featureCount)),
            "formRules": .array(
                rules.rules.map { rule in
                    var object: [String: JSONValue] = [
                        "id": .string(rule.id),
                        "angle": .string(rule.angle.rawValue),
                        "at": .string(rule.at.rawValue),
                        "cue": .string(rule.cue),
                        "priority": .number(Double(rule.priority)),
                        "view": .string(rule.view.rawValue),
                    ]
                    if let min = rule.min { object["min"] = .number(min) }
                    if let max = rule.max { object["max"] = .number(max) }
                    return .object(object)
                }
            ),
        ])
    }

    /// Reads a `rules` block written by ``rulesBlock(_:)``.
    static func rules(from block: JSONValue) throws(CoachKitError) -> RuleFeatureSpec {
        func fail(_ message: String) -> CoachKitError { CoachKitError(.malformedModel, message) }
        guard let object = block.objectValue else { throw fail("\"rules\" must be an object") }
        guard object["version"]?.intValue == RuleFeatureSpec.currentVersion else {
            throw fail(
                "rule feature version \(object["version"]?.jsonText ?? "missing") is not supported (this ptcoach "
                    + "computes version \(RuleFeatureSpec.currentVersion)); retrain the model with this ptcoach"
            )
        }
        guard let exercise = object["exercise"]?.stringValue, !exercise.isEmpty else {
            throw fail("\"rules.exercise\" must name the exercise (its library id)")
        }
        guard let primary = object["primary"]?.stringValue.flatMap(AngleKind.init(rawValue:)) else {
            throw fail("\"rules.primary\" must be an angle kind such as \"elbowFlexion\"")
        }
        guard let direction = object["direction"]?.doubleValue, direction == 1 || direction == -1 else {
            throw fail("\"rules.direction\" must be 1 or -1")
        }
        guard let side = object["side"]?.stringValue.flatMap(ExerciseDefinition.SideMode.init(rawValue:)) else {
            throw fail("\"rules.side\" must be \"left\", \"right\", \"both\" or \"either\"")
        }
        guard let list = object["formRules"]?.arrayValue, !list.isEmpty else {
            throw fail("\"rules.formRules\" must list the exercise's form rules")
        }
        var formRules: [ExerciseDefinition.FormRule] = []
        for (i, item) in list.enumerated() {
            guard let rule = item.objectValue, let id = rule["id"]?.stringValue,
                let angle = rule["angle"]?.stringValue.flatMap(AngleKind.init(rawValue:)),
                let at = rule["at"]?.stringValue.flatMap(ExerciseDefinition.RuleTiming.init(rawValue:))
            else {
                throw fail(
                    "\"rules.formRules[\(i)]\" needs an \"id\", an \"angle\" kind and \"at\" (peak or throughout)"
                )
            }
            let min = rule["min"]?.doubleValue
            let max = rule["max"]?.doubleValue
            guard min != nil || max != nil else { throw fail("\"rules.formRules[\(i)]\" (\(id)) has no min or max") }
            formRules.append(
                ExerciseDefinition.FormRule(
                    id: id,
                    angle: angle,
                    at: at,
                    min: min,
                    max: max,
                    cue: rule["cue"]?.stringValue ?? "",
                    priority: rule["priority"]?.intValue ?? 1,
                    view: rule["view"]?.stringValue.flatMap(ExerciseDefinition.CameraView.init(rawValue:)) ?? .any
                )
            )
        }
        return RuleFeatureSpec(
            exerciseID: exercise,
            primaryAngle: primary,
            direction: direction,
            side: side,
            rules: formRules
        )
    }
}

import PoseKit

// MARK: - The file

extension ActionClassifier {
    /// A model file: the ``Header`` and, for a model of one method, its ``Block`` beside it at the top level (a vote
    /// keeps one block per member under `members`).
    struct File: Codable {
        var header: Header
        var block: Block

        init(header: Header, block: Block) {
            self.header = header
            self.block = block
        }

        init(from decoder: any Decoder) throws {
            header = try Header(from: decoder)
            block = try Block(from: decoder)
        }

        func encode(to encoder: any Encoder) throws {
            try header.encode(to: encoder)
            try block.encode(to: encoder)
        }

        /// The file of `classifier`.
        init(_ classifier: ActionClassifier) {
            let spec = classifier.spec
            let configuration = classifier.configuration
            var header = Header(
                format: ActionClassifier.modelFormat,
                version: ActionClassifier.modelVersion,
                method: classifier.model.method.rawValue,
                labels: classifier.labels,
                features: Features(
                    version: SequenceFeatureSpec.currentVersion,
                    joints: spec.joints.map(\.name),
                    origin: spec.origin.name,
                    scale: spec.scale.rawValue,
                    timeBins: spec.timeBins,
                    count: spec.featureCount,
                    formVersion: SequenceFeatureSpec.formVersion,
                    formCount: spec.formFeatureCount
                ),
                training: Training(
                    method: configuration.method.rawValue,
                    regularization: configuration.regularization,
                    maximumIterations: configuration.maximumIterations,
                    trajectoryLength: configuration.trajectoryLength,
                    warpingRadius: configuration.warpingRadius,
                    selectionMargin: configuration.selectionMargin
                ),
                rules: configuration.rules.map(Rules.init),
                selection: classifier.selection.map(Selection.init)
            )
            var block = Block()
            switch classifier.model {
            case .logistic(let regression), .formLogistic(let regression), .ruleLogistic(let regression):
                block = Block(regression)
            case .ruleVerdict(let verdict):
                block = Block(verdict)
            case .nearestNeighbor(let neighbors):
                block = Block(neighbors)
            case .vote(let logistic, let form, let neighbors):
                header.members = [
                    Configuration.Method.logistic.rawValue: Block(logistic),
                    Configuration.Method.formLogistic.rawValue: Block(form),
                    Configuration.Method.nearestNeighbor.rawValue: Block(neighbors),
                ]
            case .ruleVote(let logistic, let form, let neighbors, let verdict):
                header.members = [
                    Configuration.Method.logistic.rawValue: Block(logistic),
                    Configuration.Method.formLogistic.rawValue: Block(form),
                    Configuration.Method.nearestNeighbor.rawValue: Block(neighbors),
                    Configuration.Method.ruleVerdict.rawValue: Block(verdict),
                ]
            }
            self.init(header: header, block: block)
        }
    }

    /// What every model file has, whatever its method. Fields are optional so that a missing one gets its own
    /// message (or, in `training` and `selection`, its default).
    struct Header: Codable {
        var format: String?
        var version: Int?
        var method: String?
        var labels: [String]?
        var features: Features?
        var training: Training?
        var rules: Rules?
        var selection: Selection?
        var members: [String: Block]?
    }

    /// The `features` block: how ``SequenceFeatureSpec`` measures a sequence.
    struct Features: Codable {
        var version: Int?
        var joints: [String]?
        var origin: String?
        var scale: String?
        var timeBins: Int?
        var count: Int?
        var formVersion: Int?
        var formCount: Int?

        func spec(fail: (String) -> CoachKitError) throws(CoachKitError) -> SequenceFeatureSpec {
            guard version == SequenceFeatureSpec.currentVersion else {
                throw fail(
                    "feature version \(version.map(String.init) ?? "missing") is not supported (this ptcoach "
                        + "computes version \(SequenceFeatureSpec.currentVersion)); retrain the model with this ptcoach"
                )
            }
            var joints: [Joint] = []
            for name in self.joints ?? [] {
                guard let joint = Joint(name: name), PoseSequence.trackedIndex(of: joint) != nil else {
                    throw fail(
                        "\"features.joints\" holds \(JSONFragment.quoted(name)), which is not a joint the classifier uses"
                    )
                }
                joints.append(joint)
            }
            guard let origin = origin.flatMap(Joint.init(name:)), PoseSequence.trackedIndex(of: origin) != nil else {
                throw fail("\"features.origin\" must be a joint name such as \"root\"")
            }
            guard let scale = scale.flatMap(SequenceFeatureSpec.ScaleReference.init(rawValue:)) else {
                throw fail("\"features.scale\" must be \"torso\" or \"shoulders\"")
            }
            guard let timeBins, (1...1000).contains(timeBins) else {
                throw fail("\"features.timeBins\" must be an integer from 1 to 1000")
            }
            return SequenceFeatureSpec(joints: joints, origin: origin, scale: scale, timeBins: timeBins)
        }
    }

    /// The `training` block: the settings the model was trained with (defaults where one is missing).
    struct Training: Codable {
        var method: String?
        var regularization: Double?
        var maximumIterations: Int?
        var trajectoryLength: Int?
        var warpingRadius: Int?
        var selectionMargin: Double?
    }

    /// The `selection` record: what cross-validation chose, and how each method did.
    struct Selection: Codable {
        var chosen: String?
        var `protocol`: String?
        var logisticCorrect: Int?
        var formLogisticCorrect: Int?
        var nearestNeighborCorrect: Int?
        var voteCorrect: Int?
        var total: Int?
        var ruleLogisticCorrect: Int?
        var ruleVerdictCorrect: Int?
        var ruleVoteCorrect: Int?

        init(_ outcome: ModelSelection.Outcome) {
            chosen = outcome.chosen.rawValue
            self.protocol = outcome.protocolName
            logisticCorrect = outcome.logisticCorrect
            formLogisticCorrect = outcome.formLogisticCorrect
            nearestNeighborCorrect = outcome.nearestNeighborCorrect
            voteCorrect = outcome.voteCorrect
            total = outcome.total
            ruleLogisticCorrect = outcome.ruleLogisticCorrect
            ruleVerdictCorrect = outcome.ruleVerdictCorrect
            ruleVoteCorrect = outcome.ruleVoteCorrect
        }

        /// The outcome, or `nil` when the record lacks a count it needs (it is informative only).
        var outcome: ModelSelection.Outcome? {
            guard let chosen = chosen.flatMap(Configuration.Method.init(rawValue:)), let logisticCorrect,
                let formLogisticCorrect, let nearestNeighborCorrect, let total
            else { return nil }
            return ModelSelection.Outcome(
                chosen: chosen,
                logisticCorrect: logisticCorrect,
                formLogisticCorrect: formLogisticCorrect,
                nearestNeighborCorrect: nearestNeighborCorrect,
                voteCorrect: voteCorrect ?? 0,
                total: total,
                protocolName: self.protocol ?? "",
                ruleLogisticCorrect: ruleLogisticCorrect,
                ruleVerdictCorrect: ruleVerdictCorrect,
                ruleVoteCorrect: ruleVoteCorrect
            )
        }
    }
}

// MARK: - Blocks of one method

extension ActionClassifier {
    /// The parameters of one method: a logistic regression's `standardization`, `weights` and `biases`
    /// (``LogisticRegression/Block``, at the same level), a nearest neighbour's `trajectory`, or a verdict's `counts`.
    struct Block: Codable {
        struct Trajectory: Codable {
            var version: Int?
            var length: Int?
            var radius: Int?
            var channels: Int?
            var mean: [Double]?
            var std: [Double]?
            var templates: [[Double]]?
            var classes: [Int]?
        }

        struct Verdict: Codable {
            var counts: [[Int]]?
        }

        var regression = LogisticRegression.Block()
        var trajectory: Trajectory?
        var verdict: Verdict?

        private enum CodingKeys: String, CodingKey {
            case trajectory, verdict
        }

        init() {}

        init(from decoder: any Decoder) throws {
            regression = try LogisticRegression.Block(from: decoder)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            trajectory = try container.decodeIfPresent(Trajectory.self, forKey: .trajectory)
            verdict = try container.decodeIfPresent(Verdict.self, forKey: .verdict)
        }

        func encode(to encoder: any Encoder) throws {
            try regression.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(trajectory, forKey: .trajectory)
            try container.encodeIfPresent(verdict, forKey: .verdict)
        }

        init(_ regression: LogisticRegression) {
            self.regression = LogisticRegression.Block(regression)
        }

        init(_ neighbors: TrajectoryNearestNeighbor) {
            trajectory = Trajectory(
                version: SequenceFeatureSpec.trajectoryVersion,
                length: neighbors.length,
                radius: neighbors.radius,
                channels: neighbors.channelCount,
                mean: neighbors.means,
                std: neighbors.scales,
                templates: neighbors.templates,
                classes: neighbors.templateClasses
            )
        }

        init(_ verdict: RuleVerdict) {
            self.verdict = Verdict(counts: verdict.counts)
        }

        /// Reads blocks against what the header says: the labels, the feature counts.
        struct Reader {
            /// The model file, for messages.
            let source: String
            let labels: [String]
            let spec: SequenceFeatureSpec
            let features: Features
            let rules: RuleFeatureSpec?

            func fail(_ message: String) -> CoachKitError { CoachKitError(.malformedModel, "\(source): \(message)") }

            func regression(_ method: Configuration.Method, _ block: Block) throws(CoachKitError) -> LogisticRegression
            {
                if method == .formLogistic, features.formVersion != SequenceFeatureSpec.formVersion {
                    throw fail(
                        "form feature version \(features.formVersion.map(String.init) ?? "missing") is not supported (this "
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
                    return try LogisticRegression(block.regression, featureCount: d, classCount: labels.count)
                } catch {
                    throw fail(error.message)
                }
            }

            func neighbors(_ block: Block) throws(CoachKitError) -> TrajectoryNearestNeighbor {
                guard let trajectory = block.trajectory else { throw fail("\"trajectory\" is missing") }
                guard trajectory.version == SequenceFeatureSpec.trajectoryVersion else {
                    throw fail(
                        "trajectory version \(trajectory.version.map(String.init) ?? "missing") is not supported (this "
                            + "ptcoach computes version \(SequenceFeatureSpec.trajectoryVersion)); retrain the model with this ptcoach"
                    )
                }
                guard let length = trajectory.length, (2...4096).contains(length) else {
                    throw fail("\"trajectory.length\" must be an integer from 2 to 4096")
                }
                guard let radius = trajectory.radius, radius >= 0 else {
                    throw fail("\"trajectory.radius\" must be a non-negative integer")
                }
                let channels = spec.trajectoryChannelCount
                let means = trajectory.mean ?? []
                let scales = trajectory.std ?? []
                guard means.count == channels, scales.count == channels else {
                    throw fail(
                        "the trajectory has \(means.count) means and \(scales.count) stds; the joints give \(channels) channels"
                    )
                }
                guard scales.allSatisfy({ $0 > 0 }) else { throw fail("\"trajectory.std\" must be positive") }
                guard let templates = trajectory.templates, !templates.isEmpty else {
                    throw fail("\"trajectory.templates\" must list the training trajectories")
                }
                for (i, row) in templates.enumerated() where row.count != length * channels {
                    throw fail(
                        "\"trajectory.templates[\(i)]\" has \(row.count) numbers; expected \(length * channels)"
                    )
                }
                guard let classes = trajectory.classes, classes.count == templates.count,
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

            func verdict(_ block: Block) throws(CoachKitError) -> RuleVerdict {
                guard let rows = block.verdict?.counts, rows.count == labels.count else {
                    throw fail("\"verdict.counts\" must have one row per label (\(labels.count))")
                }
                for (k, row) in rows.enumerated() where row.count != 2 || !row.allSatisfy({ $0 >= 0 }) {
                    throw fail("\"verdict.counts[\(k)]\" must be two non-negative integers (rules kept, broken)")
                }
                // A rule model's reader has checked that the file has its rules block.
                guard let rules else {
                    throw fail("a rule model needs the \"rules\" block; retrain it with this ptcoach")
                }
                return RuleVerdict(counts: rows, rules: rules)
            }
        }
    }
}

// MARK: - Rules block

extension ActionClassifier {
    /// The `rules` block of a model file: what ``RuleFeatureSpec`` needs to measure the same features.
    struct Rules: Codable {
        struct Rule: Codable {
            var id: String?
            var angle: String?
            var at: String?
            var min: Double?
            var max: Double?
            var cue: String?
            var priority: Int?
            var view: String?
        }

        var version: Int?
        var exercise: String?
        var primary: String?
        var direction: Double?
        var side: String?
        var count: Int?
        var formRules: [Rule]?

        init(_ rules: RuleFeatureSpec) {
            version = RuleFeatureSpec.currentVersion
            exercise = rules.exerciseID
            primary = rules.primaryAngle.rawValue
            direction = rules.direction
            side = rules.side.rawValue
            count = rules.featureCount
            formRules = rules.rules.map { rule in
                Rule(
                    id: rule.id,
                    angle: rule.angle.rawValue,
                    at: rule.at.rawValue,
                    min: rule.min,
                    max: rule.max,
                    cue: rule.cue,
                    priority: rule.priority,
                    view: rule.view.rawValue
                )
            }
        }

        /// The rules measured.
        ///
        /// - Throws: ``CoachKitError`` `.malformedModel` naming the field (the caller adds the file).
        func spec() throws(CoachKitError) -> RuleFeatureSpec {
            func fail(_ message: String) -> CoachKitError { CoachKitError(.malformedModel, message) }
            guard version == RuleFeatureSpec.currentVersion else {
                throw fail(
                    "rule feature version \(version.map(String.init) ?? "missing") is not supported (this ptcoach "
                        + "computes version \(RuleFeatureSpec.currentVersion)); retrain the model with this ptcoach"
                )
            }
            guard let exercise, !exercise.isEmpty else {
                throw fail("\"rules.exercise\" must name the exercise (its library id)")
            }
            guard let primary = primary.flatMap(AngleKind.init(rawValue:)) else {
                throw fail("\"rules.primary\" must be an angle kind such as \"elbowFlexion\"")
            }
            guard let direction, direction == 1 || direction == -1 else {
                throw fail("\"rules.direction\" must be 1 or -1")
            }
            guard let side = side.flatMap(ExerciseDefinition.SideMode.init(rawValue:)) else {
                throw fail("\"rules.side\" must be \"left\", \"right\", \"both\" or \"either\"")
            }
            guard let list = formRules, !list.isEmpty else {
                throw fail("\"rules.formRules\" must list the exercise's form rules")
            }
            var rules: [ExerciseDefinition.FormRule] = []
            for (i, rule) in list.enumerated() {
                guard let id = rule.id, let angle = rule.angle.flatMap(AngleKind.init(rawValue:)),
                    let at = rule.at.flatMap(ExerciseDefinition.RuleTiming.init(rawValue:))
                else {
                    throw fail(
                        "\"rules.formRules[\(i)]\" needs an \"id\", an \"angle\" kind and \"at\" (peak or throughout)"
                    )
                }
                guard rule.min != nil || rule.max != nil else {
                    throw fail("\"rules.formRules[\(i)]\" (\(id)) has no min or max")
                }
                rules.append(
                    ExerciseDefinition.FormRule(
                        id: id,
                        angle: angle,
                        at: at,
                        min: rule.min,
                        max: rule.max,
                        cue: rule.cue ?? "",
                        priority: rule.priority ?? 1,
                        view: rule.view.flatMap(ExerciseDefinition.CameraView.init(rawValue:)) ?? .any
                    )
                )
            }
            return RuleFeatureSpec(
                exerciseID: exercise,
                primaryAngle: primary,
                direction: direction,
                side: side,
                rules: rules
            )
        }
    }
}

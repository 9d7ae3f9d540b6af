import Foundation
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
        // The coach's encoder: keys sorted, and a weight that training left non-finite written as a string, which the
        // reader refuses by name.
        do {
            return String(decoding: try JSONEncoder.coach().encode(File(self)), as: UTF8.self)
        } catch {
            // Strings, integers and numbers (non-finite ones as strings) always encode.
            preconditionFailure("the model could not be written as JSON: \(error)")
        }
    }

    /// Reads a model written by ``jsonText``.
    ///
    /// - Parameter source: a name for messages (the model file's path).
    /// - Throws: ``CoachKitError`` (`.malformedModel`) saying what is wrong and what to do.
    public init(jsonText: String, source: String = "model") throws(CoachKitError) {
        func fail(_ message: String) -> CoachKitError {
            CoachKitError(.malformedModel, "\(source): \(message)")
        }
        let notAModel = fail(
            "not a classifier model (no \"format\": \"\(Self.modelFormat)\"); give a file written by `ptcoach train --out`"
        )
        let file = try SchemaDecoding.decodeModel(File.self, from: jsonText, notAModel: notAModel, fail: fail)
        try self.init(file, source: source)
    }

    /// The model of a decoded file, checked: the versions, the sizes of its blocks, the labels its classes name.
    private init(_ file: File, source: String) throws(CoachKitError) {
        func fail(_ message: String) -> CoachKitError { CoachKitError(.malformedModel, "\(source): \(message)") }
        let header = file.header
        guard header.format == Self.modelFormat else {
            throw fail(
                "not a classifier model (no \"format\": \"\(Self.modelFormat)\"); give a file written by `ptcoach train --out`"
            )
        }
        guard let version = header.version, Self.readableModelVersions.contains(version) else {
            throw fail(
                "model version \(header.version.map(String.init) ?? "missing") is not supported (this ptcoach reads "
                    + "versions \(Self.readableModelVersions.lowerBound)–\(Self.readableModelVersions.upperBound)); "
                    + "retrain it with this ptcoach: `ptcoach train --manifest M.csv --out MODEL.json`"
            )
        }
        guard let labels = header.labels, labels.count >= 2 else {
            throw fail("\"labels\" must list at least two labels")
        }
        guard let methodName = header.method, let method = Configuration.Method(rawValue: methodName),
            method != .automatic
        else {
            throw fail(
                "\"method\" is \(header.method.map (JSONFragment.quoted) ?? "missing"); it must be \"logistic\", "
                    + "\"form-logistic\", \"nearest-neighbor\", \"vote\", \"rule-logistic\", \"rule-verdict\" or \"rule-vote\""
            )
        }
        guard let features = header.features else { throw fail("\"features\" is missing") }
        let spec = try features.spec(fail: fail)
        var rules: RuleFeatureSpec? = nil
        if let block = header.rules {
            do {
                rules = try block.spec()
            } catch {
                throw fail(error.message)
            }
        }
        if [.ruleLogistic, .ruleVerdict, .ruleVote].contains(method), rules == nil {
            throw fail("a \(method.rawValue) model needs the \"rules\" block; retrain it with this ptcoach")
        }
        let reader = Block.Reader(source: source, labels: labels, spec: spec, features: features, rules: rules)
        func member(_ method: Configuration.Method) throws(CoachKitError) -> Block {
            guard let block = header.members?[method.rawValue] else {
                throw fail(
                    "\"members.\(method.rawValue)\" is missing; a vote model needs all \(method == .ruleVote ? "four" : "three") members"
                )
            }
            return block
        }
        let model: Model =
            switch method {
            case .nearestNeighbor: .nearestNeighbor(try reader.neighbors(file.block))
            case .formLogistic: .formLogistic(try reader.regression(.formLogistic, file.block))
            case .vote:
                .vote(
                    logistic: try reader.regression(.logistic, try member(.logistic)),
                    form: try reader.regression(.formLogistic, try member(.formLogistic)),
                    neighbors: try reader.neighbors(try member(.nearestNeighbor))
                )
            case .ruleLogistic: .ruleLogistic(try reader.regression(.ruleLogistic, file.block))
            case .ruleVerdict: .ruleVerdict(try reader.verdict(file.block))
            case .ruleVote:
                .ruleVote(
                    logistic: try reader.regression(.logistic, try member(.logistic)),
                    form: try reader.regression(.formLogistic, try member(.formLogistic)),
                    neighbors: try reader.neighbors(try member(.nearestNeighbor)),
                    verdict: try reader.verdict(try member(.ruleVerdict))
                )
            case .logistic, .automatic: .logistic(try reader.regression(.logistic, file.block))
            }
        let training = header.training ?? Training()
        let defaults = Configuration()
        let configuration = Configuration(
            regularization: max(1e-12, training.regularization ?? defaults.regularization),
            maximumIterations: max(1, training.maximumIterations ?? defaults.maximumIterations),
            timeBins: spec.timeBins,
            method: training.method.flatMap(Configuration.Method.init(rawValue:)) ?? method,
            trajectoryLength: max(2, training.trajectoryLength ?? defaults.trajectoryLength),
            warpingRadius: max(0, training.warpingRadius ?? defaults.warpingRadius),
            selectionMargin: max(0, training.selectionMargin ?? defaults.selectionMargin),
            rules: rules
        )
        self.init(
            labels: labels,
            spec: spec,
            model: model,
            configuration: configuration,
            selection: header.selection?.outcome
        )
    }
}

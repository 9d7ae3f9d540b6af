import Foundation
import PoseKit

extension HandClassifier {
    /// The model file's `format` value: a hand model is told from a body one (``ActionClassifier/modelFormat``)
    /// by it, and its `kind` says which hand model it is.
    public static let modelFormat = "ptcoach-hand-classifier"
    /// The model file version this code writes and reads.
    public static let modelVersion = 1

    /// The model as one JSON document (keys sorted, numbers in shortest round-trip form).
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

    /// Whether `jsonText` is a hand model (a JSON object whose `format` is ``modelFormat``), whatever else it holds.
    public static func isHandModel(jsonText: String) -> Bool {
        guard case .object(let fields)? = JSONFragment.parse(jsonText) else { return false }
        return fields["format"]?.stringValue == modelFormat
    }

    /// Reads a model written by ``jsonText``.
    ///
    /// - Parameter source: a name for messages (the model file's path).
    /// - Throws: ``CoachKitError`` (`.malformedModel`) saying what is wrong and what to do.
    public init(jsonText: String, source: String = "model") throws(CoachKitError) {
        func fail(_ message: String) -> CoachKitError { CoachKitError(.malformedModel, "\(source): \(message)") }
        let notAHandModel = fail("not a hand classifier model (no \"format\": \"\(Self.modelFormat)\")")
        // A file that is not a hand model is told so first, whatever else is wrong with it.
        if JSONFragment.parse(jsonText) != nil, !Self.isHandModel(jsonText: jsonText) { throw notAHandModel }
        let file = try SchemaDecoding.decodeModel(File.self, from: jsonText, notAModel: notAHandModel, fail: fail)
        let header = file.header
        guard header.version == Self.modelVersion else {
            throw fail(
                "hand model version \(header.version.map(String.init) ?? "missing") is not supported (this ptcoach "
                    + "reads version \(Self.modelVersion)); retrain it with this ptcoach"
            )
        }
        guard let kind = header.kind.flatMap(Kind.init(rawValue:)) else {
            throw fail(
                "\"kind\" is \(header.kind.map (JSONFragment.quoted) ?? "missing"); it must be "
                    + "\"hand-pose\" or \"hand-action\""
            )
        }
        guard let labels = header.labels, labels.count >= 2 else {
            throw fail("\"labels\" must list at least two labels, as strings")
        }
        let features = header.features ?? File.Features()
        guard features.version == HandFeatures.version,
            features.names == HandFeatures.names(orientation: kind == .action)
        else {
            throw fail(
                "hand feature version \(features.version.map(String.init) ?? "missing") or its feature names are not "
                    + "this ptcoach's (version \(HandFeatures.version)); retrain the model with this ptcoach"
            )
        }
        let defaults = Configuration(kind: kind)
        let timeBins = features.timeBins ?? defaults.timeBins
        let smoothing = header.smoothingFrames ?? defaults.smoothingFrames
        guard (1...1000).contains(timeBins), (1...1000).contains(smoothing) else {
            throw fail("\"features.timeBins\" and \"smoothingFrames\" must be integers from 1 to 1000")
        }
        let training = header.training ?? File.Training()
        let configuration = Configuration(
            kind: kind,
            regularization: max(1e-12, training.regularization ?? defaults.regularization),
            maximumIterations: max(1, training.maximumIterations ?? defaults.maximumIterations),
            timeBins: timeBins,
            smoothingFrames: smoothing
        )
        let count =
            kind == .action
            ? HandFeatures.actionCount(timeBins: timeBins) : HandFeatures.names(orientation: false).count
        let model: LogisticRegression
        do {
            model = try LogisticRegression(file.block, featureCount: count, classCount: labels.count)
        } catch {
            throw fail(error.message)
        }
        self.init(labels: labels, model: model, configuration: configuration)
    }
}

// MARK: - The file

extension HandClassifier {
    /// A hand model file: the ``Header`` and, beside it at the top level, the regression's
    /// ``LogisticRegression/Block`` (as a body model of one method keeps its block).
    struct File: Codable {
        /// What a hand model says of itself. Fields are optional so that a missing one gets its own message (or, in
        /// `training`, `features.timeBins` and `smoothingFrames`, its default).
        struct Header: Codable {
            var format: String?
            var version: Int?
            var kind: String?
            var method: String?
            var labels: [String]?
            var features: Features?
            var training: Training?
            /// For a hand pose only.
            var smoothingFrames: Int?
        }

        /// The `features` block: which ``HandFeatures`` the model reads.
        struct Features: Codable {
            var version: Int?
            var names: [String]?
            var count: Int?
            /// For an action only.
            var timeBins: Int?
        }

        /// The `training` block: the settings the model was trained with.
        struct Training: Codable {
            var regularization: Double?
            var maximumIterations: Int?
        }

        var header: Header
        var block: LogisticRegression.Block

        init(from decoder: any Decoder) throws {
            header = try Header(from: decoder)
            block = try LogisticRegression.Block(from: decoder)
        }

        func encode(to encoder: any Encoder) throws {
            try header.encode(to: encoder)
            try block.encode(to: encoder)
        }

        /// The file of `classifier`.
        init(_ classifier: HandClassifier) {
            let configuration = classifier.configuration
            let kind = classifier.kind
            header = Header(
                format: HandClassifier.modelFormat,
                version: HandClassifier.modelVersion,
                kind: kind.rawValue,
                method: ActionClassifier.Configuration.Method.logistic.rawValue,
                labels: classifier.labels,
                features: Features(
                    version: HandFeatures.version,
                    names: classifier.featureNames,
                    count: classifier.featureCount,
                    timeBins: kind == .action ? configuration.timeBins : nil
                ),
                training: Training(
                    regularization: configuration.regularization,
                    maximumIterations: configuration.maximumIterations
                ),
                smoothingFrames: kind == .pose ? configuration.smoothingFrames : nil
            )
            block = LogisticRegression.Block(classifier.model)
        }
    }
}

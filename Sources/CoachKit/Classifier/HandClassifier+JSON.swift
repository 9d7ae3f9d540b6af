public import PoseKit

extension HandClassifier {
    /// The model file's `format` value: a hand model is told from a body one (``ActionClassifier/modelFormat``)
    /// by it, and its `kind` says which hand model it is.
    public static let modelFormat = "ptcoach-hand-classifier"
    /// The model file version this code writes and reads.
    public static let modelVersion = 1

    /// The model as one JSON document (keys sorted, numbers in shortest round-trip form).
    public var jsonText: String {
        var features: [String: JSONValue] = [
            "version": .number(Double(HandFeatures.version)),
            "names": .array(featureNames.map(JSONValue.string)),
            "count": .number(Double(featureCount)),
        ]
        if kind == .action { features["timeBins"] = .number(Double(configuration.timeBins)) }
        var object: [String: JSONValue] = [
            "format": .string(Self.modelFormat),
            "version": .number(Double(Self.modelVersion)),
            "kind": .string(kind.rawValue),
            "method": .string(ActionClassifier.Configuration.Method.logistic.rawValue),
            "labels": .array(labels.map(JSONValue.string)),
            "features": .object(features),
            "training": .object([
                "regularization": .number(configuration.regularization),
                "maximumIterations": .number(Double(configuration.maximumIterations)),
            ]),
        ]
        if kind == .pose { object["smoothingFrames"] = .number(Double(configuration.smoothingFrames)) }
        object.merge(model.jsonBlock) { $1 }
        return JSONValue.object(object).jsonText
    }

    /// Whether `json` is a hand model (its `format` is ``modelFormat``), whatever else it holds.
    public static func isHandModel(_ json: JSONValue) -> Bool {
        json.objectValue?["format"]?.stringValue == modelFormat
    }

    /// Reads a model written by ``jsonText``.
    ///
    /// - Parameter source: a name for messages (the model file's path).
    /// - Throws: ``CoachKitError`` (`.malformedModel`) saying what is wrong and what to do.
    public init(jsonText: String, source: String = "model") throws(CoachKitError) {
        func fail(_ message: String) -> CoachKitError { CoachKitError(.malformedModel, "\(source): \(message)") }
        let json: JSONValue
        do {
            json = try JSONValue.parse(jsonText)
        } catch {
            throw fail("not a classifier model (not JSON: \(error)); give a file written by `ptcoach train --out`")
        }
        guard let object = json.objectValue, Self.isHandModel(json) else {
            throw fail("not a hand classifier model (no \"format\": \"\(Self.modelFormat)\")")
        }
        guard object["version"]?.intValue == Self.modelVersion else {
            throw fail(
                "hand model version \(object["version"]?.jsonText ?? "missing") is not supported (this ptcoach reads "
                    + "version \(Self.modelVersion)); retrain it with this ptcoach"
            )
        }
        guard let kind = object["kind"]?.stringValue.flatMap(Kind.init(rawValue:)) else {
            throw fail(
                "\"kind\" is \(object["kind"]?.jsonText ?? "missing"); it must be \"hand-pose\" or \"hand-action\""
            )
        }
        let labels = object["labels"]?.arrayValue?.compactMap(\.stringValue) ?? []
        guard labels.count >= 2, labels.count == object["labels"]?.arrayValue?.count else {
            throw fail("\"labels\" must list at least two labels, as strings")
        }
        let features = object["features"]?.objectValue ?? [:]
        guard features["version"]?.intValue == HandFeatures.version,
            features["names"]?.arrayValue?.compactMap(\.stringValue) == HandFeatures.names(orientation: kind == .action)
        else {
            throw fail(
                "hand feature version \(features["version"]?.jsonText ?? "missing") or its feature names are not this "
                    + "ptcoach's (version \(HandFeatures.version)); retrain the model with this ptcoach"
            )
        }
        let defaults = Configuration(kind: kind)
        let timeBins = features["timeBins"]?.intValue ?? defaults.timeBins
        let smoothing = object["smoothingFrames"]?.intValue ?? defaults.smoothingFrames
        guard (1...1000).contains(timeBins), (1...1000).contains(smoothing) else {
            throw fail("\"features.timeBins\" and \"smoothingFrames\" must be integers from 1 to 1000")
        }
        let training = object["training"]?.objectValue ?? [:]
        let configuration = Configuration(
            kind: kind,
            regularization: max(1e-12, training["regularization"]?.doubleValue ?? defaults.regularization),
            maximumIterations: max(1, training["maximumIterations"]?.intValue ?? defaults.maximumIterations),
            timeBins: timeBins,
            smoothingFrames: smoothing
        )
        let count =
            kind == .action
            ? HandFeatures.actionCount(timeBins: timeBins) : HandFeatures.names(orientation: false).count
        let model: LogisticRegression
        do {
            model = try LogisticRegression(jsonBlock: object, featureCount: count, classCount: labels.count)
        } catch {
            throw fail(error.message)
        }
        self.init(labels: labels, model: model, configuration: configuration)
    }
}

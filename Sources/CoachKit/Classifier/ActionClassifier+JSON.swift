import PoseKit

extension ActionClassifier {
    /// The model file's `format` value.
    public static let modelFormat = "ptcoach-action-classifier"
    /// The model file version this code writes and reads.
    public static let modelVersion = 1

    /// The model as one JSON document (keys sorted, numbers in shortest round-trip form, so the same
    /// model always gives the same text).
    public var jsonText: String {
        func numbers(_ values: [Double]) -> JSONValue { .array(values.map(JSONValue.number)) }
        let d = model.featureCount
        let object: [String: JSONValue] = [
            "format": .string(Self.modelFormat),
            "version": .number(Double(Self.modelVersion)),
            "labels": .array(labels.map(JSONValue.string)),
            "features": .object([
                "version": .number(Double(SequenceFeatureSpec.currentVersion)),
                "joints": .array(spec.joints.map { .string($0.name) }),
                "origin": .string(spec.origin.name),
                "scale": .string(spec.scale.rawValue),
                "timeBins": .number(Double(spec.timeBins)),
                "count": .number(Double(d)),
            ]),
            "training": .object([
                "regularization": .number(configuration.regularization),
                "maximumIterations": .number(Double(configuration.maximumIterations)),
            ]),
            "standardization": .object(["mean": numbers(model.means), "std": numbers(model.scales)]),
            "weights": .array(labels.indices.map { j in numbers(Array(model.weights[(j * d)..<((j + 1) * d)])) }),
            "biases": numbers(model.biases),
        ]
        return JSONValue.object(object).jsonText
    }

    /// Reads a model written by ``jsonText``.
    ///
    /// - Parameter source: a name for messages (the model file's path).
    /// - Throws: ``ClassifierError`` (`.malformedModel`) saying what is wrong and what to do.
    public init(jsonText: String, source: String = "model") throws(ClassifierError) {
        func fail(_ message: String) -> ClassifierError {
            ClassifierError(.malformedModel, "\(source): \(message)")
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
        guard let version = object["version"]?.intValue, version == Self.modelVersion else {
            throw fail(
                "model version \(object["version"]?.jsonText ?? "missing") is not supported (this ptcoach reads "
                    + "version \(Self.modelVersion)); retrain it with this ptcoach"
            )
        }
        func numbers(_ value: JSONValue?, _ name: String) throws(ClassifierError) -> [Double] {
            guard let array = value?.arrayValue else { throw fail("\"\(name)\" must be an array of numbers") }
            var result: [Double] = []
            result.reserveCapacity(array.count)
            for element in array {
                guard let number = element.doubleValue, number.isFinite else {
                    throw fail("\"\(name)\" holds \(element.jsonText), not a finite number")
                }
                result.append(number)
            }
            return result
        }
        guard let labelValues = object["labels"]?.arrayValue, labelValues.count >= 2 else {
            throw fail("\"labels\" must list at least two labels")
        }
        let labels = labelValues.compactMap(\.stringValue)
        guard labels.count == labelValues.count else { throw fail("\"labels\" must hold strings") }
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
        let d = spec.featureCount
        let standardization = object["standardization"]?.objectValue ?? [:]
        let means = try numbers(standardization["mean"], "standardization.mean")
        let scales = try numbers(standardization["std"], "standardization.std")
        guard means.count == d, scales.count == d else {
            throw fail("the standardization has \(means.count) means and \(scales.count) stds; the features need \(d)")
        }
        guard scales.allSatisfy({ $0 > 0 }) else { throw fail("\"standardization.std\" must be positive") }
        guard let weightRows = object["weights"]?.arrayValue, weightRows.count == labels.count else {
            throw fail("\"weights\" must have one row per label (\(labels.count))")
        }
        var weights: [Double] = []
        for (j, row) in weightRows.enumerated() {
            let values = try numbers(row, "weights[\(j)]")
            guard values.count == d else { throw fail("\"weights[\(j)]\" has \(values.count) numbers; expected \(d)") }
            weights.append(contentsOf: values)
        }
        let biases = try numbers(object["biases"], "biases")
        guard biases.count == labels.count else { throw fail("\"biases\" must have one number per label") }
        let training = object["training"]?.objectValue ?? [:]
        let configuration = Configuration(
            regularization: max(1e-12, training["regularization"]?.doubleValue ?? 0.1),
            maximumIterations: max(1, training["maximumIterations"]?.intValue ?? 300),
            timeBins: timeBins
        )
        self.init(
            labels: labels,
            spec: spec,
            model: LogisticRegression(means: means, scales: scales, weights: weights, biases: biases),
            configuration: configuration
        )
    }
}

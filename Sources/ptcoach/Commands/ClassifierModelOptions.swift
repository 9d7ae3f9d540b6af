import ArgumentParser
import CoachKit

/// The model options `train` and `evaluate-classifier` share: how a sequence classifier is built.
struct ClassifierModelOptions: ParsableArguments {
    @Option(name: .long, help: "L2 penalty on the weights.")
    var regularization: Double = ActionClassifier.Configuration().regularization

    @Option(name: .long, help: "Time bins of each feature's temporal profile.")
    var timeBins: Int = ActionClassifier.Configuration().timeBins

    @Option(
        name: .long,
        help:
            "Model: logistic, form-logistic, nearest-neighbor (DTW), vote (majority of the three), or automatic (vote up to 30 training recordings, else chosen by cross-validation inside the training data)."
    )
    var method: String = ActionClassifier.Configuration().method.rawValue

    @Option(name: .long, help: "Time steps of the nearest-neighbour trajectories.")
    var trajectoryLength: Int = ActionClassifier.Configuration().trajectoryLength

    @Option(name: .long, help: "DTW band in steps.")
    var warpingRadius: Int = ActionClassifier.Configuration().warpingRadius

    @Option(
        name: .long,
        help:
            "With --method automatic: another model must get more than MARGIN x sqrt(n) more of the n held-out training recordings right than logistic regression."
    )
    var selectionMargin: Double = ActionClassifier.Configuration().selectionMargin

    func validate() throws {
        guard regularization > 0, regularization.isFinite else {
            throw ValidationError("--regularization must be a positive number, got \(regularization)")
        }
        guard (1...64).contains(timeBins) else { throw ValidationError("--time-bins must be 1…64, got \(timeBins)") }
        _ = try ClassifierInput.method(method)
        guard (2...512).contains(trajectoryLength) else {
            throw ValidationError("--trajectory-length must be 2…512, got \(trajectoryLength)")
        }
        guard selectionMargin >= 0 else {
            throw ValidationError("--selection-margin must be 0 or more, got \(selectionMargin)")
        }
        guard warpingRadius >= 0 else {
            throw ValidationError("--warping-radius must be 0 or more, got \(warpingRadius)")
        }
    }

    /// The classifier configuration these options describe.
    func configuration() throws -> ActionClassifier.Configuration {
        ActionClassifier.Configuration(
            regularization: regularization,
            timeBins: timeBins,
            method: try ClassifierInput.method(method),
            trajectoryLength: trajectoryLength,
            warpingRadius: warpingRadius,
            selectionMargin: selectionMargin
        )
    }
}

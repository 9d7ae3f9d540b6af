import ArgumentParser
import CoachAnalysis
import CoachKit
import CoachPipeline
import PoseKit

/// The model options `train` and `evaluate-classifier` share: how a sequence classifier is built.
struct ClassifierModelOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "What to learn: body (a recording of a body is a sample), hand-pose (a hand shape: every frame of a hand pose-track is a sample, predicted per frame), hand-action (a hand movement: a clip is a sample), or automatic (hand-pose for hand pose-tracks, else body).",
            valueName: "KIND"
        )
    )
    var kind: String = "automatic"

    @Option(
        name: .long,
        help:
            "hand-pose: the frames with a hand each frame's label is decided over (their mean probabilities; 1: none)."
    )
    var smoothingFrames: Int = HandClassifier.Configuration(kind: .pose).smoothingFrames

    @Option(name: .long, help: "L2 penalty on the weights.")
    var regularization: Double = ActionClassifier.Configuration().regularization

    @Option(name: .long, help: "Time bins of each feature's temporal profile.")
    var timeBins: Int = ActionClassifier.Configuration().timeBins

    @Option(
        name: .long,
        help:
            "Model: logistic, form-logistic, nearest-neighbor (DTW), vote (majority of the three), rule-logistic, rule-verdict, rule-vote (the vote and the rule verdict; these three need form rules), or automatic (vote, or rule-vote with form rules, up to 30 training recordings; else chosen by cross-validation inside the training data)."
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

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Library exercise whose form rules become features (default: the `exercise` header label, when every recording has the same one); `none` to leave them out.",
            valueName: "ID"
        )
    )
    var exercise: String?

    func validate() throws {
        guard regularization > 0, regularization.isFinite else {
            throw ValidationError("--regularization must be a positive number, got \(regularization)")
        }
        guard kind == "automatic" || ClassifierKind(rawValue: kind) != nil else {
            let kinds = ClassifierKind.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("--kind must be one of \(kinds) or automatic; got `\(kind)`")
        }
        guard (1...1000).contains(smoothingFrames) else {
            throw ValidationError("--smoothing-frames must be 1…1000, got \(smoothingFrames)")
        }
        guard (1...64).contains(timeBins) else { throw ValidationError("--time-bins must be 1…64, got \(timeBins)") }
        _ = try Self.method(method)
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

    /// The classifier configuration these options describe, for training on `sequences` (whose header
    /// labels name the exercise when `--exercise` does not).
    func configuration(for sequences: [PoseSequence]) throws -> ActionClassifier.Configuration {
        ActionClassifier.Configuration(
            regularization: regularization,
            timeBins: timeBins,
            method: try Self.method(method),
            trajectoryLength: trajectoryLength,
            warpingRadius: warpingRadius,
            selectionMargin: selectionMargin,
            rules: try rules(for: sequences)
        )
    }

    /// The hand classifier configuration these options describe.
    func handConfiguration(_ kind: HandClassifier.Kind) -> HandClassifier.Configuration {
        HandClassifier.Configuration(
            kind: kind,
            regularization: regularization,
            timeBins: timeBins,
            smoothingFrames: smoothingFrames
        )
    }

    /// The form rules to use as features: those of `--exercise`, else of the exercise every recording's
    /// header names (`exercise` label) when it is a library exercise with form rules; `nil` otherwise.
    func rules(for sequences: [PoseSequence]) throws -> RuleFeatureSpec? {
        if exercise == "none" { return nil }
        let library: ExerciseLibrary
        do {
            library = try ExerciseLibrary.bundled()
        } catch {
            throw CLIError("\(error)")
        }
        if let exercise {
            let definition: ExerciseDefinition
            do {
                definition = try library.exercise(id: exercise)
            } catch {
                throw CLIError("--exercise: \(error.message)")
            }
            guard let rules = RuleFeatureSpec(exercise: definition) else {
                throw CLIError(
                    "--exercise \(exercise) has no form rules (or is a hold); name an exercise with formRules, or `none`"
                )
            }
            return rules
        }
        let named = Set(sequences.map { $0.metadata["exercise"] })
        guard named.count == 1, let id = named.first ?? nil, let definition = library[id] else { return nil }
        return RuleFeatureSpec(exercise: definition)
    }

    /// The `--method` value as a training method.
    static func method(_ name: String) throws -> ActionClassifier.Configuration.Method {
        guard let method = ActionClassifier.Configuration.Method(rawValue: name) else {
            let names = ActionClassifier.Configuration.Method.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("--method must be one of \(names); got `\(name)`")
        }
        return method
    }
}

import CoachKit
import Testing

@testable import PoseKit

/// The hand model file: a file written before it was `Codable` still loads, a model reads back as it was written,
/// and a bad file is refused in one line naming the field.
struct HandClassifierModelFileTests {
    /// A model of `kind` with chosen numbers (thirds, a tiny weight, a whole regularization), labels `fist` and
    /// `open`.
    static func classifier(kind: HandClassifier.Kind) -> HandClassifier {
        let configuration =
            kind == .pose
            ? HandClassifier.Configuration(kind: .pose, regularization: 0.05, maximumIterations: 40, smoothingFrames: 3)
            : HandClassifier.Configuration(kind: .action, regularization: 1, maximumIterations: 7, timeBins: 2)
        let d = kind == .pose ? HandFeatures.names(orientation: false).count : HandFeatures.actionCount(timeBins: 2)
        let means: [Double] = (0..<d).map { Double($0) * 0.5 - 3 }
        let scales: [Double] = (0..<d).map { 1 + Double($0) / 3 }
        var weights: [Double] = (0..<(2 * d)).map { Double($0 % 11 - 5) * 0.125 }
        weights[0] += 1e-7
        let model = LogisticRegression(means: means, scales: scales, weights: weights, biases: [-0.25, 1.0 / 3])
        return HandClassifier(labels: ["fist", "open"], model: model, configuration: configuration)
    }

    /// `classifier(kind: .pose).jsonText` as the hand classifier wrote it with PoseKit's `JSONValue`, before its model
    /// file became `Codable`.
    static let writtenWithJSONValue = """
        {"biases":[-0.25,0.3333333333333333],"features":{"count":27,"names":["thumbMPFlexion","thumbIPFlexion","\
        indexMCPFlexion","indexPIPFlexion","indexDIPFlexion","middleMCPFlexion","middlePIPFlexion","middleDIPFle\
        xion","ringMCPFlexion","ringPIPFlexion","ringDIPFlexion","littleMCPFlexion","littlePIPFlexion","littleDI\
        PFlexion","thumbToIndexTip","thumbToMiddleTip","thumbToRingTip","thumbToLittleTip","thumbTipToWrist","in\
        dexTipToWrist","middleTipToWrist","ringTipToWrist","littleTipToWrist","thumbIndexSpread","indexMiddleSpr\
        ead","middleRingSpread","ringLittleSpread"],"version":1},"format":"ptcoach-hand-classifier","kind":"hand\
        -pose","labels":["fist","open"],"method":"logistic","smoothingFrames":3,"standardization":{"mean":[-3,-2\
        .5,-2,-1.5,-1,-0.5,0,0.5,1,1.5,2,2.5,3,3.5,4,4.5,5,5.5,6,6.5,7,7.5,8,8.5,9,9.5,10],"std":[1,1.3333333333\
        333333,1.6666666666666665,2,2.333333333333333,2.666666666666667,3,3.3333333333333335,3.6666666666666665,\
        4,4.333333333333334,4.666666666666666,5,5.333333333333333,5.666666666666667,6,6.333333333333333,6.666666\
        666666667,7,7.333333333333333,7.666666666666667,8,8.333333333333332,8.666666666666668,9,9.33333333333333\
        4,9.666666666666666]},"training":{"maximumIterations":40,"regularization":0.05},"version":1,"weights":[[\
        -0.6249999,-0.5,-0.375,-0.25,-0.125,0,0.125,0.25,0.375,0.5,0.625,-0.625,-0.5,-0.375,-0.25,-0.125,0,0.125\
        ,0.25,0.375,0.5,0.625,-0.625,-0.5,-0.375,-0.25,-0.125],[0,0.125,0.25,0.375,0.5,0.625,-0.625,-0.5,-0.375,\
        -0.25,-0.125,0,0.125,0.25,0.375,0.5,0.625,-0.625,-0.5,-0.375,-0.25,-0.125,0,0.125,0.25,0.375,0.5]]}
        """

    @Test func aModelWrittenBeforeTheFileWasCodableLoadsAndIsWrittenTheSame() throws {
        let loaded = try HandClassifier(jsonText: Self.writtenWithJSONValue, source: "m.json")
        #expect(loaded == Self.classifier(kind: .pose))
        #expect(loaded.jsonText == Self.writtenWithJSONValue)
    }

    @Test(arguments: HandClassifier.Kind.allCases)
    func aModelReadsBackAsItWasWritten(kind: HandClassifier.Kind) throws {
        let classifier = Self.classifier(kind: kind)
        let text = classifier.jsonText
        #expect(try HandClassifier(jsonText: text, source: "m.json") == classifier)
        // Keys sorted, integers without a fraction: the text PoseKit's writer gives for the same document.
        #expect(try JSONValue.parse(text).jsonText == text)
    }

    /// Ways to spoil a hand-pose model file, and the line each gets.
    enum Damage: CaseIterable {
        case mistypedWeight, shortWeightRow, zeroStd, unknownKind, oneLabel, bodyFormat, newerVersion

        func apply(to model: inout [String: JSONValue]) {
            switch self {
            case .mistypedWeight:
                var rows = model["weights"]?.arrayValue ?? []
                var row = rows[1].arrayValue ?? []
                row[2] = .string("heavy")
                rows[1] = .array(row)
                model["weights"] = .array(rows)
            case .shortWeightRow:
                var rows = model["weights"]?.arrayValue ?? []
                rows[0] = .array(Array((rows[0].arrayValue ?? []).prefix(2)))
                model["weights"] = .array(rows)
            case .zeroStd:
                var standardization = model["standardization"]?.objectValue ?? [:]
                var std = standardization["std"]?.arrayValue ?? []
                std[3] = .number(0)
                standardization["std"] = .array(std)
                model["standardization"] = .object(standardization)
            case .unknownKind: model["kind"] = .string("hand-wave")
            case .oneLabel: model["labels"] = .array([.string("fist")])
            case .bodyFormat: model["format"] = .string(ActionClassifier.modelFormat)
            case .newerVersion: model["version"] = .number(2)
            }
        }

        var message: String {
            let d = HandFeatures.names(orientation: false).count
            return switch self {
            case .mistypedWeight: "m.json: \"weights[1][2]\" must be a number (got \"heavy\")"
            case .shortWeightRow: "m.json: \"weights[0]\" has 2 numbers; expected \(d)"
            case .zeroStd: "m.json: \"standardization.std\" must be positive"
            case .unknownKind: "m.json: \"kind\" is \"hand-wave\"; it must be \"hand-pose\" or \"hand-action\""
            case .oneLabel: "m.json: \"labels\" must list at least two labels, as strings"
            case .bodyFormat: "m.json: not a hand classifier model (no \"format\": \"ptcoach-hand-classifier\")"
            case .newerVersion:
                "m.json: hand model version 2 is not supported (this ptcoach reads version 1); retrain it with this ptcoach"
            }
        }
    }

    @Test(arguments: Damage.allCases)
    func aBadFileIsRefusedInOneLineNamingTheField(_ damage: Damage) throws {
        var model = try #require(try JSONValue.parse(Self.classifier(kind: .pose).jsonText).objectValue)
        damage.apply(to: &model)
        #expect {
            try HandClassifier(jsonText: JSONValue.object(model).jsonText, source: "m.json")
        } throws: { error in
            (error as? CoachKitError)?.message == damage.message
        }
    }
}

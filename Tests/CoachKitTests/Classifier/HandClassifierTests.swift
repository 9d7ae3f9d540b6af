import CoachKit
import CoachTestSupport
import PoseKit
import Testing

/// The hand classifiers' features do not change with the hand's place, size or side, and the classifiers learn
/// generated shapes and movements well enough to tell new ones apart.
struct HandClassifierTests {
    /// A generated hand turned 20° about its long axis (a left hand the other way: a right hand's mirror image).
    private static func hand(_ shape: SyntheticHandShape, seed: UInt64, chirality: Chirality = .right) -> HandPose {
        var rng = SplitMix64(seed: seed)
        let view = chirality == .left ? -20.0 : 20
        return shape.hand(chirality: chirality, using: &rng).pose(viewDegrees: view, using: &rng)
    }

    private static func expectClose(_ a: [Double], _ b: [Double], tolerance: Double, _ what: String) {
        #expect(a.count == b.count)
        for (k, (x, y)) in zip(a, b).enumerated() {
            #expect(
                abs(x - y) <= tolerance,
                "\(what): \(HandFeatures.names(orientation: true)[k]) \(x) vs \(y)"
            )
        }
    }

    @Test(arguments: SyntheticHandShape.allCases)
    func featuresDoNotChangeWithPlaceSizeOrMirroring(shape: SyntheticHandShape) {
        let hand = Self.hand(shape, seed: 3)
        let features = HandFeatures.frame(of: hand, orientation: true)
        let unknown = features.filter(\.isNaN).count
        #expect(unknown == 0)
        let moved = hand.placed(scale: 2.3, turn: 0, dx: 150, dy: -80)
        Self.expectClose(HandFeatures.frame(of: moved, orientation: true), features, tolerance: 1e-6, "scaled, moved")
        let mirrored = hand.mirrored(width: 640)
        Self.expectClose(HandFeatures.frame(of: mirrored, orientation: true), features, tolerance: 1e-6, "mirrored")
        // A generated left hand is a right one's mirror image.
        let left = Self.hand(shape, seed: 3, chirality: .left)
        Self.expectClose(HandFeatures.frame(of: left, orientation: true), features, tolerance: 1e-6, "left hand")
        // Turned in the picture, the shape features stay; the inclination does not.
        let turned = hand.placed(scale: 1, turn: 0.5, dx: 0, dy: 0)
        let shapeCount = HandFeatures.shapeNames.count
        Self.expectClose(
            Array(HandFeatures.frame(of: turned, orientation: false)),
            Array(features.prefix(shapeCount)),
            tolerance: 1e-6,
            "turned"
        )
        #expect(abs(HandFeatures.frame(of: turned, orientation: true)[shapeCount] - features[shapeCount]) > 20)
    }

    @Test func aFistAndAnOpenHandDifferWhereTheyShould() {
        let open = HandFeatures.frame(of: Self.hand(.open, seed: 1), orientation: false)
        let fist = HandFeatures.frame(of: Self.hand(.fist, seed: 1), orientation: false)
        let names = HandFeatures.shapeNames
        let pip = names.firstIndex(of: "indexPIPFlexion")!
        let tip = names.firstIndex(of: "middleTipToWrist")!
        #expect(open[pip] < 20 && fist[pip] > 70)
        #expect(fist[tip] < 0.8 * open[tip])
    }

    @Test func aHandPoseClassifierTellsNewGeneratedShapesApart() throws {
        var rng = SplitMix64(seed: 11)
        func recordings(_ count: Int) -> (sequences: [HandSequence], labels: [String]) {
            var sequences: [HandSequence] = []
            var labels: [String] = []
            for i in 0..<count {
                for shape in SyntheticHandShape.allCases {
                    let side: Chirality = i % 2 == 0 ? .right : .left
                    sequences.append(HandSequence(frames: shape.frames(count: 10, chirality: side, using: &rng)))
                    labels.append(shape.rawValue)
                }
            }
            return (sequences, labels)
        }
        let training = recordings(12)
        let test = recordings(6)
        let classifier = try HandClassifier.train(
            sequences: training.sequences,
            labels: training.labels,
            configuration: .init(kind: .pose)
        )
        #expect(classifier.labels == ["fist", "open", "pinch"])
        var framesRight = 0
        var frames = 0
        for (sequence, label) in zip(test.sequences, test.labels) {
            let prediction = try #require(classifier.predict(sequence))
            #expect(prediction.label == label)
            #expect(prediction.frames.count == 10)
            framesRight += prediction.frames.count(where: { $0.label == label })
            frames += prediction.frames.count
        }
        #expect(Double(framesRight) / Double(frames) >= 0.95)
        // The model file gives the same predictions back.
        let loaded = try HandClassifier(jsonText: classifier.jsonText)
        #expect(loaded == classifier)
        #expect(loaded.predict(test.sequences[0]) == classifier.predict(test.sequences[0]))
    }

    @Test func aHandActionClassifierTellsMovementsApart() throws {
        // Generated movements of 1.5-3 s, each with its own view, size and side.
        var rng = SplitMix64(seed: 5)
        let movements = (0..<18).map { SyntheticHandMovement.allCases[$0 % 3] }
        let sequences = movements.map { movement in
            movement.clip(
                seconds: 1.5 + 1.5 * rng.uniform(),
                chirality: rng.next() % 2 == 0 ? .left : .right,
                using: &rng
            )
        }
        let labels = movements.map(\.rawValue)
        let folds = CrossValidation.stratifiedFolds(labels: labels, count: 3, seed: 1)
        let predictions = try HandClassifier.crossValidate(
            sequences: sequences,
            labels: labels,
            folds: folds,
            configuration: .init(kind: .action, timeBins: 4)
        )
        let right = zip(predictions, labels).count(where: { $0?.label == $1 })
        #expect(right >= 17, "\(right) of 18 held-out clips right")
        let classifier = try HandClassifier.train(
            sequences: sequences,
            labels: labels,
            configuration: .init(kind: .action, timeBins: 4)
        )
        #expect(try HandClassifier(jsonText: classifier.jsonText) == classifier)
        #expect(classifier.predict(HandSequence(seconds: [0, 0.1], hands: [nil, nil])) == nil)
    }

    @Test func aManifestRowCanNameAPartOfItsRecording() throws {
        let manifest = try ClassifierManifest(
            text: "path,label,start,end\na.jsonl,open,0,0.6\na.jsonl,fist,1.1,\nb.jsonl,open,,\n",
            path: "m/hands.csv"
        )
        #expect(manifest.entries.map(\.start) == [0, 1.1, nil])
        #expect(manifest.entries.map(\.end) == [0.6, nil, nil])
        #expect(manifest.entries.map(\.isTimeRange) == [true, true, false])
        #expect(throws: CoachKitError.self) {
            try ClassifierManifest(text: "path,label,start,end\na.jsonl,open,2,1\n", path: "m.csv")
        }
        let sequence = HandSequence(seconds: [0, 0.5, 1, 1.5], hands: [nil, nil, nil, nil]).trimmed(from: 0.5, to: 1)
        #expect(sequence.seconds == [0.5, 1])
    }
}

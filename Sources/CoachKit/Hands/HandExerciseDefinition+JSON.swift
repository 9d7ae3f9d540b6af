import PoseKit

extension HandExerciseDefinition {
    /// Reads and validates a definition from its JSON text (schema: `Resources/Exercises/hands/SCHEMA.md`).
    ///
    /// - Parameter file: the file name used in error messages.
    /// - Throws: ``CoachKitError`` `.invalidDefinition` naming the file, the exercise and the field.
    public init(jsonText: String, file: String) throws(CoachKitError) {
        let form = try SchemaDecoding.decode(Closed<File>.self, from: jsonText, file: file, what: "hand exercise")
            .value
        try self.init(form, file: file)
    }

    /// A hand definition file as written: what `JSONDecoder` reads, before the checks between fields.
    struct File: ClosedSchema {
        enum CodingKeys: String, CodingKey, CaseIterable {
            case id, name, summary, view, side, kind, measures, primary, repetition, target, rangeCue, fingers, touch
            case praise, setUp
        }
        static let blockName = "the hand schema"

        /// Hand exercises are repetitions (each held with `repetition.holdSeconds`).
        enum Kind: String, CaseIterable { case reps }
        enum Points: String, CaseIterable { case fingers, fingertips }

        struct Repetition: Decodable {
            var start: Double
            var peak: Double
            var towardPeak: OneOf<ExerciseDefinition.Contraction>?
            var minimumRange: Double?
            var minimumSeconds: Double?
            var maximumSeconds: Double?
            var holdSeconds: Double?
        }

        struct Fingers: Decodable {
            var measure: OneOf<FingerMeasure>
            var scope: OneOf<FingerScope>?
            var min: Double?
            var max: Double?
            var cue: String
            var list: [OneOf<Finger>]?
        }

        struct Touch: Decodable {
            var distance: Double
            var release: Double
            var newFinger: Bool
            var points: OneOf<Points>?
        }

        var id: String
        var name: String
        var summary: String?
        var view: OneOf<CameraView>?
        var side: OneOf<HandSide>?
        var kind: OneOf<Kind>
        var measures: [OneOf<HandMeasure>]?
        var primary: OneOf<HandMeasure>
        var repetition: Repetition
        var target: ExerciseDefinition.TargetRange?
        var rangeCue: String?
        var fingers: Fingers?
        var touch: Touch?
        var praise: String?
        var setUp: String?
    }

    /// The definition of a decoded file, checked across its fields.
    private init(_ form: File, file: String) throws(CoachKitError) {
        var problem = SchemaDecoding.Problem(file: file, context: "")
        let id = try problem.id(form.id)
        problem.context = "hand exercise '\(id)': "
        let measures = (form.measures ?? []).map(\.value)
        let primary = form.primary.value
        guard measures.first == primary else {
            throw problem("primary", "'\(primary.rawValue)' must be listed first in \"measures\"")
        }
        let target = form.target
        if let target, target.min > target.max { throw problem("target", "min must not be above max") }
        let touch = try form.touch.map { touch throws(CoachKitError) in
            try Self.touch(touch, primary: primary, problem)
        }
        self.init(
            id: id,
            name: try problem.nonEmpty(form.name, "name"),
            summary: form.summary ?? "",
            view: form.view?.value ?? .any,
            side: form.side?.value ?? .either,
            measures: measures,
            primary: primary,
            repetition: try Self.repetition(form.repetition, problem),
            target: target,
            rangeCue: form.rangeCue ?? "Go a little further",
            fingerTargets: try form.fingers.map { fingers throws(CoachKitError) in try Self.fingers(fingers, problem) },
            touch: touch,
            praise: form.praise ?? "Good rep!",
            setUp: form.setUp ?? "Hold your hand up to the camera, all of it in the picture"
        )
    }

    private static func repetition(
        _ rep: File.Repetition,
        _ problem: SchemaDecoding.Problem
    ) throws(CoachKitError) -> ExerciseDefinition.RepetitionSpec {
        guard rep.start != rep.peak else { throw problem("repetition.peak", "must differ from repetition.start") }
        let minimumRange = rep.minimumRange ?? 0.3 * abs(rep.peak - rep.start)
        let minimumSeconds = rep.minimumSeconds ?? 0.4
        let maximumSeconds = rep.maximumSeconds ?? 20
        guard minimumRange > 0 else { throw problem("repetition.minimumRange", "must be above 0") }
        guard minimumSeconds >= 0, maximumSeconds > minimumSeconds else {
            throw problem("repetition.maximumSeconds", "must be above repetition.minimumSeconds")
        }
        var spec = ExerciseDefinition.RepetitionSpec(
            start: rep.start,
            peak: rep.peak,
            towardPeak: rep.towardPeak?.value ?? .concentric,
            minimumRange: minimumRange,
            minimumSeconds: minimumSeconds,
            maximumSeconds: maximumSeconds
        )
        if let hold = rep.holdSeconds {
            guard spec.acceptsHold(hold) else {
                throw problem("repetition.holdSeconds", "must be above 0 and below repetition.maximumSeconds")
            }
            spec.holdSeconds = hold
        }
        return spec
    }

    private static func fingers(
        _ fingers: File.Fingers,
        _ problem: SchemaDecoding.Problem
    ) throws(CoachKitError) -> FingerTargets {
        let measure = fingers.measure.value
        guard fingers.min != nil || fingers.max != nil else { throw problem("fingers", "needs \"min\" or \"max\"") }
        var list = HandMeasure.fingers
        if let names = fingers.list {
            guard !names.isEmpty else { throw problem("fingers.list", "must be a non-empty array of finger names") }
            list = names.map(\.value)
            if measure != .flexion, let index = list.firstIndex(of: .thumb) {
                throw problem(
                    "fingers.list[\(index)]",
                    "can name the thumb only for flexion (the thumb is what opposes)"
                )
            }
        }
        return FingerTargets(
            measure: measure,
            scope: fingers.scope?.value ?? .repetition,
            fingers: list,
            min: fingers.min,
            max: fingers.max,
            cue: try problem.nonEmpty(fingers.cue, "fingers.cue")
        )
    }

    private static func touch(
        _ touch: File.Touch,
        primary: HandMeasure,
        _ problem: SchemaDecoding.Problem
    ) throws(CoachKitError) -> TouchSpec {
        guard touch.distance > 0, touch.release > touch.distance else {
            throw problem("touch.release", "must be above touch.distance, itself above 0")
        }
        guard primary == .thumbGap || primary == .thumbOpposition else {
            throw problem(
                "touch",
                "counts the thumb's touches: the primary measure must be thumbGap or thumbOpposition"
            )
        }
        return TouchSpec(
            distance: touch.distance,
            release: touch.release,
            newFinger: touch.newFinger,
            fingertipsOnly: touch.points?.value == .fingertips
        )
    }
}

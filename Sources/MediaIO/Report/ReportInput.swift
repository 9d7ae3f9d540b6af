public import PoseKit

/// Everything a session report shows, independent of the coaching engine's types.
///
/// The CLI maps the coach's session summary onto it; ``ReportWriter`` turns it into HTML, PDF or
/// JSON. Ranges of motion and their target are in one unit per exercise (``Exercise/rangeOfMotionUnit``).
///
/// ```swift
/// var squat = ReportInput.Exercise(name: "Squat", targetRange: 90...120, prescribedReps: 10)
/// squat.repetitions = [.init(index: 1, startSeconds: 0.4, endSeconds: 2.9, peakDegrees: 97, rangeOfMotion: 97)]
/// try ReportWriter.write(ReportInput(title: "Knee rehab, week 3", exercises: [squat]), to: "report.html")
/// ```
public struct ReportInput: Sendable {
    /// How a repetition was judged.
    public enum Verdict: String, Sendable, Hashable, Codable, CaseIterable {
        /// Full range, good form.
        case good
        /// Short of the target range or with a form fault.
        case needsWork
        /// A safety limit was crossed.
        case unsafe
        /// Not judged: a movement counted with no exercise recognised, so no rules to judge it by.
        case notJudged
        /// No form rule could be checked (the camera view does not suit the exercise, the joints not seen).
        case notChecked
    }

    /// How a repetition's range compares with its target, as the coach judged it (the text output's words).
    public enum RangeStatus: String, Sendable, Hashable, Codable, CaseIterable {
        case short, within, beyond
        /// The camera view does not suit the exercise: no range to hold against the target.
        case notMeasurable
    }

    /// The unit of the range-of-motion values.
    public enum RangeOfMotionUnit: String, Sendable, Hashable, Codable {
        /// Degrees of joint angle.
        case degrees
        /// A fraction of the target range of motion (1 = 100 %).
        case fraction
    }

    /// One repetition.
    public struct Repetition: Sendable, Hashable {
        /// 1-based number of the repetition.
        public var index: Int
        public var startSeconds: Double
        public var endSeconds: Double
        /// The extreme angle reached, in degrees.
        public var peakDegrees: Double?
        /// The range of motion reached, in the exercise's unit.
        public var rangeOfMotion: Double?
        /// Seconds of the lifting (concentric) phase.
        public var tempoUpSeconds: Double?
        /// Seconds of the lowering (eccentric) phase.
        public var tempoDownSeconds: Double?
        /// Seconds the peak was held between the two.
        public var heldSeconds: Double?
        public var verdict: Verdict
        /// The range against the target as judged when the repetition was counted; `nil` to judge it here from
        /// ``rangeOfMotion`` and the exercise's ``Exercise/targetRange``.
        public var rangeStatus: RangeStatus?
        /// Form issues seen during the repetition ("Knees caving in").
        public var issues: [String]

        public init(
            index: Int,
            startSeconds: Double,
            endSeconds: Double,
            peakDegrees: Double? = nil,
            rangeOfMotion: Double? = nil,
            tempoUpSeconds: Double? = nil,
            tempoDownSeconds: Double? = nil,
            heldSeconds: Double? = nil,
            verdict: Verdict = .good,
            rangeStatus: RangeStatus? = nil,
            issues: [String] = []
        ) {
            self.index = index
            self.startSeconds = startSeconds
            self.endSeconds = endSeconds
            self.peakDegrees = peakDegrees
            self.rangeOfMotion = rangeOfMotion
            self.tempoUpSeconds = tempoUpSeconds
            self.tempoDownSeconds = tempoDownSeconds
            self.heldSeconds = heldSeconds
            self.verdict = verdict
            self.rangeStatus = rangeStatus
            self.issues = issues
        }
    }

    /// A form issue or safety event at one moment.
    public struct Event: Sendable, Hashable {
        public var seconds: Double
        public var text: String
        /// A safety limit (drawn red) rather than a form issue (amber).
        public var isSafety: Bool

        public init(seconds: Double, text: String, isSafety: Bool = false) {
            self.seconds = seconds
            self.text = text
            self.isSafety = isSafety
        }
    }

    /// One sample of the measured angle.
    public struct AngleSample: Sendable, Hashable {
        public var seconds: Double
        public var degrees: Double

        public init(seconds: Double, degrees: Double) {
            self.seconds = seconds
            self.degrees = degrees
        }
    }

    /// A still frame (with the overlay drawn on it) of one repetition.
    public struct Still: Sendable {
        /// "Best repetition", "Repetition needing most work".
        public var caption: String
        /// The repetition shown, 1-based.
        public var repetition: Int?
        public var image: RGBImage

        public init(caption: String, repetition: Int? = nil, image: RGBImage) {
            self.caption = caption
            self.repetition = repetition
            self.image = image
        }
    }

    /// A further measurement over time, charted under the main angle (a hand exercise's fingers).
    public struct Series: Sendable, Hashable {
        /// What it measures ("Index finger flexion").
        public var name: String
        public var samples: [AngleSample]
        /// The target band, shaded on its chart.
        public var target: ClosedRange<Double>?

        public init(name: String, samples: [AngleSample], target: ClosedRange<Double>? = nil) {
            self.name = name
            self.samples = samples
            self.target = target
        }
    }

    /// A table of the clinical summary: a title, column names and rows of text.
    public struct Table: Sendable, Hashable {
        public var title: String
        public var header: [String]
        public var rows: [[String]]

        public init(title: String, header: [String], rows: [[String]]) {
            self.title = title
            self.header = header
            self.rows = rows
        }
    }

    /// One exercise of the session.
    public struct Exercise: Sendable {
        public var name: String
        /// What the angle chart measures ("Knee flexion").
        public var angleName: String
        /// The target range of motion, in ``rangeOfMotionUnit``.
        public var targetRange: ClosedRange<Double>?
        public var rangeOfMotionUnit: RangeOfMotionUnit
        /// The target band of the measured angle, in degrees, shaded on the angle chart.
        public var targetDegrees: ClosedRange<Double>?
        public var prescribedReps: Int?
        /// How long each repetition is to be held at its peak, when prescribed (`analyze --hold`).
        public var prescribedHoldSeconds: Double?
        public var repetitions: [Repetition]
        public var angleSeries: [AngleSample]
        public var events: [Event]
        public var stills: [Still]
        /// Seconds each hold lasted (isometric exercises).
        public var holdSeconds: [Double]
        public var holdTargetSeconds: Double?
        /// A hold (plank, wall sit): the section reports the time held, not repetitions.
        public var isHold: Bool
        /// Further measurements charted under the angle, each on its own chart (per-finger flexion).
        public var moreSeries: [Series] = []
        /// The angle the patient must not go past (a therapist's "stop past"), drawn as a red line on the angle chart.
        public var limitDegrees: Double?
        /// What the section followed, in words ("Programme version 2: target 60–80°, stop past 85°, 10 repetitions").
        public var prescriptionText: String?
        /// Why no repetition's form was checked, when none was ("the camera view does not suit the exercise",
        /// "nobody was seen"): the report then says "form not checked: <reason>", never "no form issues".
        public var formNotCheckedReason: String?

        /// This exercise with `series` as its angle chart (for the charts of ``moreSeries``).
        func charting(_ series: Series) -> Exercise {
            var copy = self
            copy.angleName = series.name
            copy.angleSeries = series.samples
            copy.targetDegrees = series.target
            copy.moreSeries = []
            return copy
        }

        public init(
            name: String,
            angleName: String = "Angle",
            targetRange: ClosedRange<Double>? = nil,
            rangeOfMotionUnit: RangeOfMotionUnit = .degrees,
            targetDegrees: ClosedRange<Double>? = nil,
            prescribedReps: Int? = nil,
            prescribedHoldSeconds: Double? = nil,
            repetitions: [Repetition] = [],
            angleSeries: [AngleSample] = [],
            events: [Event] = [],
            stills: [Still] = [],
            holdSeconds: [Double] = [],
            holdTargetSeconds: Double? = nil,
            isHold: Bool = false
        ) {
            self.name = name
            self.angleName = angleName
            self.targetRange = targetRange
            self.rangeOfMotionUnit = rangeOfMotionUnit
            self.targetDegrees = targetDegrees
            self.prescribedReps = prescribedReps
            self.prescribedHoldSeconds = prescribedHoldSeconds
            self.repetitions = repetitions
            self.angleSeries = angleSeries
            self.events = events
            self.stills = stills
            self.holdSeconds = holdSeconds
            self.holdTargetSeconds = holdTargetSeconds
            self.isHold = isHold
        }
    }

    /// The report's heading ("Session report").
    public var title: String
    /// A line under the heading (patient, date, source video).
    public var subtitle: String?
    public var exercises: [Exercise]
    /// The machine-readable summary written verbatim for `.json` (the CLI's `--json`); when `nil`, the
    /// JSON is made from this input.
    public var summaryJSON: String?
    /// A clinical summary before the sections (several sets: adherence in words, then tables of the trend per
    /// exercise and of each set); empty for one session's report.
    public var overviewLines: [String] = []
    public var overviewTables: [Table] = []

    public init(title: String, subtitle: String? = nil, exercises: [Exercise], summaryJSON: String? = nil) {
        self.title = title
        self.subtitle = subtitle
        self.exercises = exercises
        self.summaryJSON = summaryJSON
    }
}

public import CoachKit
public import PoseKit

/// A saved set with what its report shows.
public struct ReportedSet: Sendable {
    public var set: SetRecord
    /// The set's summary; a hand set's as the store keeps it (``CoachKit/HandSessionSummary/stored``).
    public var summary: SessionSummary
    public var angleSeries: [AngleSample]
    /// A hand set's own summary (its report shows it, with a chart per finger); `nil` for a body set.
    public var hand: HandSessionSummary?
    /// The definition of the set's exercise as the server coached it, when the report writer's library may not have
    /// it (an exercise of the clinic's own library, learned after the server started).
    public var definition: ExerciseDefinition?

    public init(
        set: SetRecord,
        summary: SessionSummary,
        angleSeries: [AngleSample],
        hand: HandSessionSummary? = nil,
        definition: ExerciseDefinition? = nil
    ) {
        self.set = set
        self.summary = summary
        self.angleSeries = angleSeries
        self.hand = hand
        self.definition = definition
    }
}

/// The primary angle at one moment, for the report's chart; of a hand set, each finger's measurement too.
public struct AngleSample: Sendable, Hashable, Codable {
    public var seconds: Double
    /// The primary measurement (of a hand set: in its unit, degrees or hand lengths).
    public var degrees: Double
    /// A hand set's fingers (flexion, or the thumb's distance to each), for the report's chart per finger.
    public var fingers: [Finger: Double]

    public init(seconds: Double, degrees: Double, fingers: [Finger: Double] = [:]) {
        self.seconds = seconds
        self.degrees = degrees
        self.fingers = fingers
    }
}

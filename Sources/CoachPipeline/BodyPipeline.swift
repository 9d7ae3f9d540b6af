public import CoachKit
public import PoseKit

/// The one loop that coaches a body exercise frame by frame: `ptcoach analyze`'s counting pass, its drawing
/// pass, the report's replay and the live server's sets (`LiveSet`, which keeps its own queue: the latest frame
/// wins) all step a ``CoachKit/CoachingSession`` through it, so they see the same frames the same way.
///
/// A synchronous stepper: ``step(_:)`` coaches one frame and hands back what the coach said on it (the session's
/// own buffer, reused from frame to frame: no allocation per frame); ``events(from:configuration:name:)`` wraps it
/// as an `AsyncSequence`.
///
/// ```swift
/// var pipeline = BodyPipeline(configuration: configuration)
/// while let frame = try source.next() { for event in pipeline.step(frame) { print(event) } }
/// let summary = try pipeline.summary(name: "squats.jsonl")
/// ```
public struct BodyPipeline {
    public private(set) var session: CoachingSession
    /// The frames stepped so far.
    public private(set) var frames = 0

    public init(configuration: CoachingSession.Configuration) {
        session = CoachingSession(configuration: configuration)
    }

    /// The coach's state after the last frame stepped.
    public var snapshot: CoachSnapshot { session.snapshot }

    /// Coaches `frame` (its capture time is `frame.seconds`, never going back).
    /// - Returns: what the coach said on this frame: cues, counted repetitions, warnings.
    @discardableResult
    public mutating func step(_ frame: PoseFrame) -> [CoachEvent] {
        frames += 1
        return session.ingest(frame)
    }

    /// The frames are all in: the repetitions found, named or judged only then
    /// (``CoachKit/CoachingSession/finish()``).
    public mutating func finish() -> [CoachEvent] { session.finish() }

    /// The session's summary, once the frames are in.
    ///
    /// - Throws: ``AnalysisError`` when nobody was seen, or the joints the exercise needs never were
    ///   (``CoachKit/CoachingSession/checkCoached(frames:name:)``).
    public func summary(name: String) throws -> SessionSummary {
        do {
            try session.checkCoached(frames: frames, name: name)
        } catch {
            throw AnalysisError(error.message)
        }
        return session.summary()
    }

    /// Coaches every frame of `source`, showing `observe` the state after each.
    ///
    /// - Throws: the source's errors; ``AnalysisError`` as ``summary(name:)``.
    public static func run(
        source: inout some PoseFrameSource,
        configuration: CoachingSession.Configuration,
        name: String,
        observe: (CoachSnapshot) -> Void = { _ in }
    ) throws -> SessionSummary {
        var pipeline = BodyPipeline(configuration: configuration)
        while let frame = try source.next() {
            pipeline.step(frame)
            observe(pipeline.snapshot)
        }
        return try pipeline.summary(name: name)
    }

    /// The frames of `source` coached one by one, as an `AsyncSequence`: one ``Event/frame(_:events:)`` per frame,
    /// then ``Event/finished(_:)`` with the summary.
    public static func events<Source: PoseFrameSource>(
        from source: Source,
        configuration: CoachingSession.Configuration,
        name: String
    ) -> Events<Source> {
        Events(source: source, configuration: configuration, name: name)
    }

    /// What the pipeline yields.
    public enum Event {
        /// A frame was coached: the state after it, and what the coach said on it.
        case frame(CoachSnapshot, events: [CoachEvent])
        /// The source ended: the session's summary.
        case finished(SessionSummary)
    }

    /// ``BodyPipeline`` over a frame source, as an `AsyncSequence` of ``Event``s.
    public struct Events<Source: PoseFrameSource>: AsyncSequence {
        public typealias Element = Event
        let source: Source
        let configuration: CoachingSession.Configuration
        let name: String

        public func makeAsyncIterator() -> Iterator {
            Iterator(source: source, pipeline: BodyPipeline(configuration: configuration), name: name)
        }

        public struct Iterator: AsyncIteratorProtocol {
            var source: Source
            var pipeline: BodyPipeline
            let name: String
            var done = false

            public mutating func next() async throws -> Event? {
                if done { return nil }
                guard let frame = try source.next() else {
                    done = true
                    return .finished(try pipeline.summary(name: name))
                }
                let said = pipeline.step(frame)
                return .frame(pipeline.snapshot, events: said)
            }
        }
    }
}

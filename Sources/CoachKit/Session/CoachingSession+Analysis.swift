public import PoseKit

/// A source of pose frames for coaching: a pose-track file, a video through the pose estimator, a live socket.
public protocol PoseFrameSource {
    /// The image size the keypoints refer to and the nominal frame rate.
    var width: Double { get }
    var height: Double { get }
    var fps: Double { get }
    /// The next frame, or `nil` at the end.
    mutating func next() throws -> PoseFrame?
}

extension CoachingSession {
    /// Whether the session coached anybody: the checks `ptcoach analyze` makes before it reports a summary, and
    /// the live coach before it saves one.
    ///
    /// - Parameters:
    ///   - frames: the frames ingested.
    ///   - name: what to call the recording in the message (a file name, "the set").
    /// - Throws: ``CoachKitError`` `.unmeasurable` when there were no frames, nobody was seen, or the joints the
    ///   exercise needs never were, with what to do.
    public func checkCoached(frames: Int, name: String) throws(CoachKitError) {
        guard frames > 0 else {
            throw CoachKitError(.unmeasurable, "\(name): the file has no frames after its header; nothing to analyse")
        }
        guard personFrames > 0 else {
            throw CoachKitError(
                .unmeasurable,
                "\(name): no person was seen in any of the \(frames) frames; check the recording"
            )
        }
        let never = jointsNeverSeen
        if !never.isEmpty {
            let exercise = configuration.exercise
            let what = exercise.map { "the \($0.id) exercise" } ?? "the analysis"
            throw CoachKitError(
                .unmeasurable,
                "\(name): \(what) needs \(never.map(\.name).joined(separator: ", ")), never seen in the recording; "
                    + "film the whole body\(exercise == nil ? "" : " or choose another exercise")"
            )
        }
    }

    /// Coaches every frame of `source` and returns the summary: `ptcoach analyze`'s loop.
    ///
    /// - Parameter observe: sees the coach's state after each frame (the report's angle chart, set-up guidance).
    /// - Throws: what `source` throws; ``CoachKitError`` as ``checkCoached(frames:name:)``.
    public static func analyze(
        source: inout some PoseFrameSource,
        configuration: Configuration,
        name: String,
        observe: (CoachSnapshot) -> Void = { _ in }
    ) throws -> SessionSummary {
        var session = CoachingSession(configuration: configuration)
        var frames = 0
        while let frame = try source.next() {
            frames += 1
            _ = session.ingest(frame)
            observe(session.snapshot)
        }
        try session.checkCoached(frames: frames, name: name)
        return session.summary()
    }
}

/// Gives one cue at a time, the most important first, with a pause between cues; safety warnings and
/// timing cues (the end of a prescribed hold) go out at once.
///
/// Cues offered while the cooldown runs wait in a single slot that keeps the most important one; a
/// waiting cue older than `maximumWaitSeconds` is dropped (it no longer describes what the person does).
/// The same text is not repeated within `repeatSeconds`, so a person who keeps making the same
/// mistake hears it every so often, not every repetition.
///
/// ```swift
/// var cues = CueScheduler()
/// cues.offer(Cue(kind: .form, text: "Keep your chest up", priority: 2, seconds: t))
/// if let cue = cues.ingest(at: t) { speak(cue.text) }
/// ```
public struct CueScheduler: Sendable {
    public struct Configuration: Sendable, Hashable {
        public var cooldownSeconds: Double
        public var maximumWaitSeconds: Double
        public var repeatSeconds: Double

        public init(cooldownSeconds: Double = 4, maximumWaitSeconds: Double = 3, repeatSeconds: Double = 10) {
            precondition(cooldownSeconds >= 0, "cooldownSeconds (\(cooldownSeconds)) must not be negative")
            self.cooldownSeconds = cooldownSeconds
            self.maximumWaitSeconds = maximumWaitSeconds
            self.repeatSeconds = repeatSeconds
        }
    }

    public let configuration: Configuration
    private var pending: Cue?
    /// The cue given most recently (`nil`: none yet): the cooldown runs from it, and its text is not said again
    /// within ``Configuration/repeatSeconds``.
    public private(set) var current: Cue?

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    /// Offers a cue. A safety or timing cue is returned at once (no cooldown, even if it was just said);
    /// others wait for ``ingest(at:)``.
    public mutating func offer(_ cue: Cue) -> Cue? {
        if cue.kind.isImmediate {
            speak(cue)
            return cue
        }
        if let last = current, cue.text == last.text, cue.seconds - last.seconds < configuration.repeatSeconds {
            return nil
        }
        if let pending, pending.outranks(cue), cue.seconds - pending.seconds <= configuration.maximumWaitSeconds {
            return nil
        }
        pending = cue
        return nil
    }

    /// The cue to give now, if the cooldown is over and one is waiting.
    public mutating func ingest(at seconds: Double) -> Cue? {
        guard let cue = pending else { return nil }
        if seconds - cue.seconds > configuration.maximumWaitSeconds {
            pending = nil
            return nil
        }
        if let last = current, seconds - last.seconds < configuration.cooldownSeconds { return nil }
        pending = nil
        var given = cue
        given.seconds = seconds
        speak(given)
        return given
    }

    private mutating func speak(_ cue: Cue) {
        current = cue
    }

    /// Drops the waiting cue if `shouldWithdraw` says so (a form cue about a repetition that was withdrawn
    /// must not be given after it); the cooldown and the repeat memory stay.
    ///
    /// ```swift
    /// cues.withdrawPending { $0.kind == .form || $0.kind == .encouragement }
    /// ```
    public mutating func withdrawPending(where shouldWithdraw: (Cue) -> Bool) {
        if let cue = pending, shouldWithdraw(cue) { pending = nil }
    }

    /// Forgets waiting cues and the cooldown.
    public mutating func reset() {
        pending = nil
        current = nil
    }
}

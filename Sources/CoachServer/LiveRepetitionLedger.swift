import CoachKit

/// What the client has been told of a set's repetitions, so that the events sent keep the protocol's promise
/// (docs/live-protocol.md): a `rep` adds one repetition, numbered one more than those told before; any other change
/// to the repetitions told (one withdrawn, renumbered, or judged again once the exercise was named) comes as one
/// `repsRevised` with all of them. A client that adds a repetition per `rep` and replaces them all per `repsRevised`
/// ends with the set's saved repetitions.
///
/// The coach's own events already fold to its repetitions (``CoachKit/CoachEvent/fold(_:)``), but within that rule a
/// repetition re-judged could come as a second `rep` with a known index after a revision in an earlier message,
/// and a client counting `rep` events counted it twice. The ledger turns each message's repetition events into the
/// least that takes the client from what it was told to what the coach has now.
///
/// ```swift
/// var ledger = LiveRepetitionLedger()
/// let sent = ledger.translate(session.ingest(frame))   // `repCompleted` only for a new, next repetition
/// ```
struct LiveRepetitionLedger: Sendable {
    /// The repetitions the events translated so far tell a client.
    private(set) var told: [Repetition] = []
    /// The coach's repetitions: its events folded.
    private var folded: [Repetition] = []

    /// The events to send for one message, from the coach's `events` of it: the others as they are, in order, and in
    /// place of the coach's first repetition event, the change from what was told to what the coach has now: nothing,
    /// one `repCompleted` for each repetition added after those told, or one `repetitionsRevised` with all of them.
    mutating func translate(_ events: [CoachEvent]) -> [CoachEvent] {
        var out: [CoachEvent] = []
        out.reserveCapacity(events.count)
        var insertAt: Int?
        for event in events {
            switch event {
            case .repCompleted(let repetition):
                folded.append(repetition)
                if insertAt == nil { insertAt = out.count }
            case .repetitionsRevised(let repetitions):
                folded = repetitions
                if insertAt == nil { insertAt = out.count }
            default:
                out.append(event)
            }
        }
        guard let insertAt else { return out }
        out.insert(contentsOf: change(), at: insertAt)
        told = folded
        return out
    }

    /// What takes a client from ``told`` to ``folded``.
    private func change() -> [CoachEvent] {
        if folded == told { return [] }
        let added = folded.count - told.count
        if added > 0, folded.prefix(told.count).elementsEqual(told),
            folded[told.count...].enumerated().allSatisfy({ $0.element.index == told.count + $0.offset + 1 })
        {
            return folded[told.count...].map(CoachEvent.repCompleted)
        }
        return [.repetitionsRevised(folded)]
    }
}

extension RepetitionJudge {
    /// A repetition's angles as measured (``AngleMeter``), per angle slot (``AngleSlot/index``, `angle * 2 + side`):
    /// each slot's range, its value where the counted signal peaked, and the body parts that kept it from being seen.
    ///
    /// ```swift
    /// let statistics = meter.closeRepetition(counted: AngleSlot(angle: 0, side: .left), rest: 5, peak: 92)
    /// if let knee = statistics[AngleSlot(angle: 0, side: .left)].range { print(knee.low, knee.high) }
    /// ```
    struct Statistics: Sendable, Hashable {
        struct Slot: Sendable, Hashable {
            /// The lowest and highest value measured (`nil`: none was).
            var low: Double?
            var high: Double?
            /// The value where the counted signal went furthest (`nil`: not measured there).
            var atPeak: Double?
            /// The body parts (``BodyPart`` bits) that kept the slot from being seen.
            var missingParts = 0

            /// The range measured, `nil` when nothing was.
            var range: (low: Double, high: Double)? {
                guard let low, let high else { return nil }
                return (low, high)
            }

            /// Takes in a value measured; `atPeak` when the counted signal is at its furthest so far.
            mutating func measure(_ value: Double, atPeak peak: Bool) {
                if low.map({ value < $0 }) ?? true { low = value }
                if high.map({ value > $0 }) ?? true { high = value }
                if peak { atPeak = value }
            }

            /// Folds in a counter's own rest and peak: the range holds both, and the value at the peak is the
            /// counter's.
            mutating func fold(rest: Double, peak: Double) {
                let lowest = Swift.min(rest, peak)
                let highest = Swift.max(rest, peak)
                low = low.map { Swift.min($0, lowest) } ?? lowest
                high = high.map { Swift.max($0, highest) } ?? highest
                atPeak = peak
            }
        }

        /// Per slot.
        var slots: [Slot]

        init(slots: Int) {
            self.slots = Array(repeating: Slot(), count: slots)
        }

        subscript(slot: AngleSlot) -> Slot {
            get { slots[slot.index] }
            set { slots[slot.index] = newValue }
        }
    }
}

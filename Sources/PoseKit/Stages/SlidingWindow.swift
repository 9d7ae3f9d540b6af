/// Fixed-length windows with a stride over a stream (Create ML's `SlidingWindowTransformer`).
///
/// The first window comes out when `length` elements have arrived, then one every `stride` elements.
/// With `stride < length` windows overlap; with `stride > length` the elements between windows are
/// skipped. Elements are kept in a ring buffer; only the emitted window is a new array.
///
/// ```swift
/// var windows = SlidingWindow<Pose>(length: 60, stride: 15)   // 2 s at 30 fps, every 0.5 s
/// for pose in poses {
///     if let window = windows.append(pose) { classify(window) }
/// }
/// ```
public struct SlidingWindow<Element: Sendable>: Sendable {
    public let length: Int
    public let stride: Int

    private var buffer: [Element] = []
    /// Where the next element goes once the buffer is full.
    private var head = 0
    /// Elements appended since the last window (or since the start).
    private var sinceWindow = 0
    private var emitted = false

    public init(length: Int, stride: Int) {
        precondition(length >= 1, "length (\(length)) must be at least 1")
        precondition(stride >= 1, "stride (\(stride)) must be at least 1")
        self.length = length
        self.stride = stride
        buffer.reserveCapacity(length)
    }

    /// The elements currently held, oldest first (at most `length`).
    public var elements: [Element] {
        buffer.count < length ? buffer : Array(buffer[head...] + buffer[..<head])
    }

    /// Appends `element`; returns a full window, oldest first, every `stride` elements once `length`
    /// have arrived, and `nil` otherwise.
    public mutating func append(_ element: Element) -> [Element]? {
        if buffer.count < length {
            buffer.append(element)
        } else {
            buffer[head] = element
            head += 1
            if head == length { head = 0 }
        }
        sinceWindow += 1
        guard buffer.count == length else { return nil }
        guard !emitted || sinceWindow >= stride else { return nil }
        emitted = true
        sinceWindow = 0
        if head == 0 { return buffer }
        var window: [Element] = []
        window.reserveCapacity(length)
        window.append(contentsOf: buffer[head...])
        window.append(contentsOf: buffer[..<head])
        return window
    }

    /// Empties the window; the next window comes after `length` new elements.
    public mutating func reset() {
        buffer.removeAll(keepingCapacity: true)
        head = 0
        sinceWindow = 0
        emitted = false
    }
}

import Foundation

/// A small bounded first-in-first-out queue between two threads: `push` waits while it is full,
/// `pop` waits while it is empty.
///
/// ```swift
/// let queue = BlockingQueue<Int>(capacity: 2)
/// // producer thread:
/// for i in 0..<10 { queue.push(i) }; queue.close()
/// // consumer thread:
/// while let i = queue.pop() { … }
/// ```
// @unchecked: every stored property is guarded by `condition`.
public final class BlockingQueue<Element: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var elements: [Element] = []
    private var closed = false
    /// The most elements held at once.
    public let capacity: Int

    public init(capacity: Int) {
        precondition(capacity > 0, "capacity (\(capacity)) must be at least 1")
        self.capacity = capacity
    }

    /// Appends `element`, waiting while the queue is full.
    ///
    /// - Returns: `false` (and drops `element`) when the queue was closed.
    @discardableResult
    public func push(_ element: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while elements.count >= capacity, !closed { condition.wait() }
        guard !closed else { return false }
        elements.append(element)
        condition.broadcast()
        return true
    }

    /// Appends `element` if there is room, without waiting.
    ///
    /// - Returns: whether it was added.
    @discardableResult
    public func tryPush(_ element: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !closed, elements.count < capacity else { return false }
        elements.append(element)
        condition.broadcast()
        return true
    }

    /// Removes the oldest element, waiting while the queue is empty; `nil` once it is closed and empty.
    public func pop() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while elements.isEmpty, !closed { condition.wait() }
        return take()
    }

    /// Removes the oldest element if there is one, without waiting.
    public func tryPop() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        return take()
    }

    /// Ends the queue: waiting pushes return `false`, pops drain what is left and then return `nil`.
    public func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    private func take() -> Element? {
        guard !elements.isEmpty else { return nil }
        // removeFirst is O(capacity), and the queue is small; it also drops the array's reference
        // to the element (a frame buffer), which an index-based ring kept alive.
        let element = elements.removeFirst()
        condition.broadcast()
        return element
    }
}

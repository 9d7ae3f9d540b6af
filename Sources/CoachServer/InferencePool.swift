import Foundation

/// Something with at most one frame waiting to be processed: a live set.
protocol FrameQueueing: AnyObject, Sendable {
    /// Processes the frame waiting, if any (called by one worker at a time per set); whether there was one.
    @discardableResult func processWaitingFrame() -> Bool
    /// Whether a frame is waiting.
    var hasWaitingFrame: Bool { get }
}

/// Runs the pose model for every live set on a few worker threads, one per core (inference is single-threaded
/// and CPU-bound). Sets take turns: a set with a frame waiting joins the back of the line, and after its frame
/// is processed it goes to the back again if another came meanwhile, so a fast client cannot starve a slow one.
/// Each set has room for one waiting frame (latest wins, like `alwaysDiscardsLateVideoFrames`): the set keeps
/// that slot; this pool only keeps the line.
///
/// `@unchecked Sendable`: every stored property but the constants (`workers`, `minimumFramesPerSecond`, and
/// `threads`, written only in `init`) is read and written with `condition` locked. An `NSCondition` rather than a
/// `Mutex`: the workers sleep on it until a set joins the line (`wait()`), and `Synchronization.Mutex` has no
/// condition variable to wait on.
final class InferencePool: @unchecked Sendable {
    private let condition = NSCondition()
    /// The sets in line (a set at most once), oldest first from `head`; taken ones are cleared, so that a set that
    /// ended is not kept alive (with its pose model) by the line.
    private var inLine: Set<ObjectIdentifier> = []
    private var order: [(any FrameQueueing)?] = []
    private var head = 0
    /// Sets being processed now: never two workers on one set.
    private var running: Set<ObjectIdentifier> = []
    private var stopped = false
    /// What the workers manage, from the frames they processed (admission by capacity).
    private var capacity: InferenceCapacity
    private var threads: [Thread] = []
    let workers: Int

    init(workers: Int, capacity: InferenceCapacity.Configuration = .init()) {
        self.workers = max(1, workers)
        self.capacity = InferenceCapacity(configuration: capacity)
        // A copy, so that reading it takes no lock (`capacity` changes under the lock as frames are processed).
        minimumFramesPerSecond = capacity.minimumFramesPerSecond
        for k in 0..<self.workers {
            let thread = Thread { [unowned self] in self.work() }
            thread.name = "ptcoach-inference-\(k)"
            thread.stackSize = 4 << 20
            threads.append(thread)
            thread.start()
        }
    }

    /// Says that `set` has a frame waiting; it joins the line unless it is in it or being processed.
    func enqueue(_ set: any FrameQueueing) {
        let key = ObjectIdentifier(set)
        condition.lock()
        defer { condition.unlock() }
        guard !stopped, !inLine.contains(key), !running.contains(key) else { return }
        inLine.insert(key)
        order.append(set)
        condition.signal()
    }

    /// Whether `set` is waiting or being processed.
    func isBusy(_ set: any FrameQueueing) -> Bool {
        let key = ObjectIdentifier(set)
        condition.lock()
        defer { condition.unlock() }
        return inLine.contains(key) || running.contains(key)
    }

    /// Whether one more camera session fits beside `running` ones at the rate the workers have been measured at.
    func admission(running: Int) -> InferenceCapacity.Admission {
        condition.lock()
        defer { condition.unlock() }
        return capacity.admission(running: running, workers: workers)
    }

    /// The rate every camera session keeps when admission is by capacity.
    let minimumFramesPerSecond: Double

    /// Stops the workers once the frames in line are processed.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while head == order.count, !stopped { condition.wait() }
            if head == order.count {
                condition.unlock()
                return
            }
            // Entries from `head` on are never cleared: only taken ones are.
            let set = order[head]!
            order[head] = nil
            head += 1
            if head == order.count {
                order.removeAll(keepingCapacity: true)
                head = 0
            } else if head > 64, head * 2 > order.count {
                order.removeFirst(head)
                head = 0
            }
            let key = ObjectIdentifier(set)
            inLine.remove(key)
            running.insert(key)
            condition.unlock()

            let started = ContinuousClock.now
            let processed = set.processWaitingFrame()
            let cost = ContinuousClock.now - started

            condition.lock()
            if processed { capacity.record(frameCost: cost) }
            running.remove(key)
            // Another frame came while this one was processed: back of the line.
            if set.hasWaitingFrame, !stopped, !inLine.contains(key) {
                inLine.insert(key)
                order.append(set)
                condition.signal()
            }
            condition.unlock()
        }
    }
}

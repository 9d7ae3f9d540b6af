import Foundation
public import PoseKit

/// A ``VideoDecoder`` running on its own thread a few frames ahead of the consumer, so decoding
/// overlaps with whatever the consumer does with each frame (pose inference).
///
/// Memory stays bounded: at most `capacity` frames wait, and images handed back with
/// ``recycle(_:)`` are reused for later frames.
///
/// ```swift
/// let frames = try PrefetchingVideoDecoder(path: "squat.mp4")
/// while let frame = try frames.next() {
///     let poses = try estimator.poses(in: frame.image, at: frame.seconds)
///     frames.recycle(frame.image)
/// }
/// ```
public final class PrefetchingVideoDecoder {
    private enum Item: Sendable {
        case frame(VideoFrame)
        case failure(MediaIOError)
    }

    /// The decoded file.
    public let info: VideoInfo
    /// 3 (`rgb24`) or 4 (`rgb0`).
    public let bytesPerPixel: Int
    private let queue: BlockingQueue<Item>
    private let spare: BlockingQueue<RGBImage>
    private let done = DispatchSemaphore(value: 0)
    private var ended = false

    /// Starts decoding `path` from `start` up to (not including) `end` on a new thread.
    ///
    /// - Parameters:
    ///   - capacity: the most decoded frames waiting for the consumer.
    ///   - threads: ffmpeg decoding threads; 0 lets ffmpeg choose.
    ///   - bytesPerPixel: 3 for `rgb24` images, 4 for `rgb0`.
    /// - Throws: what ``VideoDecoder/init(path:start:end:info:allowsStillImage:threads:bytesPerPixel:)`` throws.
    public init(
        path: String,
        start: Double = 0,
        end: Double? = nil,
        info: VideoInfo? = nil,
        allowsStillImage: Bool = false,
        capacity: Int = 2,
        threads: Int = 0,
        bytesPerPixel: Int = 3
    ) throws(MediaIOError) {
        let info = if let info { info } else { try VideoInfo(probing: path) }
        self.info = info
        self.bytesPerPixel = bytesPerPixel
        let queue = BlockingQueue<Item>(capacity: capacity)
        let spare = BlockingQueue<RGBImage>(capacity: capacity + 2)
        self.queue = queue
        self.spare = spare
        // The decoder is made here, so that opening errors reach the caller directly, and then
        // handed to the thread, which alone uses it from then on.
        let decoder = try VideoDecoder(
            path: path,
            start: start,
            end: end,
            info: info,
            allowsStillImage: allowsStillImage,
            threads: threads,
            bytesPerPixel: bytesPerPixel
        )
        let transfer = Transfer(decoder)
        let done = done
        let thread = Thread {
            let decoder = transfer.value
            while true {
                var image =
                    spare.tryPop() ?? RGBImage(width: info.width, height: info.height, bytesPerPixel: bytesPerPixel)
                do throws(MediaIOError) {
                    guard let seconds = try decoder.nextFrame(into: &image) else { break }
                    let frame = VideoFrame(index: decoder.framesDelivered - 1, seconds: seconds, image: image)
                    if !queue.push(.frame(frame)) { break }
                } catch {
                    queue.push(.failure(error))
                    break
                }
            }
            decoder.stop()
            queue.close()
            done.signal()
        }
        thread.name = "video-decoder"
        thread.start()
    }

    deinit {
        queue.close()
        spare.close()
        if !ended { done.wait() }
    }

    /// The next frame, waiting for it if needed; `nil` at the end.
    ///
    /// - Throws: the decoder's ``MediaIOError`` (`.decodeFailed` for a damaged file) after every
    ///   frame before the failure was returned.
    public func next() throws(MediaIOError) -> VideoFrame? {
        switch queue.pop() {
        case .frame(let frame)?:
            return frame
        case .failure(let error)?:
            finish()
            throw error
        case nil:
            finish()
            return nil
        }
    }

    /// Hands an image back for reuse by a later frame (saves an allocation per frame).
    public func recycle(_ image: RGBImage) {
        if image.width == info.width, image.height == info.height, image.bytesPerPixel == bytesPerPixel {
            _ = spare.tryPush(image)
        }
    }

    /// Stops decoding early.
    public func stop() {
        queue.close()
        finish()
    }

    private func finish() {
        guard !ended else { return }
        ended = true
        done.wait()
    }
}

/// Moves a value that is not `Sendable` to another thread that becomes its only user.
// @unchecked: the creating thread never touches `value` after handing it over.
private final class Transfer<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

import CMediaPipe
import PoseKit

/// What both landmarkers do to a frame before the model sees it: a timestamp that increases, in whole
/// milliseconds (video and live modes), and the picture copied into an `MpImage`.
///
/// ```swift
/// var input = MediaPipeFrameInput(library: library, tracking: true)
/// let timestamp = try input.timestamp(for: seconds)      // nil in image mode
/// let image = try input.image(from: rgb)
/// defer { library.imageFree(image) }
/// ```
struct MediaPipeFrameInput {
    let library: MediaPipeLibrary
    /// Video or live mode: frames of one stream, times increasing.
    let tracking: Bool
    private var lastTimestampMilliseconds: Int64?
    /// Added to the current stream's times: MediaPipe's clock must keep going forward across the streams (the
    /// sessions of a live server) one landmarker serves.
    private var streamOffsetSeconds = 0.0
    /// Reused for images whose rows are padded: MediaPipe takes packed rows only.
    private var packedRows: [UInt8] = []

    init(library: MediaPipeLibrary, tracking: Bool) {
        self.library = library
        self.tracking = tracking
    }

    /// The MediaPipe timestamp for a frame at `seconds`, or `nil` in image mode.
    ///
    /// - Throws: `timestampNotIncreasing` for a time that is not finite and positive or goes backwards; frames
    ///   under a millisecond apart are spaced by 1 ms.
    mutating func timestamp(for seconds: Double) throws(PoseEstimationError) -> Int64? {
        guard tracking else { return nil }
        guard seconds.isFinite, seconds >= 0, seconds < 1e12 else {
            throw PoseEstimationError(
                .timestampNotIncreasing,
                "frame time \(seconds) s is not a valid stream time: give seconds since the start of the stream"
            )
        }
        let modelSeconds = streamOffsetSeconds + seconds
        var milliseconds = Int64((modelSeconds * 1000).rounded())
        if let last = lastTimestampMilliseconds, milliseconds <= last {
            // Frames under a millisecond apart still get distinct timestamps; going backwards is an error.
            guard modelSeconds * 1000 > Double(last) - 0.5 else {
                throw PoseEstimationError(
                    .timestampNotIncreasing,
                    "frame time \(seconds) s is not after the previous frame "
                        + "(\(Double(last) / 1000 - streamOffsetSeconds) s): "
                        + "video and live modes need increasing times; use image mode for unrelated images"
                )
            }
            milliseconds = last + 1
        }
        lastTimestampMilliseconds = milliseconds
        return milliseconds
    }

    /// Another stream begins: its times start again from 0 and continue the model's clock a second after the last
    /// frame (video mode needs increasing times; the gap is long enough for the tracker to look afresh).
    mutating func startStream() {
        guard let last = lastTimestampMilliseconds else { return }
        streamOffsetSeconds = Double(last) / 1000 + 1
    }

    /// Copies `image` into a new MediaPipe image (freed by the caller with `imageFree`): SRGB for `rgb24`,
    /// SRGBA for `rgb0` (MediaPipe ignores the fourth byte, so both give the same landmarks).
    mutating func image(from image: RGBImage) throws(PoseEstimationError) -> OpaquePointer {
        let rowBytes = image.width * image.bytesPerPixel
        let byteCount = rowBytes * image.height
        guard byteCount <= Int(Int32.max) else {
            throw PoseEstimationError(
                .detectionFailed,
                "image \(image.width)x\(image.height) is too large for MediaPipe: scale it down first"
            )
        }
        let format = image.bytesPerPixel == 4 ? kMpImageFormatSrgba : kMpImageFormatSrgb
        var created: OpaquePointer? = nil
        let library = self.library
        func create(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<Void, PoseEstimationError> {
            Result { () throws(PoseEstimationError) in try check(bytes) }
        }
        func check(_ bytes: UnsafeBufferPointer<UInt8>) throws(PoseEstimationError) {
            try library.check(.detectionFailed, "MediaPipe could not take the \(image.width)x\(image.height) image") {
                library.imageCreateFromUint8Data(
                    Int32(format),
                    Int32(image.width),
                    Int32(image.height),
                    bytes.baseAddress,
                    Int32(byteCount),
                    &created,
                    $0
                )
            }
        }
        if image.bytesPerRow == rowBytes {
            try image.bytes.withUnsafeBufferPointer(create).get()
        } else {
            packedRows.removeAll(keepingCapacity: true)
            packedRows.reserveCapacity(byteCount)
            for row in 0..<image.height {
                let start = row * image.bytesPerRow
                packedRows.append(contentsOf: image.bytes[start..<start + rowBytes])
            }
            try packedRows.withUnsafeBufferPointer(create).get()
        }
        guard let created else {
            throw PoseEstimationError(.detectionFailed, "MediaPipe returned no image for the frame")
        }
        return created
    }
}

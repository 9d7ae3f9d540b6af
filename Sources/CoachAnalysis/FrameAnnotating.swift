import CoachPipeline
public import PoseKit

/// Draws each frame of the video once its poses are known, in time order (`analyze --annotate`).
///
/// Every frame comes on segment 0's thread with the picture segment 0 decoded: right after its inference
/// before the first boundary, and with the line a later segment found (``PoseLineSpool``) after it.
///
/// ```swift
/// final class Drawer: FrameAnnotating { func annotate(line: String, image: inout RGBImage) throws { … } }
/// ```
public protocol FrameAnnotating: AnyObject, Sendable {
    /// The pictures it wants: 4 (`rgb0`, drawn on in place by Cairo) or 3 (`rgb24`) bytes a pixel.
    var bytesPerPixel: Int { get }

    /// Handles one frame: its pose-track line and its picture. `image` may be kept: it is then replaced by
    /// another buffer of the same size, which the caller reuses for a later frame.
    func annotate(line: String, image: inout RGBImage) throws
}

public import PoseKit

/// One decoded frame: its picture and when it was shown.
public struct VideoFrame: Sendable {
    /// 0-based position among the frames the decoder delivered.
    public var index: Int
    /// Seconds since the first frame of the file (its real timestamp, also for variable frame rates).
    public var seconds: Double
    public var image: RGBImage

    public init(index: Int, seconds: Double, image: RGBImage) {
        self.index = index
        self.seconds = seconds
        self.image = image
    }
}

public import PoseKit

extension RGBImage {
    /// The image encoded as PNG (through Cairo), for report stills and snapshots.
    ///
    /// ```swift
    /// let png = image.pngBytes()
    /// try Data(png).write(to: URL(fileURLWithPath: "/tmp/frame.png"))
    /// ```
    public func pngBytes() -> [UInt8] {
        let surface = CairoImageSurface(width: width, height: height)
        surface.load(from: self)
        return surface.pngBytes()
    }
}

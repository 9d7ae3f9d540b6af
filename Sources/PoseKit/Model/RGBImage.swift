/// A packed 8-bit RGB image, rows top to bottom: `rgb24` (3 bytes a pixel), or `rgb0` (4 bytes a pixel:
/// red, green, blue and one unused byte — the layout MediaPipe's SRGBA and a Cairo surface read in place).
public struct RGBImage: Sendable {
    public var width: Int
    public var height: Int
    /// `width * bytesPerPixel` unless rows are padded.
    public var bytesPerRow: Int
    /// 3 (`rgb24`) or 4 (`rgb0`).
    public var bytesPerPixel: Int
    public var bytes: [UInt8]

    public init(width: Int, height: Int, bytesPerRow: Int? = nil, bytesPerPixel: Int = 3, bytes: [UInt8]) {
        precondition(bytesPerPixel == 3 || bytesPerPixel == 4, "bytesPerPixel (\(bytesPerPixel)) must be 3 or 4")
        let stride = bytesPerRow ?? width * bytesPerPixel
        precondition(width > 0 && height > 0, "image size \(width)x\(height) must be positive")
        precondition(bytes.count >= stride * height, "\(bytes.count) bytes is too few for \(width)x\(height)")
        self.width = width
        self.height = height
        self.bytesPerRow = stride
        self.bytesPerPixel = bytesPerPixel
        self.bytes = bytes
    }

    /// A black image.
    public init(width: Int, height: Int, bytesPerPixel: Int = 3) {
        self.init(
            width: width,
            height: height,
            bytesPerPixel: bytesPerPixel,
            bytes: Array(repeating: 0, count: width * height * bytesPerPixel)
        )
    }

    /// The colour at pixel (x, y).
    public subscript(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
        let i = y * bytesPerRow + x * bytesPerPixel
        return (bytes[i], bytes[i + 1], bytes[i + 2])
    }
}

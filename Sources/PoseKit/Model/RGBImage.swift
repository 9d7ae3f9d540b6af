/// A packed 8-bit RGB image (`rgb24`), rows top to bottom.
public struct RGBImage: Sendable {
    public var width: Int
    public var height: Int
    /// `width * 3` unless rows are padded.
    public var bytesPerRow: Int
    public var bytes: [UInt8]

    public init(width: Int, height: Int, bytesPerRow: Int? = nil, bytes: [UInt8]) {
        let stride = bytesPerRow ?? width * 3
        precondition(width > 0 && height > 0, "image size \(width)x\(height) must be positive")
        precondition(bytes.count >= stride * height, "\(bytes.count) bytes is too few for \(width)x\(height)")
        self.width = width
        self.height = height
        self.bytesPerRow = stride
        self.bytes = bytes
    }

    /// A black image.
    public init(width: Int, height: Int) {
        self.init(width: width, height: height, bytes: Array(repeating: 0, count: width * height * 3))
    }

    /// The colour at pixel (x, y).
    public subscript(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
        let i = y * bytesPerRow + x * 3
        return (bytes[i], bytes[i + 1], bytes[i + 2])
    }
}

public import PoseKit

/// One frame in planar `yuv420p` (BT.601, limited range: what ffmpeg's own conversion of RGB gives), the
/// format H.264 and VP9 encode: a full-size luma plane, then the two chroma planes at half width and half
/// height (rounded up), each averaged over its 2×2 pixels.
///
/// ``VideoEncoder`` converts each ``PoseKit/RGBImage`` here before handing it to ffmpeg: converting in
/// Swift costs about a third of ffmpeg's generic RGB conversion, and the pipe carries half the bytes of
/// `rgb24` (three eighths of `rgb0`). The storage is reused from frame to frame.
///
/// ```swift
/// var frame = YUV420Frame(width: 1280, height: 720)
/// frame.convert(image)               // rgb24 or rgb0
/// try ffmpeg.write(frame.bytes)
/// ```
public struct YUV420Frame: Sendable {
    public let width: Int
    public let height: Int
    /// The Y plane (`width × height`), then U and V (`chromaWidth × chromaHeight` each).
    public private(set) var bytes: [UInt8]

    public var chromaWidth: Int { (width + 1) / 2 }
    public var chromaHeight: Int { (height + 1) / 2 }

    /// A black frame.
    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "frame size \(width)x\(height) must be positive")
        self.width = width
        self.height = height
        let chroma = ((width + 1) / 2) * ((height + 1) / 2)
        bytes = [UInt8](repeating: 16, count: width * height) + [UInt8](repeating: 128, count: 2 * chroma)
    }

    /// The luma of pixel (x, y).
    public func luma(x: Int, y: Int) -> UInt8 { bytes[y * width + x] }

    /// The chroma (U, V) of the 2×2 block holding pixel (x, y).
    public func chroma(x: Int, y: Int) -> (u: UInt8, v: UInt8) {
        let index = (y / 2) * chromaWidth + x / 2
        let planeSize = chromaWidth * chromaHeight
        return (bytes[width * height + index], bytes[width * height + planeSize + index])
    }

    /// Converts `image` (this frame's size; `rgb24` or `rgb0`, any row stride) into this frame.
    public mutating func convert(_ image: RGBImage) {
        precondition(
            image.width == width && image.height == height,
            "image \(image.width)x\(image.height) ≠ frame \(width)x\(height)"
        )
        let (width, height, chromaWidth) = (width, height, chromaWidth)
        let stride = image.bytesPerRow
        let fourBytes = image.bytesPerPixel == 4
        image.bytes.withUnsafeBufferPointer { source in
            bytes.withUnsafeMutableBufferPointer { target in
                guard let source = source.baseAddress, let target = target.baseAddress else { return }
                let u = target + width * height
                let v = u + chromaWidth * ((height + 1) / 2)
                if fourBytes, stride % 4 == 0 {
                    Self.convertRGB0(source, stride / 4, width, height, target, u, v, chromaWidth)
                } else if fourBytes {
                    Self.convert(source, stride, 4, width, height, target, u, v, chromaWidth)
                } else {
                    Self.convert(source, stride, 3, width, height, target, u, v, chromaWidth)
                }
            }
        }
    }

    /// The conversion of `rgb0` rows read as little-endian `UInt32`s (red in the low byte): whole pixels per
    /// load, and the 2×2 red and blue sums added in one word, which the compiler vectorises.
    private static func convertRGB0(
        _ bytes: UnsafePointer<UInt8>,
        _ stride: Int,
        _ width: Int,
        _ height: Int,
        _ luma: UnsafeMutablePointer<UInt8>,
        _ u: UnsafeMutablePointer<UInt8>,
        _ v: UnsafeMutablePointer<UInt8>,
        _ chromaWidth: Int
    ) {
        UnsafeRawPointer(bytes).withMemoryRebound(to: UInt32.self, capacity: stride * height) { source in
            for y in 0..<height {
                let row = source + y * stride
                let out = luma + y * width
                for x in 0..<width {
                    let p = row[x].littleEndian
                    let r = p & 0xFF
                    let g = (p &>> 8) & 0xFF
                    let b = (p &>> 16) & 0xFF
                    out[x] = UInt8(truncatingIfNeeded: ((66 &* r &+ 129 &* g &+ 25 &* b &+ 128) &>> 8) &+ 16)
                }
            }
            let evenWidth = width & ~1
            for cy in 0..<(height + 1) / 2 {
                let top = source + 2 * cy * stride
                let bottom = 2 * cy + 1 < height ? top + stride : top
                let outU = u + cy * chromaWidth
                let outV = v + cy * chromaWidth
                for cx in 0..<evenWidth / 2 {
                    let a0 = top[2 * cx].littleEndian
                    let a1 = top[2 * cx + 1].littleEndian
                    let b0 = bottom[2 * cx].littleEndian
                    let b1 = bottom[2 * cx + 1].littleEndian
                    // Red in bits 0-15, blue in bits 16-31: each sum of four bytes fits its half.
                    let redBlue = (a0 & 0xFF_00FF) &+ (a1 & 0xFF_00FF) &+ (b0 & 0xFF_00FF) &+ (b1 & 0xFF_00FF)
                    let green =
                        ((a0 &>> 8) & 0xFF) &+ ((a1 &>> 8) & 0xFF) &+ ((b0 &>> 8) & 0xFF) &+ ((b1 &>> 8) & 0xFF)
                    let r = Int32(truncatingIfNeeded: redBlue & 0xFFFF)
                    let g = Int32(truncatingIfNeeded: green)
                    let bl = Int32(truncatingIfNeeded: redBlue &>> 16)
                    outU[cx] = UInt8(truncatingIfNeeded: ((-38 &* r &- 74 &* g &+ 112 &* bl &+ 512) &>> 10) &+ 128)
                    outV[cx] = UInt8(truncatingIfNeeded: ((112 &* r &- 94 &* g &- 18 &* bl &+ 512) &>> 10) &+ 128)
                }
            }
            if evenWidth < width {
                // The last column of an odd width: the byte-wise conversion has the same rule.
                let bytesPerRow = stride * 4
                for cy in 0..<(height + 1) / 2 {
                    let top = bytes + 2 * cy * bytesPerRow + evenWidth * 4
                    let bottom = 2 * cy + 1 < height ? top + bytesPerRow : top
                    let r = 2 &* (Int32(top[0]) &+ Int32(bottom[0]))
                    let g = 2 &* (Int32(top[1]) &+ Int32(bottom[1]))
                    let bl = 2 &* (Int32(top[2]) &+ Int32(bottom[2]))
                    u[cy * chromaWidth + evenWidth / 2] = UInt8(
                        truncatingIfNeeded: ((-38 &* r &- 74 &* g &+ 112 &* bl &+ 512) &>> 10) &+ 128
                    )
                    v[cy * chromaWidth + evenWidth / 2] = UInt8(
                        truncatingIfNeeded: ((112 &* r &- 94 &* g &- 18 &* bl &+ 512) &>> 10) &+ 128
                    )
                }
            }
        }
    }

    /// The conversion for `pixel` bytes a pixel (a constant at each call, so each loop is specialised).
    @inline(__always)
    private static func convert(
        _ source: UnsafePointer<UInt8>,
        _ stride: Int,
        _ pixel: Int,
        _ width: Int,
        _ height: Int,
        _ luma: UnsafeMutablePointer<UInt8>,
        _ u: UnsafeMutablePointer<UInt8>,
        _ v: UnsafeMutablePointer<UInt8>,
        _ chromaWidth: Int
    ) {
        for y in 0..<height {
            let row = source + y * stride
            let out = luma + y * width
            for x in 0..<width {
                let p = row + x * pixel
                let r = Int32(p[0])
                let g = Int32(p[1])
                let b = Int32(p[2])
                out[x] = UInt8(truncatingIfNeeded: ((66 &* r &+ 129 &* g &+ 25 &* b &+ 128) &>> 8) &+ 16)
            }
        }
        let evenWidth = width & ~1
        for cy in 0..<(height + 1) / 2 {
            let top = source + 2 * cy * stride
            // The last row of an odd height pairs with itself.
            let bottom = 2 * cy + 1 < height ? top + stride : top
            let outU = u + cy * chromaWidth
            let outV = v + cy * chromaWidth
            for cx in 0..<evenWidth / 2 {
                let a = top + 2 * cx * pixel
                let b = bottom + 2 * cx * pixel
                let r = Int32(a[0]) &+ Int32(a[pixel]) &+ Int32(b[0]) &+ Int32(b[pixel])
                let g = Int32(a[1]) &+ Int32(a[pixel + 1]) &+ Int32(b[1]) &+ Int32(b[pixel + 1])
                let bl = Int32(a[2]) &+ Int32(a[pixel + 2]) &+ Int32(b[2]) &+ Int32(b[pixel + 2])
                outU[cx] = UInt8(truncatingIfNeeded: ((-38 &* r &- 74 &* g &+ 112 &* bl &+ 512) &>> 10) &+ 128)
                outV[cx] = UInt8(truncatingIfNeeded: ((112 &* r &- 94 &* g &- 18 &* bl &+ 512) &>> 10) &+ 128)
            }
            if evenWidth < width {
                // The last column of an odd width pairs with itself.
                let a = top + evenWidth * pixel
                let b = bottom + evenWidth * pixel
                let r = 2 &* (Int32(a[0]) &+ Int32(b[0]))
                let g = 2 &* (Int32(a[1]) &+ Int32(b[1]))
                let bl = 2 &* (Int32(a[2]) &+ Int32(b[2]))
                outU[evenWidth / 2] = UInt8(
                    truncatingIfNeeded: ((-38 &* r &- 74 &* g &+ 112 &* bl &+ 512) &>> 10) &+ 128
                )
                outV[evenWidth / 2] = UInt8(
                    truncatingIfNeeded: ((112 &* r &- 94 &* g &- 18 &* bl &+ 512) &>> 10) &+ 128
                )
            }
        }
    }
}

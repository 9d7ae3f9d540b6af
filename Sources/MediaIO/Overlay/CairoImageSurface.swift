import CCairo
import PoseKit

/// An owned Cairo `RGB24` image surface of a fixed size, with copies to and from ``RGBImage``.
///
/// Cairo stores each pixel as a native-endian `UInt32` `0x00RRGGBB`; `RGBImage` is packed bytes (`rgb24` or
/// `rgb0`), so frames are converted once on the way in and once on the way out. (Video frames skip this:
/// ``OverlayRenderer`` draws on `rgb0` bytes in place.)
final class CairoImageSurface {
    let width: Int
    let height: Int
    let surface: OpaquePointer
    let context: OpaquePointer

    init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "surface size \(width)x\(height) must be positive")
        self.width = width
        self.height = height
        surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height))
        context = cairo_create(surface)
        precondition(
            cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS,
            "Cairo could not create a \(width)x\(height) surface (out of memory?)"
        )
    }

    deinit {
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    /// Copies `image` (which must have this surface's size) onto the surface.
    func load(from image: RGBImage) {
        precondition(
            image.width == width && image.height == height,
            "image \(image.width)x\(image.height) ≠ surface \(width)x\(height)"
        )
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface) else { return }
        let stride = Int(cairo_image_surface_get_stride(surface))
        let sourceStride = image.bytesPerRow
        let pixel = image.bytesPerPixel
        image.bytes.withUnsafeBufferPointer { source in
            guard let source = source.baseAddress else { return }
            for row in 0..<height {
                let target = UnsafeMutableRawPointer(data + row * stride).assumingMemoryBound(to: UInt32.self)
                var s = source + row * sourceStride
                for column in 0..<width {
                    target[column] = UInt32(s[0]) << 16 | UInt32(s[1]) << 8 | UInt32(s[2])
                    s += pixel
                }
            }
        }
        cairo_surface_mark_dirty(surface)
    }

    /// Copies the surface into `image` (which must have this surface's size), keeping its row stride.
    func store(into image: inout RGBImage) {
        precondition(
            image.width == width && image.height == height,
            "image \(image.width)x\(image.height) ≠ surface \(width)x\(height)"
        )
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface) else { return }
        let stride = Int(cairo_image_surface_get_stride(surface))
        let targetStride = image.bytesPerRow
        let pixel = image.bytesPerPixel
        let width = width
        let height = height
        image.bytes.withUnsafeMutableBufferPointer { target in
            guard let target = target.baseAddress else { return }
            for row in 0..<height {
                let source = UnsafeRawPointer(data + row * stride).assumingMemoryBound(to: UInt32.self)
                var t = target + row * targetStride
                for column in 0..<width {
                    let value = source[column]
                    t[0] = UInt8(truncatingIfNeeded: value >> 16)
                    t[1] = UInt8(truncatingIfNeeded: value >> 8)
                    t[2] = UInt8(truncatingIfNeeded: value)
                    t += pixel
                }
            }
        }
    }

    /// The surface encoded as PNG.
    func pngBytes() -> [UInt8] {
        cairo_surface_flush(surface)
        final class Sink { var bytes: [UInt8] = [] }
        let sink = Sink()
        let status = cairo_surface_write_to_png_stream(
            surface,
            { closure, data, length in
                guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
                let sink = Unmanaged<Sink>.fromOpaque(closure).takeUnretainedValue()
                sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
                return CAIRO_STATUS_SUCCESS
            },
            Unmanaged.passUnretained(sink).toOpaque()
        )
        withExtendedLifetime(sink) {}
        return status == CAIRO_STATUS_SUCCESS ? sink.bytes : []
    }
}

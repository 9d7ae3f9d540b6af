import CTurboJPEG
public import PoseKit

/// Decodes JPEG images in memory with libjpeg-turbo: the live coach's camera frames.
///
/// One decoder per thread (it keeps a libjpeg-turbo handle); reuse it for every frame of a stream.
///
/// ```swift
/// var decoder = try JPEGDecoder()
/// let image = try decoder.decode(jpegBytes)   // RGB, the JPEG's own size
/// ```
public final class JPEGDecoder {
    /// The largest width or height accepted; bigger images are refused before anything is allocated.
    public let maximumDimension: Int
    private let handle: tjhandle

    public init(maximumDimension: Int = 1920) throws(MediaIOError) {
        guard let handle = tjInitDecompress() else {
            throw MediaIOError(.processFailed, "libjpeg-turbo could not start a decoder (out of memory?)")
        }
        self.handle = handle
        self.maximumDimension = maximumDimension
    }

    deinit { tjDestroy(handle) }

    /// The size a JPEG declares in its header, without decoding it.
    public func size(of jpeg: UnsafeRawBufferPointer) throws(MediaIOError) -> (width: Int, height: Int) {
        guard jpeg.count >= 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else {
            let start = jpeg.prefix(2).map { String($0, radix: 16) }.joined(separator: " ")
            throw MediaIOError(
                .unreadable,
                "not a JPEG image (it starts \(start.isEmpty ? "empty" : start)); send JPEG bytes"
            )
        }
        var width: Int32 = 0
        var height: Int32 = 0
        var subsampling: Int32 = 0
        var colorspace: Int32 = 0
        let status = tjDecompressHeader3(
            handle,
            jpeg.baseAddress!.assumingMemoryBound(to: UInt8.self),
            UInt(jpeg.count),
            &width,
            &height,
            &subsampling,
            &colorspace
        )
        guard status == 0, width > 0, height > 0 else {
            let reason = status == 0 ? "no picture size in its header" : lastError
            throw MediaIOError(.unreadable, "not a readable JPEG image (\(reason)); send a whole JPEG file")
        }
        return (Int(width), Int(height))
    }

    /// Decodes `jpeg` to 8-bit RGB.
    ///
    /// - Throws: ``MediaIOError`` with code `.unreadable` for bytes that are not a JPEG, a damaged one, or one
    ///   larger than ``maximumDimension`` on a side.
    public func decode(_ jpeg: UnsafeRawBufferPointer) throws(MediaIOError) -> RGBImage {
        let (width, height) = try size(of: jpeg)
        guard width <= maximumDimension, height <= maximumDimension else {
            throw MediaIOError(
                .unreadable,
                "the JPEG is \(width)×\(height); at most \(maximumDimension)×\(maximumDimension) is accepted (640×480 is plenty)"
            )
        }
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        let status = bytes.withUnsafeMutableBufferPointer { out in
            tjDecompress2(
                handle,
                jpeg.baseAddress!.assumingMemoryBound(to: UInt8.self),
                UInt(jpeg.count),
                out.baseAddress,
                Int32(width),
                Int32(width * 3),
                Int32(height),
                Int32(TJPF_RGB.rawValue),
                Int32(TJFLAG_FASTDCT)
            )
        }
        // A warning (e.g. premature end of data) still gives a usable picture; an error gives none.
        if status != 0, tjGetErrorCode(handle) == Int32(TJERR_FATAL.rawValue) {
            throw MediaIOError(.unreadable, "the JPEG could not be decoded (\(lastError)); send a whole JPEG file")
        }
        return RGBImage(width: width, height: height, bytes: bytes)
    }

    /// Decodes `jpeg` to 8-bit RGB.
    public func decode(_ jpeg: [UInt8]) throws(MediaIOError) -> RGBImage {
        do {
            return try jpeg.withUnsafeBytes { buffer throws(MediaIOError) in try decode(buffer) }
        } catch let error as MediaIOError {
            throw error
        } catch {
            throw MediaIOError(.unreadable, "\(error)", cause: error)
        }
    }

    private var lastError: String {
        guard let text = tjGetErrorStr2(handle) else { return "unknown error" }
        return String(cString: text)
    }
}

public import PoseKit

extension RGBImage {
    /// Decodes an image file (JPEG, PNG, WebP, BMP, …), or the first frame of a video, with ffmpeg.
    ///
    /// ```swift
    /// let photo = try RGBImage(decoding: "athlete.jpg")
    /// ```
    ///
    /// - Throws: ``MediaIOError`` as ``VideoDecoder`` does.
    public init(decoding path: String) throws(MediaIOError) {
        let decoder = try VideoDecoder(path: path, allowsStillImage: true)
        var image = RGBImage(width: decoder.info.width, height: decoder.info.height)
        guard try decoder.nextFrame(into: &image) != nil else {
            throw MediaIOError(.unreadable, "the file holds no picture; check that it opens", file: path)
        }
        decoder.stop()
        self = image
    }
}

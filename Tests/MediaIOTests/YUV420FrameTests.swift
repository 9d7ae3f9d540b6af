import Foundation
import MediaIO
import PoseKit
import Testing

struct YUV420FrameTests {
    /// An image of one colour, `rgb24` or `rgb0`.
    static func solid(_ r: UInt8, _ g: UInt8, _ b: UInt8, width: Int, height: Int, bytesPerPixel: Int) -> RGBImage {
        var image = RGBImage(width: width, height: height, bytesPerPixel: bytesPerPixel)
        for y in 0..<height {
            for x in 0..<width {
                let i = y * image.bytesPerRow + x * bytesPerPixel
                image.bytes[i] = r
                image.bytes[i + 1] = g
                image.bytes[i + 2] = b
            }
        }
        return image
    }

    /// A picture with detail in every channel (gradients and a checkerboard).
    static func pattern(width: Int, height: Int, bytesPerPixel: Int) -> RGBImage {
        var image = RGBImage(width: width, height: height, bytesPerPixel: bytesPerPixel)
        for y in 0..<height {
            for x in 0..<width {
                let i = y * image.bytesPerRow + x * bytesPerPixel
                image.bytes[i] = UInt8(x * 255 / max(1, width - 1))
                image.bytes[i + 1] = UInt8(y * 255 / max(1, height - 1))
                image.bytes[i + 2] = (x / 3 + y / 5) % 2 == 0 ? 230 : 20
            }
        }
        return image
    }

    /// BT.601 limited-range values of the primaries (the textbook table), for both pixel layouts.
    @Test(arguments: [3, 4])
    func primariesHaveTheirBT601Values(bytesPerPixel: Int) {
        let cases: [(rgb: (UInt8, UInt8, UInt8), yuv: (Int, Int, Int))] = [
            ((0, 0, 0), (16, 128, 128)),
            ((255, 255, 255), (235, 128, 128)),
            ((255, 0, 0), (82, 90, 240)),
            ((0, 255, 0), (144, 54, 34)),
            ((0, 0, 255), (41, 240, 110)),
        ]
        for (rgb, yuv) in cases {
            var frame = YUV420Frame(width: 4, height: 2)
            frame.convert(Self.solid(rgb.0, rgb.1, rgb.2, width: 4, height: 2, bytesPerPixel: bytesPerPixel))
            let chroma = frame.chroma(x: 3, y: 1)
            #expect(
                abs(Int(frame.luma(x: 3, y: 1)) - yuv.0) <= 1 && abs(Int(chroma.u) - yuv.1) <= 1
                    && abs(Int(chroma.v) - yuv.2) <= 1,
                "\(rgb) gave Y \(frame.luma(x: 3, y: 1)) U \(chroma.u) V \(chroma.v), expected \(yuv)"
            )
        }
    }

    @Test func rgb0AndRgb24GiveTheSameFrame() {
        var fromThree = YUV420Frame(width: 37, height: 21)
        var fromFour = YUV420Frame(width: 37, height: 21)
        fromThree.convert(Self.pattern(width: 37, height: 21, bytesPerPixel: 3))
        fromFour.convert(Self.pattern(width: 37, height: 21, bytesPerPixel: 4))
        #expect(fromThree.bytes == fromFour.bytes)
        #expect(fromThree.bytes.count == 37 * 21 + 2 * 19 * 11, "odd sizes round the chroma planes up")
    }

    /// Each chroma sample is the mean of its 2×2 block; an odd last row and column use the pixels they have.
    @Test func chromaAveragesItsBlockAndOddEdgesUseTheirOwnPixels() {
        var image = Self.solid(0, 0, 0, width: 3, height: 3, bytesPerPixel: 3)
        // Top-left block: two blue pixels of four → half the blue of a solid blue block.
        for (x, y) in [(0, 0), (1, 1)] { image.bytes[y * image.bytesPerRow + x * 3 + 2] = 255 }
        // The odd corner pixel (2, 2) is blue on its own.
        image.bytes[2 * image.bytesPerRow + 2 * 3 + 2] = 255
        var frame = YUV420Frame(width: 3, height: 3)
        frame.convert(image)
        #expect(frame.chroma(x: 0, y: 0).u == 184, "half-blue block: U \(frame.chroma(x: 0, y: 0).u)")
        #expect(frame.chroma(x: 2, y: 2).u == 240, "blue corner: U \(frame.chroma(x: 2, y: 2).u)")
        #expect(frame.chroma(x: 2, y: 0).u == 128, "black right column: U \(frame.chroma(x: 2, y: 0).u)")
    }

    /// Against ffmpeg's own conversion of the same picture (what the encoder used to do). Luma agrees within
    /// 2 levels everywhere; chroma within 2 on smooth content. At sharp colour edges ffmpeg's default
    /// (bicubic) chroma filter reaches past the 2×2 block, so on a real frame only the mean is compared.
    @Test(arguments: [false, true])
    func matchesFFmpegsConversion(realFrame: Bool) throws {
        let image: RGBImage
        if realFrame {
            try #require(
                FileManager.default.fileExists(atPath: MediaFixtures.bicepCurl),
                "missing \(MediaFixtures.bicepCurl): the shared data (../shared/data) must sit next to the repository"
            )
            image = try RGBImage(decoding: MediaFixtures.bicepCurl)
        } else {
            var smooth = RGBImage(width: 64, height: 48)
            for y in 0..<48 {
                for x in 0..<64 {
                    let i = y * smooth.bytesPerRow + x * 3
                    smooth.bytes[i] = UInt8(x * 4)
                    smooth.bytes[i + 1] = UInt8(y * 5)
                    smooth.bytes[i + 2] = UInt8(128 + 100 * sin(Double(x + y) / 9))
                }
            }
            image = smooth
        }
        let (width, height) = (image.width, image.height)
        let folder = try MediaFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/frame.rgb"
        let output = folder + "/frame.yuv"
        try Data(image.bytes).write(to: URL(fileURLWithPath: input))
        try MediaFixtures.ffmpeg([
            "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", "\(width)x\(height)", "-i", input,
            "-f", "rawvideo", "-pix_fmt", "yuv420p", output,
        ])
        let reference = [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
        var frame = YUV420Frame(width: width, height: height)
        frame.convert(image)
        try #require(reference.count == frame.bytes.count, "ffmpeg wrote \(reference.count) bytes")
        let lumaCount = width * height
        let lumaError = (0..<lumaCount).map { abs(Int(reference[$0]) - Int(frame.bytes[$0])) }
        let chromaError = (lumaCount..<reference.count).map { abs(Int(reference[$0]) - Int(frame.bytes[$0])) }
        let chromaMean = Double(chromaError.reduce(0, +)) / Double(chromaError.count)
        #expect(lumaError.max()! <= 2, "luma differs from ffmpeg's by up to \(lumaError.max()!)")
        if realFrame {
            #expect(chromaMean < 0.75, "chroma differs from ffmpeg's by \(chromaMean) on average")
        } else {
            #expect(chromaError.max()! <= 2, "chroma differs from ffmpeg's by up to \(chromaError.max()!)")
        }
    }
}

import Foundation
import MediaIO
import PoseKit
import Testing

/// libjpeg-turbo decoding of the live coach's camera frames: the right pixels, and one clear error for bytes
/// that are not a JPEG, a damaged one, or one of absurd dimensions (refused before anything is allocated).
struct JPEGDecoderTests {
    /// A JPEG made by ffmpeg: 64×48, left half red, right half blue.
    static func jpeg() throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "ffmpeg", "-v", "error", "-f", "lavfi", "-i",
            "color=red:s=32x48,format=rgb24[a];color=blue:s=32x48[b];[a][b]hstack",
            "-frames:v", "1", "-q:v", "2", "-f", "image2pipe", "-c:v", "mjpeg", "-",
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0 && !data.isEmpty, "ffmpeg could not make a test JPEG")
        return Array(data)
    }

    @Test("A JPEG decodes to its size and colours")
    func decodes() throws {
        let decoder = try JPEGDecoder()
        let image = try decoder.decode(try Self.jpeg())
        #expect(image.width == 64 && image.height == 48)
        func pixel(_ x: Int, _ y: Int) -> (Int, Int, Int) {
            let i = y * image.bytesPerRow + x * 3
            return (Int(image.bytes[i]), Int(image.bytes[i + 1]), Int(image.bytes[i + 2]))
        }
        let left = pixel(8, 24)
        let right = pixel(56, 24)
        #expect(left.0 > 200 && left.2 < 60, "left is red: \(left)")
        #expect(right.2 > 200 && right.0 < 60, "right is blue: \(right)")
    }

    @Test("Not a JPEG, a damaged one, or absurd dimensions: one clear error")
    func refuses() throws {
        let decoder = try JPEGDecoder(maximumDimension: 1920)
        #expect { try decoder.decode(Array("GIF89a".utf8)) } throws: {
            "\($0)".contains("not a JPEG image (it starts 47 49)")
        }
        #expect { try decoder.decode([0xFF, 0xD8, 0xFF, 0xE0, 0, 0]) } throws: {
            "\($0)".contains("not a readable JPEG")
        }
        // The same picture declaring 60000×48 in its frame header (SOF0: FF C0, length, precision, height, width).
        var huge = try Self.jpeg()
        let sof = try #require((0..<huge.count - 9).first { huge[$0] == 0xFF && huge[$0 + 1] == 0xC0 })
        huge[sof + 7] = UInt8(60000 >> 8)
        huge[sof + 8] = UInt8(60000 & 0xFF)
        #expect { try decoder.decode(huge) } throws: { "\($0)".contains("60000×48; at most 1920×1920") }
    }
}

public import CoachKit
public import PoseKit

/// The frame source of a pose-track file: its frames, with their capture times, one at a time.
public struct PoseTrackFrameSource: PoseFrameSource {
    public var reader: PoseTrackReader
    public var width: Double { Double(reader.header.width) }
    public var height: Double { Double(reader.header.height) }
    public var fps: Double { reader.header.fps }

    /// - Throws: ``AnalysisError`` with the reader's message (no such file, not a pose-track).
    public init(path: String) throws {
        do {
            reader = try PoseTrackReader(path: path)
        } catch {
            throw AnalysisError(error.description)
        }
    }

    public mutating func next() throws -> PoseFrame? {
        do {
            return try reader.next()
        } catch {
            throw AnalysisError(error.description)
        }
    }
}

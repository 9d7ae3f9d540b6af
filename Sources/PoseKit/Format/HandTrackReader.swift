/// Reads a hand pose-track file (the 21 ``HandJoint`` names, `pose-track.md`) frame by frame, without holding
/// the file in memory: what `ptcoach poses VIDEO --hands` writes.
///
/// Errors are those of ``PoseTrackReader``, plus a header that names no hand keypoint (a body pose-track) and a
/// `"chirality"` that is not one `"left"`, `"right"` or `"unknown"` per hand.
///
/// ```swift
/// var reader = try HandTrackReader(path: "fist.hands.jsonl")
/// while let frame = try reader.next() {
///     for hand in frame.hands where hand.chirality == .right { print(hand[.indexTip]) }
/// }
/// ```
public struct HandTrackReader {
    private var reader: PoseTrackReader

    /// The file's header.
    public var header: PoseTrackHeader { reader.header }
    /// The file path, for messages.
    public var path: String { reader.path }
    /// Names in the header that are not ``HandJoint`` names and were skipped.
    public var ignoredKeypoints: [String] { reader.ignoredKeypoints }

    /// Opens `path` and reads its header.
    ///
    /// - Throws: ``PoseKitError`` when the file cannot be read or its header is not a hand pose-track's.
    public init(path: String) throws(PoseKitError) {
        reader = try PoseTrackReader(path: path, kind: .hands)
    }

    /// Reads all frames of a file.
    public static func readAll(path: String) throws(PoseKitError) -> (header: PoseTrackHeader, frames: [HandFrame]) {
        var reader = try HandTrackReader(path: path)
        var frames: [HandFrame] = []
        while let frame = try reader.next() { frames.append(frame) }
        return (reader.header, frames)
    }

    /// The next frame, or `nil` at the end of the file. Blank lines are skipped.
    public mutating func next() throws(PoseKitError) -> HandFrame? {
        try reader.nextHands()
    }
}

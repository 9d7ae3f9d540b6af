#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a pose-track file frame by frame (`pose-track.md`).
///
/// Keypoints are written in the header's order; names outside ``Joint`` are written as unseen.
/// With `dimensions == 3`, `z` is written (0 when unknown). Numbers are rounded to 0.01 px and
/// confidences to 0.001, which keeps files small without losing anything a camera can resolve.
///
/// ```swift
/// var writer = try PoseTrackWriter(path: "out.jsonl", header: header)
/// try writer.write(frame)
/// try writer.close()
/// ```
public struct PoseTrackWriter {
    public let header: PoseTrackHeader
    private let joints: [Joint?]
    private let sink: Sink

    /// Where the lines go: a file, or standard output when `path` is `"-"`.
    private final class Sink {
        let file: UnsafeMutablePointer<FILE>
        let ownsFile: Bool
        var failed = false
        init(file: UnsafeMutablePointer<FILE>, ownsFile: Bool) {
            self.file = file
            self.ownsFile = ownsFile
        }
        deinit { if ownsFile { fclose(file) } }
        func write(_ line: String) {
            var line = line
            line.append("\n")
            line.withUTF8 { bytes in
                if fwrite(bytes.baseAddress, 1, bytes.count, file) != bytes.count { failed = true }
            }
        }
    }

    /// Creates the file (or writes to standard output for `"-"`) and writes the header.
    public init(path: String, header: PoseTrackHeader) throws(PoseKitError) {
        if path == "-" {
            guard let file = fdopen(dup(1), "w") else { throw PoseKitError(.io, "cannot write to standard output") }
            sink = Sink(file: file, ownsFile: true)
        } else {
            guard let file = fopen(path, "w") else {
                throw PoseKitError(.io, "cannot create the file (\(String(cString: strerror(errno))))", file: path)
            }
            sink = Sink(file: file, ownsFile: true)
        }
        self.header = header
        joints = header.joints
        sink.write(header.jsonLine)
    }

    /// The JSON line of one frame (no newline).
    public static func line(for frame: PoseFrame, joints: [Joint?], dimensions: Int) -> String {
        var out = "{\"t\":"
        out += format(frame.seconds, decimals: 4)
        out += ",\"poses\":["
        for (p, pose) in frame.poses.enumerated() {
            if p > 0 { out += "," }
            out += "["
            for (k, joint) in joints.enumerated() {
                if k > 0 { out += "," }
                append(joint.map { pose[$0] } ?? .missing, dimensions: dimensions, to: &out)
            }
            out += "]"
        }
        out += "]}"
        return out
    }

    /// The JSON line of one frame of hands (no newline): each hand's 21 keypoints in ``HandJoint`` order, and
    /// `"chirality"`, one `"left"`, `"right"` or `"unknown"` per hand, in the order of `"poses"`.
    public static func line(for frame: HandFrame, dimensions: Int) -> String {
        var out = "{\"t\":"
        out += format(frame.seconds, decimals: 4)
        out += ",\"poses\":["
        for (h, hand) in frame.hands.enumerated() {
            if h > 0 { out += "," }
            out += "["
            for (k, keypoint) in hand.keypoints.enumerated() {
                if k > 0 { out += "," }
                append(keypoint, dimensions: dimensions, to: &out)
            }
            out += "]"
        }
        out += "],\"chirality\":["
        out += frame.hands.map { "\"" + $0.chirality.rawValue + "\"" }.joined(separator: ",")
        out += "]}"
        return out
    }

    /// Appends `x, y[, z], c` of one keypoint; zeros for one not seen.
    private static func append(_ keypoint: Keypoint, dimensions: Int, to out: inout String) {
        if keypoint.confidence == 0 {
            out += dimensions == 3 ? "0,0,0,0" : "0,0,0"
            return
        }
        out += format(keypoint.x, decimals: 2)
        out += ","
        out += format(keypoint.y, decimals: 2)
        if dimensions == 3 {
            out += ","
            out += format(keypoint.z ?? 0, decimals: 2)
        }
        out += ","
        out += format(keypoint.confidence, decimals: 3)
    }

    /// Appends one frame.
    public mutating func write(_ frame: PoseFrame) throws(PoseKitError) {
        sink.write(Self.line(for: frame, joints: joints, dimensions: header.dimensions))
        if sink.failed { throw PoseKitError(.io, "writing failed (disk full?)") }
    }

    /// Appends one frame of hands (the header must be a hand header: ``PoseTrackHeader/init(handsWithFPS:width:height:dimensions:source:)``).
    public mutating func write(_ frame: HandFrame) throws(PoseKitError) {
        precondition(header.kind == .hands, "hands written under a \(header.kind) header")
        sink.write(Self.line(for: frame, dimensions: header.dimensions))
        if sink.failed { throw PoseKitError(.io, "writing failed (disk full?)") }
    }

    /// Flushes and closes the file.
    public func close() throws(PoseKitError) {
        if fflush(sink.file) != 0 || sink.failed { throw PoseKitError(.io, "writing failed (disk full?)") }
    }

    /// Formats a finite number with at most `decimals` decimals and no trailing zeros.
    static func format(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "0" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (value * scale).rounded()
        if scaled == 0 { return "0" }
        // Beyond 1e15 the fixed-point path below would trap converting to Int64 (a finite but absurd value
        // read from a corrupt file); such a number has no decimals worth keeping.
        guard abs(scaled) < 1e15 else { return JSONValue.format(value.rounded()) }
        let negative = scaled < 0
        var digits = String(Int64(abs(scaled)))
        if digits.count <= decimals { digits = String(repeating: "0", count: decimals - digits.count + 1) + digits }
        var integer = String(digits.dropLast(decimals))
        var fraction = String(digits.suffix(decimals))
        while fraction.last == "0" { fraction.removeLast() }
        if integer.isEmpty { integer = "0" }
        return (negative ? "-" : "") + integer + (fraction.isEmpty ? "" : "." + fraction)
    }
}

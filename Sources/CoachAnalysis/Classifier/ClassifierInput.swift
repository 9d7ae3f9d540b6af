public import CoachKit
import CoachPipeline
import Foundation
import PoseKit

/// Reads the recordings of the classifier commands (`train`, `predict`, `evaluate-classifier`): pose-track
/// files as they are, videos through the pose estimator first (as `ptcoach poses` does, into a temporary
/// pose-track that is removed afterwards).
public struct PoseTrackSequenceSource: PoseSequenceSource {
    public init() {}

    public static let videoExtensions: Set<String> = ["mp4", "mov", "m4v", "avi", "mkv", "webm", "mpg", "mpeg"]

    public func sequence(at path: String) throws -> PoseSequence {
        let ext = path.split(separator: ".").last.map { $0.lowercased() } ?? ""
        if Self.videoExtensions.contains(ext) {
            let track = NSTemporaryDirectory() + "ptcoach-classifier-\(getpid())-\(UUID().uuidString).jsonl"
            defer { unlink(track) }
            try VideoPoses.writePoseTrack(
                of: path,
                to: track,
                segments: nil,
                numPoses: 1,
                mode: .video,
                quiet: true,
                verbose: false
            )
            return try sequence(at: track, name: path)
        }
        guard ext == "jsonl" || ext == "json" else {
            throw CoachKitError(
                .unsupportedInput,
                "\(path) is neither a pose-track file (.jsonl) nor a video (.mp4, .mov, .webm, …)"
            )
        }
        guard FileManager.default.fileExists(atPath: path) else {
            throw CoachKitError(.missingFile, "\(path): no such file")
        }
        return try sequence(at: path, name: path)
    }

    private func sequence(at path: String, name: String) throws -> PoseSequence {
        let (header, frames) = try PoseTrackReader.readAll(path: path)
        var metadata: [String: String] = [:]
        for key in header.labelNames { metadata[key] = header.label(key) }
        return PoseSequence(frames: frames, name: name, metadata: metadata)
    }
}

/// Manifest and recording loading shared by the classifier commands.
public enum ClassifierInput {
    /// Reads and parses a manifest file.
    public static func manifest(at path: String) throws -> ClassifierManifest {
        guard FileManager.default.fileExists(atPath: path) else {
            throw AnalysisError("manifest \(path) not found; give a CSV file with a `path,label` header")
        }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
        else {
            throw AnalysisError("manifest \(path) cannot be read as UTF-8 text")
        }
        return try ClassifierManifest(text: text, path: path)
    }

    /// Reads a body model written by `ptcoach train --out`.
    public static func model(at path: String) throws -> ActionClassifier {
        switch try anyModel(at: path) {
        case .body(let classifier): return classifier
        case .hand(let classifier):
            throw AnalysisError("\(path) is a \(classifier.kind.rawValue) model, and a body model is needed here")
        }
    }

    /// Loads every recording of a manifest, naming the manifest line of a file that is missing or broken.
    public static func sequences(
        of manifest: ClassifierManifest,
        source: some PoseSequenceSource = PoseTrackSequenceSource()
    ) throws -> [PoseSequence] {
        var sequences: [PoseSequence] = []
        sequences.reserveCapacity(manifest.entries.count)
        for entry in manifest.entries {
            let lowered = entry.path.lowercased()
            let isVideo = PoseTrackSequenceSource.videoExtensions.contains(where: { lowered.hasSuffix("." + $0) })
            if !isVideo, !FileManager.default.fileExists(atPath: entry.path) {
                throw AnalysisError(
                    "\(manifest.path):\(entry.line): file \(entry.relativePath) not found (looked at \(entry.path)); "
                        + "paths are relative to the manifest's folder"
                )
            }
            do {
                sequences.append(try source.sequence(at: entry.path))
            } catch {
                throw AnalysisError("\(manifest.path):\(entry.line): \(error)")
            }
        }
        return sequences
    }

    /// Seconds since `start` (monotonic clock).
    public static func seconds(since start: ContinuousClock.Instant) -> Double {
        let duration = ContinuousClock.now - start
        return Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }

    /// A number with three decimals.
    public static func format(_ value: Double, decimals: Int = 3) -> String {
        String(format: "%.\(decimals)f", value)
    }
}

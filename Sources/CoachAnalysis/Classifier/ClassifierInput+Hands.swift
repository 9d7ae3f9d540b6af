public import CoachKit
public import CoachPipeline
import Foundation
import PoseKit

/// What the classifier commands train on or read: body recordings, or hands (a shape per frame, or a movement
/// per clip). The model file records it; `train` takes it from `--kind` or from the manifest's files.
public enum ClassifierKind: String, CaseIterable {
    case body
    case handPose = "hand-pose"
    case handAction = "hand-action"

    /// The hand classifier's kind, `nil` for bodies.
    public var hand: HandClassifier.Kind? {
        switch self {
        case .body: nil
        case .handPose: .pose
        case .handAction: .action
        }
    }
}

/// A model file as `predict` reads it: a body or a hand model, told apart by its `format`.
public enum ClassifierModel {
    case body(ActionClassifier)
    case hand(HandClassifier)
}

extension ClassifierInput {
    /// Whether the pose-track at `path` holds hands (its header names hand keypoints); videos count as
    /// bodies, unless `videosAreHands`.
    ///
    /// - Throws: `AnalysisError` when the file cannot be read as a pose-track of either kind.
    public static func holdsHands(_ path: String, videosAreHands: Bool = false) throws -> Bool {
        let lowered = path.lowercased()
        if PoseTrackSequenceSource.videoExtensions.contains(where: { lowered.hasSuffix("." + $0) }) {
            return videosAreHands
        }
        if (try? HandTrackReader(path: path)) != nil { return true }
        do {
            _ = try PoseTrackReader(path: path)
            return false
        } catch {
            throw AnalysisError("\(error)")
        }
    }

    /// The kind `train` makes of a manifest: `option` unless it is `automatic`, else hand-pose when the
    /// first file holds hands and body otherwise. Every file must hold what the kind reads.
    public static func kind(_ option: String, for manifest: ClassifierManifest) throws -> ClassifierKind {
        var kind = ClassifierKind(rawValue: option)
        if kind == nil {
            let first = manifest.entries[0]
            guard FileManager.default.fileExists(atPath: first.path) || isVideo(first.path) else {
                throw AnalysisError(
                    "\(manifest.path):\(first.line): file \(first.relativePath) not found (looked at \(first.path)); "
                        + "paths are relative to the manifest's folder"
                )
            }
            kind = try holdsHands(first.path) ? .handPose : .body
        }
        let chosen = kind!
        for entry in manifest.entries where FileManager.default.fileExists(atPath: entry.path) {
            let hands = try holdsHands(entry.path)
            if hands, chosen == .body {
                throw AnalysisError(
                    "\(manifest.path):\(entry.line): \(entry.relativePath) is a hand pose-track, and a body model "
                        + "reads body ones; train a hand model with --kind hand-pose or --kind hand-action"
                )
            }
            if !hands, chosen != .body {
                throw AnalysisError(
                    "\(manifest.path):\(entry.line): \(entry.relativePath) is a body pose-track, and a \(chosen.rawValue) "
                        + "model reads hand ones (ptcoach poses VIDEO --hands); give hand pose-tracks, or --kind body"
                )
            }
        }
        if chosen == .body, let timed = manifest.entries.first(where: \.isTimeRange) {
            throw AnalysisError(
                "\(manifest.path):\(timed.line): start,end time ranges are read by the hand classifiers only; "
                    + "give whole recordings (header `path,label`) to a body model"
            )
        }
        return chosen
    }

    public static func isVideo(_ path: String) -> Bool {
        let lowered = path.lowercased()
        return PoseTrackSequenceSource.videoExtensions.contains(where: { lowered.hasSuffix("." + $0) })
    }

    /// The hand recording at `path` (a hand pose-track, or a video whose hands are found first), trimmed to
    /// `start`…`end` seconds when given.
    public static func handSequence(at path: String, start: Double? = nil, end: Double? = nil) throws -> HandSequence {
        var track = path
        var temporary: String?
        defer { if let temporary { unlink(temporary) } }
        if isVideo(path) {
            let file = NSTemporaryDirectory() + "ptcoach-classifier-\(getpid())-\(UUID().uuidString).jsonl"
            temporary = file
            try VideoPoses.writePoseTrack(
                of: path,
                to: file,
                segments: nil,
                numPoses: 1,
                hands: 2,
                mode: .video,
                quiet: true,
                verbose: false
            )
            track = file
        }
        guard FileManager.default.fileExists(atPath: track) else { throw AnalysisError("\(path): no such file") }
        do {
            let (header, frames) = try HandTrackReader.readAll(path: track)
            var metadata: [String: String] = [:]
            for key in header.labelNames { metadata[key] = header.label(key) }
            let sequence = HandSequence(frames: frames, name: path, metadata: metadata)
            return start == nil && end == nil ? sequence : sequence.trimmed(from: start, to: end)
        } catch {
            throw AnalysisError("\(error)")
        }
    }

    /// Loads every row of a hand manifest (each row's time range, when it has one).
    public static func handSequences(of manifest: ClassifierManifest) throws -> [HandSequence] {
        try manifest.entries.map { entry in
            if !isVideo(entry.path), !FileManager.default.fileExists(atPath: entry.path) {
                throw AnalysisError(
                    "\(manifest.path):\(entry.line): file \(entry.relativePath) not found (looked at \(entry.path)); "
                        + "paths are relative to the manifest's folder"
                )
            }
            do {
                return try handSequence(at: entry.path, start: entry.start, end: entry.end)
            } catch {
                throw AnalysisError("\(manifest.path):\(entry.line): \(error)")
            }
        }
    }

    /// Reads a model written by `ptcoach train --out`, body or hand.
    public static func anyModel(at path: String) throws -> ClassifierModel {
        guard FileManager.default.fileExists(atPath: path) else {
            throw AnalysisError(
                "model \(path) not found; train one with `ptcoach train --manifest M.csv --out \(path)`"
            )
        }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
        else { throw AnalysisError("model \(path) cannot be read as UTF-8 text") }
        do {
            if HandClassifier.isHandModel(jsonText: text) {
                return .hand(try HandClassifier(jsonText: text, source: path))
            }
            return .body(try ActionClassifier(jsonText: text, source: path))
        } catch {
            throw AnalysisError("\(error)")
        }
    }

    /// The error for a recording of the wrong kind for `model`: a hand pose-track given to a body model or a
    /// body one to a hand model; `nil` when it fits (videos always do: their poses are found as the model needs).
    public static func kindMismatch(file: String, modelPath: String, isHandModel: Bool) throws -> AnalysisError? {
        guard !isVideo(file), FileManager.default.fileExists(atPath: file) else { return nil }
        let hands = try holdsHands(file)
        if hands, !isHandModel {
            return AnalysisError(
                "\(file) is a hand pose-track, and \(modelPath) is a body model; give it body pose-tracks, or train a "
                    + "hand model on hand pose-tracks (ptcoach train --kind hand-pose or hand-action)"
            )
        }
        if !hands, isHandModel {
            return AnalysisError(
                "\(file) is a body pose-track, and \(modelPath) is a hand model; give it hand pose-tracks "
                    + "(ptcoach poses VIDEO --hands)"
            )
        }
        return nil
    }
}

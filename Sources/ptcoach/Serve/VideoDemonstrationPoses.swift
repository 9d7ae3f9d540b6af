import CoachAnalysis
import CoachServer
import Foundation
import MediaIO
import PoseKit

/// A demonstration video's poses for the clinic's learning (`POST /api/library/learn`): the pose model in video mode
/// over every frame into a temporary pose-track, as `ptcoach learn VIDEO` does, on a thread of its own (it takes
/// seconds of CPU: the server's tasks go on meanwhile).
struct VideoDemonstrationPoses: DemonstrationPoses {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    func poses(inVideoAt path: String) async throws -> (header: PoseTrackHeader, frames: [PoseFrame]) {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try Self.read(path) })
            }
        }
    }

    private static func read(_ path: String) throws -> (header: PoseTrackHeader, frames: [PoseFrame]) {
        guard let video = try AnalysisOutputs.videoInfo(path) else {
            throw Failure(description: "the file is not a video")
        }
        let track = try VideoPoses.temporaryPoseTrack(of: path, probed: video, purpose: "learn", verbose: false)
        defer { OutputFile.remove(track) }
        do {
            return try PoseTrackReader.readAll(path: track)
        } catch {
            throw Failure(description: "\(error)")
        }
    }
}

// Public: `VideoPoses.Mode` (public, in CoachAnalysis) is given its option parsing here.
public import ArgumentParser
import CoachAnalysis
import CoachPipeline
import Foundation
import MediaIO
import PoseKit

#if canImport(Glibc)
import Glibc
#endif

/// `ptcoach poses VIDEO [-o OUT.jsonl] [--hands]`: the pose-track of a video or a still image, of the body or
/// (with `--hands`) of the hands: ``VideoPoses`` (CoachAnalysis) does the work.
struct PosesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "poses",
        abstract:
            "Find the body pose (or the hands) in every frame of a video (or in an image) and write a pose-track file.",
        discussion: """
            Writes JSON Lines (pose-track.md): a header with the 33 BlazePose keypoints under Apple \
            Vision names, then one line per frame with x, y (pixels of the upright frame), z and \
            confidence of each keypoint. With --hands, the 21 keypoints of each hand under Vision's hand \
            joint names (wrist, thumbCMC, …, littleTip) and each hand's side ("chirality": the person's \
            own left or right). Reads any video ffmpeg reads (mp4, mov, webm, avi) and images (jpg, png). \
            Needs the pose runtime: run scripts/setup.sh once.
            """
    )

    typealias Mode = VideoPoses.Mode

    @Argument(help: "The video (mp4, mov, webm, avi, …) or image (jpg, png) to read.")
    var input: String

    @Option(name: .shortAndLong, help: "The pose-track file to write (.jsonl); standard output when omitted.")
    var output: String = "-"

    @Option(help: "Parts of the video processed at the same time (default: the number of cores).")
    var segments: Int?

    @Option(name: .customLong("num-poses"), help: "The most people to find in a frame.")
    var numPoses: Int = 1

    @Option(help: "video: track from frame to frame; image: detect in every frame.")
    var mode: Mode = .video

    @Flag(help: "Find hands (21 keypoints and left/right each) instead of the body.")
    var hands = false

    @Option(
        name: .customLong("num-hands"),
        help: "With --hands: the most hands to find in a frame (1–4; default 2). 1 is about twice as fast."
    )
    var numHands: Int?

    @Flag(help: "Replace the output file if it exists.")
    var overwrite = false

    @Flag(help: "No progress bar and no summary on standard error.")
    var quiet = false

    @Flag(help: "Let MediaPipe's own log lines through to standard error.")
    var verbose = false

    func validate() throws {
        if let segments, !(1...64).contains(segments) {
            throw ValidationError("--segments must be between 1 and 64, got \(segments)")
        }
        guard (1...20).contains(numPoses) else {
            throw ValidationError("--num-poses must be between 1 and 20, got \(numPoses)")
        }
        if let numHands {
            guard hands else { throw ValidationError("--num-hands needs --hands") }
            guard (1...4).contains(numHands) else {
                throw ValidationError("--num-hands must be between 1 and 4, got \(numHands)")
            }
        }
    }

    func run() async throws {
        // Before any work: the input is never the output, an existing file is replaced only when asked.
        if output != "-" {
            guard output.lowercased().hasSuffix(".jsonl") else {
                throw CLIError("-o \(output): a pose-track is written to a .jsonl file; name it NAME.jsonl")
            }
            try AnalysisOutputs.check(output, option: "-o", input: input, overwrite: overwrite)
        }
        InterruptCleanup.install()
        try VideoPoses.writePoseTrack(
            of: input,
            to: output,
            segments: segments,
            numPoses: numPoses,
            hands: hands ? numHands ?? 2 : nil,
            mode: mode,
            quiet: quiet,
            verbose: verbose
        )
    }
}

extension VideoPoses.Mode: ExpressibleByArgument {}

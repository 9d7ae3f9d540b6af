public import CoachKit
import CoachPipeline
import Foundation
import MediaIO
import PoseKit

extension HandAnalysis {
    /// What `ptcoach analyze` was asked for a hand exercise.
    public struct Request: Sendable {
        public var input: String
        public var hold: Double?
        public var reps: Int?
        public var annotate: String?
        public var report: String?
        public var overwrite = false
        public var json = false
        public var verbose = false

        public init(input: String) { self.input = input }
    }

    /// What `analyze` prints: the text report or the JSON, then the files written ("wrote PATH" lines, to standard
    /// error after JSON).
    public struct Outcome: Sendable {
        public var printed: String
        public var written: String
    }

    /// `analyze` of a hand exercise: its hands found first in a video (``VideoPoses``), or a hand pose-track read;
    /// measured, drawn and reported as `command` asks.
    public static func analyze(_ command: Request, exercise given: HandExerciseDefinition) throws -> Outcome {
        let exercise = try prescribing(hold: command.hold, on: given)
        let video = try AnalysisOutputs.videoInfo(command.input)
        var track = command.input
        var temporary: String?
        defer { if let temporary { OutputFile.remove(temporary) } }
        if let video {
            let path = try VideoPoses.temporaryPoseTrack(
                of: command.input,
                probed: video,
                purpose: "hands",
                hands: Self.handsSought,
                verbose: command.verbose
            )
            temporary = path
            track = path
        }
        let (header, frames) = try handTrack(at: track, of: exercise)
        // Wrist flexion and extension is measured on the body pose too, where the hand model has no hand.
        var bodies: [Pose?] = []
        if exercise.primary == .handInclination, let video {
            bodies = try bodyPoses(of: video, at: frames.map(\.seconds), verbose: command.verbose)
        }
        let (summary, series, fingerSeries) = try Self.measure(
            frames: frames,
            bodies: bodies,
            exercise: exercise,
            width: Double(header.width),
            height: Double(header.height),
            name: command.input
        )
        let json: String
        do {
            json = try summary.jsonText(file: command.input, prescribedReps: command.reps)
        } catch {
            throw AnalysisError("\(command.input): \(error)")
        }
        var stills: [ReportInput.Still] = []
        if command.annotate != nil || command.report.map({ ReportWriter.Format(path: $0) != .json }) == true {
            stills = try annotateAndTakeStills(
                summary,
                frames: frames,
                bodies: bodies,
                video: video,
                header: header,
                exercise: exercise,
                command: command
            )
        }
        if let report = command.report {
            let input = Self.reportInput(
                summary,
                exercise: exercise,
                series: series,
                fingerSeries: fingerSeries,
                stills: stills,
                file: command.input,
                prescribedReps: command.reps,
                json: json
            )
            do {
                try ReportWriter.write(input, to: report, overwrite: command.overwrite)
            } catch {
                throw AnalysisError("\(error)")
            }
        }
        let written = [command.annotate, command.report].compactMap { $0 }.map { "wrote \($0)\n" }.joined()
        let printed = command.json ? json : summary.text(file: command.input, prescribedReps: command.reps)
        return Outcome(printed: printed, written: written)
    }

    /// `exercise` with `hold` (`--hold`) prescribed at the peak of each repetition.
    private static func prescribing(
        hold: Double?,
        on exercise: HandExerciseDefinition
    ) throws
        -> HandExerciseDefinition
    {
        guard let hold else { return exercise }
        guard exercise.repetition.acceptsHold(hold) else {
            throw AnalysisError(
                "--hold must be above 0 and below \(String(format: "%g", exercise.repetition.maximumSeconds)) seconds "
                    + "for '\(exercise.id)', got \(hold)"
            )
        }
        var exercise = exercise
        exercise.repetition.holdSeconds = hold
        return exercise
    }

    /// The header and frames of the hand pose-track at `path`; an error that says what a hand exercise needs.
    private static func handTrack(
        at path: String,
        of exercise: HandExerciseDefinition
    ) throws
        -> (PoseTrackHeader, [HandFrame])
    {
        do {
            var reader = try HandTrackReader(path: path)
            var frames: [HandFrame] = []
            while let frame = try reader.next() { frames.append(frame) }
            return (reader.header, frames)
        } catch {
            throw AnalysisError(
                "\(error); '\(exercise.id)' is a hand exercise: give a video, or a hand pose-track from `ptcoach poses VIDEO --hands`"
            )
        }
    }

    /// Draws the video (`--annotate`) and gives the report's still of the deepest repetition.
    private static func annotateAndTakeStills(
        _ summary: HandSessionSummary,
        frames: [HandFrame],
        bodies: [Pose?],
        video: VideoInfo?,
        header: PoseTrackHeader,
        exercise: HandExerciseDefinition,
        command: Request
    ) throws -> [ReportInput.Still] {
        let best = summary.repetitions.max {
            $0.peak * exercise.repetition.direction < $1.peak * exercise.repetition.direction
        }
        let times = best.map { [$0.peakSeconds] } ?? []
        let images = try Self.annotate(
            frames: frames,
            bodies: bodies,
            video: video,
            header: header,
            exercise: exercise,
            to: command.annotate,
            overwrite: command.overwrite,
            prescribedReps: command.reps,
            stillTimes: times
        )
        guard let best, let image = images.first ?? nil else { return [] }
        return [.init(caption: "Deepest repetition", repetition: best.index, image: image)]
    }

    /// The body pose of `video` at each of `times` (the hand pass's frames): the person's, from the pose model in
    /// video mode (`ptcoach poses`), the frame nearest in time; `nil` where none was found.
    static func bodyPoses(of video: VideoInfo, at times: [Double], verbose: Bool) throws -> [Pose?] {
        let path = try VideoPoses.temporaryPoseTrack(of: video.path, probed: video, purpose: "body", verbose: verbose)
        defer { OutputFile.remove(path) }
        var found: [PoseFrame] = []
        do {
            var reader = try PoseTrackReader(path: path)
            while let frame = try reader.next() { found.append(frame) }
        } catch {
            throw AnalysisError("\(video.path): the body pose pass could not be read: \(error)")
        }
        var next = 0
        return times.map { t in
            while next + 1 < found.count, abs(found[next + 1].seconds - t) <= abs(found[next].seconds - t) { next += 1 }
            guard next < found.count, abs(found[next].seconds - t) < 0.05 else { return nil }
            return found[next].poses.first
        }
    }
}

import CoachKit
import Foundation
import MediaIO
import PoseKit

/// `ptcoach analyze INPUT --exercise finger-flexion` (any hand exercise): the hands of a video are found first
/// (`ptcoach poses --hands`), or a hand pose-track is read, then a ``CoachKit/HandCoachingSession`` counts and
/// judges; the text, `--json`, `--report` (with a chart per finger) and `--annotate` (the hand skeleton drawn)
/// come from the same session.
enum HandAnalysis {
    /// The hand exercise `id`, when it is one (the bundled hand library, or `DIRECTORY/hands` with
    /// `--exercises-directory`); `nil` for any other id, which is then looked up among the body exercises.
    static func exercise(id: String, directory: String?) throws -> HandExerciseDefinition? {
        try library(directory: directory)?[id]
    }

    /// The hand exercises: the bundled ones, or those of `DIRECTORY/hands` (`nil` when it has none).
    static func library(directory: String?) throws -> HandExerciseLibrary? {
        do {
            if let directory {
                let hands = (directory as NSString).appendingPathComponent("hands")
                guard FileManager.default.fileExists(atPath: hands) else { return nil }
                return try HandExerciseLibrary(directory: hands)
            }
            return try HandExerciseLibrary.bundled()
        } catch {
            throw CLIError(error.description)
        }
    }

    /// The most hands a video's hand pass looks for: the patient's two and one more, so a third hand is seen.
    static let handsSought = 3

    static func run(_ command: AnalyzeCommand, exercise given: HandExerciseDefinition) throws {
        var exercise = given
        if let hold = command.hold {
            guard exercise.repetition.acceptsHold(hold) else {
                throw CLIError(
                    "--hold must be above 0 and below \(String(format: "%g", exercise.repetition.maximumSeconds)) seconds "
                        + "for '\(exercise.id)', got \(hold)"
                )
            }
            exercise.repetition.holdSeconds = hold
        }
        let video = try AnalysisOutputs.videoInfo(command.input)
        var track = command.input
        var temporary: String?
        defer { if let temporary { OutputFile.remove(temporary) } }
        if let video {
            let path = NSTemporaryDirectory() + "ptcoach-hands-\(getpid())-\(UUID().uuidString.prefix(8)).jsonl"
            temporary = path
            PartialFiles.register(path)
            try PosesCommand.writePoseTrack(
                of: command.input,
                to: path,
                segments: nil,
                numPoses: 1,
                hands: handsSought,
                mode: .video,
                quiet: false,
                verbose: command.verbose,
                probed: video,
                temporary: true
            )
            track = path
        }
        // Wrist flexion and extension is measured on the body pose too, where the hand model has no hand.
        var bodies: [Pose?] = []
        let header: PoseTrackHeader
        var frames: [HandFrame] = []
        do {
            var reader = try HandTrackReader(path: track)
            header = reader.header
            while let frame = try reader.next() { frames.append(frame) }
        } catch {
            throw CLIError(
                "\(error); '\(exercise.id)' is a hand exercise: give a video, or a hand pose-track from `ptcoach poses VIDEO --hands`"
            )
        }
        if exercise.primary == .handInclination, let video {
            bodies = try bodyPoses(of: video, at: frames.map(\.seconds), verbose: command.verbose)
        }
        let width = Double(header.width)
        let height = Double(header.height)
        var session = HandCoachingSession(exercise: exercise, width: width, height: height)
        var series: [ReportInput.AngleSample] = []
        var fingerSeries: [Finger: [ReportInput.AngleSample]] = [:]
        for (index, frame) in frames.enumerated() {
            let snapshot = session.ingest(frame, body: bodies.isEmpty ? nil : bodies[index])
            if let value = snapshot.value { series.append(.init(seconds: frame.seconds, degrees: value)) }
            for (finger, value) in snapshot.fingers {
                fingerSeries[finger, default: []].append(.init(seconds: frame.seconds, degrees: value))
            }
        }
        let summary = session.summary()
        guard summary.framesMeasured > 0 else {
            let cue = summary.setUp.max { $0.seconds < $1.seconds }?.cue ?? HandSetUp.Issue.noHand.cue()
            throw CLIError(
                "\(command.input): the hand was not measured in any of the \(summary.frames) frames; the coach said: \(cue)"
            )
        }
        let json: String
        do {
            json = try summary.jsonText(file: command.input, prescribedReps: command.reps)
        } catch {
            throw CLIError("\(command.input): \(error)")
        }
        var stills: [ReportInput.Still] = []
        if command.annotate != nil || command.report.map({ ReportWriter.Format(path: $0) != .json }) == true {
            let best = summary.repetitions.max {
                $0.peak * exercise.repetition.direction < $1.peak * exercise.repetition.direction
            }
            let times = best.map { [$0.peakSeconds] } ?? []
            let images = try annotate(
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
            if let best, let image = images.first ?? nil {
                stills.append(.init(caption: "Deepest repetition", repetition: best.index, image: image))
            }
        }
        if let report = command.report {
            let input = reportInput(
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
                throw CLIError("\(error)")
            }
        }
        if command.json {
            print(json)
        } else {
            print(summary.text(file: command.input, prescribedReps: command.reps))
        }
        let written = [command.annotate, command.report].compactMap { $0 }.map { "wrote \($0)\n" }.joined()
        if !written.isEmpty {
            if command.json {
                FileHandle.standardError.write(Data(written.utf8))
            } else {
                print(written, terminator: "")
            }
        }
    }

    /// The body pose of `video` at each of `times` (the hand pass's frames): the person's, from the pose model in
    /// video mode (`ptcoach poses`), the frame nearest in time; `nil` where none was found.
    static func bodyPoses(of video: VideoInfo, at times: [Double], verbose: Bool) throws -> [Pose?] {
        let path = NSTemporaryDirectory() + "ptcoach-body-\(getpid())-\(UUID().uuidString.prefix(8)).jsonl"
        PartialFiles.register(path)
        defer { OutputFile.remove(path) }
        try PosesCommand.writePoseTrack(
            of: video.path,
            to: path,
            segments: nil,
            numPoses: 1,
            mode: .video,
            quiet: false,
            verbose: verbose,
            probed: video,
            temporary: true
        )
        var found: [PoseFrame] = []
        do {
            var reader = try PoseTrackReader(path: path)
            while let frame = try reader.next() { found.append(frame) }
        } catch {
            throw CLIError("\(video.path): the body pose pass could not be read: \(error)")
        }
        var next = 0
        return times.map { t in
            while next + 1 < found.count, abs(found[next + 1].seconds - t) <= abs(found[next].seconds - t) { next += 1 }
            guard next < found.count, abs(found[next].seconds - t) < 0.05 else { return nil }
            return found[next].poses.first
        }
    }

    /// The report of a hand session: the primary measurement over time, then one chart per finger.
    static func reportInput(
        _ summary: HandSessionSummary,
        exercise: HandExerciseDefinition,
        series: [ReportInput.AngleSample],
        fingerSeries: [Finger: [ReportInput.AngleSample]],
        stills: [ReportInput.Still],
        file: String,
        prescribedReps: Int?,
        json: String
    ) -> ReportInput {
        let section = ReportInput.Exercise(
            hand: summary,
            exercise: exercise,
            angleSeries: series,
            fingerSeries: fingerSeries,
            stills: stills,
            prescribedReps: prescribedReps
        )
        var subtitle = "\((file as NSString).lastPathComponent) · \(String(format: "%.1f", summary.durationSeconds)) s"
        if let figures = summary.figures { subtitle += " · " + figures }
        let done = prescribedReps.map { "\(summary.reps) of \($0)" } ?? "\(summary.reps)"
        return ReportInput(
            title: "\(exercise.name): \(done) repetition\(summary.reps == 1 ? "" : "s")",
            subtitle: subtitle,
            exercises: [section],
            summaryJSON: json
        )
    }

    /// Draws the hand skeleton, the count and the cues over the video (or a plain background for a pose-track),
    /// replaying the session frame by frame; returns the frames nearest `stillTimes` (for the report).
    static func annotate(
        frames: [HandFrame],
        bodies: [Pose?] = [],
        video: VideoInfo?,
        header: PoseTrackHeader,
        exercise: HandExerciseDefinition,
        to path: String?,
        overwrite: Bool,
        prescribedReps: Int?,
        stillTimes: [Double]
    ) throws -> [RGBImage?] {
        let width = video?.width ?? header.width
        let height = video?.height ?? header.height
        let fps = video?.fps ?? header.fps
        let decoder: VideoDecoder?
        do {
            decoder = try video.map { try VideoDecoder(path: $0.path, info: $0, bytesPerPixel: 4) }
        } catch {
            throw CLIError("\(error)")
        }
        let encoder = try path.map {
            try AnnotationPass.encoder(path: $0, width: width, height: height, fps: fps, overwrite: overwrite)
        }
        defer { decoder?.stop() }
        var finished = false
        defer { if !finished { encoder?.cancel() } }
        var session = HandCoachingSession(exercise: exercise, width: Double(width), height: Double(height))
        let renderer = OverlayRenderer()
        let background = OverlayColor(red: 38, green: 42, blue: 48)
        var stills = NearestStills(times: stillTimes)
        var cue: (text: String, kind: OverlayState.CueKind, until: Double)?
        for (index, frame) in frames.enumerated() {
            let snapshot = session.ingest(frame, body: bodies.isEmpty ? nil : bodies[index])
            if let said = snapshot.cue {
                let kind: OverlayState.CueKind =
                    switch said.kind {
                    case .encouragement: .encouragement
                    case .form: .correction
                    case .safety: .safety
                    default: .info
                    }
                cue = (said.text, kind, frame.seconds + 2.5)
            }
            if let shown = cue, frame.seconds > shown.until { cue = nil }
            var state = OverlayState(
                reps: snapshot.reps,
                prescribedReps: prescribedReps,
                exerciseName: exercise.name,
                cue: cue?.text,
                cueKind: cue?.kind ?? .info,
                setupGuidance: snapshot.setUp.map { $0.cue(side: exercise.side) }
            )
            state.hands = snapshot.hands
            state.coachedHand = snapshot.coachedIndex
            if snapshot.value != nil, let band = exercise.targetBand {
                let start = exercise.repetition.start
                let scale = max(abs(band.lowerBound - start), abs(band.upperBound - start))
                let near = min(abs(band.lowerBound - start), abs(band.upperBound - start)) / scale
                state.rangeOfMotion = .init(progress: snapshot.progress, target: min(near, 1)...1, label: "ROM")
            }
            var image: RGBImage
            do {
                if let decoder {
                    var picture = RGBImage(width: width, height: height, bytesPerPixel: 4)
                    guard try decoder.nextFrame(into: &picture) != nil else { break }
                    image = picture
                    renderer.render(state, onto: &image)
                } else {
                    image = renderer.render(state, width: width, height: height, background: background)
                }
                try encoder?.append(image)
            } catch {
                throw CLIError("\(error)")
            }
            stills.offer(image, at: frame.seconds)
        }
        do {
            try encoder?.finish()
        } catch {
            throw CLIError("\(error)")
        }
        finished = true
        return stills.images
    }
}

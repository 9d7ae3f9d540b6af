import ArgumentParser
import CoachAnalysis
import CoachKit
import CoachPipeline
import Foundation
import MediaIO
import PoseKit

/// `ptcoach learn`: a new exercise definition from one demonstration.
struct LearnCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "learn",
        abstract: "Learn a new exercise definition from one demonstration (a video or a pose-track).",
        discussion: """
            INPUT is a video (its poses are found first, as `ptcoach poses` does) or a pose-track file (.jsonl) of \
            one person doing a few repetitions (3–5 are best) of the movement. The repetitions are found by the \
            exercise-agnostic counter; the joint angle that moves most, consistently in every repetition, becomes \
            the primary angle; its peak, with a margin, the default target band; the view, the tempo and the body \
            parts that stayed still (as form rules) are found too. The definition is written in the library's \
            format (see the exercise SCHEMA.md) and is checked by the library's own validation; edit it freely. \
            Use it with `ptcoach analyze --exercises-directory DIR --exercise ID` (DIR holding the file).
            """
    )

    @Argument(help: "A video, or a pose-track file (.jsonl), of the demonstration.")
    var input: String

    @Option(name: .long, help: "The exercise's name, as the patient sees it (e.g. \"Step-up\").")
    var name: String

    @Option(name: .long, help: "The exercise id (lower-case letters, digits, -); derived from --name when left out.")
    var id: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The primary angle (e.g. kneeFlexion), when you know it; else the angle that moved most.",
            discussion:
                "One of: \(AngleKind.allCases.filter(\.countsRepetitions).map(\.rawValue).joined(separator: ", "))."
        )
    )
    var primary: String?

    @Option(name: .shortAndLong, help: "Write the definition here (.json); printed when left out.")
    var output: String?

    @Flag(name: .long, help: "Replace an existing output file.")
    var overwrite = false

    @Flag(name: .long, help: "Show the pose runtime's own log lines (video input).")
    var verbose = false

    func validate() throws {
        if name.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--name must not be empty: give the exercise's name, e.g. --name \"Step-up\"")
        }
        if let primary, AngleKind(rawValue: primary)?.countsRepetitions != true {
            let names = AngleKind.allCases.filter(\.countsRepetitions).map(\.rawValue).joined(separator: ", ")
            throw ValidationError(
                "--primary must be a joint angle that counts repetitions (\(names)), got '\(primary)'"
            )
        }
        if let output, !output.hasSuffix(".json") {
            throw ValidationError("-o must name a .json file (an exercise definition), got '\(output)'")
        }
    }

    func run() async throws {
        if let output {
            do {
                try OutputFile.check(output, overwrite: overwrite)
            } catch {
                throw CLIError(error.description)
            }
        }
        var id = self.id ?? ""
        if self.id == nil {
            do {
                id = try ExerciseLearner.id(forName: name)
            } catch {
                throw CLIError.refused("--name: \(error.message)")
            }
        }
        guard id.allSatisfy({ ($0.isLetter && $0.isLowercase) || $0.isNumber || $0 == "-" }) else {
            throw CLIError.refused("--id must be lower-case letters, digits and '-' (got '\(id)')")
        }
        InterruptCleanup.install()
        let video = try AnalysisOutputs.videoInfo(input)
        var track = input
        var temporary: String?
        defer { if let temporary { OutputFile.remove(temporary) } }
        if let video {
            let path = try VideoPoses.temporaryPoseTrack(of: input, probed: video, purpose: "learn", verbose: verbose)
            temporary = path
            track = path
        }
        let header: PoseTrackHeader
        let frames: [PoseFrame]
        do {
            (header, frames) = try PoseTrackReader.readAll(path: track)
        } catch {
            throw CLIError("\(input): \(error.description)")
        }
        let learned: LearnedExercise
        do {
            learned = try ExerciseLearner().learn(
                frames,
                width: Double(header.width),
                height: Double(header.height),
                name: name,
                id: id,
                primary: primary.flatMap(AngleKind.init(rawValue:)),
                source: input
            )
        } catch {
            throw CLIError(error.description)
        }
        guard let output else {
            print(learned.jsonText(), terminator: "")
            FileHandle.standardError.write(Data((learned.description + "\n").utf8))
            return
        }
        do {
            let temporary = OutputFile.temporaryPath(for: output)
            try Data(learned.jsonText().utf8).write(to: URL(fileURLWithPath: temporary))
            try OutputFile.commit(temporary, to: output)
        } catch let error as MediaIOError {
            throw CLIError(error.description)
        } catch {
            throw CLIError(
                "\(output): cannot write the definition (\(error.localizedDescription)); choose another path"
            )
        }
        print(learned.description)
        print(
            "wrote \(output): use it with `ptcoach analyze --exercises-directory \(OutputFile.folder(of: output)) --exercise \(learned.definition.id) …`"
        )
    }
}

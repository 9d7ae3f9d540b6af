import ArgumentParser
import CoachAnalysis
import CoachKit
import CoachPipeline
import Foundation
import MediaIO
import Testing

@testable import PoseKit
@testable import ptcoach

/// End to end: `ptcoach analyze` with the real MediaPipe model on a real video (the annotated video's
/// frames, size and overlay pixels), on a real pose-track (the report's numbers against `--json`'s), and on
/// bad input (one line, no file left behind, the input untouched).
struct AnalyzeCommandTests {
    private static let shared = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/data")
    /// 1280x720 at 23.976 fps, 144 frames, one slow squat by hand count (oblique view).
    static let squat = shared.appendingPathComponent("videos/calimiro/squat_11.mp4").path
    /// UI-PRMD m02 (hurdle step), subject s01, front view: ten repetitions.
    private static let hurdleSteps = shared.appendingPathComponent("pose-tracks/ui-prmd/m02_s01_front.jsonl").path

    static func require(_ path: String) throws {
        try #require(
            FileManager.default.fileExists(atPath: path),
            "missing \(path): the shared data (../shared/data) must sit next to the repository"
        )
    }

    /// A fresh empty folder for one test's files.
    static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "analyze-command-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Runs `ptcoach analyze` in-process; `false` when the pose runtime is missing (recorded as an issue).
    static func analyze(_ arguments: [String]) async throws -> Bool {
        try await InProcessCommand.run(["analyze"] + arguments)
    }

    // MARK: - Report

    /// `m:ss`, as the HTML report writes times.
    /// "0:07.4", as the report's table writes a repetition's times (written out here, not with its code).
    private static func clock(_ seconds: Double) -> String {
        let tenths = Int((max(0, seconds) * 10).rounded())
        let s = tenths / 10 % 60
        return "\(tenths / 600):\(s < 10 ? "0" : "")\(s).\(tenths % 10)"
    }

    @Test func countsAPushUpFilmedFromTheFloorWithNoExerciseGiven() async throws {
        // calimiro push-up_37: a front view from the floor, only the head, shoulders and arms in the picture;
        // 4 push-ups by hand count (scripts/hand-counts.csv). With no exercise given the coach follows the
        // upper body (it counted 2 when it also wanted the hips in the picture).
        let video = Self.shared.appendingPathComponent("videos/calimiro/push-up_37.mp4").path
        try Self.require(video)
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let json = folder + "/report.json"
        #expect(try await Self.analyze([video, "--report", json]))
        let summary = try JSONValue.parse(String(contentsOfFile: json, encoding: .utf8))
        let reps = try #require(summary["reps"]?.intValue)
        #expect(abs(reps - 4) <= 1, "4 push-ups by hand, counted \(reps)")
    }

    @Test func htmlReportShowsTheNumbersOfTheJSONSummary() async throws {
        try Self.require(Self.hurdleSteps)
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let html = folder + "/report.html"
        let json = folder + "/report.json"
        // The exercise given: one report section (a recognised recording may be split by exercise).
        #expect(try await Self.analyze([Self.hurdleSteps, "--exercise", "hurdle-step", "--report", html]))
        #expect(try await Self.analyze([Self.hurdleSteps, "--exercise", "hurdle-step", "--report", json]))

        let summary = try JSONValue.parse(String(contentsOfFile: json, encoding: .utf8))
        let reps = try #require(summary["reps"]?.intValue)
        let repetitions = try #require(summary["repetitions"]?.arrayValue)
        #expect(reps >= 3, "the recording has ten hurdle steps")
        #expect(repetitions.count == reps)

        let text = try String(contentsOfFile: html, encoding: .utf8)
        #expect(!text.contains("http://") && !text.contains("https://"), "the report loads nothing from the network")
        #expect(text.contains("<div class=\"card-title\">Repetitions</div><div class=\"card-value\">\(reps)"))
        for rep in repetitions {
            let index = try #require(rep["index"]?.intValue)
            let start = try #require(rep["startSeconds"]?.doubleValue)
            let end = try #require(rep["endSeconds"]?.doubleValue)
            var row = "<td>\(index)</td><td>\(Self.clock(start))–\(Self.clock(end))</td>"
            if let peak = rep["peakAngle"]?.doubleValue {
                row += "<td>\(Int(peak.rounded()))°</td>"
                // As the text output says it: at most 100 % (past the target, the peak angle says how far).
                if let rom = rep["rangeOfMotion"]?.doubleValue {
                    row += "<td class=\"rom\">\(Int((min(rom, 1) * 100).rounded())) %</td>"
                }
            }
            #expect(text.contains(row), "repetition \(index): no row starting \(row)")
        }
    }

    /// A recording of two exercises (hurdle steps, then shoulder abductions) reports one section per exercise
    /// recognised, whose repetitions add up to the session's and keep their numbers.
    @Test func aReportHasOneSectionPerExerciseDone() async throws {
        let abductions = Self.shared.appendingPathComponent("pose-tracks/ui-prmd/m07_s01_front.jsonl").path
        try Self.require(Self.hurdleSteps)
        try Self.require(abductions)
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // The two recordings one after the other, without their labels.
        let first = try PoseTrackReader.readAll(path: Self.hurdleSteps)
        let second = try PoseTrackReader.readAll(path: abductions)
        var header = first.header
        header.labels = [:]
        let track = folder + "/two.jsonl"
        var writer = try PoseTrackWriter(path: track, header: header)
        let offset = (first.frames.last?.seconds ?? 0) + 1 / header.fps
        for frame in first.frames { try writer.write(frame) }
        for var frame in second.frames {
            frame.seconds += offset
            try writer.write(frame)
        }
        try writer.close()
        let html = folder + "/report.html"
        let json = folder + "/summary.json"
        #expect(try await Self.analyze([track, "--report", html]))
        #expect(try await Self.analyze([track, "--report", json]))

        let summary = try JSONValue.parse(String(contentsOfFile: json, encoding: .utf8))
        let repetitions = try #require(summary["repetitions"]?.arrayValue)
        var byExercise: [String: Int] = [:]
        for rep in repetitions { byExercise[rep["exercise"]?.stringValue ?? "", default: 0] += 1 }
        try #require(byExercise.count >= 2, "the session should recognise more than one exercise: \(byExercise)")
        #expect(byExercise["shoulder-abduction", default: 0] >= 5, "\(byExercise)")

        let text = try String(contentsOfFile: html, encoding: .utf8)
        #expect(Self.count("<section class=\"exercise\">", in: text) == byExercise.count)
        #expect(text.contains("<h2>Shoulder abduction</h2>"))
        for (_, reps) in byExercise {
            #expect(text.contains("<div class=\"card-title\">Repetitions</div><div class=\"card-value\">\(reps)<"))
        }
    }

    private static func count(_ needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    /// `--reps N`: the report and the JSON set the repetitions done against the prescription.
    @Test func prescribedRepetitionsReachTheReportAndTheJSON() async throws {
        try Self.require(Self.hurdleSteps)
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let html = folder + "/report.html"
        let json = folder + "/report.json"
        let given = [Self.hurdleSteps, "--exercise", "hurdle-step", "--reps", "12"]
        #expect(try await Self.analyze(given + ["--report", html]))
        #expect(try await Self.analyze(given + ["--report", json]))

        let summary = try JSONValue.parse(String(contentsOfFile: json, encoding: .utf8))
        let reps = try #require(summary["reps"]?.intValue)
        #expect(summary["prescribedReps"]?.intValue == 12)
        let text = try String(contentsOfFile: html, encoding: .utf8)
        #expect(text.contains("<div class=\"card-value\">\(reps)<small> / 12</small>"))
        #expect(text.contains("done / prescribed"))

        #expect(throws: (any Error).self) {
            try CoachCommand.parseAsRoot(["analyze", Self.hurdleSteps, "--reps", "0"])
        }
        // A hold at each peak prescribed: in the JSON beside the repetitions.
        #expect(try await Self.analyze(given + ["--hold", "2", "--report", json, "--overwrite"]))
        let held = try JSONValue.parse(String(contentsOfFile: json, encoding: .utf8))
        #expect(held["prescribedHoldSeconds"]?.doubleValue == 2 && held["prescribedReps"]?.intValue == 12)
        // A hold at each peak needs the exercise it is prescribed for, and a positive time.
        for arguments in [["--hold", "5"], ["--exercise", "hurdle-step", "--hold", "0"]] {
            #expect(throws: (any Error).self) {
                try CoachCommand.parseAsRoot(["analyze", Self.hurdleSteps] + arguments)
            }
        }
    }

    /// The annotated stream's queues: six frames at each step up to 1080p, fewer as frames grow,
    /// never under two (a queue holds about 48 MiB at most, or two frames).
    @Test(arguments: [
        (1280, 720, 6), (1920, 1080, 6), (2560, 1440, 3), (3840, 2160, 2), (7680, 4320, 2), (320, 240, 6),
    ])
    func annotationQueuesShrinkForBigFrames(width: Int, height: Int, expected: Int) {
        #expect(VideoAnnotator.queueLength(width: width, height: height) == expected)
    }

    /// `--report` without `--annotate` on a video: the stills are drawn in a second pass over the decoded
    /// frames (only the frames that may become a still), full size, with the picture in them.
    @Test func aVideoReportWithoutAnnotateHasItsStills() async throws {
        try Self.require(Self.squat)
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let report = folder + "/report.html"
        guard try await Self.analyze([Self.squat, "--exercise", "squat", "--report", report]) else { return }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["report.html"])
        let html = try String(contentsOfFile: report, encoding: .utf8)
        let repetitions = html.components(separatedBy: "<tr class=").count - 1
        try #require(repetitions >= 1, "the report lists no repetition")
        let images = html.components(separatedBy: "src=\"data:image/png;base64,").dropFirst()
        #expect(images.count == min(2, repetitions))
        for image in images {
            let encoded = String(image.prefix { $0 != "\"" })
            let png = try #require(Data(base64Encoded: encoded), "a still is not base64")
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a still is not a PNG")
            // IHDR: width and height, big-endian, at bytes 16 and 20.
            let size = [16, 20].map { at in png[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
            #expect(size == [1280, 720], "a still is \(size)")
            // A photo compresses far less than a blank frame with an overlay (a few kilobytes).
            #expect(png.count > 200_000, "a still is only \(png.count) bytes: is the picture missing?")
        }
    }

    @Test func pdfReportIsAPDF() async throws {
        try Self.require(Self.hurdleSteps)
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pdf = folder + "/report.pdf"
        #expect(try await Self.analyze([Self.hurdleSteps, "--report", pdf]))
        let bytes = try #require(FileManager.default.contents(atPath: pdf))
        #expect(bytes.starts(with: Array("%PDF-".utf8)))
        #expect(bytes.count > 10_000)
    }

    // MARK: - Bad input

    enum BadOutput: String, CaseIterable, Sendable {
        case existingWithoutOverwrite, sameAsInput, unknownReportExtension, missingFolder
    }

    @Test(arguments: BadOutput.allCases)
    func badOutputIsRefusedInOneLineLeavingEverythingAsItWas(_ bad: BadOutput) async throws {
        try Self.require(Self.hurdleSteps)
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // The input is a copy, named so that it could be taken for a report.
        let input = folder + "/track.json"
        try FileManager.default.copyItem(atPath: Self.hurdleSteps, toPath: input)
        let original = try #require(FileManager.default.contents(atPath: input))
        let existing = Data("keep me".utf8)
        let arguments: [String]
        let untouched: [String]
        switch bad {
        case .existingWithoutOverwrite:
            _ = FileManager.default.createFile(atPath: folder + "/old.mp4", contents: existing)
            arguments = [input, "--annotate", folder + "/old.mp4"]
            untouched = ["old.mp4", "track.json"]
        case .sameAsInput:
            arguments = [input, "--report", input]
            untouched = ["track.json"]
        case .unknownReportExtension:
            arguments = [input, "--report", folder + "/report.txt"]
            untouched = ["track.json"]
        case .missingFolder:
            arguments = [input, "--annotate", folder + "/missing/out.mp4"]
            untouched = ["track.json"]
        }
        await #expect {
            _ = try await Self.analyze(arguments)
        } throws: { error in
            guard let error = error as? CLIError else { return false }
            return !error.message.isEmpty && !error.message.contains("\n")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == untouched)
        #expect(FileManager.default.contents(atPath: input) == original)
        if bad == .existingWithoutOverwrite {
            #expect(FileManager.default.contents(atPath: folder + "/old.mp4") == existing)
        }
    }

    @Test(arguments: ["garbage\n", "", "t,x,y\n0,1,2\n"])
    func aBrokenPoseTrackIsCalledOneNotABadVideo(content: String) async throws {
        // Named .jsonl, so it was meant as a pose-track: the error says what a pose-track must start with
        // (it used to say "not a video or image ffmpeg can read; give an mp4, mov, webm or avi file").
        let folder = NSTemporaryDirectory() + "ptcoach-broken-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/poses.jsonl"
        _ = FileManager.default.createFile(atPath: path, contents: Data(content.utf8))
        await #expect {
            _ = try await Self.analyze([path, "--exercise", "squat"])
        } throws: { error in
            guard let error = error as? CLIError else { return false }
            return error.message.hasPrefix(path + ":1: not a pose-track") && !error.message.contains("\n")
        }
    }

    @Test func badOutputExitsNonZeroWithOneLineOnStandardError() throws {
        // The real executable, when the build put it beside the tests.
        let directory = Bundle.main.bundleURL.deletingLastPathComponent()
        let candidates = [directory, Bundle.main.bundleURL].map { $0.appendingPathComponent("ptcoach").path }
        let executable = try #require(
            candidates.first { FileManager.default.isExecutableFile(atPath: $0) },
            "no ptcoach executable in \(directory.path); build it (swift build) before the tests"
        )
        try Self.require(Self.hurdleSteps)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["analyze", Self.hurdleSteps, "--report", NSTemporaryDirectory() + "report.docx"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus != 0)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
        #expect(lines.count == 1, "standard error: \(text)")
        #expect(text.contains("report.docx") && text.contains(".html"))
        #expect(!FileManager.default.fileExists(atPath: NSTemporaryDirectory() + "report.docx"))
    }

    // MARK: - Why nothing was counted

    @Test func theGuidanceShownLongestIsTheReasonGiven() {
        var tally = GuidanceTally()
        #expect(tally.longest == nil)
        // 0–1 s nothing, 1–3 s "step back", 3–3.5 s "turn sideways", 3.5–4 s nothing.
        for (seconds, text) in [
            (0.0, nil), (1.0, "Step back"), (2.0, "Step back"), (3.0, "Turn sideways"), (3.5, nil), (4.0, nil),
        ] as [(Double, String?)] {
            var snapshot = CoachSnapshot()
            snapshot.seconds = seconds
            snapshot.setupGuidance = text
            tally.add(snapshot)
        }
        #expect(tally.longest?.text == "Step back")
        #expect(tally.longest?.seconds == 2)
    }

    @Test func theRepetitionLineShowsTheSideTheTargetSpeaksOf() throws {
        // A pull-up counted with no exercise given (side "both", no side of its own): the right arm moved most,
        // so its peak (178°) is the one judged against the target; the line shows that side, not the first listed.
        func range(_ side: String, _ min: Double, _ max: Double) -> String {
            #"{"angle":"elbowFlexion","side":"\#(side)","min":\#(min),"max":\#(max),"atPeak":\#(max)}"#
        }
        let json = #"""
            {"exercise":"pull-up","exerciseName":"Pull-up","exerciseSource":"recognized","countedBy":"movement",
             "reps":1,"holds":[],"segments":[],"formIssues":[],"safetyWarnings":[],"cues":[],
             "averages":{},"durationSeconds":9,"secondsWithPerson":9,
             "repetitions":[{"index":1,"exercise":"pull-up","startSeconds":6.1,"endSeconds":8.5,
               "angles":[\#(range("left", 0, 139)),\#(range("right", 1, 158))],
               "peakAngle":158,"rangeOfMotion":1.9,"verdict":"good","issues":[],"safetyBreaches":[],
               "range":{"status":"beyond","peak":158,"targetMin":110,"targetMax":150,"fraction":1.9,"unit":"°"},
               "measurementReliable":true,
               "tempo":{"toPeakSeconds":1,"fromPeakSeconds":1,"concentricSeconds":1,"eccentricSeconds":1}}]}
            """#
        let summary = try JSONDecoder().decode(SessionSummary.self, from: Data(json.utf8))
        let text = BodyAnalysis.report(summary, file: "pull-up.jsonl")
        let line =
            "rep 1: 6.1–8.5 s, elbow flexion right 1–158°, past the target range (158°, target 110–150°), good form"
        #expect(text.contains(line), "\(text)")
        // A repetition of a movement with no exercise recognised: its form was not judged, and the line says so.
        var unnamed = summary
        unnamed.repetitions[0].exercise = nil
        unnamed.repetitions[0].angles = []
        unnamed.repetitions[0].peakAngle = nil
        unnamed.repetitions[0].rangeOfMotion = nil
        unnamed.repetitions[0].range = nil
        unnamed.repetitions[0].verdict = .notChecked
        unnamed.repetitions[0].uncheckedReason = "no exercise recognised"
        let unnamedText = BodyAnalysis.report(unnamed, file: "f")
        #expect(unnamedText.contains("rep 1: 6.1–8.5 s, form not checked (no exercise recognised)"), "\(unnamedText)")
    }

    @Test func eachHoldHasItsOwnNumberedLineWithItsTimes() throws {
        // Two holds of the same length printed the same line twice ("hold: 1.7 s of 10 s" twice).
        func hold(_ start: Double, _ held: Double, _ completed: Bool) -> String {
            #"{"startSeconds":\#(start),"endSeconds":\#(start + held),"heldSeconds":\#(held),"targetSeconds":10,"completed":\#(completed)}"#
        }
        let json = #"""
            {"exercise":"single-leg-stance","exerciseName":"Single-leg stance","exerciseSource":"given","countedBy":"angle",
             "reps":0,"holds":[\#(hold(17.2, 1.7, false)),\#(hold(34.2, 12.5, true))],"segments":[],"formIssues":[],
             "safetyWarnings":[],"cues":[],"averages":{},"durationSeconds":50,"secondsWithPerson":50,"repetitions":[]}
            """#
        let summary = try JSONDecoder().decode(SessionSummary.self, from: Data(json.utf8))
        let text = BodyAnalysis.report(summary, file: "f")
        #expect(text.contains("  hold 1: 17.2–18.9 s, held 1.7 s of 10 s\n"), "\(text)")
        #expect(text.contains("  hold 2: 34.2–46.7 s, held 12.5 s of 10 s (done)"), "\(text)")
    }

    // MARK: - A trained model as the recognizer

    /// A model trained on three UI-PRMD movements of subjects s01–s03 (front view), labelled with exercise ids
    /// (or with `labels` instead), written to `folder/model.json`.
    private static func trainModel(in folder: String, labels: [String]? = nil) throws -> String {
        let movements = [("m07", "shoulder-abduction"), ("m09", "shoulder-rotation"), ("m02", "hurdle-step")]
        var sequences: [PoseSequence] = []
        var ids: [String] = []
        for (movement, id) in movements {
            for subject in ["s01", "s02", "s03"] {
                let path = shared.appendingPathComponent("pose-tracks/ui-prmd/\(movement)_\(subject)_front.jsonl").path
                try require(path)
                sequences.append(try PoseTrackSequenceSource().sequence(at: path))
                ids.append(id)
            }
        }
        let classifier = try ActionClassifier.train(sequences: sequences, labels: labels ?? ids)
        let model = folder + "/model.json"
        try classifier.jsonText.write(toFile: model, atomically: true, encoding: .utf8)
        return model
    }

    @Test func aTrainedModelFindsTheExerciseWhichIsThenCountedAsIfGiven() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let model = try Self.trainModel(in: folder)
        // A subject and a view the model never saw: ten shoulder abductions.
        let input = Self.shared.appendingPathComponent("pose-tracks/ui-prmd/m07_s04_side.jsonl").path
        try Self.require(input)
        let json = folder + "/report.json"

        #expect(try await Self.analyze([input, "--model", model, "--report", json]))

        let summary = try JSONValue.parse(String(contentsOfFile: json, encoding: .utf8))
        #expect(summary["exercise"]?.stringValue == "shoulder-abduction")
        #expect(summary["exerciseSource"]?.stringValue == "model")
        let reps = try #require(summary["reps"]?.intValue)
        #expect(abs(reps - 10) <= 1, "ten abductions, counted \(reps)")
    }

    @Test func aModelIsRefusedWithAnExerciseOrWhenItsLabelsAreNotExercises() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let formLabels = Array(repeating: ["good", "good", "bad"], count: 3).flatMap { $0 }
        let formModel = try Self.trainModel(in: folder, labels: formLabels)
        let input = Self.shared.appendingPathComponent("pose-tracks/ui-prmd/m07_s04_side.jsonl").path
        for arguments in [
            [input, "--model", formModel, "--exercise", "squat"],
            [input, "--model", formModel],
            [input, "--model", folder + "/missing.json"],
        ] {
            await #expect {
                _ = try await Self.analyze(arguments)
            } throws: { error in
                guard let error = error as? CLIError else { return false }
                return !error.message.contains("\n")
                    && (error.message.contains("--exercise or --model") || error.message.contains("not an exercise id")
                        || error.message.contains("not found"))
            }
        }
    }

    // MARK: - Pose-track lines

    /// The annotation pass decodes the lines the pose pass writes with the reader's own frame decoder.
    @Test func aPoseTrackLineReadsAsTheReaderReadsIt() throws {
        try Self.require(Self.hurdleSteps)
        let (header, frames) = try PoseTrackReader.readAll(path: Self.hurdleSteps)
        let lines = try String(contentsOfFile: Self.hurdleSteps, encoding: .utf8)
            .split(separator: "\n").dropFirst().map(String.init)
        #expect(lines.count == frames.count)
        var decoder = PoseTrackFrameDecoder(header: header)
        for (line, frame) in zip(lines, frames) {
            #expect(try decoder.decode(try JSONValue.parse(line)) == frame)
        }
    }

    /// Recognised without --exercise, the report's angle chart has a curve from the first repetition, not only
    /// from when the exercise was named (pull-up_14's first repetition had none).
    @Test func theReportAngleSeriesCoversTheFirstRepetitionOfARecognisedExercise() throws {
        let track = Self.shared.appendingPathComponent("pose-tracks/kaiakol/pushup_correct_003.jsonl").path
        let library = try ExerciseLibrary.bundled()
        var source = try PoseTrackFrameSource(path: track)
        let configuration = BodyAnalysis.sessionConfiguration(
            exercise: nil,
            library: library,
            width: source.width,
            height: source.height
        )
        var series: [ReportInput.AngleSample] = []
        let summary = try BodyPipeline.run(source: &source, configuration: configuration, name: "t") { s in
            if let sample = BodyAnalysis.angleSample(of: s) { series.append(sample) }
        }
        let first = try #require(summary.repetitions.first, "a push-up is counted")
        try #require(summary.exercise != nil, "an exercise is recognised")
        // Named after the first repetition began: the chart had nothing for its start.
        try #require((series.first?.seconds ?? .infinity) > first.startSeconds, "named before the first repetition")
        let full = try BodyAnalysis.seriesFromTheStart(
            series,
            summary: summary,
            track: track,
            library: library,
            name: "t"
        )
        #expect((full.first?.seconds ?? .infinity) <= first.startSeconds)
        #expect(zip(full, full.dropFirst()).allSatisfy { $0.seconds < $1.seconds }, "in time order")
    }
}

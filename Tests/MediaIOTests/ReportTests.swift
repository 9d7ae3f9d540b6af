import CoachKit
import Foundation
import Testing

@testable import MediaIO
@testable import PoseKit

struct ReportTests {
    static let romValues: [Double] = [97, 104, 88, 112, 95, 81, 101, 99]

    /// A squat set: 8 reps of 10 prescribed, target 90–120°, two short reps, one unsafe rep.
    static func input(reps: Int = 8, stills: Bool = true) -> ReportInput {
        var exercise = ReportInput.Exercise(
            name: "Squat",
            angleName: "Knee flexion",
            targetRange: 90...120,
            targetDegrees: 90...120,
            prescribedReps: 10
        )
        var seconds = 0.5
        for index in 1...reps {
            let rom = romValues[(index - 1) % romValues.count]
            let verdict: ReportInput.Verdict = index == 4 ? .unsafe : rom < 90 ? .needsWork : .good
            let issues = index == 4 ? ["Knees caving in"] : rom < 90 ? ["Not deep enough"] : []
            exercise.repetitions.append(
                .init(
                    index: index,
                    startSeconds: seconds,
                    endSeconds: seconds + 2.4,
                    peakDegrees: rom,
                    rangeOfMotion: rom,
                    tempoUpSeconds: 1.0 + Double(index % 3) * 0.2,
                    tempoDownSeconds: 1.3,
                    verdict: verdict,
                    issues: issues
                )
            )
            for step in 0..<24 {
                let t = seconds + Double(step) * 0.1
                exercise.angleSeries.append(.init(seconds: t, degrees: 5 + (rom - 5) * sin(Double(step) / 24 * .pi)))
            }
            if index == 4 {
                exercise.events.append(.init(seconds: seconds + 1.2, text: "Knees caving in", isSafety: true))
            }
            if rom < 90 { exercise.events.append(.init(seconds: seconds + 1.2, text: "Not deep enough")) }
            seconds += 2.6
        }
        if stills {
            let renderer = OverlayRenderer()
            var pose = Pose()
            pose[.leftHip] = Keypoint(x: 150, y: 100, confidence: 1)
            pose[.leftKnee] = Keypoint(x: 200, y: 140, confidence: 1)
            pose[.leftAnkle] = Keypoint(x: 160, y: 190, confidence: 1)
            let state = OverlayState(
                people: [pose],
                coachedIndex: 0,
                angle: .init(joint: .leftKnee, from: .leftHip, to: .leftAnkle, degrees: 104, isInTarget: true),
                reps: 2
            )
            let background = OverlayColor(red: 70, green: 80, blue: 90)
            exercise.stills = [
                .init(
                    caption: "Best repetition",
                    repetition: 2,
                    image: renderer.render(state, width: 320, height: 200, background: background)
                ),
                .init(
                    caption: "Repetition needing most work",
                    repetition: 6,
                    image: renderer.render(state, width: 320, height: 200, background: background)
                ),
            ]
        }
        return ReportInput(title: "Knee rehab — week 3", subtitle: "Session of 22 November", exercises: [exercise])
    }

    static func temporaryFolder() throws -> String {
        let path = NSTemporaryDirectory() + "overlay-report-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func count(_ needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    /// A repetition the camera view could not measure is "good form", never "in target": the card counts
    /// the measured ones and says how many were not.
    @Test func unmeasuredRepetitionsAreNotCountedInTarget() throws {
        var input = Self.input(stills: false)
        for k in [1, 2] { input.exercises[0].repetitions[k - 1].rangeOfMotion = nil }
        let html = ReportWriter.html(input)
        #expect(html.contains("8 of 10 repetitions done; 3 of the 6 measured reached the target range"))
        #expect(html.contains("3<small> / 6</small>"))
        #expect(html.contains("target 90–120°, 2 not measurable"))
        #expect(html.contains("<tr class=\"goodForm\"><td>1</td>"))
        let json = try JSONValue.parse(ReportWriter.json(input))
        let exercise = try #require(json["exercises"]?.arrayValue?.first)
        #expect(exercise["repsInTarget"]?.intValue == 3)
        #expect(exercise["repsMeasured"]?.intValue == 6)

        for k in 1...8 { input.exercises[0].repetitions[k - 1].rangeOfMotion = nil }
        let none = ReportWriter.html(input)
        #expect(none.contains("range of motion not measurable from this camera view"))
        #expect(!none.contains("In target range"))
    }

    /// Where the angle was not measured for a while, the angle line stops instead of ramping across the gap.
    @Test func theAngleLineBreaksWhereTheAngleWasNotMeasured() {
        var input = Self.input(reps: 2, stills: false)
        let whole = Self.count("<polyline", in: ReportWriter.html(input))
        // Drop the second rep's samples but one far later: the line has one more piece.
        input.exercises[0].angleSeries =
            input.exercises[0].angleSeries.filter { $0.seconds < 2.9 }
            + [.init(seconds: 9, degrees: 40), .init(seconds: 9.1, degrees: 42)]
        #expect(Self.count("<polyline", in: ReportWriter.html(input)) == whole + 1)
    }

    @Test func htmlShowsTheNumbersOfTheSession() {
        let html = ReportWriter.html(Self.input())
        #expect(html.contains("8<small> / 10</small>"), "reps done / prescribed")
        #expect(html.contains("8 of 10 repetitions done; 5 reached the target range; 1 safety warning."))
        for rom in Self.romValues {
            #expect(html.contains("<td class=\"rom\">\(Int(rom))°</td>"), "rep ROM \(rom)")
        }
        #expect(html.contains("Knee rehab — week 3"))
        // Rows are coloured by meaning: rep 3 (88°) is short, rep 4 is a safety breach, rep 1 is within.
        #expect(html.contains("<tr class=\"within\"><td>1</td>"))
        #expect(html.contains("<tr class=\"short\"><td>3</td>"))
        #expect(html.contains("<tr class=\"unsafe\"><td>4</td>"))
        // A repetition in its target whose form was flagged needs work; it is not "short" (a hold at the peak too
        // short, 140 % of the target range reached, read "short").
        var flagged = Self.input()
        flagged.exercises[0].repetitions[0].verdict = .needsWork
        flagged.exercises[0].repetitions[0].issues = ["Hold the position for 5 s before coming back"]
        let flaggedHTML = ReportWriter.html(flagged)
        #expect(flaggedHTML.contains("<tr class=\"needsWork\"><td>1</td>"))
        #expect(flaggedHTML.contains("<span class=\"pill needsWork\">needs work</span>"))
    }

    @Test func htmlIsSelfContainedAndWellFormed() {
        let html = ReportWriter.html(Self.input())
        #expect(!html.lowercased().contains("http"), "an external URL")
        #expect(!html.lowercased().contains("<script"))
        #expect(!html.contains("<link"))
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.hasSuffix("</html>\n"))
        for tag in ["html", "head", "body", "section", "svg", "table", "tr", "figure", "div", "text", "style"] {
            #expect(
                Self.count("<\(tag)>", in: html) + Self.count("<\(tag) ", in: html)
                    == Self.count("</\(tag)>", in: html),
                "<\(tag)> unbalanced"
            )
        }
        #expect(Self.count("<svg ", in: html) == 4, "four charts")
        // Two stills, as PNG (base64 of the PNG signature is "iVBORw0KGgo").
        #expect(Self.count("src=\"data:image/png;base64,iVBORw0KGgo", in: html) == 2)
    }

    @Test func anEmptySessionStillRenders() {
        let html = ReportWriter.html(ReportInput(title: "Empty", exercises: [ReportInput.Exercise(name: "Plank")]))
        #expect(html.contains("0 repetitions done"))
        #expect(html.contains("No range-of-motion measurements"))
        #expect(ReportWriter.html(ReportInput(title: "Nothing", exercises: [])).contains("No exercise was recognised"))
    }

    static func pdfPageCount(_ path: String) throws -> Int {
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/pdfinfo") {
            let pdfinfo = try PipeProcess("pdfinfo", [path])
            let text = String(decoding: try pdfinfo.readAll(), as: UTF8.self)
            pdfinfo.waitForExit()
            let line = text.split(separator: "\n").first { $0.hasPrefix("Pages:") } ?? ""
            return Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces)) ?? -1
        }
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        return count("/Type /Page\n", in: text) + count("/Type /Page ", in: text) + count("/Type /Page>", in: text)
    }

    @Test(arguments: [(8, 2), (60, 3)])
    func pdfIsA4WithTheExpectedPages(reps: Int, pages: Int) throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/report.pdf"
        try ReportWriter.write(Self.input(reps: reps), to: path)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(bytes.starts(with: Array("%PDF-".utf8)))
        #expect(try Self.pdfPageCount(path) == pages)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["report.pdf"])
    }

    @Test func jsonCarriesTheNumbers() throws {
        let json = try JSONValue.parse(ReportWriter.json(Self.input()))
        let exercise = try #require(json["exercises"]?.arrayValue?.first)
        #expect(exercise["reps"]?.intValue == 8)
        #expect(exercise["prescribedReps"]?.intValue == 10)
        #expect(exercise["repsInTarget"]?.intValue == 5)
        let roms = exercise["repetitions"]?.arrayValue?.compactMap { $0["rangeOfMotion"]?.doubleValue }
        #expect(roms == Self.romValues)
        var input = Self.input(stills: false)
        input.summaryJSON = "{\"reps\":8}"
        #expect(ReportWriter.json(input) == "{\"reps\":8}\n")
    }

    @Test(arguments: ["report.html", "report.pdf", "report.json"])
    func writesEachFormatOnlyUnderItsName(name: String) throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try ReportWriter.write(Self.input(stills: false), to: folder + "/" + name)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [name])
        let error = #expect(throws: MediaIOError.self) {
            try ReportWriter.write(Self.input(stills: false), to: folder + "/" + name)
        }
        #expect(error?.message.contains("--overwrite") == true)
        try ReportWriter.write(Self.input(stills: false), to: folder + "/" + name, overwrite: true)
    }

    @Test func badOutputsAreRefusedAndLeaveNothing() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let unknown = #expect(throws: MediaIOError.self) {
            try ReportWriter.write(Self.input(), to: folder + "/r.docx")
        }
        #expect(unknown?.message.contains(".html, .pdf or .json") == true)
        let missing = #expect(throws: MediaIOError.self) {
            try ReportWriter.write(Self.input(), to: folder + "/missing/r.pdf")
        }
        #expect(missing?.code == .fileNotFound)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    @Test func timesReadInTenthsWhereSecondsWouldRepeat() {
        #expect(HTMLText.clock(62.4) == "1:02")
        #expect(HTMLText.clock(0.44, tenths: true) == "0:00.4")
        #expect(HTMLText.clock(1.96, tenths: true) == "0:02.0")
        #expect(HTMLText.clock(3725.25, tenths: true) == "1:02:05.3")
        // Ticks every half second of a 2.2 s clip read "0:00, 0:01, 0:01, 0:02, 0:02" in whole seconds.
        #expect(HTMLText.clockTicks([0, 0.5, 1, 1.5, 2]) == ["0:00.0", "0:00.5", "0:01.0", "0:01.5", "0:02.0"])
        #expect(HTMLText.clockTicks([0, 5, 10]) == ["0:00", "0:05", "0:10"])
        // Every 2.5 s: "0:03" would sit at 2.5 s.
        #expect(HTMLText.clockTicks([0, 2.5, 5, 7.5]) == ["0:00.0", "0:02.5", "0:05.0", "0:07.5"])
        #expect(HTMLText.span(0.4, 1.9) == "0:00.4–0:01.9")
        let labels = HTMLText.clockTicks(ReportCharts.ticks(0, 2.2, count: 8))
        #expect(Set(labels).count == labels.count, "\(labels)")
    }

    @Test func snapshotsForReview() throws {
        // Writes the reports where a person can look at them (OVERLAY_SNAPSHOT_DIR), and checks sizes.
        let snapshots = ProcessInfo.processInfo.environment["OVERLAY_SNAPSHOT_DIR"]
        let folder = try snapshots ?? Self.temporaryFolder()
        // A folder of our own goes when the test ends; the reviewer's stays.
        defer { if snapshots == nil { try? FileManager.default.removeItem(atPath: folder) } }
        for name in ["report.html", "report.pdf"] {
            try ReportWriter.write(Self.input(), to: folder + "/" + name, overwrite: true)
            let size = try FileManager.default.attributesOfItem(atPath: folder + "/" + name)[.size] as? Int ?? 0
            #expect(size > 10_000 && size < 2_000_000, "\(name) is \(size) bytes")
        }
    }
}

struct ReportInputSessionSummaryTests {
    static let summaryJSON = """
        {"exercise":"squat","exerciseName":"Squat","exerciseSource":"given","countedBy":"definition","reps":2,
         "repetitions":[
          {"index":1,"exercise":"squat","startSeconds":0.5,"endSeconds":2.5,"angles":[{"angle":"kneeFlexion","side":"left","min":5,"max":95,"atPeak":95}],
           "peakAngle":95,"rangeOfMotion":1.05,"tempo":{"toPeakSeconds":1.2,"fromPeakSeconds":0.8},
           "verdict":"good","issues":[],"safetyBreaches":[],"measurementReliable":true},
          {"index":2,"exercise":"squat","startSeconds":3,"endSeconds":5,"angles":[],"peakAngle":70,"rangeOfMotion":0.74,
           "tempo":{"toPeakSeconds":1.0,"fromPeakSeconds":1.0,"concentricSeconds":0.9,"eccentricSeconds":1.1,"atPeakSeconds":5.04},
           "verdict":"needs-work","issues":[{"rule":"depth","cue":"Go a little deeper","angle":"kneeFlexion","value":70,"limit":80,"priority":1}],
           "safetyBreaches":[],"measurementReliable":true}],
         "holds":[],"segments":[],
         "formIssues":[{"seconds":4,"repetition":2,"rule":"depth","cue":"Go a little deeper"}],
         "safetyWarnings":[{"angle":"kneeFlexion","side":"left","value":150,"limit":140,"text":"Knee bent too far","seconds":4.5}],
         "cues":[],"averages":{},"durationSeconds":5.5,"secondsWithPerson":5.5}
        """

    @Test func aSessionSummaryBecomesAReportSection() throws {
        let summary = try JSONDecoder().decode(SessionSummary.self, from: Data(Self.summaryJSON.utf8))
        let exercise = ReportInput.Exercise(summary: summary, prescribedReps: 10)
        #expect(exercise.name == "Squat")
        #expect(exercise.angleName == "Knee flexion")
        #expect(exercise.rangeOfMotionUnit == .fraction)
        // Reaching past the target is not a miss: the target is open-ended, shown as "≥ 100 %", null in JSON.
        #expect(exercise.targetRange?.lowerBound == 1 && exercise.targetRange?.upperBound == .infinity)
        let report = ReportInput(title: "t", exercises: [exercise])
        #expect(ReportWriter.html(report).contains("target ≥ 100 %"))
        #expect(report.jsonText.contains("\"targetRange\":[1,null]"))
        #expect(exercise.repetitions.map(\.rangeOfMotion) == [1.05, 0.74])
        #expect(exercise.repetitions.map(\.verdict) == [.good, .needsWork])
        // Concentric/eccentric when known, else the halves from/to the peak.
        #expect(exercise.repetitions[0].tempoUpSeconds == 0.8 && exercise.repetitions[0].tempoDownSeconds == 1.2)
        #expect(exercise.repetitions[1].tempoUpSeconds == 0.9 && exercise.repetitions[1].tempoDownSeconds == 1.1)
        #expect(exercise.events.map(\.isSafety) == [false, true])
        let html = ReportWriter.html(ReportInput(title: "t", exercises: [exercise]))
        #expect(html.contains("2 of 10 repetitions done; 1 reached the target range; 1 safety warning."))
        // Past an open-ended target the table says 100 %, as the text output does; the peak angle says how far.
        #expect(html.contains("<td class=\"rom\">100 %</td>") && html.contains("<td class=\"rom\">74 %</td>"))
        // The time held at the peak: "–" where it was not measured (the first repetition), else in seconds.
        #expect(exercise.repetitions.map(\.heldSeconds) == [nil, 5.04])
        #expect(html.contains("<th>Held</th>") && html.contains("<td>5.0 s</td>"), "\(html)")
    }

    /// A repetition that reached the target range but was flagged (held too briefly at the top) still reached
    /// it: raises to 140 % read "0 reached the target range" beside an average range of motion of 140 %.
    @Test func aRepetitionFlaggedForFormStillReachedTheTargetRange() throws {
        var summary = try JSONDecoder().decode(SessionSummary.self, from: Data(Self.summaryJSON.utf8))
        summary.repetitions[1].rangeOfMotion = 1.4
        let exercise = ReportInput.Exercise(summary: summary)
        #expect(ExerciseStatistics.status(of: exercise.repetitions[1], in: exercise) == .needsWork)
        let html = ReportWriter.html(ReportInput(title: "t", exercises: [exercise]))
        #expect(html.contains("2 repetitions done; 2 reached the target range"), "\(html)")
    }

    /// A prescribed hold at the peak: the tempo card gives the time held against it, amber when held shorter
    /// (by more than the half second the coach allows); with none prescribed and no hold, just the halves.
    @Test func theTempoCardGivesTheTimeHeldAgainstThePrescription() throws {
        let summary = try JSONDecoder().decode(SessionSummary.self, from: Data(Self.summaryJSON.utf8))
        func report(_ summary: SessionSummary, hold: Double?) -> ReportInput {
            ReportInput(title: "t", exercises: [ReportInput.Exercise(summary: summary, prescribedHoldSeconds: hold)])
        }
        func card(_ report: ReportInput) throws -> String {
            let html = ReportWriter.html(report)
            let tempo = try #require(html.range(of: "id=\"card-tempo\""), "\(html)")
            let open = try #require(html[..<tempo.lowerBound].range(of: "<div class=\"card", options: .backwards))
            return String(html[open.lowerBound...].prefix(400))
        }
        // Held 5.04 s (the only repetition with a hold measured), 5 s prescribed: green.
        let held = try card(report(summary, hold: 5))
        #expect(held.hasPrefix("<div class=\"card within\"") && held.contains("lowering / lifting, held 5.0 s of 5 s"))
        // 6 s prescribed: amber.
        let short = try card(report(summary, hold: 6))
        #expect(short.hasPrefix("<div class=\"card short\"") && short.contains("held 5.0 s of 6 s"), "\(short)")
        // Nothing prescribed and no repetition held a second: the halves alone.
        var quick = summary
        quick.repetitions[1].tempo.atPeakSeconds = 0.3
        let plain = try card(report(quick, hold: nil))
        #expect(plain.hasPrefix("<div class=\"card unknown\"") && plain.contains(">lowering / lifting<"), "\(plain)")
        #expect(report(summary, hold: 5).jsonText.contains("\"prescribedHoldSeconds\":5"))
    }

    /// A repetition the camera view could not measure keeps its peak but has no range of motion: it is not
    /// "in target" (push-up_37 filmed head-on read 196 % "in target" while the text output said "range not
    /// measurable from this camera view").
    @Test func aRepetitionTheViewCannotMeasureIsNotInTarget() throws {
        var summary = try JSONDecoder().decode(SessionSummary.self, from: Data(Self.summaryJSON.utf8))
        summary.repetitions[0].measurementReliable = false
        let exercise = ReportInput.Exercise(summary: summary)
        #expect(exercise.repetitions.map(\.rangeOfMotion) == [nil, 0.74])
        #expect(exercise.repetitions[0].peakDegrees == 95)
        #expect(ExerciseStatistics.status(of: exercise.repetitions[0], in: exercise) == .goodForm)
        let html = ReportWriter.html(ReportInput(title: "t", exercises: [exercise]))
        #expect(html.contains("2 repetitions done; 0 of the 1 measured reached the target range"), "\(html)")
        // None measured: the chart says why it is empty.
        summary.repetitions[1].measurementReliable = false
        let unmeasured = ReportWriter.html(ReportInput(title: "t", exercises: [ReportInput.Exercise(summary: summary)]))
        #expect(unmeasured.contains("Range of motion not measurable from this camera view"))
        #expect(!unmeasured.contains("No range-of-motion measurements"))
    }

    /// A repetition of a movement no exercise was recognised for is "not judged", not "good form".
    @Test func aRepetitionWithNoExerciseIsNotJudged() throws {
        var summary = try JSONDecoder().decode(SessionSummary.self, from: Data(Self.summaryJSON.utf8))
        summary.repetitions[0].exercise = nil
        summary.repetitions[0].uncheckedReason = "no exercise recognised"
        let exercise = ReportInput.Exercise(summary: summary)
        #expect(exercise.repetitions.map(\.verdict) == [.notJudged, .needsWork])
        #expect(ExerciseStatistics.status(of: exercise.repetitions[0], in: exercise) == .unknown)
        let html = ReportWriter.html(ReportInput(title: "t", exercises: [exercise]))
        #expect(html.contains("<span class=\"pill unknown\">not judged</span>"))
        // Pills take their status colour; "good form" is green, as in the PDF.
        #expect(html.contains(".pill.within,.pill.goodForm{background:var(--good)}"))
        #expect(exercise.repetitions[0].issues == ["Not checked: no exercise recognised"])
    }

    /// A hold's section reports the time held against its target, with the hold's band on the angle chart,
    /// and no repetitions (it read "0 repetitions done" beside an empty range-of-motion chart).
    @Test func aHoldIsReportedByTheTimeHeld() throws {
        var summary = try JSONDecoder().decode(SessionSummary.self, from: Data(Self.summaryJSON.utf8))
        summary.exercise = "wall-sit"
        summary.exerciseName = "Wall sit"
        summary.reps = 0
        summary.repetitions = []
        summary.holds = try JSONDecoder().decode(
            [SessionSummary.Hold].self,
            from: Data(
                #"[{"startSeconds":3,"endSeconds":16.2,"heldSeconds":13.2,"targetSeconds":30,"completed":false}]"#.utf8
            )
        )
        let wallSit = try #require(try ExerciseLibrary.bundled()["wall-sit"])
        let exercise = ReportInput.Exercise(summary: summary, definition: wallSit)
        #expect(exercise.isHold)
        #expect(exercise.angleName == "Knee flexion")
        #expect(exercise.targetDegrees == 65...115)
        let html = ReportWriter.html(ReportInput(title: "t", exercises: [exercise]))
        #expect(html.contains("Longest hold 13.2 s of 30 s; 1 safety warning."), "\(html)")  // the fixture's
        #expect(html.contains("id=\"card-hold\""))
        #expect(!html.contains("id=\"card-reps\"") && !html.contains("Range of motion per repetition"))
        #expect(!html.contains("Tempo per repetition"))
    }

    /// What the coach could not check in a repetition, and a bridged loss of the pose, are in its notes.
    @Test func uncheckedRulesAndABridgedGapAreNoted() throws {
        var summary = try JSONDecoder().decode(SessionSummary.self, from: Data(Self.summaryJSON.utf8))
        summary.repetitions[0].uncheckedRules = ["knees-out"]
        summary.repetitions[0].uncheckedReason = "knees-out needs a front view"
        summary.repetitions[1].gapSeconds = 0.64
        let exercise = ReportInput.Exercise(summary: summary)
        #expect(exercise.repetitions[0].issues == ["Not checked: knees-out needs a front view"])
        #expect(exercise.repetitions[1].issues == ["Go a little deeper", "Pose lost for 0.6 s"])
    }
}

/// Records the texts a chart draws, with a box from the font size (average DejaVu Sans advance about 0.6 em).
private struct TextRecorder: ChartCanvas {
    struct Box {
        var text: String
        var minX, maxX, minY, maxY: Double
        func overlaps(_ other: Box) -> Bool {
            minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
        }
    }
    var boxes: [Box] = []
    mutating func rect(x: Double, y: Double, width: Double, height: Double, fill: OverlayColor, radius: Double) {}
    mutating func line(
        x1: Double,
        y1: Double,
        x2: Double,
        y2: Double,
        stroke: OverlayColor,
        width: Double,
        dashed: Bool
    ) {}
    mutating func polyline(_ points: [(x: Double, y: Double)], stroke: OverlayColor, width: Double) {}
    mutating func circle(x: Double, y: Double, radius: Double, fill: OverlayColor) {}
    mutating func text(
        _ string: String,
        x: Double,
        y: Double,
        size: Double,
        color: OverlayColor,
        anchor: TextAnchor,
        bold: Bool
    ) {
        let width = 0.6 * size * Double(string.count)
        let left =
            switch anchor {
            case .start: x
            case .middle: x - width / 2
            case .end: x - width
            }
        boxes.append(Box(text: string, minX: left, maxX: left + width, minY: y - 0.75 * size, maxY: y + 0.2 * size))
    }
}

struct ReportChartLabelTests {
    /// A form label longer than the chart is cut at its end, never at its start past the left edge (a report read
    /// "p your body in a straight line…").
    @Test func aLongFormLabelKeepsItsBeginning() {
        var exercise = ReportInput.Exercise(name: "Push-up", angleName: "Elbow flexion", targetRange: 90...120)
        exercise.repetitions = [.init(index: 1, startSeconds: 1, endSeconds: 3, peakDegrees: 100, rangeOfMotion: 100)]
        let cue =
            "Keep your body in a straight line from your shoulders through your hips to your heels, all the way down"
        exercise.events = [.init(seconds: 2.5, text: cue)]
        let stats = ExerciseStatistics(exercise)
        var recorder = TextRecorder()
        ReportCharts(statistics: stats, width: 360, height: 220, font: 11).issueTimeline(&recorder)
        let label = recorder.boxes.first { $0.text.contains("Keep your body") }
        #expect(label != nil, "\(recorder.boxes.map(\.text))")
        #expect((label?.minX ?? -1) >= 0)
        #expect(label?.text.hasPrefix("0:02.5 Keep your body") == true)
        #expect(label?.text.hasSuffix("…") == true)
    }

    @Test(arguments: [[144.0, 151, 147, 145, 149], [97, 104, 88, 112, 95], [60, 180]])
    func rangeOfMotionLabelsDoNotOverlap(percentages: [Double]) {
        // pull-up_14's five repetitions (the tallest last but one, the last almost as tall), the squat set,
        // and a last repetition far above the rest, with the coach's open-ended target (≥ 100 %).
        var exercise = ReportInput.Exercise(
            name: "Pull-up",
            angleName: "Elbow flexion",
            targetRange: 1.0...Double.infinity,
            rangeOfMotionUnit: .fraction
        )
        for (k, value) in percentages.enumerated() {
            exercise.repetitions.append(
                .init(
                    index: k + 1,
                    startSeconds: Double(k) * 2,
                    endSeconds: Double(k) * 2 + 1.5,
                    peakDegrees: value,
                    rangeOfMotion: value / 100,
                    tempoUpSeconds: 0.7,
                    tempoDownSeconds: 0.4,
                    verdict: .good,
                    issues: []
                )
            )
        }
        for (width, height, font) in [(640.0, 220.0, 12.0), (480.0, 150.0, 7.5)] {
            var canvas = TextRecorder()
            ReportCharts(statistics: ExerciseStatistics(exercise), width: width, height: height, font: font)
                .rangeOfMotion(&canvas)
            #expect(canvas.boxes.contains { $0.text.hasPrefix("target") })
            for (i, a) in canvas.boxes.enumerated() {
                for b in canvas.boxes[(i + 1)...] {
                    #expect(!a.overlaps(b), "'\(a.text)' overlaps '\(b.text)' (\(width)x\(height))")
                }
            }
        }
    }
}

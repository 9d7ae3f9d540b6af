import CoachAnalysis
import CoachKit
import CoachPipeline
import Foundation
import PoseKit
import Testing

@testable import ptcoach

/// End to end: `ptcoach analyze VIDEO --exercise finger-flexion` with the real MediaPipe hand model on a real
/// hand-therapy video (one fist, by eye), and what a hand exercise says of input it cannot use.
struct AnalyzeHandsCommandTests {
    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    private static let videos = repository.deletingLastPathComponent().appendingPathComponent(
        "shared/data/videos/hands"
    )
    /// 640x480, 20 fps: open hand, one fist (1.1–2.25 s), open hand.
    private static let fist = videos.appendingPathComponent("fist_hetavshah1_reference.mp4").path

    private func temporaryPath(_ name: String) -> String {
        NSTemporaryDirectory() + "analyze-hands-\(UUID().uuidString)-\(name)"
    }

    @Test func theFistVideoIsOneRepetitionWithEveryFingerMeasured() async throws {
        try #require(FileManager.default.fileExists(atPath: Self.fist), "missing \(Self.fist): ../shared/data")
        let json = temporaryPath("fist.json")
        let html = temporaryPath("fist.html")
        let video = temporaryPath("fist.mp4")
        defer { for path in [json, html, video] { try? FileManager.default.removeItem(atPath: path) } }
        guard
            try await InProcessCommand.run([
                "analyze", Self.fist, "--exercise", "finger-flexion", "--report", json,
            ])
        else { return }
        let summary = try JSONDecoder().decode(
            HandSessionSummary.self,
            from: Data(contentsOf: URL(fileURLWithPath: json))
        )
        #expect(summary.exercise == "finger-flexion")
        #expect(summary.reps == 1)
        let rep = try #require(summary.repetitions.first)
        // The fist by eye: closing 0.75–1.0 s, fist 1.1–2.25 s, opening 2.25–2.6 s.
        #expect(rep.peakSeconds > 1.1 && rep.peakSeconds < 2.3, "\(rep)")
        #expect(rep.peak > 180 && rep.rest < 40, "\(rep)")
        #expect(Set(rep.fingers.keys) == ["index", "middle", "ring", "little"])
        #expect(summary.framesMeasured == summary.frames && summary.frames == 73)
        let tam = try #require(summary.totalActiveMotion)
        #expect(["index", "middle", "ring", "little"].allSatisfy { (tam[$0] ?? 0) > 120 }, "\(tam)")

        guard
            try await InProcessCommand.run([
                "analyze", Self.fist, "--exercise", "finger-flexion", "--report", html, "--annotate", video,
            ])
        else { return }
        let report = try String(contentsOfFile: html, encoding: .utf8)
        for finger in ["Index", "Middle", "Ring", "Little"] {
            #expect(report.contains("\(finger) finger flexion (MCP+PIP+DIP) over time"))
        }
        let size = try FileManager.default.attributesOfItem(atPath: video)[.size] as? Int ?? 0
        #expect(size > 10_000)
    }

    /// 202x360, 30 fps, 22 s: still, then about 8 fingertip touches by eye (index to little, across the palm,
    /// and back); counted by touches (`TouchCounter`) on a new finger.
    @Test func theOppositionVideoIsCountedWithinOneOfItsCountByEye() async throws {
        let video = Self.videos.appendingPathComponent("thumb-opposition_myrajourney.mp4").path
        try #require(FileManager.default.fileExists(atPath: video), "missing \(video): ../shared/data")
        let json = temporaryPath("opposition.json")
        defer { try? FileManager.default.removeItem(atPath: json) }
        guard
            try await InProcessCommand.run(["analyze", video, "--exercise", "thumb-opposition", "--report", json])
        else { return }
        let summary = try JSONDecoder().decode(
            HandSessionSummary.self,
            from: Data(contentsOf: URL(fileURLWithPath: json))
        )
        #expect(abs(summary.reps - 8) <= 1, "\(summary.reps) touches, 8 by eye")
        // Still for the first 5.5 s: no touch counted there.
        #expect(summary.repetitions.allSatisfy { $0.peakSeconds > 5.5 }, "\(summary.repetitions.map(\.peakSeconds))")
        #expect(summary.fingers.count == 4 && summary.fingers.allSatisfy { $0.reached == true })
        #expect(summary.kapandji != nil)
    }

    @Test func aBodyPoseTrackForAHandExerciseIsOneClearError() async throws {
        let track = temporaryPath("body.jsonl")
        defer { try? FileManager.default.removeItem(atPath: track) }
        let header = PoseTrackHeader(layout: .blazePose33, fps: 30, width: 640, height: 480, dimensions: 2)
        try (header.jsonLine + "\n").write(toFile: track, atomically: true, encoding: .utf8)
        await #expect {
            _ = try await InProcessCommand.run(["analyze", track, "--exercise", "thumb-opposition"])
        } throws: { error in
            let message = "\(error)"
            return message.contains("hand exercise") && message.contains("--hands") && !message.contains("\n")
        }
    }

    @Test func theHandExercisesAreListed() throws {
        let library = try HandExerciseLibrary.bundled()
        #expect(library.ids.contains("finger-flexion") && library.ids.contains("kapandji"))
        #expect(try HandAnalysis.exercise(id: "squat", directory: nil) == nil)
        #expect(try HandAnalysis.exercise(id: "finger-flexion", directory: nil)?.primary == .fingerFlexion)
    }
}

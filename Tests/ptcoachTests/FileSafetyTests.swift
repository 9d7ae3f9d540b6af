import Dispatch
import Foundation
import Testing

@testable import ptcoach

/// A user's files are safe: `poses` never writes over its input or an existing file unasked, an interrupted
/// command leaves nothing half-written behind, and `train` says it cannot write its model before it trains.
struct FileSafetyTests {
    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    private static let videos = repository.deletingLastPathComponent().appendingPathComponent("shared/data/videos").path
    private static let bicepCurl = videos + "/pose-trainer/sample_bicep_curl.mp4"
    private static let longVideo = videos + "/calimiro/pull-up_9.mp4"

    private static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "file-safety-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private static func message(_ arguments: [String]) async -> String? {
        do {
            _ = try await InProcessCommand.run(arguments)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test("poses -o naming its input, or any file that is not .jsonl, is refused and the input is kept")
    func posesKeepsItsInput() async throws {
        try #require(FileManager.default.fileExists(atPath: Self.bicepCurl))
        let folder = try Self.folder()
        let video = folder + "/x.mp4"
        try FileManager.default.copyItem(atPath: Self.bicepCurl, toPath: video)
        let before = try Data(contentsOf: URL(fileURLWithPath: video))
        let error = await Self.message(["poses", video, "-o", video, "--quiet"])
        #expect(error?.contains(".jsonl") == true, "\(error ?? "no error")")
        #expect(try Data(contentsOf: URL(fileURLWithPath: video)) == before)
        // A .jsonl that is the input itself (a pose-track given to poses) is refused too.
        let track = folder + "/t.jsonl"
        try "{}\n".write(toFile: track, atomically: true, encoding: .utf8)
        let same = await Self.message(["poses", track, "-o", track, "--quiet", "--overwrite"])
        #expect(same?.contains("is the input file") == true, "\(same ?? "no error")")
        #expect(try String(contentsOfFile: track, encoding: .utf8) == "{}\n")
    }

    @Test("poses replaces an existing pose-track only with --overwrite")
    func posesOverwritesOnlyWhenAsked() async throws {
        try #require(FileManager.default.fileExists(atPath: Self.bicepCurl))
        let folder = try Self.folder()
        let output = folder + "/poses.jsonl"
        try "mine\n".write(toFile: output, atomically: true, encoding: .utf8)
        let error = await Self.message(["poses", Self.bicepCurl, "-o", output, "--quiet"])
        #expect(error?.contains("already exists; pass --overwrite") == true, "\(error ?? "no error")")
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "mine\n")
        guard try await InProcessCommand.run(["poses", Self.bicepCurl, "-o", output, "--quiet", "--overwrite"]) else {
            return
        }
        #expect(try String(contentsOfFile: output, encoding: .utf8).contains("\"format\":\"pose-track\""))
        // Nothing else is left in the folder (the hidden name it was written under is gone).
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["poses.jsonl"])
    }

    @Test("train --out into a missing folder fails at once, before any training")
    func trainChecksItsOutputFirst() async throws {
        let started = ContinuousClock.now
        let error = await Self.message(["train", "--manifest", "/nonexistent/m.csv", "--out", "/missing-folder/x.json"])
        #expect(error?.contains("--out /missing-folder/x.json") == true, "\(error ?? "no error")")
        #expect(error?.contains("does not exist") == true)
        #expect(started.duration(to: .now) < .seconds(5))
    }

    /// The built `ptcoach` beside the tests.
    private static func executable() throws -> String {
        let directory = Bundle.main.bundleURL.deletingLastPathComponent()
        let candidates = [directory, Bundle.main.bundleURL].map { $0.appendingPathComponent("ptcoach").path }
        return try #require(
            candidates.first { FileManager.default.isExecutableFile(atPath: $0) },
            "no ptcoach executable in \(directory.path); build it (swift build) before the tests"
        )
    }

    @Test(
        "SIGINT or SIGTERM while writing removes the unfinished files and exits 128 + the signal",
        arguments: [(SIGINT, "poses"), (SIGTERM, "analyze")]
    )
    func interruptedLeavesNothing(signalNumber: Int32, command: String) async throws {
        try #require(FileManager.default.fileExists(atPath: Self.longVideo))
        let folder = try Self.folder()
        let output = folder + (command == "poses" ? "/out.jsonl" : "/out.mp4")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Self.executable())
        process.arguments =
            command == "poses"
            ? ["poses", Self.longVideo, "-o", output, "--quiet", "--segments", "1"]
            : ["analyze", Self.longVideo, "--exercise", "pull-up", "--annotate", output]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let scratch = { @Sendable () -> [String] in
            (try? FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()))?.filter {
                $0.contains("ptcoach-analyze-\(process.processIdentifier)-")
            } ?? []
        }
        // Wait until the output is being written under its hidden name, then interrupt at once. The waiting runs on a
        // thread of its own: the tests' shared threads may be busy for seconds with analyses run in-process.
        let (partialSeen, scratchBefore) = await withCheckedContinuation { done in
            DispatchQueue.global().async {
                for _ in 0..<4800 where process.isRunning {
                    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
                    if names.contains(where: { $0.hasSuffix(".partial") }) {
                        let scratchNow = scratch()
                        kill(process.processIdentifier, signalNumber)
                        done.resume(returning: (true, scratchNow))
                        return
                    }
                    usleep(20_000)
                }
                done.resume(returning: (false, [String]()))
            }
        }
        if !partialSeen {
            if process.isRunning { process.terminate() }
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            Issue.record(
                "no partial output appeared while the command ran (status \(process.terminationStatus)): \(text)"
            )
            return
        }
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 128 + signalNumber, "\(text)")
        #expect(text.contains("interrupted:"), "\(text)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
        if command == "analyze" {
            #expect(!scratchBefore.isEmpty, "analyze wrote no scratch pose-track")
            #expect(scratch().isEmpty)
        }
    }
}

import MediaIO
import Testing

struct PipeProcessTests {
    @Test func echoesStandardInputThroughCat() throws {
        let process = try PipeProcess("cat", [], standardInput: true)
        let bytes: [UInt8] = Array(0..<200).map { UInt8($0) }
        try process.write(bytes)
        process.closeStandardInput()
        let output = try process.readAll()
        #expect(output == bytes)
        #expect(process.waitForExit() == .exited(0))
    }

    @Test func keepsTheLastStandardErrorLineAndTheExitStatus() throws {
        let process = try PipeProcess("sh", ["-c", "echo first >&2; echo 'second problem' >&2; exit 3"])
        #expect(process.waitForExit() == .exited(3))
        #expect(process.lastErrorLine == "second problem")
        #expect(process.standardErrorLines == ["first", "second problem"])
    }

    @Test func readsAnExactByteCountAndReportsTheShortEnd() throws {
        let process = try PipeProcess("head", ["-c", "10", "/dev/zero"])
        var buffer = [UInt8](repeating: 1, count: 8)
        let first = try buffer.withUnsafeMutableBytes { try process.read(into: $0) }
        let second = try buffer.withUnsafeMutableBytes { try process.read(into: $0) }
        #expect(first == 8)
        #expect(second == 2)
        #expect(process.waitForExit().succeeded)
    }

    @Test func aMissingProgramIsReportedAsAMissingTool() {
        #expect(throws: MediaIOError.self) { _ = try PipeProcess("ptcoach-no-such-tool", []) }
        do {
            _ = try PipeProcess("ptcoach-no-such-tool", [])
        } catch {
            #expect(error.code == .toolMissing)
            #expect(error.message.contains("ptcoach-no-such-tool is not installed"))
        }
    }

    @Test func deinitKillsAProcessStillRunning() throws {
        var process: PipeProcess? = try PipeProcess("sleep", ["30"])
        let pid = try #require(process?.processID)
        process = nil
        // The child was killed and reaped: no such process any more.
        #expect(kill(pid, 0) == -1)
    }
}

#if canImport(Glibc)
import Glibc
#endif

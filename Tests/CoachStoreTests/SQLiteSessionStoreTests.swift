import CoachDatabase
import CoachKit
import CoachStore
import Foundation
import Testing

/// The SQLite store: a set saved as it starts, repetition by repetition, and with its summary; what a crash left
/// open is marked interrupted with its repetitions kept; the file survives a restart.
struct SQLiteSessionStoreTests {
    static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "ptcoach-store-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func repetition(_ index: Int, verdict: Repetition.Verdict = .good) throws -> Repetition {
        let json = """
            {"index":\(index),"exercise":"squat","startSeconds":\(Double(index) * 2),"endSeconds":\(Double(index) * 2 + 1.5),
             "angles":[],"peakAngle":95.5,"rangeOfMotion":0.9,"tempo":{"toPeakSeconds":0.7,"fromPeakSeconds":0.8},
             "verdict":"\(verdict.rawValue)","issues":[],"safetyBreaches":[],"measurementReliable":true,"gapSeconds":0}
            """
        return try JSONDecoder().decode(Repetition.self, from: Data(json.utf8))
    }

    static func record(_ id: String) -> SetRecord {
        SetRecord(
            id: id,
            startedAt: Date(),
            input: "camera",
            exercise: "squat",
            exerciseName: "Squat",
            prescribedReps: 10,
            prescribedHoldSeconds: nil
        )
    }

    @Test("Repetitions are saved as they come, a re-judged one replaces the first, and a restart keeps them")
    func repetitionsAsTheyCome() async throws {
        let path = try Self.folder() + "/ptcoach.sqlite"
        do {
            let store = try SQLiteClinicStore(path: path)
            try await store.open(Self.record("a"))
            try await store.save(try Self.repetition(1), setID: "a")
            try await store.save(try Self.repetition(2), setID: "a")
            try await store.save(try Self.repetition(2, verdict: .needsWork), setID: "a")
            #expect(try await store.set(id: "a")?.reps == 2)
            #expect(try await store.repetitions(setID: "a").map(\.verdict) == [.good, .needsWork])
        }
        // The server stopped without ending the set (a crash): the next start marks it interrupted.
        let reopened = try SQLiteClinicStore(path: path)
        #expect(try await reopened.markInterrupted() == 1)
        let set = try #require(try await reopened.set(id: "a"))
        #expect(set.status == .interrupted)
        #expect(set.prescribedReps == 10)
        #expect(try await reopened.repetitions(setID: "a").count == 2)
        #expect(try await reopened.markInterrupted() == 0)
    }

    @Test("A set without frames is ended without a summary; sets list newest first")
    func listing() async throws {
        let store = try SQLiteClinicStore(path: try Self.folder() + "/ptcoach.sqlite")
        var first = Self.record("first")
        first.startedAt = Date(timeIntervalSinceNow: -60)
        try await store.open(first)
        try await store.open(Self.record("second"))
        try await store.close(setID: "first", summary: nil, summaryJSON: nil, angleSeriesJSON: nil, at: Date())
        let sets = try await store.sets(limit: 10)
        #expect(sets.map(\.id) == ["second", "first"])
        #expect(sets[1].status == .completed)
        #expect(sets[1].summaryJSON == nil)
        #expect(sets[0].status == .open)
        #expect(try await store.set(id: "missing") == nil)
    }

    @Test("A database that cannot be opened is one clear error")
    func unwritable() {
        #expect {
            _ = try SQLiteClinicStore(path: "/nonexistent-folder-\(UUID().uuidString)/ptcoach.sqlite")
        } throws: { error in
            "\(error)".contains("check that its folder exists and is writable")
        }
    }

    @Test("The database and its WAL files are readable by their owner only, an older wider file included")
    func databaseFilesAreTheOwnersAlone() async throws {
        let folder = try Self.folder()
        let path = folder + "/ptcoach.sqlite"
        func mode(_ file: String) throws -> Int {
            try #require(FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int)
        }
        do {
            let store = try SQLiteClinicStore(path: path)
            try await store.open(Self.record("s1"))
            for file in [path, path + "-wal", path + "-shm"] { #expect(try mode(file) == 0o600, "\(file)") }
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        _ = try SQLiteClinicStore(path: path)
        #expect(try mode(path) == 0o600)
    }
}

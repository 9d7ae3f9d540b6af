import ArgumentParser
import CoachAnalysis
import CoachKit
import CoachPipeline
import Foundation
import PoseKit

struct ExercisesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "exercises",
        abstract: "List the exercise library (id, name, camera view, joints measured)."
    )

    @Option(name: .long, help: "A directory of exercise definition JSON files to list instead of the bundled library.")
    var exercisesDirectory: String?

    @Flag(name: .long, help: "Print a JSON array.")
    var json = false

    func run() async throws {
        let library = try BodyAnalysis.loadLibrary(directory: exercisesDirectory)
        if json {
            let rows: [[String: JSONField]] = library.exercises.map { e in
                [
                    "id": .string(e.id), "name": .string(e.name), "view": .string(e.view.rawValue),
                    "side": .string(e.side.rawValue), "kind": .string(e.isHold ? "hold" : "reps"),
                    "primary": .string(e.primaryAngle.rawValue), "angles": .strings(e.angles.map(\.rawValue)),
                    "joints": .strings(e.requiredJoints.map(\.name)),
                ]
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: try encoder.encode(rows), as: UTF8.self))
            return
        }
        let width = max(library.exercises.map(\.id.count).max() ?? 10, 2)
        print("\("ID".padding(toLength: width, withPad: " ", startingAt: 0))  VIEW   KIND  NAME: ANGLES MEASURED")
        for e in library.exercises {
            let id = e.id.padding(toLength: width, withPad: " ", startingAt: 0)
            let kind = e.isHold ? "hold" : "reps"
            print(
                "\(id)  \(e.view.rawValue.padding(toLength: 5, withPad: " ", startingAt: 0))  \(kind)  \(e.name): \(e.angles.map(\.displayName).joined(separator: ", "))"
            )
        }
        // The hand exercises, measured on the hands (`analyze VIDEO --exercise finger-flexion`).
        let handsDirectory = exercisesDirectory.map { ($0 as NSString).appendingPathComponent("hands") }
        let hands: HandExerciseLibrary
        do {
            hands =
                try handsDirectory.map {
                    FileManager.default.fileExists(atPath: $0)
                        ? try HandExerciseLibrary(directory: $0) : try HandExerciseLibrary(exercises: [])
                } ?? HandExerciseLibrary.bundled()
        } catch {
            throw CLIError("\(error)")
        }
        if !hands.exercises.isEmpty { print("hand exercises (measured on the hand):") }
        for e in hands.exercises {
            let id = e.id.padding(toLength: max(width, e.id.count), withPad: " ", startingAt: 0)
            print(
                "\(id)  \(e.view.rawValue.padding(toLength: 6, withPad: " ", startingAt: 0)) reps  \(e.name): \(e.measures.map(\.displayName).joined(separator: ", "))"
            )
        }
    }
}

/// A string or a list of strings, for the JSON listing.
enum JSONField: Encodable {
    case string(String)
    case strings([String])

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let s): try container.encode(s)
        case .strings(let a): try container.encode(a)
        }
    }
}

import CoachKit
import CoachStore
import Foundation
import Hummingbird
import PoseKit

/// The clinic's own exercises (docs/learn.md, "In the clinic"): a therapist uploads a demonstration — a video, or a
/// pose-track — and gets a definition learned from it, kept in the clinic's library, coached and prescribed like a
/// library exercise; `/api/library` lists them with their previews. Therapists only.
struct LearnController: Sendable {
    let hub: LiveHub

    /// The largest demonstration accepted: a minute of phone video.
    static let maxUploadBytes = 200 << 20

    var endpoints: RouteCollection<CoachRequestContext> {
        let routes = RouteCollection(context: CoachRequestContext.self).add(middleware: RequireViewer(.therapist))
        routes.get(use: list)
        routes.post("learn", use: learn)
        return routes
    }

    /// The clinic's exercises, by name, with what was learned and the preview.
    @Sendable func list(_ request: Request, context: CoachRequestContext) async throws -> [LearnedResponse] {
        try await hub.store.clinicExercises().compactMap(LearnedResponse.init)
    }

    /// `POST /api/library/learn?name=Step-up[&primary=kneeFlexion][&file=step-up.mp4]`, the demonstration as the
    /// body: learns it, saves it in the clinic's library (replacing the clinic's own exercise of the same name) and
    /// answers 201 with the definition and the preview.
    @Sendable func learn(
        _ request: Request,
        context: CoachRequestContext
    ) async throws -> EditedResponse<LearnedResponse> {
        let viewer = try context.requireViewer()
        let query = request.uri.queryParameters
        let name = (query.get("name") ?? "").trimmed
        if let problem = TypedText.lineProblem(name, field: "the exercise's name (?name=)", characters: 1...80) {
            throw HTTPError(.badRequest, message: problem)
        }
        var primary: AngleKind?
        if let text = query.get("primary"), !text.isEmpty {
            guard let kind = AngleKind(rawValue: text), kind.countsRepetitions else {
                let names = AngleKind.allCases.filter(\.countsRepetitions).map(\.rawValue).joined(separator: ", ")
                throw HTTPError(.badRequest, message: "primary must be one of \(names), got '\(text)'")
            }
            primary = kind
        }
        let id: String
        do throws(CoachKitError) {
            id = try ExerciseLearner.id(forName: name)
        } catch {
            throw HTTPError(.badRequest, message: error.message)
        }
        if hub.bundled.contains(where: { $0.id == id }) || hub.handLibrary.contains(where: { $0.id == id }) {
            throw HTTPError(.conflict, message: "'\(id)' is a library exercise already: give the new one another name")
        }
        let body = try await request.body.collect(upTo: Self.maxUploadBytes)
        guard body.readableBytes > 0 else {
            throw HTTPError(.badRequest, message: "send the demonstration (a video, or a pose-track) as the body")
        }
        let (header, frames) = try await poses(Array(body.readableBytesView), file: query.get("file"))
        let result: (learned: LearnedExercise, preview: DemonstrationPreview)
        do throws(CoachKitError) {
            result = try DemonstrationLearning.learn(
                frames,
                width: header.width,
                height: header.height,
                name: name,
                id: id,
                primary: primary,
                source: query.get("file") ?? "the demonstration"
            )
        } catch {
            throw HTTPError(.unprocessableContent, message: error.message)
        }
        let exercise = ClinicExercise(
            id: id,
            name: name,
            definitionJSON: result.learned.jsonText(),
            previewJSON: String(decoding: try JSONEncoder.coach().encode(result.preview), as: UTF8.self),
            createdBy: viewer.user.id
        )
        try await hub.store.save(exercise)
        await hub.refreshLearned()
        guard let response = LearnedResponse(exercise) else {
            throw HTTPError(.internalServerError, message: "the learned definition could not be read back")
        }
        return EditedResponse(status: .created, response: response)
    }

    /// The demonstration's poses: a pose-track read as it is, a video through the pose model.
    private func poses(
        _ bytes: [UInt8],
        file: String?
    ) async throws -> (header: PoseTrackHeader, frames: [PoseFrame]) {
        let isTrack = bytes.first { $0 != 0x20 && $0 != 0x0A } == UInt8(ascii: "{")
        let suffix = isTrack ? "jsonl" : URL(fileURLWithPath: file ?? "demo.mp4").pathExtension
        let path =
            NSTemporaryDirectory() + "ptcoach-demonstration-\(UUID().uuidString).\(suffix.isEmpty ? "mp4" : suffix)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw HTTPError(.internalServerError, message: "the demonstration could not be saved for reading")
        }
        if isTrack {
            do throws(PoseKitError) {
                return try PoseTrackReader.readAll(path: path)
            } catch {
                throw HTTPError(.badRequest, message: "the pose-track could not be read: \(error.description)")
            }
        }
        guard let demonstrations = hub.demonstrations else {
            throw HTTPError(.notImplemented, message: "this server cannot read videos; send a pose-track (.jsonl)")
        }
        do {
            return try await demonstrations.poses(inVideoAt: path)
        } catch {
            let words = "\(error)".replacingOccurrences(of: path, with: file ?? "the demonstration")
            throw HTTPError(.unprocessableContent, message: "no poses from the demonstration: \(words)")
        }
    }
}

/// A clinic exercise as `/api/library` gives it.
struct LearnedResponse: ResponseEncodable {
    var id: String
    var name: String
    var createdAt: String
    /// The definition, in the library's format.
    var definition: EmbeddedJSON
    var preview: DemonstrationPreview

    init?(_ exercise: ClinicExercise) {
        guard let definition = try? EmbeddedJSON(text: exercise.definitionJSON),
            let preview = try? JSONDecoder.coach().decode(
                DemonstrationPreview.self,
                from: Data(exercise.previewJSON.utf8)
            )
        else { return nil }
        (id, name, createdAt) = (exercise.id, exercise.name, WireDate.string(exercise.createdAt))
        self.definition = definition
        self.preview = preview
    }
}

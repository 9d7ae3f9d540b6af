import CoachKit
import CoachStore
import Foundation
import PoseKit

/// What a `start` message asks for, resolved against the library, the server's models and the patient's
/// programme: the exercise (body or hand), the prescription followed, the frames' input. Made by
/// ``make(_:patient:hub:)``, which throws the one error the client is told when the start is refused.
struct LiveSetPlan: Sendable {
    /// A set of the patient's programme: its item and which set of the day it is.
    struct Followed: Sendable {
        var programme: Programme
        var item: Int
        var setNumber: Int

        var prescription: Prescription { programme.items[item] }
    }

    var input: LiveInput
    var exercise: ExerciseDefinition?
    var hand: HandExerciseDefinition?
    var followed: Followed?
    var reps: Int?
    var holdSeconds: Double?
    /// For keypoint frames: the pose-track header the start message's fields make.
    var keypointHeader: PoseTrackHeader?
    var isSample: Bool
    var startOnPinch: Bool

    /// The plan for `start`, or the error to send.
    ///
    /// - Throws: ``LiveProtocolError``: `bad-message`, `unknown-exercise`, `stopped` or `storage`.
    static func make(_ start: StartMessage, patient: User?, hub: LiveHub) async throws(LiveProtocolError) -> Self {
        try start.validate()
        var plan = LiveSetPlan(
            input: start.frames,
            isSample: start.sample == true,
            startOnPinch: start.startOnPinch == true
        )
        // An exercise of the clinic's own library may have been learned on another instance since.
        if let id = start.exercise { _ = await hub.knowsExercise(id) }
        try plan.name(start, hub: hub)
        if let item = start.programmeItem {
            try await plan.follow(item: item, start: start, patient: patient, hub: hub)
        } else {
            try plan.prescribe(start)
        }
        if plan.input == .keypoints { plan.keypointHeader = try keypointHeader(start) }
        return plan
    }

    /// The exercise named by `exercise`: a body exercise, or a hand exercise (camera frames only, its own hold).
    private mutating func name(_ start: StartMessage, hub: LiveHub) throws(LiveProtocolError) {
        guard let id = start.exercise else { return }
        if !hub.library.contains(where: { $0.id == id }), var found = hub.handLibrary.first(where: { $0.id == id }) {
            guard hub.handEstimators != nil else {
                throw LiveProtocolError(
                    .unknownExercise,
                    "'\(id)' is a hand exercise and this server has no hand model"
                )
            }
            try Self.requireCamera(start, hand: found)
            if let seconds = start.holdSeconds, start.programmeItem == nil {
                guard found.repetition.acceptsHold(seconds) else {
                    throw LiveProtocolError(
                        .badMessage,
                        "\"holdSeconds\" must be above 0 and below "
                            + "\(String(format: "%g", found.repetition.maximumSeconds)) s for '\(found.id)'"
                    )
                }
                found.repetition.holdSeconds = seconds
            }
            hand = found
            return
        }
        guard let found = hub.library.first(where: { $0.id == id }) else {
            throw LiveProtocolError(
                .unknownExercise,
                "unknown exercise \"\(id)\"; GET /api/exercises lists the ids, or send null to recognise it"
            )
        }
        exercise = found
    }

    private static func requireCamera(_ start: StartMessage, hand: HandExerciseDefinition) throws(LiveProtocolError) {
        if let input = start.input, input != .camera {
            throw LiveProtocolError(
                .badMessage,
                "'\(hand.id)' is a hand exercise: send camera frames (\"input\": \"camera\")"
            )
        }
    }

    /// A set of the patient's programme: the therapist's prescription replaces the library's numbers; after pain 7
    /// or more, or a safety stop, the exercise waits for the therapist (a sample video aside).
    private mutating func follow(
        item index: Int,
        start: StartMessage,
        patient: User?,
        hub: LiveHub
    ) async throws(LiveProtocolError) {
        guard let patient else {
            throw LiveProtocolError(.badMessage, "log in as a patient to follow a programme (\"programmeItem\")")
        }
        let programme: Programme?
        do {
            programme = try await hub.store.programme(patientID: patient.id, version: nil)
        } catch {
            throw LiveProtocolError(.storage, "the programme could not be read (\(error)); try again")
        }
        guard let programme, programme.items.indices.contains(index) else {
            throw LiveProtocolError(
                .badMessage,
                "\"programmeItem\" must be the index of an exercise of your current programme"
            )
        }
        let item = programme.items[index]
        _ = await hub.knowsExercise(item.exercise)
        do throws(CoachKitError) {
            (exercise, hand) = try hub.prescribed(item)
        } catch {
            throw LiveProtocolError(.badMessage, error.message)
        }
        if let hand { try Self.requireCamera(start, hand: hand) }
        let recent = (try? await hub.store.sets(patientID: patient.id, since: nil, limit: 1000)) ?? []
        if !isSample, let stop = StopAdvice.blocking(recent, exercise: item.exercise) {
            throw LiveProtocolError(.stopped, StopAdvice.text(for: stop, name: exercise?.name ?? hand?.name))
        }
        let done = StopAdvice.setsDoneToday(recent, item: index, version: programme.version)
        followed = Followed(programme: programme, item: index, setNumber: done + 1)
        // A hold exercise's time is its own (the definition's); the prescription's reps and hold are for repetitions.
        if exercise?.isHold != true {
            reps = item.reps
            holdSeconds = item.holdSeconds
        }
    }

    /// The repetitions and hold a start without a programme asks for.
    private mutating func prescribe(_ start: StartMessage) throws(LiveProtocolError) {
        reps = start.reps
        if let hand {
            if start.holdSeconds != nil { holdSeconds = hand.repetition.holdSeconds }
            return
        }
        guard let seconds = start.holdSeconds else { return }
        guard let exercise, let spec = exercise.repetition else {
            throw LiveProtocolError(
                .badMessage,
                exercise == nil
                    ? "\"holdSeconds\" needs an exercise: the hold is prescribed for a named exercise's repetitions"
                    : "\"holdSeconds\" is for repetitions held at their peak; '\(exercise!.id)' is itself a hold"
            )
        }
        guard spec.acceptsHold(seconds) else {
            throw LiveProtocolError(
                .badMessage,
                "\"holdSeconds\" must be below \(String(format: "%g", spec.maximumSeconds)) s for '\(exercise.id)'"
            )
        }
        holdSeconds = seconds
    }

    /// The pose-track header line a keypoint set's start message makes: its fields, 30 fps unless said.
    private struct HeaderLine: Encodable {
        var format = "pose-track"
        var version = 1
        var keypoints: [String]?
        var width: Int?
        var height: Int?
        var dimensions: Int?
        var fps: Double
    }

    /// The pose-track header of a keypoint set's start message, checked as a pose-track file's first line is.
    private static func keypointHeader(_ start: StartMessage) throws(LiveProtocolError) -> PoseTrackHeader {
        let line = HeaderLine(
            keypoints: start.keypoints,
            width: start.width,
            height: start.height,
            dimensions: start.dimensions,
            fps: start.fps ?? 30
        )
        do {
            let text = String(decoding: try JSONEncoder().encode(line), as: UTF8.self)
            return try PoseTrackHeader(line: text)
        } catch {
            let message = (error as? PoseKitError)?.message ?? "\(error)"
            throw LiveProtocolError(
                .badMessage,
                message.replacingOccurrences(of: "not a pose-track header", with: "not a keypoint start message")
            )
        }
    }
}

import CoachKit
import CoachStore
import Foundation
import Hummingbird

// The clinic's answers about a patient: their programme, their progress, the therapist's list.

/// A programme as the clinic's pages show it: the stored version with its exercises' names; for the patient's own
/// (`GET /api/me/programme`) also today's counted sets and the items stopped.
struct ProgrammeResponse: ResponseEncodable, Codable, Hashable {
    var patientID: String
    var version: Int
    var items: [Prescription]
    var daysPerWeek: Int
    var createdAt: String
    var createdBy: String
    /// The exercises' names, one per item.
    var names: [String]
    /// Today's counted sets of each item of this version (as the live set numbers them).
    var doneToday: [Int]?
    /// Per item, the advice while it is stopped until the therapist has seen a set (pain 7 or more, a safety
    /// stop), else `null`.
    var stopped: [String?]?

    /// - Parameter names: the exercises' names by id (``LiveHub/exerciseNames``).
    init(_ programme: Programme, names: [String: String]) {
        patientID = programme.patientID
        version = programme.version
        items = programme.items
        daysPerWeek = programme.daysPerWeek
        createdAt = WireDate.string(programme.createdAt)
        createdBy = programme.createdBy
        self.names = programme.items.map { names[$0.exercise] ?? $0.exercise }
    }
}

/// What a patient's sets add up to (``PatientProgress``): adherence, flags, the last set, and each exercise's
/// series of sets.
struct ProgressResponse: Codable, Hashable, Sendable {
    struct Adherence: Codable, Hashable, Sendable {
        var daysDone: Int
        var daysPrescribed: Int
        var setsDone: Int
        var setsPrescribed: Int
    }

    struct Flag: Codable, Hashable, Sendable {
        var kind: String
        var message: String
        @Nullable var exercise: String?
        @Nullable var set: String?
    }

    struct Point: Codable, Hashable, Sendable {
        var date: String
        var set: String
        @Nullable var peakAngle: Double?
        var reps: Int
        @Nullable var prescribedReps: Int?
        @Nullable var pain: Int?
        @Nullable var difficulty: Int?
        @Nullable var targetMin: Double?
        @Nullable var targetMax: Double?
        @Nullable var safetyMax: Double?
    }

    var adherence: Adherence
    @Nullable var lastSession: String?
    var flags: [Flag]
    var needsReview: Bool
    var progress: [String: [Point]]

    init(_ p: PatientProgress) {
        adherence = Adherence(
            daysDone: p.daysDone,
            daysPrescribed: p.daysPrescribed,
            setsDone: p.setsDone,
            setsPrescribed: p.setsPrescribed
        )
        _lastSession = Nullable(wrappedValue: p.lastSession.map(WireDate.string))
        flags = p.flags.map { Flag(kind: $0.kind.rawValue, message: $0.message, exercise: $0.exercise, set: $0.setID) }
        needsReview = p.needsReview
        progress = p.progress.mapValues { points in
            points.map {
                Point(
                    date: WireDate.string($0.date),
                    set: $0.setID,
                    peakAngle: $0.peakAngle,
                    reps: $0.reps,
                    prescribedReps: $0.prescribedReps,
                    pain: $0.pain,
                    difficulty: $0.difficulty,
                    targetMin: $0.prescription?.targetMin,
                    targetMax: $0.prescription?.targetMax,
                    safetyMax: $0.prescription?.safetyMax
                )
            }
        }
    }
}

/// A row of the therapist's list of patients.
struct PatientRow: ResponseEncodable {
    var id: String
    var name: String
    var role: Role
    var joined: Bool
    var adherence: ProgressResponse.Adherence
    @Nullable var lastSession: String?
    var flags: [ProgressResponse.Flag]
    var needsReview: Bool
    var hasProgramme: Bool
    /// A set of the patient's is running now (the therapist can watch it: docs/live-watch.md).
    var live: Bool

    init(_ patient: User, progress: ProgressResponse, hasProgramme: Bool, live: Bool = false) {
        let user = UserResponse(patient)
        (id, name, role, joined) = (user.id, user.name, user.role, user.joined)
        adherence = progress.adherence
        _lastSession = Nullable(wrappedValue: progress.lastSession)
        flags = progress.flags
        needsReview = progress.needsReview
        self.hasProgramme = hasProgramme
        self.live = live
    }
}

/// `GET /api/patients/ID`: the patient, their progress, their programme and their sets (newest first, practice
/// left out).
struct PatientOverview: ResponseEncodable {
    var id: String
    var name: String
    var role: Role
    var joined: Bool
    var adherence: ProgressResponse.Adherence
    @Nullable var lastSession: String?
    var flags: [ProgressResponse.Flag]
    var needsReview: Bool
    var progress: [String: [ProgressResponse.Point]]
    @Nullable var programme: ProgrammeResponse?
    var sets: [SetResponse]

    init(_ patient: User, progress: ProgressResponse, programme: ProgrammeResponse?, sets: [SetResponse]) {
        let user = UserResponse(patient)
        (id, name, role, joined) = (user.id, user.name, user.role, user.joined)
        adherence = progress.adherence
        _lastSession = Nullable(wrappedValue: progress.lastSession)
        flags = progress.flags
        needsReview = progress.needsReview
        self.progress = progress.progress
        _programme = Nullable(wrappedValue: programme)
        self.sets = sets
    }
}

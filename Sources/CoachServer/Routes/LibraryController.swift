import CoachKit
import Hummingbird

/// What anyone may ask: `/health`, the exercise library (`/api/exercises`) and the sample videos (`/api/samples`).
struct LibraryController: Sendable {
    let hub: LiveHub
    let samples: SampleVideos?

    /// Routes under `/api`.
    var endpoints: RouteCollection<CoachRequestContext> {
        let routes = RouteCollection(context: CoachRequestContext.self)
        routes.get("exercises", use: exercises)
        routes.get("samples") { _, _ in
            (samples?.list ?? []).map {
                SampleResponse(name: $0.name, url: "/samples/" + $0.path, exercise: $0.exercise, reps: $0.reps)
            }
        }
        return routes
    }

    /// `/health`: up, and the sets being coached now.
    @Sendable func health(_ request: Request, context: CoachRequestContext) async throws -> HealthResponse {
        HealthResponse(sessions: hub.openSets)
    }

    /// The body exercises, then the hand exercises (marked `"hand": true`) when the server has the hand model.
    @Sendable func exercises(_ request: Request, context: CoachRequestContext) async throws -> [ExerciseResponse] {
        await hub.refreshLearned()
        let body = hub.library.map { e in
            ExerciseResponse(
                id: e.id,
                name: e.name,
                view: e.view.rawValue,
                kind: e.isHold ? "hold" : "reps",
                summary: e.summary,
                primary: e.primaryAngle.rawValue,
                handsOverhead: e.raisesHandsOverhead,
                clinic: hub.bundled.contains { $0.id == e.id } ? nil : true
            )
        }
        let hands = (hub.handEstimators == nil ? [] : hub.handLibrary).map { e in
            ExerciseResponse(
                id: e.id,
                name: e.name,
                view: e.view.rawValue,
                kind: "reps",
                summary: e.summary,
                primary: e.primary.rawValue,
                hand: true
            )
        }
        return body + hands
    }
}

import CoachStore
import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOWebSocket

extension CoachServer {
    /// The therapist's watch socket, `/api/live/watch?patient=ID` (docs/live-protocol.md, section 6): the patient's
    /// own therapist only (``WatchAccess``); anyone else gets one `error` message and a 1008 close. The socket then
    /// gets the patient's sets as they happen, from whichever instance coaches them, and sends the therapist's
    /// messages, pause, resume and end.
    static func addWatchSocket(to router: Router<CoachRequestContext>, hub: LiveHub, auth: ClinicAuth) {
        router.ws(
            "/api/live/watch",
            shouldUpgrade: { request, _ in
                try checkOrigin(request)
                return .upgrade([:])
            },
            onUpgrade: { inbound, outbound, context in
                let patientID = context.request.uri.queryParameters.get("patient") ?? ""
                let viewer = try? await auth.viewer(context.request)
                let patient: User
                switch await WatchAccess.patient(patientID, viewer: viewer, store: hub.store) {
                case .failure(let error):
                    context.logger.info("watch: refused: \(error.message)")
                    try await outbound.write(.text(WatchMessage.error(.init(error)).jsonText))
                    try await outbound.close(.policyViolation, reason: error.code.rawValue)
                    return
                case .success(let user): patient = user
                }
                guard let viewer else { return }
                try? await ClinicAPI.audit(viewer, patient, "watched a live set", store: hub.store)
                await watch(patient, as: viewer.user, inbound: inbound, outbound: outbound, router: hub.watch)
            }
        )
    }

    /// Relays `patient`'s sets to one therapist's socket until it closes.
    private static func watch(
        _ patient: User,
        as therapist: User,
        inbound: WebSocketInboundStream,
        outbound: WebSocketOutboundWriter,
        router: WatchRouter
    ) async {
        let outbox = LiveOutbox()
        let watcher = WatchRouter.Watcher(id: UUID().uuidString, name: therapist.name, therapistID: therapist.id) {
            text,
            droppable in
            if droppable { outbox.sendDroppable(.text(text)) } else { outbox.send(.text(text)) }
        }
        guard router.register(watcher, patient: patient.id) else {
            let error = LiveProtocolError(
                .busy,
                "you are already watching on \(WatchRouter.maxPerTherapist) pages, the most one therapist may open; "
                    + "close one to watch here"
            )
            try? await outbound.write(.text(WatchMessage.error(.init(error)).jsonText))
            try? await outbound.close(.policyViolation, reason: error.code.rawValue)
            return
        }
        outbox.send(.text(WatchMessage.watching(.init(patient: patient.id, name: patient.name)).jsonText))
        func command(_ type: WatchBusCommand.Kind, _ text: String? = nil) -> WatchBusCommand {
            WatchBusCommand(type: type, watcher: watcher.id, name: therapist.name, text: text)
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { outbox.finish() }
                for await item in outbox.messages {
                    defer { outbox.written() }
                    switch item {
                    case .text(let text): try? await outbound.write(.text(text))
                    case .close(let code, let reason):
                        try? await outbound.close(code, reason: reason)
                        return
                    }
                }
            }
            // "I am watching", again every 5 s: the patient's page forgets a watcher not heard of for 15 s.
            group.addTask {
                while !Task.isCancelled {
                    router.toPatient(patient.id, command(.hello))
                    try? await Task.sleep(for: .seconds(5))
                }
            }
            do {
                for try await message in inbound.messages(maxSize: 1 << 16) {
                    guard case .text(let text) = message else {
                        let error = LiveProtocolError(.badMessage, "send commands as JSON text")
                        outbox.send(.text(WatchMessage.error(.init(error)).jsonText))
                        continue
                    }
                    do throws(LiveProtocolError) {
                        let sent = try WatchCommand.decode(text)
                        guard let kind = WatchBusCommand.Kind(rawValue: sent.type.rawValue) else { continue }
                        router.toPatient(patient.id, command(kind, sent.text))
                    } catch {
                        outbox.send(.text(WatchMessage.error(.init(error)).jsonText))
                    }
                }
            } catch {}
            router.unregister(watcher: watcher.id, patient: patient.id)
            router.toPatient(patient.id, command(.bye))
            outbox.finish()
            group.cancelAll()
        }
    }
}

/// Who may watch a patient's sets live: their own therapist, as for the rest of the clinic.
enum WatchAccess {
    /// The patient `id` names, when `viewer` is their therapist; else the refusal, in words.
    static func patient(_ id: String, viewer: Viewer?, store: any ClinicStore) async -> Result<User, LiveProtocolError>
    {
        guard let viewer else {
            return .failure(.init(.unauthorized, "log in as the patient's therapist to watch their sets"))
        }
        guard viewer.user.role == .therapist else {
            return .failure(.init(.forbidden, "watching a set live is for the patient's therapist"))
        }
        let patient: User?
        do {
            patient = id.isEmpty ? nil : try await store.user(id: id)
        } catch {
            return .failure(.init(.storage, "the patient could not be read (\(error))"))
        }
        guard let patient, patient.role == .patient, patient.therapistID == viewer.user.id else {
            return .failure(.init(.forbidden, "no patient \(id.isEmpty ? "(give ?patient=ID)" : id) of yours"))
        }
        return .success(patient)
    }
}

import CoachKit
import Foundation
import PoseKit

/// The JSON messages the server sends (docs/live-protocol.md), built from the coach's own values.
enum LiveMessage {
    /// `{"type":"error","code":…,"message":…}`
    static func error(_ code: String, _ message: String) -> String {
        JSONValue.object(["type": .string("error"), "code": .string(code), "message": .string(message)]).jsonText
    }

    /// The `busy` error, with when to try again.
    static func busy(_ message: String, retryAfterSeconds: Int) -> String {
        JSONValue.object([
            "type": .string("error"), "code": .string("busy"), "message": .string(message),
            "retryAfterSeconds": .number(Double(retryAfterSeconds)),
        ]).jsonText
    }

    /// The answer to one processed frame: the pose, the coach's state after it and what happened at it.
    static func frame(
        id: Int,
        seconds: Double,
        dropped: Int,
        serverMilliseconds: Double,
        snapshot: CoachSnapshot,
        prescribedReps: Int?,
        events: [CoachEvent]
    ) -> String {
        var object: [String: JSONValue] = [
            "type": .string("frame"),
            "id": .number(Double(id)),
            "t": .number(seconds),
            "dropped": .number(Double(dropped)),
            "serverMs": .number((serverMilliseconds * 10).rounded() / 10),
            "pose": snapshot.pose.map(pose) ?? .null,
            "state": state(snapshot, prescribedReps: prescribedReps),
        ]
        object["events"] = .array(events.compactMap(event))
        return JSONValue.object(object).jsonText
    }

    /// Keypoints by joint name, `[x, y, c]`, rounded to a tenth of a pixel.
    static func pose(_ pose: Pose) -> JSONValue {
        var joints: [String: JSONValue] = [:]
        for joint in Joint.allCases {
            let k = pose[joint]
            guard k.confidence > 0, k.x.isFinite, k.y.isFinite else { continue }
            joints[joint.name] = .array([
                .number((k.x * 10).rounded() / 10), .number((k.y * 10).rounded() / 10),
                .number((k.confidence * 100).rounded() / 100),
            ])
        }
        return .object(joints)
    }

    static func state(_ s: CoachSnapshot, prescribedReps: Int?) -> JSONValue {
        func number(_ x: Double?, _ scale: Double = 10) -> JSONValue {
            guard let x, x.isFinite else { return .null }
            return .number((x * scale).rounded() / scale)
        }
        func string(_ x: String?) -> JSONValue { x.map(JSONValue.string) ?? .null }
        func hold(_ h: HoldProgress?) -> JSONValue {
            guard let h else { return .null }
            return .object([
                "heldSeconds": number(h.heldSeconds), "targetSeconds": number(h.targetSeconds),
                "holding": .bool(h.holding),
            ])
        }
        let recognition: String =
            switch s.recognition {
            case .noPerson: "noPerson"
            case .lowConfidence: "lowConfidence"
            case .exercise: "exercise"
            }
        return .object([
            "exercise": string(s.exerciseID),
            "exerciseName": string(s.exerciseName),
            "confidence": number(s.confidence, 100),
            "recognition": .string(recognition),
            // The exercise recognised is below the fitted confidence: say this instead of its name.
            "unsure": s.recognitionUnsure ? .string(RecognitionConfidence.unsureSentence) : .null,
            "reps": .number(Double(s.repCount)),
            // A repetition the recognised exercise's counter found and the movement has not confirmed (0 or 1).
            "provisionalReps": .number(Double(s.provisionalReps)),
            "prescribedReps": prescribedReps.map { .number(Double($0)) } ?? .null,
            "angle": number(s.primaryAngle),
            "angleKind": string(s.primaryAngleKind?.rawValue),
            "angleName": string(s.primaryAngleKind?.displayName),
            "angleUnit": string(s.primaryAngleKind?.unit),
            "angleJoint": string(s.primaryJoint?.name),
            "side": string(s.side?.rawValue),
            "target": s.targetRange.map { .array([number($0.lowerBound), number($0.upperBound)]) } ?? .null,
            // null where the view cannot measure the range (no gauge drawn; the repetitions say "not measurable").
            "rangeOfMotion": s.rangeMeasurable ? number(s.rangeOfMotionProgress, 100) : .null,
            "cue": string(s.cueText),
            "cueKind": string(s.cueKind?.rawValue),
            "warning": string(s.safetyWarning),
            // The set-up guidance in force (the person is not measurable as they stand); a set-up cue about form
            // that cannot be checked comes as the cue, of kind "setup".
            "setup": string(s.setupGuidance),
            "hold": hold(s.hold),
            "peakHold": hold(s.peakHold),
        ])
    }

    static func event(_ event: CoachEvent) -> JSONValue? {
        switch event {
        case .pose:
            return nil  // the frame's `pose` carries it
        case .repCompleted(let repetition):
            return .object(["type": .string("rep"), "repetition": codable(repetition)])
        case .repetitionsRevised(let repetitions):
            return .object(["type": .string("repsRevised"), "repetitions": codable(repetitions)])
        case .provisionalRepetition(let repetition):
            return .object(["type": .string("repProvisional"), "repetition": codable(repetition)])
        case .provisionalRepetitionEnded(let confirmed):
            return .object(["type": .string("repProvisionalEnded"), "confirmed": .bool(confirmed)])
        case .cue(let cue):
            return .object([
                "type": .string("cue"), "kind": .string(cue.kind.rawValue), "text": .string(cue.text),
                "seconds": .number(cue.seconds),
            ])
        case .warning(let warning):
            return .object([
                "type": .string("warning"), "text": .string(warning.text), "angle": .string(warning.angle.rawValue),
                "value": .number(warning.value), "limit": .number(warning.limit),
            ])
        case .holdProgress(let hold):
            return .object([
                "type": .string("hold"), "heldSeconds": .number(hold.heldSeconds),
                "targetSeconds": .number(hold.targetSeconds), "holding": .bool(hold.holding),
            ])
        case .recognized(let state):
            switch state {
            case .noPerson: return .object(["type": .string("recognized"), "state": .string("noPerson")])
            case .lowConfidence: return .object(["type": .string("recognized"), "state": .string("lowConfidence")])
            case .exercise(let id, let confidence):
                return .object([
                    "type": .string("recognized"), "state": .string("exercise"), "exercise": .string(id),
                    "confidence": .number(confidence),
                ])
            }
        case .setupGuidance(let text):
            return .object(["type": .string("setup"), "text": .string(text)])
        }
    }

    /// A Codable value as the same JSON `ptcoach analyze --json` writes for it.
    static func codable(_ value: some Encodable) -> JSONValue {
        guard let data = try? JSONEncoder.coach().encode(value),
            let json = try? JSONValue.parse(String(decoding: data, as: UTF8.self))
        else { return .null }
        return json
    }
}

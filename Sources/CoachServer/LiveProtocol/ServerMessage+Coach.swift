import CoachKit
import CoachStore
import Foundation
import PoseKit

// The server's messages made from the coach's own values: rounding for the wire (a tenth of a pixel or degree, a
// hundredth of a confidence) is decided here, once.

extension ServerMessage.Ready {
    /// The `ready` answer for a set opened as `plan` says and saved as `record`.
    init(plan: LiveSetPlan, record: SetRecord, maxFrameBytes: Int) {
        let exercise =
            plan.exercise.map { Exercise(id: $0.id, name: $0.name, view: $0.view.rawValue) }
            ?? plan.hand.map {
                Exercise(
                    id: $0.id,
                    name: $0.name,
                    view: $0.view.rawValue,
                    hand: true,
                    setUp: $0.setUp,
                    gestures: HandGestureControl.setUpGuidance
                )
            }
        let programme = plan.followed.map { followed in
            let item = followed.prescription
            return Programme(
                item: followed.item,
                set: record.setNumber,
                sets: item.sets,
                restSeconds: item.restSeconds,
                holdSeconds: item.holdSeconds,
                note: item.note,
                target: (plan.exercise?.target ?? plan.hand?.target).map { [$0.min, $0.max] }
            )
        }
        self.init(
            session: record.id,
            input: plan.input,
            maxFrameBytes: maxFrameBytes,
            exercise: exercise,
            reps: plan.reps,
            practice: record.practice,
            programme: programme
        )
    }
}

extension ServerMessage.Frame {
    /// The answer to one frame of a body set: the pose, the coach's state after it and what happened at it.
    init(
        id: Int,
        seconds: Double,
        dropped: Int,
        serverMilliseconds: Double,
        snapshot: CoachSnapshot,
        prescribedReps: Int?,
        events: [CoachEvent]
    ) {
        self.init(
            id: id,
            t: seconds,
            dropped: dropped,
            serverMs: (serverMilliseconds * 10).rounded() / 10,
            pose: snapshot.pose.map(Self.keypoints),
            state: LiveState(snapshot, prescribedReps: prescribedReps),
            events: events.compactMap(LiveEvent.init)
        )
    }

    /// Keypoints by joint name, `[x, y, c]`, rounded to a tenth of a pixel.
    static func keypoints(_ pose: Pose) -> [String: [Double]] {
        var joints: [String: [Double]] = [:]
        for joint in Joint.allCases {
            let k = pose[joint]
            guard k.confidence > 0, k.x.isFinite, k.y.isFinite else { continue }
            joints[joint.name] = [
                (k.x * 10).rounded() / 10, (k.y * 10).rounded() / 10, (k.confidence * 100).rounded() / 100,
            ]
        }
        return joints
    }
}

extension LiveState {
    /// `x` rounded to `1/scale`; `nil` when unknown or not finite.
    static func rounded(_ x: Double?, _ scale: Double = 10) -> Double? {
        guard let x, x.isFinite else { return nil }
        return (x * scale).rounded() / scale
    }

    /// A body set's state after a frame.
    init(_ s: CoachSnapshot, prescribedReps: Int?) {
        func hold(_ h: HoldProgress?) -> Hold? {
            h.map {
                Hold(
                    heldSeconds: Self.rounded($0.heldSeconds),
                    targetSeconds: Self.rounded($0.targetSeconds),
                    holding: $0.holding
                )
            }
        }
        let recognition =
            switch s.recognition {
            case .noPerson: "noPerson"
            case .lowConfidence: "lowConfidence"
            case .exercise: "exercise"
            }
        self.init(
            exercise: s.exerciseID,
            exerciseName: s.exerciseName,
            confidence: Self.rounded(s.confidence, 100),
            recognition: recognition,
            unsure: s.recognitionUnsure ? RecognitionConfidence.unsureSentence : nil,
            reps: s.repCount,
            provisionalReps: s.provisionalReps,
            prescribedReps: prescribedReps,
            angle: Self.rounded(s.primaryAngle),
            angleKind: s.primaryAngleKind?.rawValue,
            angleName: s.primaryAngleKind?.displayName,
            angleUnit: s.primaryAngleKind?.unit,
            angleJoint: s.primaryJoint?.name,
            side: s.side?.rawValue,
            target: s.targetRange.map { [Self.rounded($0.lowerBound), Self.rounded($0.upperBound)] },
            rangeOfMotion: s.rangeMeasurable ? Self.rounded(s.rangeOfMotionProgress, 100) : nil,
            cue: s.cueText,
            cueKind: s.cueKind,
            warning: s.safetyWarning,
            setup: s.setupGuidance,
            hold: hold(s.hold),
            peakHold: hold(s.peakHold)
        )
    }
}

extension LiveEvent {
    /// The event as sent, or `nil` for one the frame message carries otherwise (the pose).
    init?(_ event: CoachEvent) {
        switch event {
        case .pose: return nil
        case .repCompleted(let repetition): self = .rep(repetition)
        case .repetitionsRevised(let repetitions): self = .repsRevised(repetitions)
        case .provisionalRepetition(let repetition): self = .repProvisional(repetition)
        case .provisionalRepetitionEnded(let confirmed): self = .repProvisionalEnded(confirmed: confirmed)
        case .cue(let cue): self = .cue(kind: cue.kind, text: cue.text, seconds: cue.seconds)
        case .warning(let w): self = .warning(text: w.text, angle: w.angle.rawValue, value: w.value, limit: w.limit)
        case .holdProgress(let h):
            self = .hold(heldSeconds: h.heldSeconds, targetSeconds: h.targetSeconds, holding: h.holding)
        case .recognized(.noPerson): self = .recognized(state: "noPerson", exercise: nil, confidence: nil)
        case .recognized(.lowConfidence): self = .recognized(state: "lowConfidence", exercise: nil, confidence: nil)
        case .recognized(.exercise(let id, let confidence)):
            self = .recognized(state: "exercise", exercise: id, confidence: confidence)
        case .setupGuidance(let text): self = .setup(text: text)
        }
    }
}

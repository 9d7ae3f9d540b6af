import PoseKit

extension ExerciseRecognizer {
    /// The segment slot: upper arm 0/1, forearm 2/3, thigh 4/5, shank 6/7 (left/right); `nil` for the
    /// midline "segments" (trunk, shoulders, hips).
    static func slot(_ segment: Motion.Segment, side: Int) -> Int? {
        switch segment {
        case .upperArm: side
        case .forearm: 2 + side
        case .thigh: 4 + side
        case .shank: 6 + side
        case .trunk, .shoulders, .hips: nil
        }
    }

    private static let segmentJoints: [(Joint, Joint)] = [
        (.leftShoulder, .leftElbow), (.rightShoulder, .rightElbow),
        (.leftElbow, .leftWrist), (.rightElbow, .rightWrist),
        (.leftHip, .leftKnee), (.rightHip, .rightKnee),
        (.leftKnee, .leftAnkle), (.rightKnee, .rightAnkle),
    ]

    /// A segment seen at least this share of the longest length it had recently lies in the image plane (no
    /// hidden component): keypoint noise of a pixel or two shortens a 60-px forearm by a few percent, and the
    /// hidden component, sqrt(1 − (length / longest)²), read a 3 % shortening as a quarter of the segment pointing
    /// out of the picture. Every segment of a person standing still in a side view, without depth, then swung
    /// 20–25° in the recognizer's eyes, and curls or hip extensions held 8 s were named shoulder presses.
    static let hiddenDeadband = 0.95

    mutating func measure(_ pose: Pose) {
        for (k, kind) in Self.kinds.enumerated() {
            sample[k * 2] = kind.measure(pose, side: .left, useDepth: configuration.useDepth) ?? .nan
            sample[k * 2 + 1] =
                kind.isSided
                ? (kind.measure(pose, side: .right, useDepth: configuration.useDepth) ?? .nan) : sample[k * 2]
        }
        for i in Self.segmentBase..<Self.featureCount { sample[i] = .nan }
        // Measured again only where depth was used (the same numbers without it).
        let measuredWithDepth =
            configuration.useDepth && pose[.leftShoulder].z != nil && pose[.rightShoulder].z != nil
            && pose[.leftHip].z != nil
        for (k, kind) in Self.kinds.enumerated() {
            let base = Self.flatAngleBase + k * 2
            guard measuredWithDepth else {
                sample[base] = sample[k * 2]
                sample[base + 1] = sample[k * 2 + 1]
                continue
            }
            sample[base] = kind.measure(pose, side: .left, useDepth: false) ?? .nan
            sample[base + 1] = kind.isSided ? (kind.measure(pose, side: .right, useDepth: false) ?? .nan) : sample[base]
        }
        let ls = pose[.leftShoulder]
        let rs = pose[.rightShoulder]
        let neck = pose[.neck]
        let root = pose[.root]
        guard ls.confidence > 0, rs.confidence > 0, neck.confidence > 0, root.confidence > 0 else { return }
        // Hip height in the image (a steady camera), in the longest torso length seen recently: it
        // changes when the whole body lowers or rises, not when a limb moves.
        let torso2D = ((neck.x - root.x) * (neck.x - root.x) + (neck.y - root.y) * (neck.y - root.y)).squareRoot()
        torsoReference = max(torso2D, torsoReference * 0.998)
        if torsoReference > 1e-6 { sample[Self.hipsSlot] = -root.y / torsoReference }
        // Shoulder height below the head, in torso lengths: it drops in a shrug.
        let head = pose[.nose].confidence > 0 ? pose[.nose] : pose[.head]
        if head.confidence > 0, torsoReference > 1e-6 {
            sample[Self.shouldersSlot] = ((ls.y + rs.y) / 2 - head.y) / torsoReference
        }
        if torsoReference > 1e-6 {
            sample[Self.shoulderPositionSlot] = (ls.x + rs.x) / 2 / torsoReference
            sample[Self.shoulderPositionSlot + 1] = (ls.y + rs.y) / 2 / torsoReference
            let lw = pose[.leftWrist]
            let rw = pose[.rightWrist]
            let seen = (lw.confidence > 0 ? 1.0 : 0) + (rw.confidence > 0 ? 1.0 : 0)
            let axisX = neck.x - root.x
            let axisY = neck.y - root.y
            if seen > 0, head.confidence > 0 {
                // Along the trunk, from the neck: the head against each wrist seen.
                let headReach = (head.x - neck.x) * axisX + (head.y - neck.y) * axisY
                let above = { (w: Keypoint) in (w.x - neck.x) * axisX + (w.y - neck.y) * axisY > headReach }
                let overhead = (lw.confidence <= 0 || above(lw)) && (rw.confidence <= 0 || above(rw))
                sample[Self.overheadSlot] = overhead ? 1 : 0
            }
            if seen > 0 {
                sample[Self.handsSlot] =
                    ((lw.confidence > 0 ? lw.x : 0) + (rw.confidence > 0 ? rw.x : 0)) / seen / torsoReference
                sample[Self.handsSlot + 1] =
                    ((lw.confidence > 0 ? lw.y : 0) + (rw.confidence > 0 ? rw.y : 0)) / seen / torsoReference
            }
        }

        let depth = configuration.useDepth && ls.z != nil && rs.z != nil && neck.z != nil && root.z != nil
        var u = Measurer.P(neck.x - root.x, neck.y - root.y, depth ? neck.z! - root.z! : 0)
        let un = u.length
        guard un > 1e-6 else { return }
        u = Measurer.P(u.x / un, u.y / un, u.z / un)
        var l = Measurer.P(ls.x - rs.x, ls.y - rs.y, depth ? ls.z! - rs.z! : 0)
        let widthRaw = l.length
        let along = l.dot(u)
        l = Measurer.P(l.x - along * u.x, l.y - along * u.y, l.z - along * u.z)
        let ln = l.length
        var f = Measurer.P(0, 0, 0)
        var mode: Int
        if depth {
            guard ln > 1e-6 else { return }
            l = Measurer.P(l.x / ln, l.y / ln, l.z / ln)
            f = l.cross(u)  // forward (x right, y down, z away from the camera)
            mode = 0
        } else if widthRaw / un >= 0.4, ln > 1e-6 {
            l = Measurer.P(l.x / ln, l.y / ln, 0)
            mode = 1  // front-ish: forward is the hidden axis
        } else {
            // Side view: the image perpendicular to the trunk is forward or backward; the facing direction
            // comes from the nose (or toes) relative to the neck (or ankle).
            var facing = 1.0
            let nose = pose[.nose]
            if nose.confidence > 0 {
                facing = nose.x >= neck.x ? 1 : -1
            } else if pose[.leftFootIndex].confidence > 0, pose[.leftAnkle].confidence > 0 {
                facing = pose[.leftFootIndex].x >= pose[.leftAnkle].x ? 1 : -1
            }
            let px = -u.y
            let py = u.x
            let sign = (px >= 0 ? 1.0 : -1.0) * facing
            f = Measurer.P(px * sign, py * sign, 0)
            mode = 2  // side: out/in is the hidden axis
        }
        sample[Self.viewSlot] = Double(mode)
        for (slot, (a, b)) in Self.segmentJoints.enumerated() {
            let pa = pose[a]
            let pb = pose[b]
            guard pa.confidence > 0, pb.confidence > 0 else { continue }
            let outward = slot % 2 == 0 ? 1.0 : -1.0
            let base = Self.segmentBase + slot * 3
            if mode == 0 {
                guard let za = pa.z, let zb = pb.z else { continue }
                let v = Measurer.P(pb.x - pa.x, pb.y - pa.y, zb - za)
                let n = v.length
                guard n > 1e-6 else { continue }
                sample[base] = v.dot(l) * outward / n
                sample[base + 1] = v.dot(f) / n
                sample[base + 2] = v.dot(u) / n
            } else {
                let v = Measurer.P(pb.x - pa.x, pb.y - pa.y, 0)
                let n = v.length
                guard n > 1e-6 else { continue }
                // The axis the camera cannot see, from the segment's foreshortening against the longest
                // length seen recently.
                let reference = max(n, referenceLength[slot] * 0.998)
                referenceLength[slot] = reference
                let ratio = min(1, n / (reference * Self.hiddenDeadband))
                let hidden = (1 - ratio * ratio).squareRoot()
                sample[base + 2] = v.dot(u) / reference
                if mode == 1 {
                    sample[base] = v.dot(l) * outward / reference
                    sample[base + 1] = hidden
                } else {
                    sample[base] = hidden
                    sample[base + 1] = v.dot(f) / reference
                }
            }
        }
    }
}

extension PoseSelector {
    /// Which parts of a pose had their left and right exchanged, relative to what the estimator said.
    ///
    /// The body is the head, shoulders and hips; the arms and legs are the joints below the shoulders and
    /// hips, which estimators sometimes exchange on their own (mostly the legs, in side views).
    struct SideSwap: Equatable {
        var body = false
        var arms = false
        var legs = false

        static let none = SideSwap()
        static let whole = SideSwap(body: true, arms: true, legs: true)

        var isEmpty: Bool { !body && !arms && !legs }

        /// Whether a joint of `group` (``PoseSelector/limbGroups``) is exchanged.
        func swaps(group: UInt8) -> Bool {
            switch group {
            case 1: arms
            case 2: legs
            default: body
            }
        }
    }

    /// Where a pose is placed for comparing shapes: coordinates become `(p - origin) × scale`.
    struct Placement {
        var originX = 0.0
        var originY = 0.0
        var scale = 1.0

        static let identity = Placement()

        /// The placement that puts `box`'s centre at the origin and makes its longer side 1.
        init(box: Box) {
            originX = (box.minX + box.maxX) / 2
            originY = (box.minY + box.maxY) / 2
            scale = 1 / box.size
        }

        init() {}
    }

    /// Sums of joint distances between a pose and the reference over the joints seen in both.
    ///
    /// `direct` and `mirrored` cover every joint seen in both (midline joints count the same in both);
    /// the lateral sums cover the left/right joints whose mirror joint is seen too, for the side tests,
    /// in all and per part (body, arms, legs).
    struct JointDistances {
        var seen = 0
        var common = 0
        var direct = 0.0
        var mirrored = 0.0
        var lateral = 0
        var lateralDirect = 0.0
        var lateralMirrored = 0.0
        var bodyPairs = 0
        var bodyDirect = 0.0
        var bodyMirrored = 0.0
        var armPairs = 0
        var armDirect = 0.0
        var armMirrored = 0.0
        var legPairs = 0
        var legDirect = 0.0
        var legMirrored = 0.0

        /// The mean joint distance, direct or mirrored assignment, whichever is smaller.
        var meanDistance: Double { common > 0 ? min(direct, mirrored) / Double(common) : .infinity }

        fileprivate mutating func addLateral(group: UInt8, direct d: Double, mirrored dm: Double) {
            lateral += 1
            lateralDirect += d
            lateralMirrored += dm
            switch group {
            case 1:
                armPairs += 1
                armDirect += d
                armMirrored += dm
            case 2:
                legPairs += 1
                legDirect += d
                legMirrored += dm
            default:
                bodyPairs += 1
                bodyDirect += d
                bodyMirrored += dm
            }
        }
    }

    /// The part of the body of each joint, by `Joint.rawValue`: 0 body (head, trunk, shoulders, hips,
    /// midline), 1 arm below the shoulder, 2 leg below the hip.
    static let limbGroups: [UInt8] = Joint.allCases.map { joint in
        switch joint {
        case .leftElbow, .rightElbow, .leftWrist, .rightWrist, .leftPinky, .rightPinky, .leftIndex, .rightIndex,
            .leftThumb, .rightThumb, .leftHand, .rightHand, .leftHandTip, .rightHandTip:
            1
        case .leftKnee, .rightKnee, .leftAnkle, .rightAnkle, .leftHeel, .rightHeel, .leftFootIndex, .rightFootIndex,
            .leftFoot, .rightFoot, .leftToes, .rightToes:
            2
        default: 0
        }
    }

    static let mirrorIndices: [Int] = Joint.allCases.map(\.mirrored.rawValue)

    /// One pass over the joints: the candidate test, the match cost and the side tests.
    ///
    /// The placements let a pose be compared by shape alone (each centred on its box and scaled by its
    /// size) when it continues a track after a jump.
    static func jointDistances(
        _ pose: Pose,
        _ reference: Pose,
        threshold: Double,
        placement: Placement = .identity,
        referencePlacement: Placement = .identity
    ) -> JointDistances {
        var result = JointDistances()
        pose.keypoints.withUnsafeBufferPointer { current in
            reference.keypoints.withUnsafeBufferPointer { previous in
                mirrorIndices.withUnsafeBufferPointer { mirrors in
                    limbGroups.withUnsafeBufferPointer { groups in
                        // A Pose always holds Joint.count keypoints, but `keypoints` is public: stay in bounds.
                        let count = min(current.count, previous.count, mirrors.count, groups.count)
                        for index in 0..<count {
                            let p = current[index]
                            guard p.confidence >= threshold else { continue }
                            result.seen += 1
                            let r = previous[index]
                            guard r.confidence >= threshold else { continue }
                            let mirrorIndex = mirrors[index]
                            let d = distance(p, placement, r, referencePlacement)
                            result.common += 1
                            result.direct += d
                            if mirrorIndex == index {
                                result.mirrored += d
                            } else if mirrorIndex < count, current[mirrorIndex].confidence >= threshold {
                                let dm = distance(current[mirrorIndex], placement, r, referencePlacement)
                                result.mirrored += dm
                                result.addLateral(group: groups[index], direct: d, mirrored: dm)
                            } else {
                                // The mirror joint is not seen: count the direct distance for both assignments.
                                result.mirrored += d
                            }
                        }
                    }
                }
            }
        }
        return result
    }

    private static func distance(_ a: Keypoint, _ placeA: Placement, _ b: Keypoint, _ placeB: Placement) -> Double {
        let dx = (a.x - placeA.originX) * placeA.scale - (b.x - placeB.originX) * placeB.scale
        let dy = (a.y - placeA.originY) * placeA.scale - (b.y - placeB.originY) * placeB.scale
        return (dx * dx + dy * dy).squareRoot()
    }

    /// Which parts to exchange so that the pose continues the reference, from the distances of
    /// ``jointDistances(_:_:threshold:placement:referencePlacement:)`` and the body size in the same units.
    ///
    /// The whole pose is exchanged when the mirrored assignment of all left/right joints is clearly closer;
    /// then each part (body, arms, legs) whose own joints clearly say otherwise is decided on its own, and
    /// a part whose joints are unclear (side views, where the two sides nearly overlap) follows the whole.
    func sideSwap(for distances: JointDistances, size: Double) -> SideSwap {
        let whole = clearlyCloser(
            distances.lateralMirrored,
            than: distances.lateralDirect,
            joints: distances.lateral,
            minimumJoints: 2,
            size: size
        )
        func part(_ joints: Int, _ direct: Double, _ mirrored: Double) -> Bool {
            if clearlyCloser(mirrored, than: direct, joints: joints, minimumJoints: 4, size: size) { return true }
            if clearlyCloser(direct, than: mirrored, joints: joints, minimumJoints: 4, size: size) { return false }
            return whole
        }
        return SideSwap(
            body: part(distances.bodyPairs, distances.bodyDirect, distances.bodyMirrored),
            arms: part(distances.armPairs, distances.armDirect, distances.armMirrored),
            legs: part(distances.legPairs, distances.legDirect, distances.legMirrored)
        )
    }

    /// Whether `candidate` is below `swapRatio` of `current` and better by at least `minimumSwapGain` body
    /// sizes per joint, over at least `minimumJoints` joints.
    private func clearlyCloser(
        _ candidate: Double,
        than current: Double,
        joints: Int,
        minimumJoints: Int,
        size: Double
    ) -> Bool {
        joints >= minimumJoints && candidate < configuration.swapRatio * current
            && (current - candidate) / Double(joints) >= configuration.minimumSwapGain * size
    }

    /// The pose with the parts in `swap` exchanged; the pose itself when nothing is.
    static func applying(_ swap: SideSwap, to pose: Pose) -> Pose {
        if swap.isEmpty { return pose }
        if swap == .whole { return pose.swappingSides() }
        var result = pose
        let count = min(pose.keypoints.count, mirrorIndices.count)
        for index in 0..<count {
            let mirror = mirrorIndices[index]
            guard mirror != index, mirror < count, swap.swaps(group: limbGroups[index]) else { continue }
            result.keypoints[index] = pose.keypoints[mirror]
            if let world = pose.worldKeypoints, mirror < world.count, index < world.count {
                result.worldKeypoints?[index] = world[mirror]
            }
        }
        return result
    }
}

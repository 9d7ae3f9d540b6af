import PoseKit

extension PoseFrame {
    /// Reads one frame line that ``PoseTrackWriter/line(for:joints:dimensions:)`` wrote, giving the same
    /// frame ``PoseTrackReader`` would read from the file (two-decimal coordinates, derived midpoints).
    ///
    /// For frames that arrive one by one while the pose-track is still being written (`analyze --annotate`
    /// draws each frame as soon as its poses are known). The line is our own output, so it is not
    /// validated as thoroughly as the reader validates a file.
    ///
    /// ```swift
    /// let frame = try PoseFrame(trackLine: line, header: header)
    /// ```
    init(trackLine line: String, header: PoseTrackHeader) throws {
        let json: JSONValue
        do {
            json = try JSONValue.parse(line)
        } catch {
            throw CLIError("internal pose-track line is not valid JSON (\(error)): \(line.prefix(80))")
        }
        guard let seconds = json["t"]?.doubleValue, let people = json["poses"]?.arrayValue else {
            throw CLIError("internal pose-track line has no \"t\" or \"poses\": \(line.prefix(80))")
        }
        let joints = header.joints
        let stride = header.valuesPerKeypoint
        var poses: [Pose] = []
        poses.reserveCapacity(people.count)
        for person in people {
            guard let values = person.arrayValue, values.count == joints.count * stride else {
                throw CLIError("internal pose-track line has a pose of the wrong length: \(line.prefix(80))")
            }
            var pose = Pose()
            for (k, joint) in joints.enumerated() {
                guard let joint else { continue }
                let base = k * stride
                let confidence = values[base + stride - 1].doubleValue ?? 0
                if confidence == 0 { continue }
                let z: Double? = stride == 4 ? values[base + 2].doubleValue : nil
                pose[joint] = Keypoint(
                    x: values[base].doubleValue ?? .nan,
                    y: values[base + 1].doubleValue ?? .nan,
                    z: z,
                    confidence: confidence
                )
            }
            pose.deriveMidpoints()
            poses.append(pose)
        }
        self.init(seconds: seconds, poses: poses)
    }
}

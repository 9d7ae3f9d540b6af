/// Nearest-neighbour classification of whole trajectories under dynamic time warping: the classifier
/// of Pose Trainer (Chen & Yang, arXiv 2006.11718), which compares a few joint-angle trajectories of a
/// new repetition with labelled examples.
///
/// Each channel is standardised with the training trajectories' mean and standard deviation (so angles
/// in degrees and heights in torso lengths weigh alike); the distance between two recordings is the
/// multivariate DTW cost (squared Euclidean per step, one warping path for all channels, Sakoe–Chiba
/// band of `radius` steps). A recording takes the label of its nearest training example; the
/// probabilities are proportional to 1 / (distance to the nearest example of each class). Deterministic,
/// no training beyond storing the examples.
///
/// ```swift
/// let model = TrajectoryNearestNeighbor.fit(trajectories: rows, classes: labelIndices, classCount: 2,
///                                           length: 64, radius: 16)
/// let probabilities = model.probabilities(spec.trajectory(for: sequence, length: 64))
/// ```
public struct TrajectoryNearestNeighbor: Sendable, Hashable {
    /// Time steps per trajectory.
    public var length: Int
    /// The Sakoe–Chiba band: how many steps the warping path may stray from the diagonal.
    public var radius: Int
    /// Per-channel means and standard deviations of the training trajectories.
    public var means: [Double]
    public var scales: [Double]
    /// The standardised training trajectories (`length × channels` each, time-major).
    public var templates: [[Double]]
    /// The class index of each template.
    public var templateClasses: [Int]
    public var classCount: Int

    public var channelCount: Int { means.count }

    /// Standardised values are clipped to this many standard deviations.
    static let clip = 8.0

    public init(
        length: Int,
        radius: Int,
        means: [Double],
        scales: [Double],
        templates: [[Double]],
        templateClasses: [Int],
        classCount: Int
    ) {
        precondition(means.count == scales.count, "means (\(means.count)) and scales (\(scales.count)) differ")
        precondition(templates.count == templateClasses.count, "one class per template")
        precondition(templates.allSatisfy { $0.count == length * means.count }, "templates must be length × channels")
        self.length = length
        self.radius = radius
        self.means = means
        self.scales = scales
        self.templates = templates
        self.templateClasses = templateClasses
        self.classCount = classCount
    }

    /// Stores the training trajectories, standardised.
    ///
    /// - Parameter trajectories: `length × channels` values each (``SequenceFeatureSpec/trajectory(for:length:)``);
    ///   `NaN` means unknown (the channel mean is used).
    public static func fit(
        trajectories: [[Double]],
        classes: [Int],
        classCount: Int,
        length: Int,
        radius: Int
    ) -> TrajectoryNearestNeighbor {
        precondition(!trajectories.isEmpty && trajectories.count == classes.count, "one class per trajectory")
        let channels = trajectories[0].count / length
        var means = [Double](repeating: 0, count: channels)
        var scales = [Double](repeating: 1, count: channels)
        for c in 0..<channels {
            var sum = 0.0
            var count = 0.0
            for row in trajectories {
                for step in 0..<length where !row[step * channels + c].isNaN {
                    sum += row[step * channels + c]
                    count += 1
                }
            }
            let mean = count > 0 ? sum / count : 0
            var squares = 0.0
            for row in trajectories {
                for step in 0..<length where !row[step * channels + c].isNaN {
                    squares += (row[step * channels + c] - mean) * (row[step * channels + c] - mean)
                }
            }
            let std = count > 0 ? (squares / count).squareRoot() : 0
            means[c] = mean
            scales[c] = std > 1e-9 ? std : 1
        }
        var model = TrajectoryNearestNeighbor(
            length: length,
            radius: radius,
            means: means,
            scales: scales,
            templates: [],
            templateClasses: [],
            classCount: classCount
        )
        model.templates = trajectories.map(model.standardized)
        model.templateClasses = classes
        return model
    }

    /// A raw trajectory standardised with the training statistics (NaN → 0, clipped to ±8).
    public func standardized(_ trajectory: [Double]) -> [Double] {
        precondition(trajectory.count == length * channelCount, "expected \(length * channelCount) values")
        let channels = channelCount
        var out = trajectory
        for i in out.indices {
            let c = i % channels
            out[i] = out[i].isNaN ? 0 : max(-Self.clip, min(Self.clip, (out[i] - means[c]) / scales[c]))
        }
        return out
    }

    /// The DTW distance from a standardised trajectory to each template.
    public func distances(standardized trajectory: [Double]) -> [Double] {
        templates.map { Self.dtw(trajectory, $0, length: length, channels: channelCount, radius: radius) }
    }

    /// The class probabilities of a raw trajectory.
    public func probabilities(_ trajectory: [Double]) -> [Double] {
        Self.probabilities(
            distances: distances(standardized: standardized(trajectory)),
            classes: templateClasses,
            classCount: classCount
        )
    }

    /// Probabilities from distances to labelled templates: proportional to 1 / (the distance to the nearest
    /// template of each class); a class with no template gets 0. Ties of the nearest go to the lower class.
    static func probabilities(distances: [Double], classes: [Int], classCount: Int) -> [Double] {
        var nearest = [Double](repeating: .infinity, count: classCount)
        for (distance, k) in zip(distances, classes) { nearest[k] = min(nearest[k], distance) }
        if let exact = nearest.firstIndex(where: { $0 <= 1e-12 }) {
            return (0..<classCount).map { $0 == exact ? 1 : 0 }
        }
        let inverse = nearest.map { $0.isFinite ? 1 / $0 : 0 }
        let total = inverse.reduce(0, +)
        return inverse.map { $0 / total }
    }

    /// Multivariate dynamic time warping: the least total squared Euclidean distance over monotone
    /// alignments of two `length × channels` sequences, with steps (1,0), (0,1), (1,1) and a band of
    /// `radius` steps around the diagonal.
    public static func dtw(_ a: [Double], _ b: [Double], length: Int, channels: Int, radius: Int) -> Double {
        let width = length + 1
        var previous = [Double](repeating: .infinity, count: width)
        var current = [Double](repeating: .infinity, count: width)
        previous[0] = 0
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                for i in 1...length {
                    for j in 0..<width { current[j] = .infinity }
                    let lower = max(1, i - radius)
                    let upper = min(length, i + radius)
                    guard lower <= upper else { continue }
                    for j in lower...upper {
                        var cost = 0.0
                        let ra = (i - 1) * channels
                        let rb = (j - 1) * channels
                        for c in 0..<channels {
                            let d = a[ra + c] - b[rb + c]
                            cost += d * d
                        }
                        current[j] = cost + min(previous[j], current[j - 1], previous[j - 1])
                    }
                    swap(&previous, &current)
                }
            }
        }
        return previous[length]
    }
}

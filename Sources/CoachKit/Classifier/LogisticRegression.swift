import RealModule

/// L2-regularised multinomial logistic regression on standardised features, trained with L-BFGS.
///
/// Deterministic: the weights start at zero and the optimiser has no randomness, so the same data give
/// the same model bit for bit. The loss is the mean cross-entropy plus `regularization / 2 · ‖W‖²` (the
/// biases are not penalised). Classes are balanced: each example's cross-entropy is weighted by
/// n / (classes seen × examples of its class), so every class weighs the same in the loss whatever its
/// size (scikit-learn's `class_weight="balanced"`); with equal classes every weight is 1.
///
/// ```swift
/// let model = LogisticRegression.fit(features: rows, classes: labelIndices, classCount: 3,
///                                    regularization: 0.03, maximumIterations: 300)
/// let probabilities = model.probabilities(rows[0])
/// ```
public struct LogisticRegression: Sendable, Hashable {
    /// Per-feature means and standard deviations of the training rows.
    public var means: [Double]
    public var scales: [Double]
    /// `classCount × featureCount` weights, row-major.
    public var weights: [Double]
    public var biases: [Double]

    public var classCount: Int { biases.count }
    public var featureCount: Int { means.count }

    /// Standardised values are clipped to this many standard deviations, so one wild recording cannot
    /// dominate a prediction.
    static let clip = 8.0

    public init(means: [Double], scales: [Double], weights: [Double], biases: [Double]) {
        precondition(means.count == scales.count, "means (\(means.count)) and scales (\(scales.count)) differ")
        precondition(weights.count == biases.count * means.count, "weights must be classes × features")
        self.means = means
        self.scales = scales
        self.weights = weights
        self.biases = biases
    }

    /// Fits the model.
    ///
    /// - Parameters:
    ///   - features: one row per example, all of the same length; `NaN` means unknown (the mean is used).
    ///   - classes: the class index of each row, in `0..<classCount`.
    public static func fit(
        features: [[Double]],
        classes: [Int],
        classCount: Int,
        regularization: Double,
        maximumIterations: Int
    ) -> LogisticRegression {
        precondition(features.count == classes.count && !features.isEmpty, "one class per feature row")
        let n = features.count
        let d = features[0].count
        // Standardisation.
        var means = [Double](repeating: 0, count: d)
        var scales = [Double](repeating: 1, count: d)
        for k in 0..<d {
            var sum = 0.0
            var count = 0.0
            for row in features where !row[k].isNaN {
                sum += row[k]
                count += 1
            }
            let mean = count > 0 ? sum / count : 0
            var squares = 0.0
            for row in features where !row[k].isNaN { squares += (row[k] - mean) * (row[k] - mean) }
            let std = count > 0 ? (squares / count).squareRoot() : 0
            means[k] = mean
            scales[k] = std > 1e-9 ? std : 1
        }
        var x = [Double](repeating: 0, count: n * d)
        for i in 0..<n {
            for k in 0..<d { x[i * d + k] = standardized(features[i][k], means[k], scales[k]) }
        }
        let c = classCount
        var perClass = [Double](repeating: 0, count: c)
        for k in classes { perClass[k] += 1 }
        let present = Double(perClass.count(where: { $0 > 0 }))
        let exampleWeight = classes.map { Double(n) / (present * perClass[$0]) }
        let parameterCount = c * d + c
        let lambda = regularization
        var probabilities = [Double](repeating: 0, count: n * c)

        // Loss and gradient of θ = [W (c×d), b (c)].
        let objective: ([Double], inout [Double]) -> Double = { theta, gradient in
            var loss = 0.0
            for i in 0..<gradient.count { gradient[i] = 0 }
            x.withUnsafeBufferPointer { x in
                theta.withUnsafeBufferPointer { theta in
                    gradient.withUnsafeMutableBufferPointer { gradient in
                        probabilities.withUnsafeMutableBufferPointer { p in
                            for i in 0..<n {
                                var maximum = -Double.infinity
                                for j in 0..<c {
                                    var z = theta[c * d + j]
                                    let w = j * d
                                    let r = i * d
                                    for k in 0..<d { z += theta[w + k] * x[r + k] }
                                    p[i * c + j] = z
                                    maximum = max(maximum, z)
                                }
                                var total = 0.0
                                for j in 0..<c {
                                    let e = Double.exp(p[i * c + j] - maximum)
                                    p[i * c + j] = e
                                    total += e
                                }
                                for j in 0..<c { p[i * c + j] /= total }
                                let weight = exampleWeight[i]
                                loss -= weight * Double.log(max(p[i * c + classes[i]], 1e-300))
                                for j in 0..<c {
                                    let residual = weight * (p[i * c + j] - (j == classes[i] ? 1 : 0)) / Double(n)
                                    if residual == 0 { continue }
                                    let w = j * d
                                    let r = i * d
                                    for k in 0..<d { gradient[w + k] += residual * x[r + k] }
                                    gradient[c * d + j] += residual
                                }
                            }
                            loss /= Double(n)
                            for k in 0..<(c * d) {
                                loss += 0.5 * lambda * theta[k] * theta[k]
                                gradient[k] += lambda * theta[k]
                            }
                        }
                    }
                }
            }
            return loss
        }
        var optimizer = LBFGS(parameterCount: parameterCount)
        let theta = optimizer.minimize(
            objective,
            from: [Double](repeating: 0, count: parameterCount),
            maximumIterations: maximumIterations
        )
        return LogisticRegression(
            means: means,
            scales: scales,
            weights: Array(theta[0..<(c * d)]),
            biases: Array(theta[(c * d)...])
        )
    }

    /// The class probabilities for one feature row.
    /// How far a row lies from the training rows: the root mean square of its standardised features (unknown
    /// ones left out, each clipped as for a prediction). About 1 for a row like the training rows.
    public func distanceFromTraining(_ features: [Double]) -> Double {
        precondition(features.count == featureCount, "expected \(featureCount) features, got \(features.count)")
        var sum = 0.0
        var known = 0
        for k in 0..<featureCount where !features[k].isNaN {
            let z = Self.standardized(features[k], means[k], scales[k])
            sum += z * z
            known += 1
        }
        return known == 0 ? 0 : (sum / Double(known)).squareRoot()
    }

    public func probabilities(_ features: [Double]) -> [Double] {
        precondition(features.count == featureCount, "expected \(featureCount) features, got \(features.count)")
        let d = featureCount
        var logits = biases
        for k in 0..<d {
            let value = Self.standardized(features[k], means[k], scales[k])
            if value == 0 { continue }
            for j in 0..<classCount { logits[j] += weights[j * d + k] * value }
        }
        let maximum = logits.max() ?? 0
        let exps = logits.map { Double.exp($0 - maximum) }
        let total = exps.reduce(0, +)
        return exps.map { $0 / total }
    }

    @inline(__always)
    static func standardized(_ value: Double, _ mean: Double, _ scale: Double) -> Double {
        guard !value.isNaN else { return 0 }
        return max(-clip, min(clip, (value - mean) / scale))
    }
}

/// Limited-memory BFGS with a backtracking (Armijo) line search: a small, deterministic optimiser for
/// smooth convex losses.
struct LBFGS {
    var parameterCount: Int
    var memory = 10
    var gradientTolerance = 1e-5

    init(parameterCount: Int) { self.parameterCount = parameterCount }

    mutating func minimize(
        _ objective: ([Double], inout [Double]) -> Double,
        from start: [Double],
        maximumIterations: Int
    ) -> [Double] {
        let m = parameterCount
        var theta = start
        var gradient = [Double](repeating: 0, count: m)
        var loss = objective(theta, &gradient)
        var sHistory: [[Double]] = []
        var yHistory: [[Double]] = []
        var rhoHistory: [Double] = []
        var direction = [Double](repeating: 0, count: m)
        var candidate = [Double](repeating: 0, count: m)
        var candidateGradient = [Double](repeating: 0, count: m)
        for _ in 0..<maximumIterations {
            let gradientNorm = Self.dot(gradient, gradient).squareRoot()
            if gradientNorm < gradientTolerance { break }
            // Two-loop recursion: direction = −H·g.
            for i in 0..<m { direction[i] = -gradient[i] }
            var alphas = [Double](repeating: 0, count: sHistory.count)
            for h in stride(from: sHistory.count - 1, through: 0, by: -1) {
                alphas[h] = rhoHistory[h] * Self.dot(sHistory[h], direction)
                Self.axpy(-alphas[h], yHistory[h], &direction)
            }
            if let lastS = sHistory.last, let lastY = yHistory.last {
                let gamma = Self.dot(lastS, lastY) / Self.dot(lastY, lastY)
                for i in 0..<m { direction[i] *= gamma }
            } else {
                let scale = 1 / max(gradientNorm, 1e-12)
                for i in 0..<m { direction[i] *= scale }
            }
            for h in 0..<sHistory.count {
                let beta = rhoHistory[h] * Self.dot(yHistory[h], direction)
                Self.axpy(alphas[h] - beta, sHistory[h], &direction)
            }
            var slope = Self.dot(gradient, direction)
            if slope >= 0 {
                // Not a descent direction: restart from steepest descent.
                sHistory.removeAll()
                yHistory.removeAll()
                rhoHistory.removeAll()
                for i in 0..<m { direction[i] = -gradient[i] / max(gradientNorm, 1e-12) }
                slope = Self.dot(gradient, direction)
            }
            // Backtracking line search.
            var step = 1.0
            var newLoss = loss
            var accepted = false
            for _ in 0..<40 {
                for i in 0..<m { candidate[i] = theta[i] + step * direction[i] }
                newLoss = objective(candidate, &candidateGradient)
                if newLoss <= loss + 1e-4 * step * slope {
                    accepted = true
                    break
                }
                step *= 0.5
            }
            if !accepted { break }
            var s = [Double](repeating: 0, count: m)
            var y = [Double](repeating: 0, count: m)
            for i in 0..<m {
                s[i] = candidate[i] - theta[i]
                y[i] = candidateGradient[i] - gradient[i]
            }
            let sy = Self.dot(s, y)
            swap(&theta, &candidate)
            swap(&gradient, &candidateGradient)
            let improvement = loss - newLoss
            loss = newLoss
            if sy > 1e-12 {
                sHistory.append(s)
                yHistory.append(y)
                rhoHistory.append(1 / sy)
                if sHistory.count > memory {
                    sHistory.removeFirst()
                    yHistory.removeFirst()
                    rhoHistory.removeFirst()
                }
            }
            if improvement < 1e-12 * max(1, abs(loss)) { break }
        }
        return theta
    }

    static func dot(_ a: [Double], _ b: [Double]) -> Double {
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                var sum = 0.0
                for i in 0..<a.count { sum += a[i] * b[i] }
                return sum
            }
        }
    }

    static func axpy(_ alpha: Double, _ x: [Double], _ y: inout [Double]) {
        x.withUnsafeBufferPointer { x in
            y.withUnsafeMutableBufferPointer { y in
                for i in 0..<x.count { y[i] += alpha * x[i] }
            }
        }
    }
}

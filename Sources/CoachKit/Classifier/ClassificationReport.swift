/// Per-class precision, recall and F1, weighted F1 and the confusion matrix of a set of predictions.
///
/// Definitions (scikit-learn's): precision = TP / (TP + FP), recall = TP / (TP + FN),
/// F1 = 2·P·R / (P + R) (0 when P + R = 0), weighted F1 = Σ F1(class) · support(class) / total, where
/// support is the number of true examples of the class.
///
/// ```swift
/// let report = ClassificationReport(truth: ["a", "b", "b"], predicted: ["a", "b", "a"])
/// report.weightedF1   // 0.667
/// print(report.text)
/// ```
public struct ClassificationReport: Sendable, Hashable {
    /// The classes (those in the truth and those predicted), sorted.
    public var labels: [String]
    /// `confusion[t][p]`: the number of examples of class `t` predicted as `p`.
    public var confusion: [[Int]]

    public init(truth: [String], predicted: [String], labels: [String] = []) {
        precondition(truth.count == predicted.count, "\(truth.count) truths but \(predicted.count) predictions")
        let all = Array(Set(truth).union(predicted).union(labels)).sorted()
        let index = Dictionary(uniqueKeysWithValues: all.enumerated().map { ($1, $0) })
        var confusion = [[Int]](repeating: [Int](repeating: 0, count: all.count), count: all.count)
        for (t, p) in zip(truth, predicted) { confusion[index[t]!][index[p]!] += 1 }
        self.labels = all
        self.confusion = confusion
    }

    /// The number of examples.
    public var total: Int { confusion.reduce(0) { $0 + $1.reduce(0, +) } }
    public var correct: Int { labels.indices.reduce(0) { $0 + confusion[$1][$1] } }
    public var accuracy: Double { total > 0 ? Double(correct) / Double(total) : 0 }

    public func support(_ k: Int) -> Int { confusion[k].reduce(0, +) }

    public func precision(_ k: Int) -> Double {
        let predicted = labels.indices.reduce(0) { $0 + confusion[$1][k] }
        return predicted > 0 ? Double(confusion[k][k]) / Double(predicted) : 0
    }

    public func recall(_ k: Int) -> Double {
        let support = support(k)
        return support > 0 ? Double(confusion[k][k]) / Double(support) : 0
    }

    public func f1(_ k: Int) -> Double {
        let p = precision(k)
        let r = recall(k)
        return p + r > 0 ? 2 * p * r / (p + r) : 0
    }

    /// F1 averaged over classes, weighted by support.
    public var weightedF1: Double {
        guard total > 0 else { return 0 }
        return labels.indices.reduce(0) { $0 + f1($1) * Double(support($1)) } / Double(total)
    }

    /// F1 averaged over the classes that have support.
    public var macroF1: Double {
        let present = labels.indices.filter { support($0) > 0 }
        guard !present.isEmpty else { return 0 }
        return present.reduce(0) { $0 + f1($1) } / Double(present.count)
    }

    /// A readable table: per-class metrics, weighted F1 and the confusion matrix.
    public var text: String {
        let width = max(12, (labels.map(\.count).max() ?? 0) + 2)
        func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : s + String(repeating: " ", count: n - s.count) }
        func lpad(_ s: String, _ n: Int) -> String { s.count >= n ? s : String(repeating: " ", count: n - s.count) + s }
        func f(_ x: Double) -> String {
            let scaled = Int((x * 1000).rounded())
            let fraction = String(scaled % 1000)
            return "\(scaled / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
        }
        var lines: [String] = []
        lines.append(
            pad("class", width) + lpad("precision", 10) + lpad("recall", 8) + lpad("f1", 8) + lpad("support", 9)
        )
        for k in labels.indices {
            lines.append(
                pad(labels[k], width) + lpad(f(precision(k)), 10) + lpad(f(recall(k)), 8) + lpad(f(f1(k)), 8)
                    + lpad(String(support(k)), 9)
            )
        }
        lines.append("")
        lines.append(
            "accuracy \(f(accuracy)) (\(correct)/\(total))   weighted F1 \(f(weightedF1))   macro F1 \(f(macroF1))"
        )
        lines.append("")
        lines.append("confusion matrix (rows: true label, columns: predicted):")
        let cell = min(12, max(6, (labels.map(\.count).max() ?? 0) + 1))
        let short = labels.map { $0.count > cell - 1 ? String($0.prefix(cell - 1)) : $0 }
        lines.append(pad("", width) + short.map { lpad($0, cell) }.joined())
        for k in labels.indices {
            lines.append(pad(labels[k], width) + confusion[k].map { lpad(String($0), cell) }.joined())
        }
        return lines.joined(separator: "\n")
    }
}

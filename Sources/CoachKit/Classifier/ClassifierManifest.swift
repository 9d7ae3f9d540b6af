/// A training or test list for the classifier: a CSV file `path,label` whose paths are relative to the
/// manifest itself; with the header `path,label,start,end`, each row may name a part of its recording
/// (seconds; an empty field: from the start or to the end), which the hand classifiers read.
///
/// Parsing is pure (no file access): pass the text and the manifest's own path, and each entry comes
/// back with its resolved path and its 1-based line number for messages. Fields may be quoted
/// (`"a, b.jsonl"`, with `""` for a quote); blank lines are skipped; a UTF-8 byte-order mark is ignored.
///
/// ```swift
/// let manifest = try ClassifierManifest(text: csv, path: "data/manifests/train.csv")
/// for entry in manifest.entries { print(entry.path, entry.label, entry.line) }
/// ```
public struct ClassifierManifest: Sendable, Hashable {
    /// One row of the manifest.
    public struct Entry: Sendable, Hashable {
        /// The path as written in the manifest.
        public var relativePath: String
        /// The path resolved against the manifest's folder (unchanged when it is absolute).
        public var path: String
        public var label: String
        /// The 1-based line number of the row, for messages.
        public var line: Int
        /// The part of the recording the row labels, in seconds (`nil`: from its start, to its end).
        public var start: Double?
        public var end: Double?

        /// Whether the row names a part of its recording.
        public var isTimeRange: Bool { start != nil || end != nil }
    }

    /// The manifest's own path, for messages.
    public var path: String
    public var entries: [Entry]

    /// The distinct labels, sorted.
    public var labels: [String] { Array(Set(entries.map(\.label))).sorted() }

    /// Parses manifest text.
    ///
    /// - Parameters:
    ///   - text: the CSV text; the first non-blank line must be the header `path,label`.
    ///   - path: the manifest's path, used to resolve relative paths and in messages.
    /// - Throws: ``CoachKitError`` (`.malformedManifest`) naming the manifest and the line.
    public init(text: String, path: String) throws(CoachKitError) {
        self.path = path
        let folder = Self.folder(of: path)
        var entries: [Entry] = []
        var sawHeader = false
        var hasTimes = false
        var lineNumber = 0
        let rows: [CSVRows.Row]
        do {
            rows = try CSVRows.parse(text)
        } catch {
            throw Self.fail(path, error.line, error.message)
        }
        for row in rows {
            let trimmed = row.fields
            lineNumber = row.line
            if !sawHeader {
                guard trimmed.count >= 2, trimmed[0].lowercased() == "path", trimmed[1].lowercased() == "label" else {
                    throw Self.fail(
                        path,
                        lineNumber,
                        "the header must be `path,label`, found `\(row.text)`; write that header line first"
                    )
                }
                sawHeader = true
                hasTimes = trimmed.count >= 4 && trimmed[2].lowercased() == "start" && trimmed[3].lowercased() == "end"
                continue
            }
            guard trimmed.count >= 2 else {
                throw Self.fail(path, lineNumber, "expected two fields `path,label`, found `\(row.text)`")
            }
            guard !trimmed[0].isEmpty else { throw Self.fail(path, lineNumber, "the path is empty") }
            guard !trimmed[1].isEmpty else {
                throw Self.fail(path, lineNumber, "the label of `\(trimmed[0])` is empty; every row needs a label")
            }
            let resolved = trimmed[0].hasPrefix("/") ? trimmed[0] : folder + trimmed[0]
            var entry = Entry(relativePath: trimmed[0], path: resolved, label: trimmed[1], line: lineNumber)
            if hasTimes {
                func seconds(_ column: Int, _ name: String) throws(CoachKitError) -> Double? {
                    guard column < trimmed.count, !trimmed[column].isEmpty else { return nil }
                    guard let value = Double(trimmed[column]), value.isFinite, value >= 0 else {
                        throw Self.fail(path, lineNumber, "\(name) `\(trimmed[column])` is not a time in seconds")
                    }
                    return value
                }
                entry.start = try seconds(2, "start")
                entry.end = try seconds(3, "end")
                if let start = entry.start, let end = entry.end, end <= start {
                    throw Self.fail(path, lineNumber, "end (\(end)) must be after start (\(start))")
                }
            }
            entries.append(entry)
        }
        guard sawHeader else {
            throw CoachKitError(
                .malformedManifest,
                "\(path): the manifest is empty; expected a header `path,label` and rows"
            )
        }
        guard !entries.isEmpty else {
            throw CoachKitError(
                .malformedManifest,
                "\(path): the manifest has a header but no rows; add `path,label` rows"
            )
        }
        self.entries = entries
    }

    /// The folder part of `path` with a trailing slash, or "" for a bare file name.
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[...slash])
    }

    private static func fail(_ path: String, _ line: Int, _ message: String) -> CoachKitError {
        CoachKitError(.malformedManifest, "\(path):\(line): \(message)")
    }
}

extension StringProtocol {
    /// The string without leading and trailing spaces and tabs.
    func manifestTrimmed() -> String {
        var slice = self[...]
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return String(slice)
    }
}

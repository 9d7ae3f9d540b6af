/// The rows of a CSV file as the project's manifests and label lists use it: one record a line, fields trimmed of
/// spaces and tabs, RFC 4180 quoting within a line (`"a, b.jsonl"`, `""` for a quote), blank lines skipped, a
/// UTF-8 byte-order mark and `\r\n` line ends accepted. The one CSV reader of the project (classifier manifests,
/// `evaluate-reps` manifests, the sample videos' `labels.csv`).
///
/// ```swift
/// for row in try CSVRows.parse(text) { print(row.line, row.fields) }
/// ```
public enum CSVRows {
    public struct Row: Sendable, Hashable {
        /// The 1-based line number, for messages.
        public var line: Int
        public var fields: [String]
        /// The line as written.
        public var text: String
    }

    public struct Failure: Error, Sendable {
        public var line: Int
        public var message: String
    }

    public static func parse(_ text: String) throws(Failure) -> [Row] {
        var rows: [Row] = []
        var lineNumber = 0
        var body = Substring(text)
        if body.hasPrefix("\u{FEFF}") { body = body.dropFirst() }
        for rawLine in body.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            lineNumber += 1
            var line = rawLine
            if line.hasSuffix("\r") { line = line.dropLast() }
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            do {
                let fields = try fields(of: line).map { $0.manifestTrimmed() }
                rows.append(Row(line: lineNumber, fields: fields, text: String(line)))
            } catch {
                throw Failure(line: lineNumber, message: error.message)
            }
        }
        return rows
    }

    private struct FieldError: Error { var message: String }

    /// Splits one CSV line into fields (RFC 4180 quoting within a line).
    private static func fields(of line: Substring) throws(FieldError) -> [String] {
        var fields: [String] = []
        var current = ""
        var inQuotes = false
        var wasQuoted = false
        var index = line.startIndex
        while index < line.endIndex {
            let character = line[index]
            if inQuotes {
                if character == "\"" {
                    let next = line.index(after: index)
                    if next < line.endIndex, line[next] == "\"" {
                        current.append("\"")
                        index = next
                    } else {
                        inQuotes = false
                    }
                } else {
                    current.append(character)
                }
            } else if character == "," {
                fields.append(current)
                current = ""
                wasQuoted = false
            } else if character == "\"" {
                guard current.manifestTrimmed().isEmpty, !wasQuoted else {
                    throw FieldError(message: "a quote inside an unquoted field in `\(line)`; quote the whole field")
                }
                current = ""
                inQuotes = true
                wasQuoted = true
            } else {
                current.append(character)
            }
            index = line.index(after: index)
        }
        guard !inQuotes else { throw FieldError(message: "an unterminated quoted field in `\(line)`") }
        fields.append(current)
        return fields
    }
}

import PoseKit

/// Writes a session report as HTML, PDF or JSON, chosen by the file name's extension.
///
/// Every format goes through a temporary file in the same folder that is renamed into place at the
/// end, so a failure leaves no half-written report.
///
/// ```swift
/// try ReportWriter.write(input, to: "session.html")   // self-contained page, inline SVG charts
/// try ReportWriter.write(input, to: "session.pdf")    // A4, for printing or sending
/// try ReportWriter.write(input, to: "session.json")   // machine-readable summary
/// ```
public enum ReportWriter {
    /// The report formats.
    public enum Format: String, Sendable, Hashable, CaseIterable {
        case html, pdf, json

        /// The format for a file name (`.html`/`.htm`, `.pdf`, `.json`, any case), or `nil`.
        public init?(path: String) {
            let name = path.split(separator: "/").last.map { $0.lowercased() } ?? ""
            guard let dot = name.lastIndex(of: ".") else { return nil }
            switch name[name.index(after: dot)...] {
            case "html", "htm": self = .html
            case "pdf": self = .pdf
            case "json": self = .json
            default: return nil
            }
        }
    }

    /// Writes `input` to `path` in the format its extension names.
    ///
    /// - Throws: ``MediaIOError`` `.encodeFailed` for an unknown extension, `.fileNotFound` when the
    ///   folder is missing, `.io` when `path` exists (without `overwrite`) or writing fails.
    public static func write(_ input: ReportInput, to path: String, overwrite: Bool = false) throws(MediaIOError) {
        guard let format = Format(path: path) else {
            throw MediaIOError(
                .encodeFailed,
                "unknown report format; name the report .html, .pdf or .json",
                file: path
            )
        }
        switch format {
        case .html:
            try OutputFile.write(Array(html(input).utf8), to: path, overwrite: overwrite)
        case .json:
            try OutputFile.write(Array(json(input).utf8), to: path, overwrite: overwrite)
        case .pdf:
            try OutputFile.check(path, overwrite: overwrite)
            let temporary = OutputFile.temporaryPath(for: path)
            do {
                _ = try PDFReport(input: input).write(to: temporary)
            } catch {
                OutputFile.remove(temporary)
                throw error
            }
            try OutputFile.commit(temporary, to: path)
        }
    }

    /// The HTML report as text.
    public static func html(_ input: ReportInput) -> String {
        HTMLReport(input: input).render()
    }

    /// The JSON summary: `input.summaryJSON` when given, otherwise the report's own numbers.
    public static func json(_ input: ReportInput) -> String {
        if let summary = input.summaryJSON { return summary.hasSuffix("\n") ? summary : summary + "\n" }
        return input.jsonText + "\n"
    }
}

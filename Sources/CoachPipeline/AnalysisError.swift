/// Why an analysis stopped: one line for the person who ran it, and the exit status `ptcoach` gives for it.
///
/// ```swift
/// throw AnalysisError.refused("--report out.txt: unknown report type; name it .html, .pdf or .json")
/// ```
public struct AnalysisError: Error, CustomStringConvertible {
    public var message: String
    /// 1, or 64 (`EX_USAGE`, as a refused option) for ``refused(_:)``.
    public var exitCode: Int32 = 1

    public init(_ message: String) { self.message = message }

    public var description: String { message }

    /// An option or value refused once the analysis runs (an unknown exercise, a report type): exit 64, the status
    /// of a usage error.
    public static func refused(_ message: String) -> AnalysisError {
        var error = AnalysisError(message)
        error.exitCode = 64
        return error
    }
}

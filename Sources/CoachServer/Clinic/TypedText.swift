/// Text a person typed that the clinic keeps: a name, a login. Trimmed; refused when empty, too long, or holding a
/// control character — a NUL would cut the text short in SQLite's C interface (PostgreSQL refuses it), and a line
/// break or an escape would forge lines in a listing or a log.
///
/// ```swift
/// if let problem = TypedText.lineProblem(name, field: "the name", characters: 1...120) { throw … problem … }
/// ```
enum TypedText {
    /// Why `text` (already trimmed) cannot be kept as a one-line field, or `nil`.
    static func lineProblem(_ text: String, field: String, characters: ClosedRange<Int>) -> String? {
        if text.unicodeScalars.contains(where: isControl) {
            return "\(field) must not contain control characters (a NUL, a line break, a tab)"
        }
        guard characters.contains(text.count) else {
            return "\(field) must be \(characters.lowerBound) to \(characters.upperBound) characters"
        }
        return nil
    }

    /// C0 controls, DEL and the C1 controls.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}

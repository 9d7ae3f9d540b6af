/// Colours of the printed and HTML reports (on white): green within target, amber short, red safety.
enum ReportStyle {
    static let good = OverlayColor(red: 31, green: 157, blue: 85)
    static let caution = OverlayColor(red: 214, green: 137, blue: 0)
    static let danger = OverlayColor(red: 211, green: 58, blue: 58)
    static let ink = OverlayColor(red: 29, green: 36, blue: 51)
    static let muted = OverlayColor(red: 96, green: 106, blue: 124)
    static let grid = OverlayColor(red: 227, green: 231, blue: 238)
    static let panel = OverlayColor(red: 246, green: 248, blue: 251)
    static let series = OverlayColor(red: 52, green: 98, blue: 196)
    static let lowering = OverlayColor(red: 91, green: 127, blue: 214)
    static let lifting = OverlayColor(red: 155, green: 107, blue: 214)
}

/// How a repetition (or a number) compares with its target, and its colour; `unknown` for a repetition that
/// was not judged.
enum ReportStatus: String {
    case within, goodForm, short, beyond, needsWork, unsafe, unknown, notChecked

    var color: OverlayColor {
        switch self {
        case .within, .goodForm: ReportStyle.good
        case .short, .beyond, .needsWork: ReportStyle.caution
        case .unsafe: ReportStyle.danger
        case .unknown, .notChecked: ReportStyle.muted
        }
    }

    /// A CSS class name.
    var css: String { rawValue }

    var label: String {
        switch self {
        case .within: "in target"
        case .goodForm: "good form"
        case .short: "short"
        case .beyond: "beyond target"
        case .needsWork: "needs work"
        case .unsafe: "safety"
        case .unknown: "not judged"
        case .notChecked: "not checked"
        }
    }
}

/// Escaping and number formatting for the reports.
enum HTMLText {
    /// `text` with `& < > " '` escaped for HTML and SVG.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    /// `value` with `decimals` digits after the point ("1.5", "97").
    static func number(_ value: Double, decimals: Int = 0) -> String {
        guard value.isFinite else { return "–" }
        if decimals == 0 { return String(Int(value.rounded())) }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((abs(value) * scale).rounded())
        let whole = scaled / Int(scale)
        var fraction = String(scaled % Int(scale))
        while fraction.count < decimals { fraction = "0" + fraction }
        return (value < 0 && scaled != 0 ? "-" : "") + "\(whole).\(fraction)"
    }

    /// Seconds as "0:07" or "1:02:03".
    static func clock(_ seconds: Double) -> String {
        let total = Int(max(0, seconds).rounded())
        let (h, m, s) = (total / 3600, total / 60 % 60, total % 60)
        let ss = s < 10 ? "0\(s)" : "\(s)"
        if h > 0 { return "\(h):\(m < 10 ? "0\(m)" : "\(m)"):\(ss)" }
        return "\(m):\(ss)"
    }
}

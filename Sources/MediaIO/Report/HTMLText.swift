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

    /// Seconds as "0:07" or "1:02:03"; with `tenths`, "0:07.4" (a repetition lasts a second or two, so
    /// whole seconds would read 0.4–1.9 s as "0:00–0:02").
    static func clock(_ seconds: Double, tenths: Bool = false) -> String {
        let scaled = Int((max(0, seconds) * (tenths ? 10 : 1)).rounded())
        let total = tenths ? scaled / 10 : scaled
        let (h, m, s) = (total / 3600, total / 60 % 60, total % 60)
        let ss = (s < 10 ? "0\(s)" : "\(s)") + (tenths ? ".\(scaled % 10)" : "")
        if h > 0 { return "\(h):\(m < 10 ? "0\(m)" : "\(m)"):\(ss)" }
        return "\(m):\(ss)"
    }

    /// A repetition's time span, "0:00.4–0:01.9".
    static func span(_ start: Double, _ end: Double) -> String {
        "\(clock(start, tenths: true))–\(clock(end, tenths: true))"
    }

    /// Clock labels for axis ticks: tenths when a tick falls between whole seconds, so that no label is
    /// rounded away from its tick ("0:00, 0:01, 0:01" for ticks every half second, "0:03" at 2.5 s).
    static func clockTicks(_ ticks: [Double]) -> [String] {
        let tenths = ticks.contains { abs($0 - $0.rounded()) > 1e-6 }
        return ticks.map { clock($0, tenths: tenths) }
    }
}

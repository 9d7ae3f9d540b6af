import CCairo

/// Where text sits relative to its anchor point.
enum TextAnchor: String {
    case start, middle, end
}

/// The few drawing operations the report charts need, so one chart description draws both the
/// HTML report's inline SVG and the PDF report's Cairo pages.
protocol ChartCanvas {
    mutating func rect(x: Double, y: Double, width: Double, height: Double, fill: OverlayColor, radius: Double)
    mutating func line(
        x1: Double,
        y1: Double,
        x2: Double,
        y2: Double,
        stroke: OverlayColor,
        width: Double,
        dashed: Bool
    )
    mutating func polyline(_ points: [(x: Double, y: Double)], stroke: OverlayColor, width: Double)
    mutating func circle(x: Double, y: Double, radius: Double, fill: OverlayColor)
    mutating func text(
        _ string: String,
        x: Double,
        y: Double,
        size: Double,
        color: OverlayColor,
        anchor: TextAnchor,
        bold: Bool
    )
}

extension ChartCanvas {
    mutating func rect(x: Double, y: Double, width: Double, height: Double, fill: OverlayColor) {
        rect(x: x, y: y, width: width, height: height, fill: fill, radius: 0)
    }

    mutating func line(x1: Double, y1: Double, x2: Double, y2: Double, stroke: OverlayColor, width: Double) {
        line(x1: x1, y1: y1, x2: x2, y2: y2, stroke: stroke, width: width, dashed: false)
    }

    mutating func text(_ string: String, x: Double, y: Double, size: Double, color: OverlayColor) {
        text(string, x: x, y: y, size: size, color: color, anchor: .start, bold: false)
    }
}

// MARK: - SVG

/// Builds an inline `<svg>` element (no namespace URL: inline SVG in HTML needs none).
struct SVGCanvas: ChartCanvas {
    private(set) var body = ""
    let width: Double
    let height: Double

    init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// The finished element, scaling to its container's width.
    func svg(label: String) -> String {
        "<svg viewBox=\"0 0 \(n(width)) \(n(height))\" role=\"img\" aria-label=\"\(HTMLText.escape(label))\">"
            + body + "</svg>"
    }

    private func n(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    /// ` fill="#rrggbb"`, with its opacity when not opaque.
    private func fill(_ color: OverlayColor) -> String {
        let opacity = color.alpha < 1 ? " fill-opacity=\"\(HTMLText.number(color.alpha, decimals: 2))\"" : ""
        return " fill=\"\(color.hex)\"" + opacity
    }

    mutating func rect(x: Double, y: Double, width: Double, height: Double, fill: OverlayColor, radius: Double) {
        let corner = radius > 0 ? " rx=\"\(n(radius))\"" : ""
        body +=
            "<rect x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(max(0, width)))\" height=\"\(n(max(0, height)))\"\(corner)\(self.fill(fill))/>"
    }

    mutating func line(
        x1: Double,
        y1: Double,
        x2: Double,
        y2: Double,
        stroke: OverlayColor,
        width: Double,
        dashed: Bool
    ) {
        let dash = dashed ? " stroke-dasharray=\"4 3\"" : ""
        let opacity = stroke.alpha < 1 ? " stroke-opacity=\"\(stroke.alpha)\"" : ""
        body +=
            "<line x1=\"\(n(x1))\" y1=\"\(n(y1))\" x2=\"\(n(x2))\" y2=\"\(n(y2))\" stroke=\"\(stroke.hex)\"\(opacity) stroke-width=\"\(n(width))\"\(dash)/>"
    }

    mutating func polyline(_ points: [(x: Double, y: Double)], stroke: OverlayColor, width: Double) {
        guard !points.isEmpty else { return }
        let list = points.map { "\(n($0.x)),\(n($0.y))" }.joined(separator: " ")
        body +=
            "<polyline points=\"\(list)\" fill=\"none\" stroke=\"\(stroke.hex)\" stroke-width=\"\(n(width))\" stroke-linejoin=\"round\" stroke-linecap=\"round\"/>"
    }

    mutating func circle(x: Double, y: Double, radius: Double, fill: OverlayColor) {
        body += "<circle cx=\"\(n(x))\" cy=\"\(n(y))\" r=\"\(n(radius))\"\(self.fill(fill))/>"
    }

    mutating func text(
        _ string: String,
        x: Double,
        y: Double,
        size: Double,
        color: OverlayColor,
        anchor: TextAnchor,
        bold: Bool
    ) {
        let weight = bold ? " font-weight=\"700\"" : ""
        let align = anchor == .start ? "" : " text-anchor=\"\(anchor.rawValue)\""
        body +=
            "<text x=\"\(n(x))\" y=\"\(n(y))\" font-size=\"\(n(size))\" fill=\"\(color.hex)\"\(align)\(weight)>\(HTMLText.escape(string))</text>"
    }
}

// MARK: - Cairo

/// Draws charts on a Cairo context (the PDF report); coordinates are the context's user space.
struct CairoChartCanvas: ChartCanvas {
    let canvas: CairoCanvas

    init(_ canvas: CairoCanvas) { self.canvas = canvas }

    func rect(x: Double, y: Double, width: Double, height: Double, fill: OverlayColor, radius: Double) {
        if radius > 0 {
            canvas.fillRoundedRectangle(x: x, y: y, width: width, height: height, radius: radius, color: fill)
        } else {
            canvas.fillRectangle(x: x, y: y, width: max(0, width), height: max(0, height), color: fill)
        }
    }

    func line(x1: Double, y1: Double, x2: Double, y2: Double, stroke: OverlayColor, width: Double, dashed: Bool) {
        if dashed {
            let pattern: [Double] = [4, 3]
            cairo_set_dash(canvas.cr, pattern, 2, 0)
        }
        canvas.strokeLine(x1: x1, y1: y1, x2: x2, y2: y2, width: width, color: stroke)
        if dashed { cairo_set_dash(canvas.cr, nil, 0, 0) }
    }

    func polyline(_ points: [(x: Double, y: Double)], stroke: OverlayColor, width: Double) {
        guard let first = points.first else { return }
        cairo_move_to(canvas.cr, first.x, first.y)
        for point in points.dropFirst() { cairo_line_to(canvas.cr, point.x, point.y) }
        cairo_set_line_width(canvas.cr, width)
        cairo_set_line_join(canvas.cr, CAIRO_LINE_JOIN_ROUND)
        canvas.setColor(stroke)
        cairo_stroke(canvas.cr)
    }

    func circle(x: Double, y: Double, radius: Double, fill: OverlayColor) {
        canvas.fillCircle(x: x, y: y, radius: radius, color: fill)
    }

    func text(
        _ string: String,
        x: Double,
        y: Double,
        size: Double,
        color: OverlayColor,
        anchor: TextAnchor,
        bold: Bool
    ) {
        canvas.setFont(size: size, bold: bold)
        canvas.setColor(color)
        let alignment: CairoCanvas.Alignment =
            switch anchor {
            case .start: .leading
            case .middle: .center
            case .end: .trailing
            }
        canvas.drawText(string, x: x, y: y, alignment: alignment)
    }
}

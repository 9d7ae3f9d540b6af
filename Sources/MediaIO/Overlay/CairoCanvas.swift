import CCairo

/// A thin layer over a Cairo context: colours, text boxes and shapes shared by the overlay and the
/// PDF report. It does not own the context.
struct CairoCanvas {
    /// Horizontal alignment of text at its anchor.
    enum Alignment { case leading, center, trailing }

    let cr: OpaquePointer
    let fontFamily: String
    /// Whether the surface holds `rgb0` bytes (red in Cairo's blue channel): colours are then set with red and
    /// blue exchanged, which draws exactly the pixels a normal surface would, with the two channels swapped.
    let swapsRedAndBlue: Bool

    init(_ cr: OpaquePointer, fontFamily: String = "DejaVu Sans", swapsRedAndBlue: Bool = false) {
        self.cr = cr
        self.fontFamily = fontFamily
        self.swapsRedAndBlue = swapsRedAndBlue
    }

    func setColor(_ color: OverlayColor) {
        let red = Double(color.red) / 255
        let blue = Double(color.blue) / 255
        cairo_set_source_rgba(
            cr,
            swapsRedAndBlue ? blue : red,
            Double(color.green) / 255,
            swapsRedAndBlue ? red : blue,
            color.alpha
        )
    }

    func setFont(size: Double, bold: Bool = false) {
        cairo_select_font_face(
            cr,
            fontFamily,
            CAIRO_FONT_SLANT_NORMAL,
            bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL
        )
        cairo_set_font_size(cr, size)
    }

    /// Width of `text` in the current font.
    func textWidth(_ text: String) -> Double {
        var extents = cairo_text_extents_t()
        cairo_text_extents(cr, text, &extents)
        return extents.x_advance
    }

    /// Ascent and descent of the current font.
    func fontMetrics() -> (ascent: Double, descent: Double) {
        var extents = cairo_font_extents_t()
        cairo_font_extents(cr, &extents)
        return (extents.ascent, extents.descent)
    }

    /// Draws `text` with its baseline at `y`, aligned at `x`.
    func drawText(_ text: String, x: Double, y: Double, alignment: Alignment = .leading) {
        let width = alignment == .leading ? 0 : textWidth(text)
        let startX =
            switch alignment {
            case .leading: x
            case .center: x - width / 2
            case .trailing: x - width
            }
        cairo_move_to(cr, startX, y)
        cairo_show_text(cr, text)
        cairo_new_path(cr)
    }

    /// Splits `text` into lines no wider than `width` in the current font (words longer than a line
    /// stay whole).
    func wrap(_ text: String, width: Double) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            let candidate = current.isEmpty ? String(word) : current + " " + word
            if current.isEmpty || textWidth(candidate) <= width {
                current = candidate
            } else {
                lines.append(current)
                current = String(word)
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// Like ``wrap(_:width:)`` but with lines of similar length: the narrowest width that needs no more
    /// lines than `width` does.
    func wrapBalanced(_ text: String, width: Double) -> [String] {
        let lines = wrap(text, width: width)
        guard lines.count > 1 else { return lines }
        var low = width / Double(lines.count)
        var high = width
        for _ in 0..<10 {
            let middle = (low + high) / 2
            if wrap(text, width: middle).count <= lines.count { high = middle } else { low = middle }
        }
        return wrap(text, width: high)
    }

    func roundedRectangle(x: Double, y: Double, width: Double, height: Double, radius: Double) {
        let r = max(0, min(radius, width / 2, height / 2))
        cairo_new_sub_path(cr)
        cairo_arc(cr, x + width - r, y + r, r, -.pi / 2, 0)
        cairo_arc(cr, x + width - r, y + height - r, r, 0, .pi / 2)
        cairo_arc(cr, x + r, y + height - r, r, .pi / 2, .pi)
        cairo_arc(cr, x + r, y + r, r, .pi, 3 * .pi / 2)
        cairo_close_path(cr)
    }

    func fillRoundedRectangle(x: Double, y: Double, width: Double, height: Double, radius: Double, color: OverlayColor)
    {
        roundedRectangle(x: x, y: y, width: width, height: height, radius: radius)
        setColor(color)
        cairo_fill(cr)
    }

    func fillRectangle(x: Double, y: Double, width: Double, height: Double, color: OverlayColor) {
        cairo_rectangle(cr, x, y, width, height)
        setColor(color)
        cairo_fill(cr)
    }

    func strokeLine(x1: Double, y1: Double, x2: Double, y2: Double, width: Double, color: OverlayColor) {
        cairo_move_to(cr, x1, y1)
        cairo_line_to(cr, x2, y2)
        cairo_set_line_width(cr, width)
        setColor(color)
        cairo_stroke(cr)
    }

    func fillCircle(x: Double, y: Double, radius: Double, color: OverlayColor) {
        cairo_new_sub_path(cr)
        cairo_arc(cr, x, y, radius, 0, 2 * .pi)
        setColor(color)
        cairo_fill(cr)
    }
}

import CCairo
import PoseKit

/// The title, the repetition counter, the range-of-motion gauge, the cue and warning banners and the set-up
/// guidance: the boxes drawn over the picture, around the skeleton.
extension OverlayRenderer {
    /// The exercise name and confidence, top left; returns the box's bottom edge.
    func drawTitle(_ state: OverlayState, canvas: CairoCanvas, metrics: Metrics) -> Double {
        guard let name = state.exerciseName, !name.isEmpty else { return metrics.margin }
        let x = metrics.margin
        let y = metrics.margin
        let pad = metrics.padding
        canvas.setFont(size: metrics.fontSize, bold: true)
        let nameWidth = canvas.textWidth(name)
        let nameAscent = canvas.fontMetrics().ascent
        var height = pad + nameAscent + pad
        var width = nameWidth
        var confidenceText: String?
        if let confidence = state.confidence {
            let text = "\(Int((confidence * 100).rounded()))% confidence"
            canvas.setFont(size: metrics.captionSize)
            width = max(width, canvas.textWidth(text))
            height += metrics.captionSize * 1.0 + metrics.unit * 1.6
            confidenceText = text
        }
        width += 2 * pad
        canvas.fillRoundedRectangle(x: x, y: y, width: width, height: height, radius: metrics.unit * 1.2, color: .panel)
        canvas.setFont(size: metrics.fontSize, bold: true)
        canvas.setColor(.text)
        canvas.drawText(name, x: x + pad, y: y + pad + nameAscent)
        if let confidenceText, let confidence = state.confidence {
            let baseline = y + pad + nameAscent + metrics.unit * 0.9 + metrics.captionSize
            canvas.setFont(size: metrics.captionSize)
            canvas.setColor(.mutedText)
            canvas.drawText(confidenceText, x: x + pad, y: baseline)
            let barY = baseline + metrics.unit * 0.8
            let barWidth = width - 2 * pad
            let barHeight = metrics.unit * 0.6
            canvas.fillRectangle(x: x + pad, y: barY, width: barWidth, height: barHeight, color: .text.withAlpha(0.2))
            let fill: OverlayColor = confidence >= 0.7 ? .good : confidence >= 0.4 ? .caution : .danger
            canvas.fillRectangle(
                x: x + pad,
                y: barY,
                width: barWidth * min(1, max(0, confidence)),
                height: barHeight,
                color: fill
            )
        }
        return y + height
    }

    /// The rep counter and hold timer, top right.
    func drawCounter(
        _ state: OverlayState,
        canvas: CairoCanvas,
        metrics: Metrics,
        size: (width: Double, height: Double)
    ) {
        guard state.reps != nil || state.holdSeconds != nil else { return }
        let pad = metrics.padding
        var lines: [(caption: String, value: String, suffix: String)] = []
        if let reps = state.reps {
            lines.append(("REPS", "\(reps)", state.prescribedReps.map { " / \($0)" } ?? ""))
        }
        if let hold = state.holdSeconds {
            let suffix = state.holdTargetSeconds.map { " / \(Int($0.rounded())) s" } ?? " s"
            lines.append(("HOLD", "\(Int(hold.rounded(.down)))", suffix))
        }
        var width = 0.0
        for line in lines {
            canvas.setFont(size: metrics.counterSize, bold: true)
            var lineWidth = canvas.textWidth(line.value)
            canvas.setFont(size: metrics.fontSize)
            lineWidth += canvas.textWidth(line.suffix)
            canvas.setFont(size: metrics.captionSize, bold: true)
            width = max(width, lineWidth, canvas.textWidth(line.caption))
        }
        canvas.setFont(size: metrics.counterSize, bold: true)
        let digitAscent = canvas.fontMetrics().ascent * 0.78  // digits are shorter than the font's ascent
        let lineHeight = metrics.captionSize + metrics.unit * 0.8 + digitAscent
        let boxWidth = width + 2 * pad
        let boxHeight = pad + Double(lines.count) * lineHeight + Double(lines.count - 1) * pad + pad
        let x = size.width - metrics.margin - boxWidth
        let y = metrics.margin
        canvas.fillRoundedRectangle(
            x: x,
            y: y,
            width: boxWidth,
            height: boxHeight,
            radius: metrics.unit * 1.2,
            color: .panel
        )
        var top = y + pad
        for line in lines {
            canvas.setFont(size: metrics.captionSize, bold: true)
            canvas.setColor(.mutedText)
            canvas.drawText(line.caption, x: x + pad, y: top + metrics.captionSize * 0.8)
            let baseline = top + metrics.captionSize + metrics.unit * 0.8 + digitAscent
            canvas.setFont(size: metrics.counterSize, bold: true)
            canvas.setColor(.text)
            canvas.drawText(line.value, x: x + pad, y: baseline)
            let valueWidth = canvas.textWidth(line.value)
            canvas.setFont(size: metrics.fontSize)
            canvas.setColor(.mutedText)
            canvas.drawText(line.suffix, x: x + pad + valueWidth, y: baseline)
            top += lineHeight + pad
        }
    }

    /// The range-of-motion gauge: a vertical bar on the left with the target band; red while `unsafe` (a safety
    /// limit crossed).
    func drawGauge(
        _ rom: OverlayState.RangeOfMotion,
        unsafe: Bool = false,
        top: Double,
        canvas: CairoCanvas,
        metrics: Metrics,
        size: (width: Double, height: Double)
    ) {
        let pad = metrics.padding
        let barWidth = metrics.unit * 3
        let barHeight = min(metrics.unit * 34, size.height * 0.45)
        let y = max(top + metrics.margin + pad, (size.height - barHeight) / 2)
        canvas.setFont(size: metrics.captionSize, bold: true)
        let percent = "\(Int((rom.progress * 100).rounded()))%"
        let captionWidth = max(canvas.textWidth(percent), canvas.textWidth(rom.label))
        let boxWidth = max(barWidth, captionWidth) + 2 * pad
        let boxHeight = barHeight + 2 * pad + 2 * (metrics.captionSize + metrics.unit * 0.6)
        canvas.fillRoundedRectangle(
            x: metrics.margin,
            y: y - pad,
            width: boxWidth,
            height: boxHeight,
            radius: metrics.unit * 1.2,
            color: .panel
        )
        let barX = metrics.margin + (boxWidth - barWidth) / 2
        func yFor(_ value: Double) -> Double { y + barHeight * (1 - min(1, max(0, value))) }
        canvas.fillRectangle(x: barX, y: y, width: barWidth, height: barHeight, color: .text.withAlpha(0.15))
        let bandTop = yFor(rom.target.upperBound)
        let bandBottom = yFor(rom.target.lowerBound)
        canvas.fillRectangle(
            x: barX - metrics.unit * 0.5,
            y: bandTop,
            width: barWidth + metrics.unit,
            height: bandBottom - bandTop,
            color: OverlayColor.good.withAlpha(0.35)
        )
        let fill: OverlayColor =
            unsafe
            ? .danger
            : rom.target.contains(rom.progress) ? .good : rom.progress < rom.target.lowerBound ? .caution : .danger
        let level = yFor(rom.progress)
        canvas.fillRectangle(x: barX, y: level, width: barWidth, height: y + barHeight - level, color: fill)
        for edge in [bandTop, bandBottom] {
            canvas.strokeLine(
                x1: barX - metrics.unit * 0.6,
                y1: edge,
                x2: barX + barWidth + metrics.unit * 0.6,
                y2: edge,
                width: metrics.unit * 0.3,
                color: .good
            )
        }
        let captionX = metrics.margin + boxWidth / 2
        canvas.setColor(fill)
        canvas.drawText(
            percent,
            x: captionX,
            y: y + barHeight + metrics.unit * 0.8 + metrics.captionSize,
            alignment: .center
        )
        canvas.setFont(size: metrics.captionSize)
        canvas.setColor(.mutedText)
        canvas.drawText(
            rom.label,
            x: captionX,
            y: y + barHeight + metrics.unit * 1.4 + 2 * metrics.captionSize,
            alignment: .center
        )
    }

    /// A cue or warning banner centred at the bottom; returns its top edge.
    func drawBanner(
        _ text: String,
        color: OverlayColor,
        filled: Bool,
        bottom: Double,
        canvas: CairoCanvas,
        metrics: Metrics,
        size: (width: Double, height: Double)
    ) -> Double {
        let pad = metrics.padding
        let stripe = filled ? 0 : metrics.unit * 1.0
        let maxTextWidth = size.width - 2 * metrics.margin - 2 * pad - stripe
        canvas.setFont(size: metrics.fontSize, bold: true)
        var lines = canvas.wrapBalanced(text, width: maxTextWidth)
        if lines.count > 2 {
            lines = Array(lines.prefix(2))
            lines[1] += "…"
        }
        let (ascent, descent) = canvas.fontMetrics()
        let lineHeight = ascent + descent
        let textWidth = lines.map(canvas.textWidth).max() ?? 0
        let boxWidth = min(size.width - 2 * metrics.margin, textWidth + 2 * pad + stripe)
        let boxHeight = Double(lines.count) * lineHeight + 2 * pad * 0.8
        let x = (size.width - boxWidth) / 2
        let y = bottom - boxHeight
        let radius = metrics.unit * 1.2
        if filled {
            canvas.fillRoundedRectangle(
                x: x,
                y: y,
                width: boxWidth,
                height: boxHeight,
                radius: radius,
                color: color.withAlpha(0.92)
            )
        } else {
            canvas.fillRoundedRectangle(x: x, y: y, width: boxWidth, height: boxHeight, radius: radius, color: .panel)
            cairo_save(canvas.cr)
            canvas.roundedRectangle(x: x, y: y, width: boxWidth, height: boxHeight, radius: radius)
            cairo_clip(canvas.cr)
            canvas.fillRectangle(x: x, y: y, width: stripe, height: boxHeight, color: color)
            cairo_restore(canvas.cr)
        }
        canvas.setFont(size: metrics.fontSize, bold: true)
        canvas.setColor(.text)
        for (index, line) in lines.enumerated() {
            canvas.drawText(
                line,
                x: x + stripe + (boxWidth - stripe) / 2,
                y: y + pad * 0.8 + ascent + Double(index) * lineHeight,
                alignment: .center
            )
        }
        return y - metrics.unit
    }

    /// Set-up guidance in the middle of a dimmed frame.
    func drawGuidance(
        _ text: String,
        canvas: CairoCanvas,
        metrics: Metrics,
        size: (width: Double, height: Double)
    ) {
        canvas.fillRectangle(
            x: 0,
            y: 0,
            width: size.width,
            height: size.height,
            color: OverlayColor(red: 0, green: 0, blue: 0, alpha: 0.3)
        )
        let pad = metrics.padding * 1.5
        let fontSize = metrics.fontSize * 1.3
        canvas.setFont(size: fontSize, bold: true)
        let lines = canvas.wrapBalanced(text, width: size.width * 0.7)
        let (ascent, descent) = canvas.fontMetrics()
        let lineHeight = ascent + descent
        let textWidth = lines.map(canvas.textWidth).max() ?? 0
        let boxWidth = textWidth + 2 * pad
        let boxHeight = Double(lines.count) * lineHeight + 2 * pad
        let x = (size.width - boxWidth) / 2
        let y = (size.height - boxHeight) / 2
        canvas.fillRoundedRectangle(
            x: x,
            y: y,
            width: boxWidth,
            height: boxHeight,
            radius: metrics.unit * 1.5,
            color: OverlayColor.panel.withAlpha(0.8)
        )
        cairo_set_line_width(canvas.cr, metrics.unit * 0.4)
        canvas.roundedRectangle(x: x, y: y, width: boxWidth, height: boxHeight, radius: metrics.unit * 1.5)
        canvas.setColor(.accent)
        cairo_stroke(canvas.cr)
        canvas.setColor(.text)
        for (index, line) in lines.enumerated() {
            canvas.drawText(
                line,
                x: size.width / 2,
                y: y + pad + ascent + Double(index) * lineHeight,
                alignment: .center
            )
        }
    }
}

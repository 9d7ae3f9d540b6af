#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The report's four charts, drawn on any ``ChartCanvas`` (SVG for HTML, Cairo for PDF).
struct ReportCharts {
    let statistics: ExerciseStatistics
    /// Chart width and height in the canvas's units.
    let width: Double
    let height: Double
    /// Label font size.
    let font: Double

    private var exercise: ReportInput.Exercise { statistics.exercise }

    /// The plot area inside the axes.
    private var plot: (x: Double, y: Double, width: Double, height: Double) {
        let left = font * 4.2
        let top = font * 1.6
        let bottom = font * 2.6
        return (left, top, width - left - font, height - top - bottom)
    }

    /// About five round tick values covering `low...high`.
    static func ticks(_ low: Double, _ high: Double, count: Int = 5) -> [Double] {
        guard high > low else { return [low] }
        let raw = (high - low) / Double(count)
        let magnitude = pow(10, floor(log10(raw)))
        let step = [1.0, 2, 2.5, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? raw
        var values: [Double] = []
        var value = ceil(low / step) * step
        while value <= high + step * 1e-9 {
            values.append(value)
            value += step
        }
        return values
    }

    private func yAxis(_ canvas: inout some ChartCanvas, low: Double, high: Double, format: (Double) -> String) {
        let p = plot
        for tick in Self.ticks(low, high) {
            let y = p.y + p.height * (1 - (tick - low) / (high - low))
            canvas.line(x1: p.x, y1: y, x2: p.x + p.width, y2: y, stroke: ReportStyle.grid, width: 1)
            canvas.text(
                format(tick),
                x: p.x - font * 0.5,
                y: y + font * 0.35,
                size: font,
                color: ReportStyle.muted,
                anchor: .end,
                bold: false
            )
        }
        canvas.line(
            x1: p.x,
            y1: p.y + p.height,
            x2: p.x + p.width,
            y2: p.y + p.height,
            stroke: ReportStyle.muted,
            width: 1
        )
    }

    /// A value under the x axis, centred on `x`.
    private func xTickLabel(_ text: String, x: Double, _ canvas: inout some ChartCanvas) {
        let p = plot
        canvas.text(
            text,
            x: x,
            y: p.y + p.height + font * 1.3,
            size: font,
            color: ReportStyle.muted,
            anchor: .middle,
            bold: false
        )
    }

    /// The x axis's title, centred under the plot.
    private func xAxisTitle(_ text: String, _ canvas: inout some ChartCanvas) {
        let p = plot
        canvas.text(
            text,
            x: p.x + p.width / 2,
            y: height - font * 0.2,
            size: font,
            color: ReportStyle.muted,
            anchor: .middle,
            bold: false
        )
    }

    private func empty(_ canvas: inout some ChartCanvas, _ message: String) {
        canvas.text(
            message,
            x: width / 2,
            y: height / 2,
            size: font * 1.1,
            color: ReportStyle.muted,
            anchor: .middle,
            bold: false
        )
    }

    // MARK: - Range of motion per repetition

    /// One bar per repetition, coloured by status, over the shaded target band.
    func rangeOfMotion(_ canvas: inout some ChartCanvas) {
        let reps = exercise.repetitions.filter { $0.rangeOfMotion != nil }
        guard !reps.isEmpty else {
            // Repetitions done but none measured: the camera view (as the headline says), not a missing set.
            let text =
                exercise.repetitions.isEmpty
                ? "No range-of-motion measurements" : "Range of motion not measurable from this camera view"
            return empty(&canvas, text)
        }
        let p = plot
        let values = reps.compactMap(statistics.shownRangeOfMotion)
        let targetTop = exercise.targetRange.map { $0.upperBound.isFinite ? $0.upperBound : $0.lowerBound * 1.2 }
        let highest = max(values.max() ?? 1, targetTop ?? 0)
        let high = highest * 1.12  // headroom above the tallest bar or the target
        let low = 0.0
        func y(_ value: Double) -> Double { p.y + p.height * (1 - (value - low) / (high - low)) }
        yAxis(&canvas, low: low, high: high, format: statistics.formatRangeOfMotion)
        if let target = exercise.targetRange {
            let top = min(target.upperBound, high)  // an open-ended target is shaded to the top
            canvas.rect(
                x: p.x,
                y: y(top),
                width: p.width,
                height: y(target.lowerBound) - y(top),
                fill: ReportStyle.good.withAlpha(0.14)
            )
            canvas.line(
                x1: p.x,
                y1: y(target.lowerBound),
                x2: p.x + p.width,
                y2: y(target.lowerBound),
                stroke: ReportStyle.good,
                width: 1,
                dashed: true
            )
            // Above the plot, at its right end: inside it, the label sat on the tallest bar's value when that
            // was the last repetition ("target ≥ 100 %" over "149 %").
            canvas.text(
                "target \(statistics.targetText ?? "")",
                x: p.x + p.width,
                y: p.y - font * 0.4,
                size: font,
                color: ReportStyle.good,
                anchor: .end,
                bold: true
            )
        }
        let slot = p.width / Double(reps.count)
        let barWidth = min(slot * 0.64, font * 4)
        for (i, rep) in reps.enumerated() {
            let value = statistics.shownRangeOfMotion(rep) ?? 0
            let centre = p.x + slot * (Double(i) + 0.5)
            let status = ExerciseStatistics.status(of: rep, in: exercise)
            canvas.rect(
                x: centre - barWidth / 2,
                y: y(value),
                width: barWidth,
                height: y(0) - y(value),
                fill: status.color,
                radius: min(3, barWidth / 4)
            )
            if reps.count <= 24 {
                canvas.text(
                    statistics.formatRangeOfMotion(value),
                    x: centre,
                    y: y(value) - font * 0.4,
                    size: font * 0.9,
                    color: ReportStyle.ink,
                    anchor: .middle,
                    bold: false
                )
            }
            if reps.count <= 40 || rep.index % 5 == 0 {
                xTickLabel("\(rep.index)", x: centre, &canvas)
            }
        }
        xAxisTitle("repetition", &canvas)
    }

    // MARK: - Angle over time

    /// The measured angle against time, repetitions shaded, issue moments marked on the time axis.
    func angleOverTime(_ canvas: inout some ChartCanvas) {
        let series = exercise.angleSeries
        guard series.count >= 2 else { return empty(&canvas, "No angle measurements") }
        let p = plot
        let end = max(statistics.durationSeconds, series.last!.seconds)
        let start = min(0, series.first!.seconds)
        var low = series.map(\.degrees).min()!
        var high = series.map(\.degrees).max()!
        if let target = exercise.targetDegrees {
            low = min(low, target.lowerBound)
            high = max(high, target.upperBound)
        }
        if let limit = exercise.limitDegrees { high = max(high, limit) }
        let pad = max(5, (high - low) * 0.08)
        low = max(0, floor((low - pad) / 10) * 10)
        high = ceil((high + pad) / 10) * 10
        func x(_ t: Double) -> Double { p.x + p.width * (t - start) / max(1e-9, end - start) }
        func y(_ d: Double) -> Double { p.y + p.height * (1 - (d - low) / (high - low)) }
        yAxis(&canvas, low: low, high: high) { HTMLText.number($0) + "°" }
        if let target = exercise.targetDegrees {
            canvas.rect(
                x: p.x,
                y: y(target.upperBound),
                width: p.width,
                height: y(target.lowerBound) - y(target.upperBound),
                fill: ReportStyle.good.withAlpha(0.12)
            )
        }
        if let limit = exercise.limitDegrees {
            canvas.line(x1: p.x, y1: y(limit), x2: p.x + p.width, y2: y(limit), stroke: ReportStyle.danger, width: 1.5)
            canvas.text(
                "stop past \(HTMLText.number(limit))°",
                x: p.x + p.width - font * 0.3,
                y: y(limit) - font * 0.35,
                size: font,
                color: ReportStyle.danger,
                anchor: .end,
                bold: true
            )
        }
        repetitionBands(&canvas, x: x)
        angleLine(series, &canvas, x: x, y: y)
        for event in exercise.events {
            canvas.circle(
                x: x(event.seconds),
                y: p.y + p.height,
                radius: font * 0.35,
                fill: event.isSafety ? ReportStyle.danger : ReportStyle.caution
            )
        }
        let ticks = Self.ticks(start, end, count: 8)
        for (tick, label) in zip(ticks, HTMLText.clockTicks(ticks)) {
            xTickLabel(label, x: x(tick), &canvas)
        }
        xAxisTitle("time (min:s) — \(exercise.angleName.midSentence), repetitions numbered", &canvas)
    }

    /// Each repetition shaded by its status, its start dashed, its number above (every fifth past 30 repetitions).
    private func repetitionBands(_ canvas: inout some ChartCanvas, x: (Double) -> Double) {
        let p = plot
        for (i, rep) in exercise.repetitions.enumerated() {
            let status = ExerciseStatistics.status(of: rep, in: exercise)
            canvas.rect(
                x: x(rep.startSeconds),
                y: p.y,
                width: x(rep.endSeconds) - x(rep.startSeconds),
                height: p.height,
                fill: status.color.withAlpha(i % 2 == 0 ? 0.07 : 0.11)
            )
            canvas.line(
                x1: x(rep.startSeconds),
                y1: p.y,
                x2: x(rep.startSeconds),
                y2: p.y + p.height,
                stroke: ReportStyle.muted.withAlpha(0.6),
                width: 0.8,
                dashed: true
            )
            if exercise.repetitions.count <= 30 || rep.index % 5 == 0 {
                canvas.text(
                    "\(rep.index)",
                    x: (x(rep.startSeconds) + x(rep.endSeconds)) / 2,
                    y: p.y - font * 0.4,
                    size: font * 0.9,
                    color: status.color,
                    anchor: .middle,
                    bold: true
                )
            }
        }
    }

    /// The angle's line, thinned to about two points per unit of width.
    private func angleLine(
        _ series: [ReportInput.AngleSample],
        _ canvas: inout some ChartCanvas,
        x: (Double) -> Double,
        y: (Double) -> Double
    ) {
        let p = plot
        // Thin the line to about two points per unit of width; break it where the angle was not measured
        // for a while (nobody in the picture, another exercise), rather than draw a made-up ramp across.
        let step = max(1, series.count / Int(max(50, p.width * 2)))
        let frameSeconds = (series.last!.seconds - series.first!.seconds) / Double(series.count - 1)
        let gap = max(0.5, 4 * Double(step) * frameSeconds)
        var points: [(x: Double, y: Double)] = []
        points.reserveCapacity(series.count / step + 1)
        var last: Double?
        for index in stride(from: 0, to: series.count, by: step) {
            let sample = series[index]
            if let last, sample.seconds - last > gap {
                canvas.polyline(points, stroke: ReportStyle.series, width: 1.6)
                points.removeAll(keepingCapacity: true)
            }
            points.append((x(sample.seconds), y(sample.degrees)))
            last = sample.seconds
        }
        canvas.polyline(points, stroke: ReportStyle.series, width: 1.6)
    }

    // MARK: - Tempo

    /// Lowering and lifting seconds per repetition, side by side.
    func tempo(_ canvas: inout some ChartCanvas) {
        let reps = exercise.repetitions.filter { $0.tempoUpSeconds != nil || $0.tempoDownSeconds != nil }
        guard !reps.isEmpty else { return empty(&canvas, "No tempo measurements") }
        let p = plot
        let high = max(1, reps.map { max($0.tempoUpSeconds ?? 0, $0.tempoDownSeconds ?? 0) }.max()! * 1.15)
        func y(_ value: Double) -> Double { p.y + p.height * (1 - value / high) }
        yAxis(&canvas, low: 0, high: high) {
            HTMLText.number($0, decimals: $0 < 10 && $0 != $0.rounded() ? 1 : 0) + " s"
        }
        let slot = p.width / Double(reps.count)
        let barWidth = min(slot * 0.36, font * 2.2)
        for (i, rep) in reps.enumerated() {
            let centre = p.x + slot * (Double(i) + 0.5)
            if let down = rep.tempoDownSeconds {
                canvas.rect(
                    x: centre - barWidth,
                    y: y(down),
                    width: barWidth,
                    height: y(0) - y(down),
                    fill: ReportStyle.lowering
                )
            }
            if let up = rep.tempoUpSeconds {
                canvas.rect(x: centre, y: y(up), width: barWidth, height: y(0) - y(up), fill: ReportStyle.lifting)
            }
            if reps.count <= 40 || rep.index % 5 == 0 {
                xTickLabel("\(rep.index)", x: centre, &canvas)
            }
        }
        // Legend.
        let legendY = p.y - font * 0.6
        canvas.rect(x: p.x, y: legendY - font * 0.8, width: font * 0.9, height: font * 0.9, fill: ReportStyle.lowering)
        canvas.text("lowering", x: p.x + font * 1.2, y: legendY, size: font, color: ReportStyle.ink)
        canvas.rect(
            x: p.x + font * 7,
            y: legendY - font * 0.8,
            width: font * 0.9,
            height: font * 0.9,
            fill: ReportStyle.lifting
        )
        canvas.text("lifting", x: p.x + font * 8.2, y: legendY, size: font, color: ReportStyle.ink)
        xAxisTitle("repetition", &canvas)
    }

    // MARK: - Form issues

    /// `text` as it fits in `width` at `advance` per character: whole, or cut with "…".
    static func fitted(_ text: String, width: Double, advance: Double) -> String {
        let fits = max(2, Int(width / advance))
        return text.count <= fits ? text : String(text.prefix(fits - 1)) + "…"
    }

    /// Issue moments on a time line, under the repetitions.
    func issueTimeline(_ canvas: inout some ChartCanvas) {
        let end = max(1, statistics.durationSeconds)
        let left = font * 1.0
        let right = width - font * 1.0
        let axisY = font * 3.2
        func x(_ t: Double) -> Double { left + (right - left) * t / end }
        canvas.line(x1: left, y1: axisY, x2: right, y2: axisY, stroke: ReportStyle.muted, width: 1)
        for rep in exercise.repetitions {
            let status = ExerciseStatistics.status(of: rep, in: exercise)
            canvas.rect(
                x: x(rep.startSeconds),
                y: axisY - font * 1.6,
                width: max(1, x(rep.endSeconds) - x(rep.startSeconds) - 1),
                height: font * 1.2,
                fill: status.color.withAlpha(0.35),
                radius: 2
            )
        }
        let ticks = Self.ticks(0, end, count: 8)
        for (tick, label) in zip(ticks, HTMLText.clockTicks(ticks)) {
            canvas.line(
                x1: x(tick),
                y1: axisY,
                x2: x(tick),
                y2: axisY + font * 0.4,
                stroke: ReportStyle.muted,
                width: 1
            )
            canvas.text(
                label,
                x: x(tick),
                y: axisY + font * 1.4,
                size: font * 0.9,
                color: ReportStyle.muted,
                anchor: .middle,
                bold: false
            )
        }
        guard !exercise.events.isEmpty else {
            let notChecked = statistics.formNotChecked
            canvas.text(
                notChecked ? "F" + statistics.formNotCheckedText.dropFirst() : "No form issues recorded",
                x: width / 2,
                y: axisY + font * 4,
                size: font * 1.1,
                color: notChecked ? ReportStyle.muted : ReportStyle.good,
                anchor: .middle,
                bold: true
            )
            return
        }
        // Labels in rows under the axis; a label goes to the first row where it does not overlap.
        let rowHeight = font * 1.5
        let maxRows = max(1, Int((height - axisY - font * 2.4) / rowHeight))
        var rowEnds = [Double](repeating: -.infinity, count: maxRows)
        var hidden = 0
        for event in exercise.events.sorted(by: { $0.seconds < $1.seconds }) {
            let color = event.isSafety ? ReportStyle.danger : ReportStyle.caution
            let px = x(event.seconds)
            canvas.circle(x: px, y: axisY, radius: font * 0.4, fill: color)
            // A label wider than the chart is cut with "…" at its end: placed from its start, it would lose its
            // beginning past the left edge ("p your body in a straight line…").
            let label = Self.fitted(
                "\(HTMLText.clock(event.seconds, tenths: true)) \(event.text)",
                width: right - left,
                advance: font * 0.56
            )
            let labelWidth = Double(label.count) * font * 0.56
            let startX = max(left, min(px - font * 0.3, right - labelWidth))
            guard let row = rowEnds.firstIndex(where: { $0 < startX }) else {
                hidden += 1
                continue
            }
            rowEnds[row] = startX + labelWidth + font
            let labelY = axisY + font * 2.4 + Double(row) * rowHeight + font
            canvas.line(x1: px, y1: axisY, x2: px, y2: labelY - font * 0.9, stroke: color.withAlpha(0.5), width: 0.8)
            canvas.text(
                label,
                x: startX,
                y: labelY,
                size: font * 0.9,
                color: color,
                anchor: .start,
                bold: event.isSafety
            )
        }
        if hidden > 0 {
            canvas.text(
                "+\(hidden) more (see the table)",
                x: right,
                y: height - font * 0.2,
                size: font * 0.9,
                color: ReportStyle.muted,
                anchor: .end,
                bold: false
            )
        }
    }
}

extension String {
    /// The name as it reads inside a sentence: its first letter lowercased, unless the first word is an
    /// abbreviation ("Knee flexion" → "knee flexion", "Index finger flexion (MCP+PIP+DIP)" keeps "MCP+PIP+DIP",
    /// "TAM" stays).
    var midSentence: String {
        guard let first = first, first.isUppercase else { return self }
        let second = dropFirst().first
        if let second, second.isUppercase { return self }
        return first.lowercased() + dropFirst()
    }
}

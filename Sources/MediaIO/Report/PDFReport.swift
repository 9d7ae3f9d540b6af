import CCairo
import PoseKit

/// Draws a ``ReportInput`` on A4 pages through Cairo's PDF surface: the same numbers, charts, table
/// and stills as the HTML report, laid out for printing.
struct PDFReport {
    let input: ReportInput

    static let pageWidth = 595.28
    static let pageHeight = 841.89
    static let margin = 42.0

    final class Page {
        let cr: OpaquePointer
        let canvas: CairoCanvas
        var y = PDFReport.margin
        var number = 1
        let title: String

        init(cr: OpaquePointer, title: String) {
            self.cr = cr
            canvas = CairoCanvas(cr)
            self.title = title
        }

        var contentWidth: Double { PDFReport.pageWidth - 2 * PDFReport.margin }

        /// Starts a new page unless `height` more points fit on this one.
        func ensure(_ height: Double) {
            if y + height > PDFReport.pageHeight - PDFReport.margin - 14 { newPage() }
        }

        func newPage() {
            finishPage()
            cairo_show_page(cr)
            number += 1
            y = PDFReport.margin
        }

        /// The footer: report title and page number.
        func finishPage() {
            canvas.setFont(size: 7.5)
            canvas.setColor(ReportStyle.muted)
            let footerY = PDFReport.pageHeight - PDFReport.margin / 2
            canvas.drawText(title, x: PDFReport.margin, y: footerY)
            canvas.drawText(
                "Page \(number)",
                x: PDFReport.pageWidth - PDFReport.margin,
                y: footerY,
                alignment: .trailing
            )
        }
    }

    /// Writes the PDF to `path` (which must be writable); returns the number of pages.
    func write(to path: String) throws(MediaIOError) -> Int {
        let surface = cairo_pdf_surface_create(path, Self.pageWidth, Self.pageHeight)
        guard let surface, cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            if let surface { cairo_surface_destroy(surface) }
            throw MediaIOError(.io, "Cairo cannot create the PDF file", file: path)
        }
        let cr = cairo_create(surface)!
        let page = Page(cr: cr, title: input.title)
        draw(on: page)
        page.finishPage()
        cairo_show_page(cr)
        cairo_destroy(cr)
        cairo_surface_finish(surface)
        let status = cairo_surface_status(surface)
        cairo_surface_destroy(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw MediaIOError(
                .io,
                "Cairo failed writing the PDF (\(String(cString: cairo_status_to_string(status))))",
                file: path
            )
        }
        return page.number
    }

    private func draw(on page: Page) {
        let canvas = page.canvas
        let left = Self.margin
        canvas.setFont(size: 20, bold: true)
        canvas.setColor(ReportStyle.ink)
        for (index, line) in canvas.wrap(input.title, width: page.contentWidth).enumerated() {
            page.y += index == 0 ? 20 : 24
            canvas.drawText(line, x: left, y: page.y)
        }
        if let subtitle = input.subtitle {
            canvas.setFont(size: 10)
            canvas.setColor(ReportStyle.muted)
            page.y += 16
            canvas.drawText(subtitle, x: left, y: page.y)
        }
        page.y += 18
        if input.exercises.isEmpty {
            canvas.setFont(size: 12)
            canvas.setColor(ReportStyle.ink)
            canvas.drawText("No exercise was recognised in this session.", x: left, y: page.y + 14)
        }
        let summarised = drawOverview(on: page)
        for (index, exercise) in input.exercises.enumerated() {
            if index > 0 || summarised { page.newPage() }
            drawExercise(ExerciseStatistics(exercise), on: page)
        }
    }

    private func drawExercise(_ stats: ExerciseStatistics, on page: Page) {
        drawHeading(stats, on: page)
        drawCards(summaryCards(stats), on: page)
        drawCharts(stats, on: page)
        drawTable(stats, on: page)
        drawStills(stats.exercise.stills, on: page)
    }

    /// The exercise's name, its headline and the prescription it followed.
    private func drawHeading(_ stats: ExerciseStatistics, on page: Page) {
        let canvas = page.canvas
        let exercise = stats.exercise
        let left = Self.margin
        let width = page.contentWidth
        page.ensure(120)
        canvas.setFont(size: 16, bold: true)
        canvas.setColor(ReportStyle.ink)
        page.y += 18
        canvas.drawText(exercise.name, x: left, y: page.y)
        canvas.setFont(size: 11)
        for line in canvas.wrap(stats.headline, width: width) {
            page.y += 15
            canvas.drawText(line, x: left, y: page.y)
        }
        if let prescription = exercise.prescriptionText {
            canvas.setColor(ReportStyle.muted)
            for line in canvas.wrap(prescription, width: width) {
                page.y += 15
                canvas.drawText(line, x: left, y: page.y)
            }
            canvas.setColor(ReportStyle.ink)
        }
        page.y += 10
    }

    /// A summary card: its title, value, note and status (the colour of its edge).
    private typealias Card = (title: String, value: String, note: String, status: ReportStatus)

    /// The summary cards: repetitions, range, tempo, form issues, safety warnings, the longest hold.
    private func summaryCards(_ stats: ExerciseStatistics) -> [Card] {
        let exercise = stats.exercise
        // Summary cards, three to a row.
        var cards: [Card] = []
        let reps = exercise.prescribedReps.map { "\(stats.repsDone) / \($0)" } ?? "\(stats.repsDone)"
        if !exercise.isHold {  // a hold has no repetitions: its card is the time held (below)
            cards.append(
                (
                    "REPETITIONS", reps, exercise.prescribedReps == nil ? "done" : "done / prescribed",
                    stats.repCountStatus
                )
            )
        }
        if let note = stats.inTargetNote, stats.repsMeasured > 0 {
            cards.append(
                (
                    "IN TARGET RANGE", "\(stats.repsInTarget) / \(stats.repsMeasured)", note,
                    stats.repsInTarget == stats.repsMeasured ? .within : .short
                )
            )
        }
        if let mean = stats.meanRangeOfMotion {
            let status: ReportStatus =
                exercise.targetRange.map { mean < $0.lowerBound ? .short : mean > $0.upperBound ? .beyond : .within }
                ?? .unknown
            cards.append(
                ("AVERAGE RANGE OF MOTION", stats.formatRangeOfMotion(mean), exercise.angleName.midSentence, status)
            )
        }
        if stats.meanTempoDown != nil || stats.meanTempoUp != nil {
            let down = stats.meanTempoDown.map { HTMLText.number($0, decimals: 1) } ?? "–"
            let up = stats.meanTempoUp.map { HTMLText.number($0, decimals: 1) } ?? "–"
            cards.append(("AVERAGE TEMPO", "\(down) / \(up) s", stats.tempoNote, stats.tempoStatus))
        }
        cards.append(
            ("FORM ISSUES", stats.formIssuesCard.value, stats.formIssuesCard.note, stats.formIssuesCard.status)
        )
        cards.append(
            (
                "SAFETY WARNINGS", "\(stats.safetyCount)", stats.safetyCount == 0 ? "none" : "see timeline",
                stats.safetyCount == 0 ? .within : .unsafe
            )
        )
        if !exercise.holdSeconds.isEmpty || exercise.isHold {
            let longest = exercise.holdSeconds.max() ?? 0
            let status: ReportStatus = exercise.holdTargetSeconds.map { longest >= $0 ? .within : .short } ?? .unknown
            cards.append(
                (
                    "LONGEST HOLD", "\(HTMLText.number(longest, decimals: 1)) s",
                    exercise.holdTargetSeconds.map { "target \(HTMLText.number($0)) s" } ?? "longest hold", status
                )
            )
        }
        return cards
    }

    /// The summary cards, three to a row.
    private func drawCards(_ cards: [Card], on page: Page) {
        let canvas = page.canvas
        let left = Self.margin
        let width = page.contentWidth
        let gap = 8.0
        let cardWidth = (width - 2 * gap) / 3
        let cardHeight = 50.0
        for (index, card) in cards.enumerated() {
            if index % 3 == 0 {
                if index > 0 { page.y += cardHeight + gap }
                page.ensure(cardHeight)
            }
            let x = left + Double(index % 3) * (cardWidth + gap)
            canvas.fillRoundedRectangle(
                x: x,
                y: page.y,
                width: cardWidth,
                height: cardHeight,
                radius: 5,
                color: ReportStyle.panel
            )
            canvas.fillRoundedRectangle(x: x, y: page.y, width: 4, height: cardHeight, radius: 2, color: card.3.color)
            canvas.setFont(size: 6.5, bold: true)
            canvas.setColor(ReportStyle.muted)
            canvas.drawText(card.0, x: x + 12, y: page.y + 12)
            canvas.setFont(size: 16, bold: true)
            canvas.setColor(ReportStyle.ink)
            canvas.drawText(card.1, x: x + 12, y: page.y + 31)
            canvas.setFont(size: 7)
            canvas.setColor(ReportStyle.muted)
            canvas.drawText(card.2, x: x + 12, y: page.y + 43)
        }
        page.y += cardHeight + 14
    }

    /// The charts: range of motion and tempo per repetition, the angle (and any further series) over time, the form
    /// issues' timeline.
    private func drawCharts(_ stats: ExerciseStatistics, on page: Page) {
        let canvas = page.canvas
        let exercise = stats.exercise
        let left = Self.margin
        let width = page.contentWidth
        func chart(
            _ title: String,
            width: Double,
            height: Double,
            x: Double? = nil,
            advance: Bool = true,
            draw: (ReportCharts, inout CairoChartCanvas) -> Void
        ) {
            if advance { page.ensure(height + 22) }
            let originX = x ?? left
            canvas.setFont(size: 10.5, bold: true)
            canvas.setColor(ReportStyle.ink)
            canvas.drawText(title, x: originX, y: page.y + 12)
            cairo_save(page.cr)
            cairo_translate(page.cr, originX, page.y + 18)
            var chartCanvas = CairoChartCanvas(canvas)
            draw(ReportCharts(statistics: stats, width: width, height: height, font: 7.5), &chartCanvas)
            cairo_restore(page.cr)
            if advance { page.y += height + 28 }
        }
        if !exercise.isHold {
            chart("Range of motion per repetition", width: width, height: 170) { $0.rangeOfMotion(&$1) }
        }
        chart("\(exercise.angleName) over time", width: width, height: 170) { $0.angleOverTime(&$1) }
        for series in exercise.moreSeries {
            let part = ExerciseStatistics(exercise.charting(series))
            page.ensure(130 + 22)
            canvas.setFont(size: 10.5, bold: true)
            canvas.setColor(ReportStyle.ink)
            canvas.drawText("\(series.name) over time", x: left, y: page.y + 12)
            cairo_save(page.cr)
            cairo_translate(page.cr, left, page.y + 18)
            var chartCanvas = CairoChartCanvas(canvas)
            ReportCharts(statistics: part, width: width, height: 130, font: 7.5).angleOverTime(&chartCanvas)
            cairo_restore(page.cr)
            page.y += 130 + 28
        }
        let half = (width - 16) / 2
        page.ensure(170 + 22)
        if !exercise.isHold {
            chart("Tempo per repetition", width: half, height: 160, x: left, advance: false) { $0.tempo(&$1) }
        }
        let issuesX = exercise.isHold ? left : left + half + 16
        chart("Form issues", width: half, height: 160, x: issuesX, advance: false) { $0.issueTimeline(&$1) }
        page.y += 160 + 28
    }

    private func drawTable(_ stats: ExerciseStatistics, on page: Page) {
        let exercise = stats.exercise
        guard !exercise.repetitions.isEmpty else { return }
        let canvas = page.canvas
        let left = Self.margin
        let columns: [(String, Double)] = [
            ("#", 0), ("Time", 22), ("Peak", 92), ("ROM", 140), ("Lower", 188), ("Lift", 226), ("Held", 264),
            ("Result", 302), ("Notes", 372),
        ]
        // The result pill and the notes sit in the last two columns.
        let resultX = columns[columns.count - 2].1
        let notesX = columns[columns.count - 1].1
        let pillWidth = 58.0
        let rowHeight = 15.0
        func header() { drawTableHeader("Repetitions", columns.map { ($0.0, left + $0.1) }, on: page) }
        page.ensure(34 + rowHeight * 2)
        header()
        for rep in exercise.repetitions {
            if page.y + rowHeight > Self.pageHeight - Self.margin - 14 {
                page.newPage()
                header()
            }
            let status = ExerciseStatistics.status(of: rep, in: exercise)
            let cells = [
                "\(rep.index)",
                "\(HTMLText.span(rep.startSeconds, rep.endSeconds))",
                rep.peakDegrees.map { HTMLText.number($0) + "°" } ?? "–",
                stats.rangeOfMotionCell(rep),
                ExerciseStatistics.secondsText(rep.tempoDownSeconds),
                ExerciseStatistics.secondsText(rep.tempoUpSeconds),
                ExerciseStatistics.heldText(rep),
            ]
            canvas.setFont(size: 8)
            canvas.setColor(ReportStyle.ink)
            for (cell, column) in zip(cells, columns) { canvas.drawText(cell, x: left + column.1, y: page.y + 10.5) }
            canvas.fillRoundedRectangle(
                x: left + resultX,
                y: page.y + 2.5,
                width: pillWidth,
                height: 10.5,
                radius: 5,
                color: status.color
            )
            canvas.setFont(size: 7, bold: true)
            canvas.setColor(.text)
            canvas.drawText(status.label, x: left + resultX + pillWidth / 2, y: page.y + 10.3, alignment: .center)
            canvas.setFont(size: 7.5)
            canvas.setColor(ReportStyle.ink)
            var notes = rep.issues.joined(separator: "; ")
            let notesWidth = page.contentWidth - notesX
            while !notes.isEmpty && canvas.textWidth(notes) > notesWidth { notes = String(notes.dropLast(2)) + "…" }
            canvas.drawText(notes, x: left + notesX, y: page.y + 10.5)
            page.y += rowHeight
            canvas.strokeLine(
                x1: left,
                y1: page.y,
                x2: left + page.contentWidth,
                y2: page.y,
                width: 0.5,
                color: ReportStyle.grid
            )
        }
        page.y += 16
    }

    /// A table's title, its column names at their x positions and the rule under them; `page.y` moves past them.
    func drawTableHeader(_ title: String, _ columns: [(name: String, x: Double)], on page: Page) {
        let canvas = page.canvas
        let left = Self.margin
        canvas.setFont(size: 10.5, bold: true)
        canvas.setColor(ReportStyle.ink)
        canvas.drawText(title, x: left, y: page.y + 12)
        page.y += 20
        canvas.setFont(size: 7.5, bold: true)
        canvas.setColor(ReportStyle.muted)
        for (name, x) in columns { canvas.drawText(name, x: x, y: page.y + 10) }
        page.y += 14
        canvas.strokeLine(
            x1: left,
            y1: page.y,
            x2: left + page.contentWidth,
            y2: page.y,
            width: 1,
            color: ReportStyle.grid
        )
    }

    private func drawStills(_ stills: [ReportInput.Still], on page: Page) {
        guard !stills.isEmpty else { return }
        let canvas = page.canvas
        let gap = 16.0
        let width = (page.contentWidth - gap) / 2
        for pairStart in stride(from: 0, to: stills.count, by: 2) {
            let pair = stills[pairStart..<min(stills.count, pairStart + 2)]
            let height = pair.map { width * Double($0.image.height) / Double($0.image.width) }.max() ?? 0
            page.ensure(height + 24)
            for (offset, still) in pair.enumerated() {
                let x = Self.margin + Double(offset) * (width + gap)
                let source = CairoImageSurface(width: still.image.width, height: still.image.height)
                source.load(from: still.image)
                let scale = width / Double(still.image.width)
                cairo_save(page.cr)
                canvas.roundedRectangle(
                    x: x,
                    y: page.y,
                    width: width,
                    height: Double(still.image.height) * scale,
                    radius: 6
                )
                cairo_clip(page.cr)
                cairo_translate(page.cr, x, page.y)
                cairo_scale(page.cr, scale, scale)
                cairo_set_source_surface(page.cr, source.surface, 0, 0)
                cairo_pattern_set_filter(cairo_get_source(page.cr), CAIRO_FILTER_GOOD)
                cairo_paint(page.cr)
                cairo_restore(page.cr)
                canvas.setFont(size: 8.5)
                canvas.setColor(ReportStyle.muted)
                let rep = still.repetition.map { " (repetition \($0))" } ?? ""
                canvas.drawText(still.caption + rep, x: x, y: page.y + height + 12)
            }
            page.y += height + 24
        }
    }
}

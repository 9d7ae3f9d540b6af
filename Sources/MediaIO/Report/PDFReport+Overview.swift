extension PDFReport {
    /// Draws the clinical summary of several sets (its lines, then its tables, a header again on each new page);
    /// returns whether there was one.
    func drawOverview(on page: Page) -> Bool {
        guard !input.overviewLines.isEmpty || !input.overviewTables.isEmpty else { return false }
        let canvas = page.canvas
        let left = Self.margin
        canvas.setFont(size: 16, bold: true)
        canvas.setColor(ReportStyle.ink)
        page.y += 18
        canvas.drawText("Summary", x: left, y: page.y)
        canvas.setFont(size: 10.5)
        for line in input.overviewLines {
            for wrapped in canvas.wrap(line, width: page.contentWidth) {
                page.ensure(16)
                page.y += 15
                canvas.drawText(wrapped, x: left, y: page.y)
            }
        }
        page.y += 12
        for table in input.overviewTables { drawTable(table, on: page) }
        return true
    }

    /// One table: columns as wide as their longest text needs (shared out over the page), text cut with "…".
    private func drawTable(_ table: ReportInput.Table, on page: Page) {
        let canvas = page.canvas
        let left = Self.margin
        let rowHeight = 14.0
        canvas.setFont(size: 8)
        let needed = table.header.indices.map { column in
            ([table.header[column]] + table.rows.map { column < $0.count ? $0[column] : "" })
                .map { canvas.textWidth($0) }.max() ?? 10
        }
        let total = max(1, needed.reduce(0, +))
        let widths = needed.map { page.contentWidth * $0 / total }
        let starts = widths.indices.map { left + widths[..<$0].reduce(0, +) }
        func header() { drawTableHeader(table.title, Array(zip(table.header, starts)), on: page) }
        page.ensure(34 + rowHeight * 2)
        header()
        for row in table.rows {
            if page.y + rowHeight > Self.pageHeight - Self.margin - 14 {
                page.newPage()
                header()
            }
            canvas.setFont(size: 8)
            canvas.setColor(ReportStyle.ink)
            for (column, cell) in row.enumerated() where column < widths.count {
                var text = cell
                while text.count > 1 && canvas.textWidth(text) > widths[column] - 4 {
                    text = String(text.dropLast(2)) + "…"
                }
                canvas.drawText(text, x: starts[column], y: page.y + 10.5)
            }
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
}

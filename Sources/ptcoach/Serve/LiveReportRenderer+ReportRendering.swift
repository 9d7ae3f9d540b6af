import CoachAnalysis
public import CoachServer

/// The server's report port, written by the same report writers as `ptcoach analyze --report`.
extension LiveReportRenderer: ReportRendering {}

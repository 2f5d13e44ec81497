import Terminal
import Testing

/// Expects `region` of `canvas` (the whole canvas by default) to show `expected`, row for row, and
/// records a test issue with a readable diff when it does not. Trailing spaces do not count, and
/// rows missing at the end of `expected` must be blank.
///
/// ```swift
/// expectScreen(canvas, in: Rect(x: 0, y: 0, width: 20, height: 2), toShow: """
///     Count: 1
///     [ Increment ]
///     """)
/// ```
@discardableResult
public func expectScreen(_ canvas: Canvas, in region: Rect? = nil, toShow expected: String,
                         sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
    let rect = region ?? canvas.bounds
    let diff = ScreenDiff(expected: expected, actual: canvas.lines(in: rect), region: rect)
    if !diff.matches {
        Issue.record("The screen is not what was expected:\n\(diff.report)", sourceLocation: sourceLocation)
    }
    return diff.matches
}

/// Expects `region` of `canvas` (the whole canvas by default) to match the golden screen `name`
/// kept beside the test file (see `GoldenScreen`). With `RECORD_SNAPSHOTS=1` the screen is written
/// instead, and the test fails so that the recording is looked at before it counts.
///
/// ```swift
/// expectScreen(canvas, matchesGolden: "gallery-inputs")
/// ```
@discardableResult
public func expectScreen(_ canvas: Canvas, in region: Rect? = nil, matchesGolden name: String,
                         sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
    let rect = region ?? canvas.bounds
    let rows = canvas.lines(in: rect)
    let golden = GoldenScreen(name: name, testFilePath: sourceLocation.filePath)
    let outcome = golden.check(rows, region: rect)
    if let message = golden.message(for: outcome, rows: rows) {
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }
    return outcome == .matches
}

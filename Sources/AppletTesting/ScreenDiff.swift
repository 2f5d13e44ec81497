import Terminal

/// A region of a screen compared row by row with what a test expected, and a report a person can
/// read when they differ.
///
/// Rows are compared as text with trailing spaces trimmed on both sides; an expected text with
/// fewer rows than the region expects the missing rows to be blank.
///
/// ```swift
/// let diff = ScreenDiff(expected: " Count: 1", actual: canvas.lines(in: rect), region: rect)
/// if !diff.matches { print(diff.report) }
/// //  rows 2..<3, columns 0..<40: 1 of 1 row differs (- expected, + actual)
/// //   2 -| Count: 1
/// //   2 +| Count: 2
/// //      |        ^ column 8
/// ```
public struct ScreenDiff: Sendable, Equatable {
    /// The part of the screen compared.
    public let region: Rect
    /// The expected rows, padded with blank rows to the region's height.
    public let expected: [String]
    /// The rows on screen.
    public let actual: [String]

    public init(expected: String, actual: [String], region: Rect) {
        self.init(expected: Self.rows(of: expected), actual: actual, region: region)
    }

    public init(expected: [String], actual: [String], region: Rect) {
        let count = max(region.height, actual.count)
        self.region = region
        self.expected = (expected.map(Self.trimmed) + Array(repeating: "", count: max(0, count - expected.count)))
        self.actual = actual.map(Self.trimmed) + Array(repeating: "", count: max(0, count - actual.count))
    }

    /// Whether every row matches (expected rows beyond the region count as a difference).
    public var matches: Bool { expected == actual }

    /// The indexes (into the region) of the rows that differ.
    public var differingRows: [Int] { expected.indices.filter { $0 >= actual.count || expected[$0] != actual[$0] } }

    /// Every row of the region, unchanged ones once and changed ones as an expected/actual pair with a
    /// caret under the first column that differs.
    public var report: String {
        let changed = differingRows
        var out = "rows \(region.minY)..<\(region.maxY), columns \(region.minX)..<\(region.maxX): "
        out += changed.isEmpty ? "the same\n" : "\(changed.count) of \(expected.count) row\(expected.count == 1 ? "" : "s") differ\(changed.count == 1 ? "s" : "") (- expected, + actual)\n"
        let numberWidth = String(region.minY + expected.count).count
        func number(_ i: Int) -> String {
            let n = String(region.minY + i)
            return String(repeating: " ", count: numberWidth - n.count) + n
        }
        let gutter = String(repeating: " ", count: numberWidth)
        for i in expected.indices {
            let want = expected[i]
            let got = i < actual.count ? actual[i] : ""
            if want == got {
                out += " \(number(i))  |\(got)\n"
            } else {
                out += " \(number(i)) -|\(want)\n"
                out += " \(number(i)) +|\(got)\n"
                let column = Self.firstDifference(want, got)
                out += " \(gutter)  |\(String(repeating: " ", count: column))^ column \(region.minX + column)\n"
            }
        }
        return out
    }

    /// The rows of a multi-line expectation; a single trailing newline does not add a row.
    static func rows(of text: String) -> [String] {
        var rows = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if rows.count > 1, rows.last == "" { rows.removeLast() }
        return rows
    }

    static func trimmed(_ row: String) -> String {
        var row = row
        while row.last == " " { row.removeLast() }
        return row
    }

    /// The first display column at which two rows differ.
    static func firstDifference(_ a: String, _ b: String) -> Int {
        var column = 0
        var ia = a.makeIterator(), ib = b.makeIterator()
        while true {
            let ca = ia.next(), cb = ib.next()
            if ca == nil && cb == nil { return column }
            guard let x = ca, let y = cb, x == y else { return column }
            column += String(x).terminalWidth
        }
    }
}

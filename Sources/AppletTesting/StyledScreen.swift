import Terminal
import Testing

/// A screen as text with its styles, for golden files that check how things look as well as
/// what they say: the rows of text, then a legend of the styles used (a letter each, in the order
/// they first appear, reading left to right and top down), then, for each row that is not all in
/// the terminal's default style, its runs of styles (`3: b11 a2 c40`: eleven cells in style b,
/// two in a, forty in c; the rest of the row in a).
///
/// ```
///  1 Counter │ 2 Dashboard
///
/// ── styles ──
/// a default
/// b fg=#5fd7ff bold reverse underline
/// c underline
/// ── runs ──
/// 0: b11 c14
/// ```
///
/// ```swift
/// expectScreen(host.screen, matchesStyledGolden: "counter-80x24-dark-256")
/// ```
public enum StyledScreen {
    /// The file's lines for `rect` of `canvas`.
    public static func lines(of canvas: Canvas, in rect: Rect? = nil) -> [String] {
        let rect = (rect ?? canvas.bounds).intersection(canvas.bounds)
        var lines = canvas.lines(in: rect).map(ScreenDiff.trimmed)
        var legend: [Style: Character] = [Style(): "a"]
        var order: [Style] = [Style()]
        var runs: [String] = []
        for y in rect.y..<rect.maxY {
            var row: [(Character, Int)] = []
            for x in rect.x..<rect.maxX {
                let style = canvas[x, y].style
                let letter: Character
                if let known = legend[style] {
                    letter = known
                } else {
                    letter = Self.letter(order.count)
                    legend[style] = letter
                    order.append(style)
                }
                if let last = row.last, last.0 == letter { row[row.count - 1].1 += 1 } else { row.append((letter, 1)) }
            }
            // The row's default tail is implied.
            if row.last?.0 == "a" { row.removeLast() }
            if !row.isEmpty { runs.append("\(y - rect.y): " + row.map { "\($0.0)\($0.1)" }.joined(separator: " ")) }
        }
        lines.append("── styles ──")
        lines += order.enumerated().map { "\(Self.letter($0.offset)) \(describe($0.element))" }
        lines.append("── runs ──")
        lines += runs
        return lines
    }

    /// Letters for styles: a–z, then A–Z, then numbered.
    private static func letter(_ index: Int) -> Character {
        let scalars = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        return index < scalars.count ? scalars[index] : Character(UnicodeScalar(0x3B1 + index - scalars.count) ?? "?")
    }

    /// A style in words: `fg=green bg=#264f78 bold reverse`, or `default`.
    public static func describe(_ style: Style) -> String {
        var parts: [String] = []
        if let fg = describe(style.foreground) { parts.append("fg=\(fg)") }
        if let bg = describe(style.background) { parts.append("bg=\(bg)") }
        let names: [(TextAttributes, String)] = [(.bold, "bold"), (.dim, "dim"), (.italic, "italic"), (.underline, "underline"),
                                                 (.reverse, "reverse"), (.blink, "blink")]
        for (attribute, name) in names where style.attributes.contains(attribute) { parts.append(name) }
        return parts.isEmpty ? "default" : parts.joined(separator: " ")
    }

    private static func describe(_ color: Color) -> String? {
        switch color.kind {
        case .default: return nil
        case .ansi(let ansi): return "\(ansi)"
        case .indexed(let index): return "@\(index)"
        case .rgb(let r, let g, let b): return "#" + [r, g, b].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        }
    }
}

/// Expects `region` of `canvas` (the whole canvas by default) to match the styled golden screen
/// `name` kept beside the test file (text and styles: see `StyledScreen`). With
/// `RECORD_SNAPSHOTS=1` it is written instead, and the test fails so the recording is looked at.
///
/// ```swift
/// expectScreen(host.screen, matchesStyledGolden: "help-80x24-light-8")
/// ```
@discardableResult
public func expectScreen(_ canvas: Canvas, in region: Rect? = nil, matchesStyledGolden name: String,
                         sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
    let lines = StyledScreen.lines(of: canvas, in: region)
    let golden = GoldenScreen(name: name, testFilePath: sourceLocation.filePath)
    let outcome = golden.check(lines, region: Rect(x: 0, y: 0, width: lines.map(\.count).max() ?? 0, height: lines.count))
    if let message = golden.message(for: outcome, rows: lines) {
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }
    return outcome == .matches
}

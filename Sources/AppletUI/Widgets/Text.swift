import AppletState
import Terminal

/// Text that wraps at word boundaries to the width it is given. A word longer than the width is
/// broken between grapheme clusters, never through a wide character. When the lines do not all
/// fit (in the height offered, or past `lineLimit`), the last visible line ends in `…`.
/// Explicit newlines start new lines.
///
/// ```swift
/// Text("Count: \(count)").bold().foregroundColor(.green)
/// Text(longDescription)                  // wraps
/// Text(path).lineLimit(1)                // one line, cut with …
/// Text("the docs").link("https://example.com/docs").underline()   // a link the terminal opens
/// ```
public struct Text: View {
    public typealias Body = Never
    let content: String
    var lineLimit: Int?
    var hyperlink: Hyperlink?

    public init(_ content: String) { self.content = content }

    /// At most `limit` lines (nil: as many as fit); `lineLimit(1)` never wraps.
    public func lineLimit(_ limit: Int?) -> Text {
        var copy = self
        copy.lineLimit = limit.map { max(1, $0) }
        return copy
    }

    /// Makes the text a link to `url`: on a terminal with OSC 8 hyperlinks the user opens it
    /// (Ctrl-click or a click, as the terminal decides); elsewhere, and on the headless screen,
    /// the text shows as it would without it. The look is the app's to choose (`.underline()`,
    /// `.themed(.accent)`). The address may come from anywhere: control characters are removed
    /// and other bytes outside ASCII percent-encoded (`Hyperlink.sanitized`); an address with
    /// nothing usable left, or longer than `Hyperlink.maximumLength`, links nowhere.
    ///
    /// ```swift
    /// Text("Release notes").link("https://example.com/releases/1.2").underline()
    /// ```
    public func link(_ url: String?) -> Text {
        var copy = self
        copy.hyperlink = url.flatMap(Hyperlink.init)
        return copy
    }

    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        let node = TextNode(content, style: context.style, lineLimit: lineLimit)
        node.hyperlink = hyperlink
        nodes.append(node)
    }
}

final class TextNode: Node {
    override var focusable: (any FocusableNode)? { nil }
    let content: String
    /// Set only for text with newlines; single-line text (the usual case) needs no arrays.
    let paragraphs: [Substring]?
    let style: Style
    let lineLimit: Int?
    /// What the text links to (`Text.link`): the cells it draws carry it.
    var hyperlink: Hyperlink?
    /// The widest paragraph: the text's ideal width.
    let width: Int
    private var wrapCache: (width: Int, lines: [Substring])?

    init(_ content: String, style: Style, lineLimit: Int?) {
        self.content = content
        self.style = style
        self.lineLimit = lineLimit
        // The usual text: printable ASCII, one column a byte, no newline. One pass over the bytes.
        if let asciiWidth = Self.printableASCIIWidth(content) {
            paragraphs = nil
            width = asciiWidth
            return
        }
        // Text of one-column scalars (`·`, `é`, `→`) has no newline and a width of its scalar count.
        if let simple = content.singleColumnScalarCount {
            paragraphs = nil
            width = simple
            return
        }
        // Scanning bytes first spares the grapheme walk for text without newlines.
        let mayHaveNewline = content.utf8.contains { (0x0A...0x0D).contains($0) || $0 == 0xC2 || $0 == 0xE2 }
        let split = mayHaveNewline ? content.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) : []
        paragraphs = split.count > 1 ? split : nil
        self.width = paragraphs.map { $0.reduce(0) { max($0, $1.terminalWidth) } } ?? (split.first.map { $0.terminalWidth } ?? content.terminalWidth)
    }

    /// The width of printable ASCII text (one column a byte), nil for anything else. Nonisolated,
    /// with the closure inside: a closure written in this main-actor class checks at run time that
    /// it runs on the main actor (about 200 instructions), and this runs once per text per frame.
    nonisolated private static func printableASCIIWidth(_ content: String) -> Int? {
        content.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
            for byte in bytes where byte < 0x20 || byte >= 0x7F { return nil }
            return bytes.count
        } ?? nil
    }

    /// One line that fits: measured and drawn as it is.
    private func fitsOnOneLine(_ available: Int) -> Bool { paragraphs == nil && width <= available }

    /// The lines at a width (cached: layout asks for the same width several times).
    func lines(at width: Int) -> [Substring] {
        if let cache = wrapCache, cache.width == width { return cache.lines }
        var result: [Substring] = []
        for paragraph in paragraphs ?? [content[...]] {
            if lineLimit == 1 || paragraph.terminalWidth <= width {
                result.append(paragraph)
            } else {
                result.append(contentsOf: Self.wrap(paragraph, width: width))
            }
            if let lineLimit, result.count > lineLimit { break }
        }
        wrapCache = (width, result)
        return result
    }

    /// Greedy word wrap; words wider than the line are broken by grapheme cluster.
    static func wrap(_ text: Substring, width: Int) -> [Substring] {
        guard width > 0 else { return [text] }
        var lines: [Substring] = []
        var lineStart = text.startIndex
        var lineWidth = 0
        var lastBreak: (index: String.Index, width: Int)?   // after the last space on the line
        var index = text.startIndex
        while index < text.endIndex {
            let ch = text[index]
            let w = ch.terminalWidth
            if ch == " " {
                lastBreak = (text.index(after: index), lineWidth + w)
            }
            if lineWidth + w > width, index > lineStart {
                if let lastBreak, lastBreak.index > lineStart, lastBreak.index <= index {
                    // Break after the last space; the spaces at the break are dropped.
                    lines.append(text[lineStart..<lastBreak.index].dropLastSpaces())
                    lineStart = lastBreak.index
                    lineWidth = text[lineStart..<index].terminalWidth
                } else {
                    lines.append(text[lineStart..<index].dropLastSpaces())
                    lineStart = index
                    lineWidth = 0
                }
                // A new line does not start with the spaces that ended the previous one.
                while lineStart < text.endIndex, text[lineStart] == " ", lineWidth == 0 {
                    lineStart = text.index(after: lineStart)
                }
                if lineStart > index { index = lineStart }
                lastBreak = nil
                continue   // measure this character again on the new line
            }
            lineWidth += w
            index = text.index(after: index)
        }
        lines.append(text[lineStart...])
        return lines
    }

    private func visibleLineCount(_ total: Int, height: Int?) -> Int {
        var count = total
        if let lineLimit { count = min(count, lineLimit) }
        if let height { count = min(count, max(0, height)) }
        return count
    }

    override func sizeThatFits(_ proposal: ProposedSize) -> Size {
        let w = min(width, proposal.width ?? width)
        if fitsOnOneLine(proposal.width ?? width) { return Size(width: w, height: proposal.height == 0 ? 0 : 1) }
        guard w > 0 else { return Size(width: 0, height: proposal.height == 0 ? 0 : 1) }
        let all = lines(at: w)
        let shownWidth = all.prefix(visibleLineCount(all.count, height: nil)).map(\.terminalWidth).max() ?? 0
        return Size(width: min(w, max(shownWidth, 0)), height: visibleLineCount(all.count, height: proposal.height))
    }

    override func draw(in canvas: inout Canvas, clip: Rect) {
        let area = clip.intersection(frame)
        guard !area.isEmpty, frame.width > 0 else { return }
        if fitsOnOneLine(frame.width) {
            let used = canvas.write(content, at: frame.origin, style: style, clip: area)
            if let hyperlink { canvas.setHyperlink(hyperlink, in: Rect(x: frame.x, y: frame.y, width: used, height: 1).intersection(area)) }
            return
        }
        let all = lines(at: frame.width)
        let shown = visibleLineCount(all.count, height: frame.height)
        for (row, line) in all.prefix(shown).enumerated() {
            let cut = row == shown - 1 && shown < all.count
            let text: String
            if cut {
                // More lines than fit: the last visible one says so.
                let base = String(line)
                text = base.terminalWidth + 1 <= frame.width ? base + "…" : base.truncated(toColumns: frame.width - 1) + "…"
            } else if line.terminalWidth > frame.width {
                text = String(line).truncated(toColumns: frame.width, ellipsis: true)
            } else {
                text = String(line)
            }
            let used = canvas.write(text, at: Point(x: frame.x, y: frame.y + row), style: style, clip: area)
            if let hyperlink {
                canvas.setHyperlink(hyperlink, in: Rect(x: frame.x, y: frame.y + row, width: used, height: 1).intersection(area))
            }
        }
    }
}

private extension Substring {
    func dropLastSpaces() -> Substring {
        var s = self
        while s.last == " " { s = s.dropLast() }
        return s
    }
}

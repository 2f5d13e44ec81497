import AppletState
import Terminal

/// A line of text. Wide characters (CJK, emoji) take two columns; text that does not fit is
/// cut at a grapheme boundary and ends in `…`.
///
/// ```swift
/// Text("Count: \(count)").bold().foregroundColor(.green)
/// ```
public struct Text: View {
    public typealias Body = Never
    let content: String
    public init(_ content: String) { self.content = content }

    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        nodes.append(TextNode(content, style: context.style))
    }
}

final class TextNode: Node {
    let content: String
    let style: Style
    let width: Int

    init(_ content: String, style: Style) {
        // One line: anything after a newline is not shown (wrapping belongs to a later Text).
        // Scanning bytes first spares the grapheme walk for the usual text without newlines.
        let mayHaveNewline = content.utf8.contains { (0x0A...0x0D).contains($0) || $0 == 0xC2 || $0 == 0xE2 }
        let line = mayHaveNewline ? (content.firstIndex(where: \.isNewline).map { String(content[..<$0]) } ?? content) : content
        self.content = line
        self.style = style
        self.width = line.terminalWidth
    }

    override func sizeThatFits(_ proposal: ProposedSize) -> Size {
        let w = min(width, proposal.width ?? width)
        let h = proposal.height == 0 ? 0 : 1
        return Size(width: max(0, w), height: h)
    }

    override func draw(in canvas: inout Canvas, clip: Rect) {
        let area = clip.intersection(frame)
        guard !area.isEmpty else { return }
        let shown = width <= frame.width ? content : content.truncated(toColumns: frame.width, ellipsis: true)
        canvas.write(shown, at: frame.origin, style: style, clip: area)
    }
}

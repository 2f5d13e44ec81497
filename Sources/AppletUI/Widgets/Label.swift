import AppletState
import Terminal

/// Text with a key hint after it: `Label("Save", key: "ctrl-s")` draws `Save  Ctrl-S`.
///
/// The key is written the way menus show it (`ctrl-s` → `Ctrl-S`, `shift-tab` → `Shift-Tab`,
/// `esc` → `Esc`; `+` works as a separator too) and drawn dimmed. When the width runs short the
/// text is cut with `…` before the key; with no room for the key, only the text is shown.
///
/// ```swift
/// VStack {
///     Label("Save", key: "ctrl-s")
///     Label("Quit", key: "q")
/// }
/// ```
public struct Label: View {
    public typealias Body = Never
    let text: String
    let key: String

    public init(_ text: String, key: String) {
        self.text = text
        self.key = Label.displayKey(key)
    }

    /// A key as shown to people: modifiers and named keys capitalized (`ctrl-s` → `Ctrl-S`,
    /// `pageDown` → `PageDown`, `ctrl+shift+p` → `Ctrl-Shift-P`); a lone character is kept as is
    /// (`q`, `?`, `+`).
    public static func displayKey(_ key: String) -> String {
        var parts: [String] = []
        var current = ""
        for ch in key {
            if (ch == "-" || ch == "+") && !current.isEmpty {
                parts.append(current)
                current = ""
            } else {
                current.append(ch)
            }
        }
        if !current.isEmpty { parts.append(current) }
        guard parts.count > 1 || (parts.first?.count ?? 0) > 1 else { return key }
        return parts.enumerated().map { i, part in
            if part.count == 1 { return i == parts.count - 1 ? part.uppercased() : part }
            return part.prefix(1).uppercased() + part.dropFirst()
        }.joined(separator: "-")
    }

    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        nodes.append(LabelNode(text: text, key: key, style: context.style))
    }
}

final class LabelNode: Node {
    override var focusable: (any FocusableNode)? { nil }
    static let gap = 2
    let text: String
    let key: String
    let style: Style
    private let textWidth: Int
    private let keyWidth: Int

    init(text: String, key: String, style: Style) {
        self.text = text
        self.key = key
        self.style = style
        self.textWidth = text.terminalWidth
        self.keyWidth = key.terminalWidth
    }

    private var width: Int { keyWidth == 0 ? textWidth : textWidth + Self.gap + keyWidth }

    override func sizeThatFits(_ proposal: ProposedSize) -> Size {
        Size(width: min(width, max(0, proposal.width ?? width)), height: proposal.height == 0 ? 0 : 1)
    }

    override func draw(in canvas: inout Canvas, clip: Rect) {
        let area = clip.intersection(frame)
        guard !area.isEmpty else { return }
        let keyColumns = keyWidth == 0 ? 0 : Self.gap + keyWidth
        // The key stays whole while at least one column of text fits beside it.
        let showsKey = keyWidth > 0 && frame.width >= keyColumns + min(1, textWidth)
        let textRoom = showsKey ? frame.width - keyColumns : frame.width
        let shown = textWidth <= textRoom ? text : text.truncated(toColumns: textRoom, ellipsis: true)
        let used = canvas.write(shown, at: frame.origin, style: style, clip: area)
        guard showsKey else { return }
        var keyStyle = style
        keyStyle.attributes.insert(.dim)
        canvas.write(key, at: Point(x: frame.minX + used + Self.gap, y: frame.minY), style: keyStyle, clip: area)
    }
}

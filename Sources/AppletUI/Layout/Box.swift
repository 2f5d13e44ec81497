import AppletState
import Terminal

/// The lines a `Box` is drawn with.
public enum BoxStyle: Sendable, CaseIterable {
    /// Square corners: `┌┐└┘`.
    case square
    /// Rounded corners: `╭╮╰╯`.
    case rounded

    var corners: (topLeading: Character, topTrailing: Character, bottomLeading: Character, bottomTrailing: Character) {
        switch self {
        case .square: ("┌", "┐", "└", "┘")
        case .rounded: ("╭", "╮", "╰", "╯")
        }
    }
}

/// A border around content, with an optional title in the top edge:
///
/// ```
/// ┌─ Status ──────┐
/// │ All good      │
/// └───────────────┘
/// ```
///
/// The content is laid out inside the border (one cell in on every side). A title that does
/// not fit is cut with `…`; a box too small for its border draws what fits. The border is drawn
/// in the theme's `border` role and the title in its `title` role (bold); a colour set around
/// the box (`.foregroundColor(.red)`) wins over the roles, and a disabled box is dimmed.
///
/// A `ScrollView` or `LogView` directly inside a box puts its scroll bar on the box's border
/// (the right edge; the bottom edge for a horizontal scroll view): the border is the bar's track
/// and only the `┃` thumb is drawn on it, so the content keeps every column inside the box.
///
/// ```swift
/// Box(title: "Status") {
///     Text("All good")
/// }
/// Box(title: "Log", style: .rounded) { List(count: lines.count, selection: $row) { Text(lines[$0]) } }
/// ```
public struct Box<Content: View>: View {
    public typealias Body = Never
    let title: String?
    let boxStyle: BoxStyle
    let content: Content

    public init(title: String? = nil, style: BoxStyle = .square, @ViewBuilder content: () -> Content) {
        self.title = title.flatMap { $0.isEmpty ? nil : $0 }
        self.boxStyle = style
        self.content = content()
    }

    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        // A colour set around the box (`.foregroundColor(.red)`) wins over the theme's roles.
        var titleStyle = context.theme[.title].merged(with: context.style)
        titleStyle.attributes.insert(.bold)
        nodes.append(BoxNode(child: content.makeSingleNode(context.child(0)), title: title, boxStyle: boxStyle,
                             style: context.theme[.border].merged(with: context.style), titleStyle: titleStyle))
    }
}

final class BoxNode: Node {
    override var focusable: (any FocusableNode)? { nil }
    let child: Node
    let title: String?
    let boxStyle: BoxStyle
    /// The border's style, and the title's.
    let style: Style
    let titleStyle: Style
    private let titleWidth: Int

    init(child: Node, title: String?, boxStyle: BoxStyle, style: Style, titleStyle: Style) {
        self.child = child
        self.title = title
        self.boxStyle = boxStyle
        self.style = style
        self.titleStyle = titleStyle
        self.titleWidth = title?.terminalWidth ?? 0
    }

    override var children: [Node] { [child] }

    /// Where the child was placed: inside the border, and over the border line its scroll bar
    /// takes, if it has one (`BorderScrollBar`).
    private var contentRect: Rect = .zero

    override func sizeThatFits(_ proposal: ProposedSize) -> Size {
        let inner = ProposedSize(width: proposal.width.map { max(0, $0 - 2) },
                                 height: proposal.height.map { max(0, $0 - 2) })
        let s = child.measure(inner)
        // Room for `┌─ Title ┐` when the title is there.
        var w = max(s.width + 2, title == nil ? 2 : titleWidth + 5)
        var h = s.height + 2
        if let pw = proposal.width { w = min(w, max(0, pw)) }
        if let ph = proposal.height { h = min(h, max(0, ph)) }
        return Size(width: w, height: h)
    }

    override func place(in rect: Rect) {
        frame = rect
        var inner = rect.inset(by: 1)
        if let scrolling = child as? any BorderScrollBar {
            // A bar of its own beside the border read as a double border (`┃│`, `││`): the bar
            // goes on the border instead, whose line is already the track, so the border stays
            // single, the thumb shows where the view is, and the content keeps its columns.
            scrolling.barOnBorder = !inner.isEmpty
            if !inner.isEmpty {
                if scrolling.barAxis == .vertical { inner.size.width += 1 } else { inner.size.height += 1 }
            }
        }
        contentRect = inner
        child.place(in: inner)
    }

    override func draw(in canvas: inout Canvas, clip: Rect) {
        let area = clip.intersection(frame)
        guard !area.isEmpty else { return }
        let (minX, minY, maxX, maxY) = (frame.minX, frame.minY, frame.maxX - 1, frame.maxY - 1)
        func put(_ c: Character, _ x: Int, _ y: Int) { canvas.put(c, at: Point(x: x, y: y), style: style, clip: area) }
        if frame.height == 1 {
            for x in minX...maxX { put("─", x, minY) }          // too short for a box: a rule
        } else if frame.width == 1 {
            for y in minY...maxY { put("│", minX, y) }          // too narrow: a bar
        } else {
            let c = boxStyle.corners
            for x in (minX + 1)..<maxX { put("─", x, minY); put("─", x, maxY) }
            for y in (minY + 1)..<maxY { put("│", minX, y); put("│", maxX, y) }
            put(c.topLeading, minX, minY); put(c.topTrailing, maxX, minY)
            put(c.bottomLeading, minX, maxY); put(c.bottomTrailing, maxX, maxY)
        }
        drawTitle(in: &canvas, clip: area)
        child.draw(in: &canvas, clip: area.intersection(contentRect))
    }

    /// ` Title ` from the third column, leaving the last corner: `┌─ Title ─┐`.
    private func drawTitle(in canvas: inout Canvas, clip: Rect) {
        guard let title, frame.height >= 1 else { return }
        let room = frame.width - 3 - 2             // corner + dash + space … space + corner
        guard room >= 1 else { return }
        let shown = titleWidth <= room ? title : title.truncated(toColumns: room, ellipsis: true)
        let y = frame.minY
        canvas.put(" ", at: Point(x: frame.minX + 2, y: y), style: style, clip: clip)
        let used = canvas.write(shown, at: Point(x: frame.minX + 3, y: y), style: titleStyle, clip: clip)
        canvas.put(" ", at: Point(x: frame.minX + 3 + used, y: y), style: style, clip: clip)
    }
}

/// A widget whose scroll bar can lie on the border of a `Box` around it (`ScrollView`,
/// `LogView`). The box places it over its right border column (the bottom row for a horizontal
/// bar) and sets `barOnBorder`: the widget then keeps that line for the bar, draws no content
/// there, and draws only the thumb on it (the border is the track).
@MainActor
protocol BorderScrollBar: Node {
    /// The direction the bar runs in: `.vertical` on the right border, `.horizontal` on the bottom one.
    var barAxis: Axis { get }
    /// Set by the box around it: the frame's last column (row) is the box's border.
    var barOnBorder: Bool { get set }
}

import AppletState
import Terminal

/// Where a view sits inside a larger space, on both axes: in a `ZStack`, a `frame`, a `Grid` cell.
///
/// ```swift
/// ZStack(alignment: .bottomTrailing) { Text("content"); Text("badge") }
/// Text("right").frame(maxWidth: .max, alignment: .trailing)
/// ```
public struct Alignment: Sendable, Hashable {
    /// Where along the width.
    public enum Horizontal: Sendable, Hashable { case leading, center, trailing }
    /// Where along the height.
    public enum Vertical: Sendable, Hashable { case top, center, bottom }

    public var horizontal: Horizontal
    public var vertical: Vertical

    public init(horizontal: Horizontal, vertical: Vertical) {
        self.horizontal = horizontal
        self.vertical = vertical
    }

    public static let topLeading = Alignment(horizontal: .leading, vertical: .top)
    public static let top = Alignment(horizontal: .center, vertical: .top)
    public static let topTrailing = Alignment(horizontal: .trailing, vertical: .top)
    public static let leading = Alignment(horizontal: .leading, vertical: .center)
    public static let center = Alignment(horizontal: .center, vertical: .center)
    public static let trailing = Alignment(horizontal: .trailing, vertical: .center)
    public static let bottomLeading = Alignment(horizontal: .leading, vertical: .bottom)
    public static let bottom = Alignment(horizontal: .center, vertical: .bottom)
    public static let bottomTrailing = Alignment(horizontal: .trailing, vertical: .bottom)

    /// The rectangle of a `size` placed in `rect` with this alignment. The size is cut to the
    /// rectangle first, so the result never reaches outside it (centring rounds towards the top
    /// left).
    func place(_ size: Size, in rect: Rect) -> Rect {
        let w = max(0, min(size.width, rect.width)), h = max(0, min(size.height, rect.height))
        let dx: Int, dy: Int
        switch horizontal {
        case .leading: dx = 0
        case .center: dx = (rect.width - w) / 2
        case .trailing: dx = rect.width - w
        }
        switch vertical {
        case .top: dy = 0
        case .center: dy = (rect.height - h) / 2
        case .bottom: dy = rect.height - h
        }
        return Rect(x: rect.x + max(0, dx), y: rect.y + max(0, dy), width: w, height: h)
    }
}

/// Children drawn on top of each other, later ones over earlier ones, each aligned inside the
/// stack. The stack is as large as its largest child.
///
/// A later child only covers the cells it draws: text over text leaves the cells between the
/// letters showing. Give an overlay a background colour to make it opaque. Focus moves through
/// the children in the order they are written.
///
/// ```swift
/// ZStack(alignment: .topTrailing) {
///     Box(title: "Log") { Text(log) }
///     Text(" 3 new ").backgroundColor(.red)     // a badge over the box's corner
/// }
/// ```
public struct ZStack<Content: View>: View {
    public typealias Body = Never
    let alignment: Alignment
    let content: Content

    public init(alignment: Alignment = .center, @ViewBuilder content: () -> Content) {
        self.alignment = alignment
        self.content = content()
    }

    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        var inner = context
        inner.axis = nil     // not a stack along an axis: dividers and spacers take their defaults
        var children: [Node] = []
        content._makeNodes(inner, into: &children)
        nodes.append(ZStackNode(alignment: alignment, children: children))
    }
}

final class ZStackNode: Node {
    override var focusable: (any FocusableNode)? { nil }
    let alignment: Alignment
    let items: [Node]

    init(alignment: Alignment, children: [Node]) {
        self.alignment = alignment
        self.items = children
    }

    override var children: [Node] { items }

    override var isSpacer: Bool { !items.isEmpty && items.allSatisfy(\.isSpacer) }

    override func sizeThatFits(_ proposal: ProposedSize) -> Size {
        var w = 0, h = 0
        for child in items {
            let s = child.measure(proposal)
            w = max(w, s.width)
            h = max(h, s.height)
        }
        return Size(width: w, height: h)
    }

    override func place(in rect: Rect) {
        frame = rect
        let proposal = ProposedSize(rect.size)
        for child in items {
            child.place(in: alignment.place(child.measure(proposal), in: rect))
        }
    }

    override func draw(in canvas: inout Canvas, clip: Rect) {
        let area = clip.intersection(frame)
        guard !area.isEmpty else { return }
        for child in items where !child.frame.intersection(area).isEmpty {
            child.draw(in: &canvas, clip: area)
        }
    }
}

import AppletState
import Terminal

/// Which sides `padding` applies to.
public struct Edges: OptionSet, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let top = Edges(rawValue: 1)
    public static let leading = Edges(rawValue: 2)
    public static let bottom = Edges(rawValue: 4)
    public static let trailing = Edges(rawValue: 8)
    public static let horizontal: Edges = [.leading, .trailing]
    public static let vertical: Edges = [.top, .bottom]
    public static let all: Edges = [.top, .leading, .bottom, .trailing]
}

extension View {
    /// Empty cells around the view.
    ///
    /// ```swift
    /// Text("Hi").padding(1)
    /// Text("Hi").padding(.horizontal, 2)
    /// ```
    public func padding(_ edges: Edges = .all, _ length: Int = 1) -> Padding<Self> {
        Padding(content: self, edges: edges, length: max(0, length))
    }

    public func padding(_ length: Int) -> Padding<Self> { padding(.all, length) }

    /// Bold text for this view and everything inside it.
    public func bold() -> Styled<Self> { Styled(content: self, style: Style(attributes: .bold)) }
    /// Dim (faint) text.
    public func dim() -> Styled<Self> { Styled(content: self, style: Style(attributes: .dim)) }
    /// Italic text (where the terminal has it).
    public func italic() -> Styled<Self> { Styled(content: self, style: Style(attributes: .italic)) }
    /// Underlined text.
    public func underline() -> Styled<Self> { Styled(content: self, style: Style(attributes: .underline)) }
    /// Foreground and background swapped.
    public func reverse() -> Styled<Self> { Styled(content: self, style: Style(attributes: .reverse)) }
    /// Text colour.
    ///
    /// ```swift
    /// Text("ok").foregroundColor(.green)
    /// ```
    public func foregroundColor(_ color: Color) -> Styled<Self> { Styled(content: self, style: Style(foreground: color)) }
    /// Background colour of the text drawn inside.
    public func backgroundColor(_ color: Color) -> Styled<Self> { Styled(content: self, style: Style(background: color)) }
    /// Any style at once.
    public func style(_ style: Style) -> Styled<Self> { Styled(content: self, style: style) }
}

/// A view with space around it (see `View.padding`).
public struct Padding<Content: View>: View {
    public typealias Body = Never
    let content: Content
    let edges: Edges
    let length: Int

    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        let l = length
        nodes.append(PaddingNode(
            child: content.makeSingleNode(context.child(0)),
            top: edges.contains(.top) ? l : 0, leading: edges.contains(.leading) ? l : 0,
            bottom: edges.contains(.bottom) ? l : 0, trailing: edges.contains(.trailing) ? l : 0))
    }
}

final class PaddingNode: Node {
    override var focusable: (any FocusableNode)? { nil }
    let child: Node
    let top, leading, bottom, trailing: Int
    init(child: Node, top: Int, leading: Int, bottom: Int, trailing: Int) {
        self.child = child
        self.top = top; self.leading = leading; self.bottom = bottom; self.trailing = trailing
    }
    override var children: [Node] { [child] }

    override func sizeThatFits(_ proposal: ProposedSize) -> Size {
        let inner = ProposedSize(width: proposal.width.map { max(0, $0 - leading - trailing) },
                                 height: proposal.height.map { max(0, $0 - top - bottom) })
        let s = child.measure(inner)
        var w = s.width + leading + trailing, h = s.height + top + bottom
        if let pw = proposal.width { w = min(w, max(pw, 0)) }
        if let ph = proposal.height { h = min(h, max(ph, 0)) }
        return Size(width: w, height: h)
    }

    override func place(in rect: Rect) {
        frame = rect
        child.place(in: rect.inset(top: top, leading: leading, bottom: bottom, trailing: trailing))
    }

    override func draw(in canvas: inout Canvas, clip: Rect) {
        child.draw(in: &canvas, clip: clip.intersection(frame))
    }
}

/// A view drawn with extra style (see `View.bold()` and friends). A background colour also
/// fills the view's whole area.
public struct Styled<Content: View>: View {
    public typealias Body = Never
    let content: Content
    let style: Style

    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        var inner = context
        inner.style = context.style.merged(with: style)
        if style.background != .default {
            nodes.append(FillNode(child: content.makeSingleNode(inner), style: inner.style))
        } else {
            content._makeNodes(inner, into: &nodes)
        }
    }
}

final class FillNode: Node {
    override var focusable: (any FocusableNode)? { nil }
    let child: Node
    let style: Style
    init(child: Node, style: Style) { self.child = child; self.style = style }
    override var children: [Node] { [child] }
    override var isSpacer: Bool { child.isSpacer }
    override func sizeThatFits(_ proposal: ProposedSize) -> Size { child.measure(proposal) }
    override func place(in rect: Rect) { frame = rect; child.place(in: rect) }
    override func draw(in canvas: inout Canvas, clip: Rect) {
        canvas.fill(frame.intersection(clip), with: .blank(style))
        child.draw(in: &canvas, clip: clip.intersection(frame))
    }
}

import AppletState
import Terminal

/// What a `ScrollView` reports: the user scrolled (keys, wheel or scroll bar); the new offset
/// in cells from the start of the content.
public enum ScrollViewEvent: Sendable, Equatable {
    case scrolled(Int)
}

/// Content longer than the space it is given, shown through a window that scrolls.
///
/// The views inside are laid out one after another along `axis` (like a `VStack`, or an
/// `HStack` for `.horizontal`), each at its ideal length, and cut to the window. When they do
/// not fit, a scroll bar takes the last column (the last row when horizontal): a `┃` thumb on
/// a `│` track, in the theme's border style, the thumb in the focus style while the scroll view
/// has focus. Without a bar (`showsIndicators: false`, or a single column) the cells where the
/// thumb would be are drawn in the focus style over the content while it has focus, so focus
/// always shows. Only the views that show are drawn. A scroll view takes all the space it is
/// offered. Directly inside a `Box`, the bar lies on the box's border instead: the border line
/// is the track and only the thumb is drawn on it.
///
/// While its content overflows, the scroll view takes focus itself (before the widgets inside;
/// content that fits leaves it out of the Tab order): `↑`/`↓` or `k`/`j` scroll by
/// one (`←`/`→` or `h`/`l` when horizontal), `PgUp`/`PgDn` by a window, `Home`/`End` or `g`/`G`
/// to the ends. The mouse wheel scrolls by 3 over the scroll view, and a click or drag on the
/// scroll bar jumps there. When focus moves to a widget inside, the view scrolls to show it.
/// The offset is kept between frames.
///
/// ```swift
/// ScrollView {
///     ForEach(settings, id: \.name) { setting in
///         Toggle(setting.name, isOn: binding(for: setting))
///     }
/// }
/// .onEvent { (event: ScrollViewEvent) in
///     if case .scrolled(let offset) = event { log("at \(offset)") }
/// }
/// ```
public struct ScrollView<Content: View>: View {
    public typealias Body = Never
    let axis: Axis
    let spacing: Int
    let showsIndicators: Bool
    let content: Content

    /// - Parameters:
    ///   - axis: the direction the content scrolls in.
    ///   - spacing: empty cells between the views inside.
    ///   - showsIndicators: whether the scroll bar shows when the content does not fit.
    public init(_ axis: Axis = .vertical, spacing: Int = 0, showsIndicators: Bool = true,
                @ViewBuilder content: () -> Content) {
        self.axis = axis
        self.spacing = max(0, spacing)
        self.showsIndicators = showsIndicators
        self.content = content()
    }

    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        var inner = context.child(0)    // the content's ids never equal the scroll view's own
        inner.axis = axis
        var children: [Node] = []
        content._makeNodes(inner, into: &children)
        let barStyle = context.style(.border)
        nodes.append(ScrollNode(
            id: context.id, axis: axis, spacing: spacing, showsIndicators: showsIndicators, children: children,
            state: context.stateBox(ScrollNode.State()), tree: context.tree,
            barStyle: barStyle, focusStyle: context.style(.focus),
            emit: context.emitter(ScrollViewEvent.self)))
    }
}

final class ScrollNode: Node, FocusableNode, BorderScrollBar {
    override var focusable: (any FocusableNode)? { self }
    /// Kept between frames.
    struct State {
        var offset = 0
        /// The focused widget when last placed: the view scrolls to a widget inside only when
        /// focus moves to it, so scrolling away from the focused widget is possible.
        var followed: ViewID?
    }

    let focusID: ViewID
    let axis: Axis
    let spacing: Int
    let showsIndicators: Bool
    let items: [Node]
    let state: WidgetStateBox<State>
    unowned let tree: ViewTree
    let barStyle: Style
    let focusStyle: Style
    let emit: EventEmitter<ScrollViewEvent>
    var isFocused = false
    /// Content that fits has nothing to scroll: Tab passes the view by (its widgets still get focus).
    var acceptsFocus: Bool { maxOffset > 0 }
    var barAxis: Axis { axis }
    /// Set by a `Box` around it: the last column (row) is the box's border, for the bar only.
    var barOnBorder = false

    // Set by `place`.
    /// The window the content shows through (the frame less the scroll bar).
    private var viewport: Rect = .zero
    private var contentLength = 0
    private var showsBar = false

    init(id: ViewID, axis: Axis, spacing: Int, showsIndicators: Bool, children: [Node], state: WidgetStateBox<State>,
         tree: ViewTree, barStyle: Style, focusStyle: Style, emit: EventEmitter<ScrollViewEvent>) {
        self.focusID = id
        self.axis = axis
        self.spacing = spacing
        self.showsIndicators = showsIndicators
        self.items = children
        self.state = state
        self.tree = tree
        self.barStyle = barStyle
        self.focusStyle = focusStyle
        self.emit = emit
    }

    override var children: [Node] { items }

    private var visibleLength: Int { viewport.size.along(axis) }
    private var maxOffset: Int { max(0, contentLength - visibleLength) }

    /// The children's sizes with `cross` cells across (their ideal lengths along the axis).
    private func measureChildren(cross: Int?) -> [Size] {
        items.map { child in
            let s = child.measure(.make(axis, main: nil, cross: cross))
            return Size.make(axis, main: min(max(0, s.along(axis)), unboundedLength), cross: max(0, s.across(axis)))
        }
    }

    private func totalLength(_ sizes: [Size]) -> Int {
        sizes.reduce(0) { $0 + $1.along(axis) } + (sizes.isEmpty ? 0 : spacing * (sizes.count - 1))
    }

    override func sizeThatFits(_ proposal: ProposedSize) -> Size {
        // Greedy along both axes; ideally the content's size.
        let main = proposal.along(axis), cross = proposal.across(axis)
        if let main, let cross { return Size.make(axis, main: min(max(0, main), unboundedLength), cross: min(max(0, cross), unboundedLength)) }
        let sizes = measureChildren(cross: cross)
        let idealMain = main ?? totalLength(sizes)
        let idealCross = cross ?? sizes.reduce(0) { max($0, $1.across(axis)) }
        return Size.make(axis, main: min(max(0, idealMain), unboundedLength), cross: min(max(0, idealCross), unboundedLength))
    }

    override func place(in rect: Rect) {
        frame = rect
        let length = rect.size.along(axis), cross = rect.size.across(axis)
        // On a box's border the last line is the bar's whether it shows or not: never content.
        let border = barOnBorder ? 1 : 0
        var sizes = measureChildren(cross: cross - border)
        var total = totalLength(sizes)
        // The bar only when the content does not fit, and only when one cell is left for it.
        showsBar = showsIndicators && total > length && length > 0 && cross >= 2
        if showsBar, !barOnBorder {
            sizes = measureChildren(cross: cross - 1)
            total = totalLength(sizes)
        }
        contentLength = total
        let barLine = showsBar || barOnBorder ? 1 : 0
        viewport = axis == .vertical
            ? Rect(x: rect.x, y: rect.y, width: rect.width - barLine, height: rect.height)
            : Rect(x: rect.x, y: rect.y, width: rect.width, height: rect.height - barLine)
        var offset = min(max(0, state.value.offset), maxOffset)
        placeChildren(sizes, offset: offset)

        let focusables = focusableDescendants()
        let focused = tree.focusedID
        if let focused, focused != state.value.followed, let target = focusables.first(where: { $0.focusID == focused }) {
            let scrolled = offsetShowing(target.frame, from: offset)
            if scrolled != offset {
                offset = scrolled
                placeChildren(sizes, offset: offset)
            }
        }
        state.value.followed = focused
        state.value.offset = offset
        // Widgets scrolled out of sight must not catch clicks meant for what is on screen there.
        for node in focusables where node.frame.intersection(viewport).isEmpty {
            node.frame = Rect(origin: node.frame.origin, size: .zero)
        }
    }

    private func placeChildren(_ sizes: [Size], offset: Int) {
        let crossLength = viewport.size.across(axis)
        var position = (axis == .vertical ? viewport.y : viewport.x) - offset
        for (child, size) in zip(items, sizes) {
            let main = size.along(axis), cross = min(size.across(axis), crossLength)
            child.place(in: axis == .vertical ? Rect(x: viewport.x, y: position, width: cross, height: main)
                                              : Rect(x: position, y: viewport.y, width: main, height: cross))
            position += main + spacing
        }
    }

    /// The offset that brings `target` into the window, moving as little as possible (its start
    /// shows when it is longer than the window).
    private func offsetShowing(_ target: Rect, from offset: Int) -> Int {
        let windowStart = axis == .vertical ? viewport.minY : viewport.minX
        let start = (axis == .vertical ? target.minY : target.minX) - windowStart
        let end = (axis == .vertical ? target.maxY : target.maxX) - windowStart
        var result = offset
        if start < 0 {
            result += start
        } else if end > visibleLength {
            result += min(start, end - visibleLength)
        }
        return min(max(0, result), maxOffset)
    }

    /// The focusable widgets inside, as the tree collects them (none inside a disabled view).
    private func focusableDescendants() -> [any FocusableNode] {
        var found: [any FocusableNode] = []
        func walk(_ node: Node) {
            if node is DisabledNode { return }
            if let f = node.focusable { found.append(f) }
            for child in node.children { walk(child) }
        }
        for child in items { walk(child) }
        return found
    }

    override func draw(in canvas: inout Canvas, clip: Rect) {
        let area = clip.intersection(frame)
        guard !area.isEmpty else { return }
        let window = area.intersection(viewport)
        if !window.isEmpty {
            for child in items where !child.frame.intersection(window).isEmpty {
                child.draw(in: &canvas, clip: window)
            }
        }
        if showsBar {
            drawBar(in: &canvas, clip: area)
        } else if isFocused {
            // No room for a bar, or none wanted: the thumb's cells of the last column (row) are
            // drawn in the focus style over the content, so focus still shows.
            let (start, length) = thumb
            let cells = axis == .vertical
                ? Rect(x: viewport.maxX - 1, y: viewport.y + start, width: 1, height: length)
                : Rect(x: viewport.x + start, y: viewport.maxY - 1, width: length, height: 1)
            let look = focusStyle
            canvas.restyle(cells.intersection(area)) { $0 = look }
        }
    }

    /// The thumb's start and length on a track of `visibleLength` cells.
    private var thumb: (start: Int, length: Int) {
        scrollThumb(track: visibleLength, content: contentLength, offset: state.value.offset)
    }

    private func drawBar(in canvas: inout Canvas, clip: Rect) {
        let (start, length) = thumb
        let thumbStyle = isFocused ? focusStyle : barStyle
        for i in 0..<visibleLength {
            let isThumb = i >= start && i < start + length
            // On a box's border the border itself is the track.
            if barOnBorder, !isThumb { continue }
            let p = axis == .vertical ? Point(x: frame.maxX - 1, y: viewport.y + i) : Point(x: viewport.x + i, y: frame.maxY - 1)
            let glyph: Character = axis == .vertical ? (isThumb ? "┃" : "│") : (isThumb ? "━" : "─")
            canvas.put(glyph, at: p, style: isThumb ? thumbStyle : barStyle, clip: clip)
        }
    }

    /// Scrolls to `offset` (clamped); sends `.scrolled` when it moved.
    private func scroll(to offset: Int) {
        let clamped = min(max(0, offset), maxOffset)
        guard clamped != state.value.offset else { return }
        state.value.offset = clamped
        emit(.scrolled(clamped))
    }

    func handleKey(_ key: KeyEvent) -> Bool {
        guard key.modifiers.subtracting(.shift).isEmpty else { return false }
        let offset = state.value.offset
        let page = max(1, visibleLength)
        let vertical = axis == .vertical
        switch key.code {
        case .up where vertical, .char("k") where vertical, .left where !vertical, .char("h") where !vertical:
            scroll(to: offset - 1)
        case .down where vertical, .char("j") where vertical, .right where !vertical, .char("l") where !vertical:
            scroll(to: offset + 1)
        case .pageUp: scroll(to: offset - page)
        case .pageDown: scroll(to: offset + page)
        case .home, .char("g"): scroll(to: 0)
        case .end, .char("G"): scroll(to: maxOffset)
        default: return false
        }
        return true
    }

    func handleMouse(_ mouse: MouseEvent) -> Bool {
        switch mouse.kind {
        case .scrollUp, .scrollDown:
            // Content that fits leaves the wheel to others.
            guard maxOffset > 0 else { return false }
            scroll(to: state.value.offset + (mouse.kind == .scrollUp ? -3 : 3))
            return true
        case .press(.left), .drag(.left):
            if showsBar, let cell = barCell(at: mouse.position) {
                // The bar is a map of the content: a click jumps to the same place in it.
                scroll(to: (cell * maxOffset + (visibleLength - 1) / 2) / max(1, visibleLength - 1))
                return true
            }
            return mouse.kind == .press(.left)    // a press has focused the scroll view
        default:
            return false
        }
    }

    /// The scroll bar cell under a point, from the start of the track.
    private func barCell(at p: Point) -> Int? {
        if axis == .vertical {
            guard p.x == frame.maxX - 1, p.y >= viewport.minY, p.y < viewport.maxY else { return nil }
            return p.y - viewport.minY
        }
        guard p.y == frame.maxY - 1, p.x >= viewport.minX, p.x < viewport.maxX else { return nil }
        return p.x - viewport.minX
    }
}

/// Where a scroll bar's thumb sits on a track of `track` cells showing `content` cells from
/// `offset`: its length is the share of the content on screen (at least one cell), the whole
/// track when everything fits. Shared by ScrollView and LogView.
func scrollThumb(track: Int, content: Int, offset: Int) -> (start: Int, length: Int) {
    guard track > 0 else { return (0, 0) }
    guard content > track else { return (0, track) }
    let length = max(1, track * track / content)
    let maxOffset = content - track
    let start = (min(max(0, offset), maxOffset) * (track - length) + maxOffset / 2) / maxOffset
    return (start, length)
}

import AppletState
import Terminal

/// What `Tabs` sends when the user switches pages (a key or a click), with the new page's index.
public enum TabsEvent: Sendable, Equatable {
    case selected(Int)
}

/// Pages under a one-line strip of titles, inside a pane (the host's own tabs are separate):
///
/// ```
///  General │ Colours │ Keys
/// (the selected page's content)
/// ```
///
/// The strip takes focus: `←`/`→` (or `h`/`l`) switch to the previous or next page, `Home`/`End`
/// to the first or last; a click on a title selects it. The digits stay with the host, which
/// uses them for its own tabs. The selected title is drawn in the theme's focus style while the
/// strip has focus, and in the accent style, underlined, when it does not. Titles that do not
/// fit are cut (`…`), and the strip scrolls so the selected title is always visible.
///
/// Only the selected page is built; it takes all the space under the strip. The widgets inside
/// it take focus after the strip, in reading order. Each page keeps its own widget state (a
/// list's scroll position) while another page is shown. Sends `TabsEvent.selected(_:)` after
/// updating `selection`.
///
/// ```swift
/// @AppState(\.settingsPage) var page
/// Tabs(["General", "Colours", "Keys"], selection: $page) { index in
///     switch index {
///     case 0: GeneralSettings()
///     case 1: ColourSettings()
///     default: KeySettings()
///     }
/// }
/// ```
public struct Tabs<Content: View>: View {
    public typealias Body = Never
    let titles: [String]
    let selection: Binding<Int>
    let content: @MainActor (Int) -> Content

    public init(_ titles: [String], selection: Binding<Int>, @ViewBuilder content: @escaping @MainActor (Int) -> Content) {
        self.titles = titles
        self.selection = selection
        self.content = content
    }

    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        guard !titles.isEmpty else {
            nodes.append(TabsNode(strip: Node(), page: nil))
            return
        }
        let selected = min(max(0, selection.wrappedValue), titles.count - 1)
        let strip = TabStripNode(titles: titles, selected: selected, selection: selection, context: context)
        var pageContext = context.child(hashing: selected)
        pageContext.axis = .vertical
        nodes.append(TabsNode(strip: strip, page: content(selected).makeSingleNode(pageContext)))
    }
}

/// The strip on the first row, the page in the rest. Greedy: takes all the space it is offered.
final class TabsNode: Node {
    override var focusable: (any FocusableNode)? { nil }
    let strip: Node
    let page: Node?

    init(strip: Node, page: Node?) {
        self.strip = strip
        self.page = page
    }

    override var children: [Node] { page.map { [strip, $0] } ?? [strip] }

    override func sizeThatFits(_ proposal: ProposedSize) -> Size {
        let pageSize = page?.measure(ProposedSize(width: proposal.width, height: proposal.height.map { max(0, $0 - 1) })) ?? .zero
        let stripWidth = strip.measure(ProposedSize(width: nil, height: 1)).width
        let width = proposal.width.map { min(max(0, $0), unboundedLength) } ?? max(stripWidth, pageSize.width)
        let height = proposal.height.map { min(max(0, $0), unboundedLength) } ?? 1 + pageSize.height
        return Size(width: width, height: height)
    }

    override func place(in rect: Rect) {
        frame = rect
        strip.place(in: Rect(x: rect.x, y: rect.y, width: rect.width, height: min(1, rect.height)))
        page?.place(in: Rect(x: rect.x, y: rect.y + 1, width: rect.width, height: max(0, rect.height - 1)))
    }

    override func draw(in canvas: inout Canvas, clip: Rect) {
        let area = clip.intersection(frame)
        guard !area.isEmpty else { return }
        strip.draw(in: &canvas, clip: area)
        if let page, !page.frame.isEmpty { page.draw(in: &canvas, clip: area) }
    }
}

/// The focusable title strip of `Tabs`.
final class TabStripNode: Node, FocusableNode {
    override var focusable: (any FocusableNode)? { self }
    let focusID: ViewID
    let titles: [String]
    let selected: Int
    let selection: Binding<Int>
    let style: Style
    let selectedStyle: Style
    let focusStyle: Style
    let borderStyle: Style
    let mutedStyle: Style
    let emit: EventEmitter<TabsEvent>
    /// The first title shown, kept between frames so the strip scrolls only when it must.
    let firstShown: WidgetStateBox<Int>
    var isFocused = false
    private let widths: [Int]
    private var layout = StripLayout()

    init(titles: [String], selected: Int, selection: Binding<Int>, context: ResolveContext) {
        self.focusID = context.id
        self.titles = titles
        self.selected = selected
        self.selection = selection
        self.style = context.style
        var accent = context.style(.accent)
        accent.attributes.insert(.underline)
        self.selectedStyle = accent
        self.focusStyle = context.style(.focus)
        self.borderStyle = context.style(.border)
        self.mutedStyle = context.style(.muted)
        self.emit = context.emitter(TabsEvent.self)
        self.firstShown = context.stateBox(0)
        // ` Title `: a space either side.
        self.widths = titles.map { $0.terminalWidth + 2 }
    }

    override func sizeThatFits(_ proposal: ProposedSize) -> Size {
        let ideal = widths.reduce(0, +) + max(0, titles.count - 1)
        return Size(width: min(ideal, max(0, proposal.width ?? ideal)), height: proposal.height == 0 ? 0 : 1)
    }

    override func place(in rect: Rect) {
        frame = rect
        layout = StripLayout(widths: widths, gap: 1, width: rect.width, keep: selected, first: firstShown.value)
        firstShown.value = layout.first
    }

    override func draw(in canvas: inout Canvas, clip: Rect) {
        let area = clip.intersection(frame)
        guard !area.isEmpty else { return }
        let y = frame.y
        if layout.hasLeadingMarker { canvas.put("…", at: Point(x: frame.x, y: y), style: mutedStyle, clip: area) }
        for item in layout.items {
            if item.offset > 0 { canvas.put("│", at: Point(x: frame.x + item.offset - 1, y: y), style: borderStyle, clip: area) }
            let label = " \(titles[item.index]) "
            let shown = item.width < widths[item.index] ? label.truncated(toColumns: item.width, ellipsis: true) : label
            let s = item.index == selected ? (isFocused ? focusStyle : selectedStyle) : style
            canvas.write(shown, at: Point(x: frame.x + item.offset, y: y), style: s, clip: area)
        }
        if let x = layout.trailingMarker { canvas.put("…", at: Point(x: frame.x + x, y: y), style: mutedStyle, clip: area) }
    }

    private func select(_ index: Int) {
        let target = min(max(0, index), titles.count - 1)
        guard target != selection.wrappedValue else { return }
        selection.wrappedValue = target
        emit(.selected(target))
    }

    /// The page selected now (keys may arrive faster than frames).
    private var current: Int { min(max(0, selection.wrappedValue), titles.count - 1) }

    func handleKey(_ key: KeyEvent) -> Bool {
        guard key.modifiers.isEmpty else { return false }
        switch key.code {
        case .left, .char("h"): select(current - 1)
        case .right, .char("l"): select(current + 1)
        case .home: select(0)
        case .end: select(titles.count - 1)
        default: return false
        }
        return true
    }

    func handleMouse(_ mouse: MouseEvent) -> Bool {
        guard case .press(.left) = mouse.kind, mouse.position.y == frame.y else { return false }
        let x = mouse.position.x - frame.x
        if let item = layout.items.first(where: { x >= $0.offset && x < $0.offset + $0.width }) {
            select(item.index)
        } else if layout.hasLeadingMarker, x == 0 {
            select(layout.first - 1)          // the `…` before the first title shown
        } else if let marker = layout.trailingMarker, x == marker, let last = layout.items.last {
            select(last.index + 1)            // the `…` after the last one shown
        }
        return true
    }
}

/// Where the items of a one-line strip go when they may not all fit (tab titles, a horizontal
/// radio group): a window of items that always holds `keep`, with `…` markers where items are
/// hidden on either side. An item that only partly fits is the last one and is given the room
/// left (its caller cuts it with `…`).
struct StripLayout {
    struct Item: Equatable {
        let index: Int
        /// Columns from the strip's left edge.
        let offset: Int
        /// Columns given to the item: less than its width when cut.
        let width: Int
    }
    /// The first item shown (remember it for the next frame, so the strip scrolls only when needed).
    var first = 0
    var items: [Item] = []
    /// Items before `first` are hidden: a `…` at offset 0, then a gap (left out when the strip is
    /// too narrow for even the first item shown).
    var hasLeadingMarker = false
    /// Items after the last one shown are hidden and none of them was cut: a `…` at this offset.
    var trailingMarker: Int?

    init() {}

    init(widths: [Int], gap: Int, width available: Int, keep: Int, first previous: Int) {
        let n = widths.count
        guard n > 0, available > 0 else { return }
        let keep = min(max(0, keep), n - 1)
        // Columns from item `f` to item `last`, with the leading marker when items before `f` hide.
        func span(_ f: Int, through last: Int) -> Int {
            var total = f > 0 ? 1 + gap : 0
            for i in f...last { total += widths[i] + (i > f ? gap : 0) }
            return total
        }
        var first = min(max(0, previous), n - 1)
        if span(0, through: n - 1) <= available {
            first = 0
        } else {
            if keep < first { first = keep }
            while first < keep, span(first, through: keep) > available { first += 1 }
            // Room to spare at the end (the strip got wider): show earlier items again.
            while first > 0, span(first - 1, through: n - 1) <= available { first -= 1 }
        }
        self.first = first
        var x = 0
        // The marker goes only where it leaves room for the whole first item.
        if first > 0, 1 + gap + widths[first] <= available {
            hasLeadingMarker = true
            x = 1 + gap
        }
        for i in first..<n {
            if i > first {
                // Not even one column of the next item fits after the gap: mark the rest hidden.
                if available - x < gap + 1 {
                    if x < available { trailingMarker = x }
                    break
                }
                x += gap
            }
            let room = available - x
            guard room > 0 else { break }
            let w = min(widths[i], room)
            items.append(Item(index: i, offset: x, width: w))
            x += w
            if w < widths[i] { break }
        }
    }
}

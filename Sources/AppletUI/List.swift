import AppletState
import Terminal

/// A scrolling list of one-line rows with a selection. Only the rows on screen are built, so a
/// list of a million rows costs what a screenful costs.
///
/// With focus, `↑`/`↓` or `k`/`j` move the selection, `PgUp`/`PgDn` move a page, `Home`/`End`
/// (or `g`/`G`) jump to the ends; the mouse wheel scrolls and a click selects. The list scrolls
/// so the selected row is always visible.
///
/// ```swift
/// @AppState(\.selectedRow) var selected
/// List(count: 1_000_000, selection: $selected) { row in
///     Text("Row \(row)")
/// }
/// ```
public struct List<Row: View>: View {
    public typealias Body = Never
    let count: Int
    let selection: Binding<Int>
    let row: @MainActor (Int) -> Row

    public init(count: Int, selection: Binding<Int>, @ViewBuilder row: @escaping @MainActor (Int) -> Row) {
        self.count = max(0, count)
        self.selection = selection
        self.row = row
    }

    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        var rowContext = context
        rowContext.axis = .horizontal
        let row = self.row
        nodes.append(ListNode(id: context.id, count: count, selection: selection, tree: context.tree) { index in
            HStack { row(index) }.makeSingleNode(rowContext.child(hashing: index))
        })
    }
}

final class ListNode: Node, FocusableNode {
    let focusID: ViewID
    let count: Int
    let selection: Binding<Int>
    let makeRow: @MainActor (Int) -> Node
    unowned let tree: ViewTree
    var isFocused = false
    private var visibleRows = 1

    init(id: ViewID, count: Int, selection: Binding<Int>, tree: ViewTree, makeRow: @escaping @MainActor (Int) -> Node) {
        self.focusID = id
        self.count = count
        self.selection = selection
        self.tree = tree
        self.makeRow = makeRow
    }

    override func sizeThatFits(_ proposal: ProposedSize) -> Size {
        // A list is greedy: it takes all the space it is offered (ideal: 40 x up to 10 rows).
        Size(width: min(proposal.width ?? 40, unboundedLength), height: min(proposal.height ?? min(count, 10), unboundedLength))
    }

    /// The first row shown, kept between frames so the list only scrolls when the selection
    /// would leave the screen.
    private var offset: Int {
        get { tree.widgetState(for: focusID, default: 0) }
        set { tree.setWidgetState(newValue, for: focusID) }
    }

    private var selectedRow: Int { count == 0 ? 0 : min(max(0, selection.wrappedValue), count - 1) }

    override func place(in rect: Rect) {
        frame = rect
        visibleRows = max(1, rect.height)
        var first = offset
        let selected = selectedRow
        if selected < first { first = selected }
        if selected >= first + visibleRows { first = selected - visibleRows + 1 }
        first = max(0, min(first, count - visibleRows))
        offset = first
    }

    override func draw(in canvas: inout Canvas, clip: Rect) {
        let area = clip.intersection(frame)
        guard !area.isEmpty, count > 0 else { return }
        let first = offset
        let selected = selectedRow
        let last = min(count, first + frame.height)
        for index in first..<last {
            let y = frame.y + index - first
            let rowRect = Rect(x: frame.x, y: y, width: frame.width, height: 1)
            let node = makeRow(index)
            node.place(in: rowRect)
            node.draw(in: &canvas, clip: area)
            if index == selected {
                // The selected row is reversed across its full width; dimmer without focus.
                canvas.restyle(rowRect.intersection(area)) { style in
                    style.attributes.insert(.reverse)
                    if !isFocused { style.attributes.insert(.dim) }
                }
            }
        }
    }

    func handleKey(_ key: KeyEvent) -> Bool {
        guard count > 0, key.modifiers.subtracting(.shift).isEmpty else { return false }
        let current = selectedRow
        let target: Int
        switch key.code {
        case .up, .char("k"): target = current - 1
        case .down, .char("j"): target = current + 1
        case .pageUp: target = current - visibleRows
        case .pageDown: target = current + visibleRows
        case .home, .char("g"): target = 0
        case .end, .char("G"): target = count - 1
        default: return false
        }
        let clamped = max(0, min(count - 1, target))
        if clamped != current { selection.wrappedValue = clamped }
        return true
    }

    func handleMouse(_ mouse: MouseEvent) -> Bool {
        guard count > 0 else { return false }
        switch mouse.kind {
        case .scrollUp:
            selection.wrappedValue = max(0, selectedRow - 3)
        case .scrollDown:
            selection.wrappedValue = min(count - 1, selectedRow + 3)
        case .press(.left):
            let index = offset + (mouse.position.y - frame.y)
            guard index >= 0, index < count else { return false }
            selection.wrappedValue = index
        default:
            return false
        }
        return true
    }
}

import AppletState
import Terminal

/// An item of a `Tree`: a leaf, or a branch with children. Ids must be unique in the tree.
///
/// A branch can be expandable before its children are known: give `hasChildren: true` and an
/// empty `children`, then load them when the tree sends `.expanded(id)`.
///
/// ```swift
/// TreeItem(id: "src", title: "Sources", children: [
///     TreeItem(id: "src/main.swift", title: "main.swift"),
/// ])
/// TreeItem(id: "remote", title: "Remote", hasChildren: true)   // children loaded on expand
/// ```
public struct TreeItem: Sendable, Identifiable, Equatable {
    public var id: String
    public var title: String
    public var children: [TreeItem]
    /// Whether the item is a branch (drawn with `▸`/`▾` and expandable).
    public var hasChildren: Bool

    /// - Parameter hasChildren: whether it is a branch; by default, when `children` is not empty.
    public init(id: String, title: String, children: [TreeItem] = [], hasChildren: Bool? = nil) {
        self.id = id
        self.title = title
        self.children = children
        self.hasChildren = hasChildren ?? !children.isEmpty
    }

    /// An item whose id is its title (for trees whose titles are unique).
    public init(_ title: String, children: [TreeItem] = []) {
        self.init(id: title, title: title, children: children)
    }
}

/// What a `Tree` reports: the selection moved, a branch was expanded or collapsed, or a leaf was
/// activated (`Enter`/`Space`).
public enum TreeEvent: Sendable, Equatable {
    case selected(String)
    case expanded(String)
    case collapsed(String)
    case activated(String)
}

/// A tree of items that expand and collapse, one row each, drawn with guide lines:
///
/// ```
/// ▾ Sources
/// ├─ ▸ AppletUI
/// ├─ ▾ Terminal
/// │  ├─ Canvas.swift
/// │  └─ Event.swift
/// └─ main.swift
/// ▸ Tests
/// ```
///
/// Which branches are open is the `expanded` binding (a set of ids); the selected item is the
/// `selection` binding (when nil, or hidden inside a closed branch, the first row, or the
/// nearest open ancestor, is shown selected and keys start from there). Only open branches are
/// walked and only the rows on screen are drawn; the rows scroll to keep the selection visible.
/// The selected row is drawn in the theme's selection style (dimmed without focus); an empty
/// tree with focus shows an empty selected row.
///
/// With focus: `↑`/`↓` or `k`/`j` move, `PgUp`/`PgDn` a page, `Home`/`End` (or `g`/`G`) to the
/// ends; `→`/`l` expands a branch, or on an open one moves to its first child; `←`/`h` collapses
/// an open branch, or moves to the parent; `Enter`/`Space` toggles a branch and activates a leaf.
/// A click selects a row, and a click on a branch's `▸`/`▾` also toggles it; the wheel moves by
/// three rows.
///
/// ```swift
/// @AppState(\.openFolders) var open          // Set<String>
/// @AppState(\.selectedFile) var file         // String?
/// Tree(project.items, expanded: $open, selection: $file)
///     .onEvent { (event: TreeEvent) in
///         if case .activated(let id) = event { openFile(id) }
///     }
/// ```
public struct Tree: View {
    public typealias Body = Never
    let roots: [TreeItem]
    let expanded: Binding<Set<String>>
    let selection: Binding<String?>

    public init(_ roots: [TreeItem], expanded: Binding<Set<String>>, selection: Binding<String?>) {
        self.roots = roots
        self.expanded = expanded
        self.selection = selection
    }

    public func _makeNodes(_ context: ResolveContext, into nodes: inout [Node]) {
        var rows: [TreeRow] = []
        flattenTree(roots, depth: 0, parent: -1, expanded: expanded.wrappedValue, into: &rows)
        var selectionStyle = context.style(.selection)
        if selectionStyle == context.style { selectionStyle.attributes.insert(.reverse) }
        nodes.append(TreeNode(
            id: context.id, roots: roots, rows: rows, expanded: expanded, selection: selection,
            offset: context.stateBox(0), emit: context.emitter(TreeEvent.self), style: context.style,
            guideStyle: context.style(.border), selectionStyle: selectionStyle))
    }
}

/// One shown row of a tree: an item in an open branch (or a root).
struct TreeRow {
    let item: TreeItem
    let depth: Int
    /// The row of the parent item; -1 for roots.
    let parent: Int
    /// Whether the item is the last of its siblings (draws `└─` rather than `├─`).
    let isLast: Bool
}

/// The shown rows: roots, and the children of expanded branches, depth first.
func flattenTree(_ items: [TreeItem], depth: Int, parent: Int, expanded: Set<String>, into rows: inout [TreeRow]) {
    for (i, item) in items.enumerated() {
        let index = rows.count
        rows.append(TreeRow(item: item, depth: depth, parent: parent, isLast: i == items.count - 1))
        if item.hasChildren, !item.children.isEmpty, expanded.contains(item.id) {
            flattenTree(item.children, depth: depth + 1, parent: index, expanded: expanded, into: &rows)
        }
    }
}

/// The ids from a root down to the item with `id`, or nil when it is not in the tree.
func treePath(to id: String, in items: [TreeItem]) -> [String]? {
    for item in items {
        if item.id == id { return [item.id] }
        if let path = treePath(to: id, in: item.children) { return [item.id] + path }
    }
    return nil
}

final class TreeNode: Node, FocusableNode {
    override var focusable: (any FocusableNode)? { self }
    /// Columns per level of indentation (`├─ `).
    static let indent = 3
    let focusID: ViewID
    let roots: [TreeItem]
    let rows: [TreeRow]
    let expanded: Binding<Set<String>>
    let selection: Binding<String?>
    /// The first row shown, kept between frames.
    let offset: WidgetStateBox<Int>
    let emit: EventEmitter<TreeEvent>
    let style: Style
    let guideStyle: Style
    let selectionStyle: Style
    var isFocused = false
    private var visibleRows = 1
    /// The row shown selected (see `selectedRow`), worked out once per frame.
    private lazy var current: Int = selectedRow()

    init(id: ViewID, roots: [TreeItem], rows: [TreeRow], expanded: Binding<Set<String>>, selection: Binding<String?>,
         offset: WidgetStateBox<Int>, emit: EventEmitter<TreeEvent>, style: Style, guideStyle: Style, selectionStyle: Style) {
        self.focusID = id
        self.roots = roots
        self.rows = rows
        self.expanded = expanded
        self.selection = selection
        self.offset = offset
        self.emit = emit
        self.style = style
        self.guideStyle = guideStyle
        self.selectionStyle = selectionStyle
    }

    /// The selected item's row; when it is nil or not shown, the row of its nearest shown
    /// ancestor, else the first row.
    private func selectedRow() -> Int {
        guard let id = selection.wrappedValue else { return 0 }
        if let row = rows.firstIndex(where: { $0.item.id == id }) { return row }
        // Hidden in a closed branch: the deepest ancestor that is shown.
        guard let path = treePath(to: id, in: roots) else { return 0 }
        for ancestor in path.reversed() {
            if let row = rows.firstIndex(where: { $0.item.id == ancestor }) { return row }
        }
        return 0
    }

    override func sizeThatFits(_ proposal: ProposedSize) -> Size {
        // Greedy like List: ideally 40 columns and up to 10 rows.
        Size(width: min(max(0, proposal.width ?? 40), unboundedLength),
             height: min(max(0, proposal.height ?? min(rows.count, 10)), unboundedLength))
    }

    override func place(in rect: Rect) {
        frame = rect
        visibleRows = max(1, rect.height)
        var first = offset.value
        let selected = current
        if selected < first { first = selected }
        if selected >= first + visibleRows { first = selected - visibleRows + 1 }
        offset.value = max(0, min(first, rows.count - visibleRows))
    }

    override func draw(in canvas: inout Canvas, clip: Rect) {
        let area = clip.intersection(frame)
        guard !area.isEmpty else { return }
        guard !rows.isEmpty else {
            // An empty tree still shows that it has focus: an empty selected row.
            if isFocused {
                canvas.fill(Rect(x: frame.minX, y: frame.minY, width: frame.width, height: 1).intersection(area),
                            with: .blank(selectionStyle))
            }
            return
        }
        let first = offset.value
        var rowSelectionStyle = selectionStyle
        if !isFocused { rowSelectionStyle.attributes.insert(.dim) }
        for index in first..<min(rows.count, first + frame.height) {
            let y = frame.minY + index - first
            let row = rows[index]
            let isSelected = index == current
            let textStyle = isSelected ? rowSelectionStyle : style
            if isSelected {
                canvas.fill(Rect(x: frame.minX, y: y, width: frame.width, height: 1).intersection(area), with: .blank(textStyle))
            }
            var x = frame.minX
            let guides = guidePrefix(index)
            if !guides.isEmpty {
                x += canvas.write(guides, at: Point(x: x, y: y), style: isSelected ? textStyle : guideStyle, clip: area)
            }
            if row.item.hasChildren {
                let open = expanded.wrappedValue.contains(row.item.id)
                x += canvas.write(open ? "▾ " : "▸ ", at: Point(x: x, y: y), style: textStyle, clip: area)
            }
            let room = frame.maxX - x
            guard room > 0 else { continue }
            let title = row.item.title
            let shown = title.terminalWidth <= room ? title : title.truncated(toColumns: room, ellipsis: true)
            canvas.write(shown, at: Point(x: x, y: y), style: textStyle, clip: area)
        }
    }

    /// `│  │  ├─ `: a column per ancestor level (a line while that ancestor has siblings below),
    /// then the row's own branch. Roots have none.
    private func guidePrefix(_ index: Int) -> String {
        let row = rows[index]
        guard row.depth > 0 else { return "" }
        var lastAtLevel = Array(repeating: false, count: row.depth)
        var parent = row.parent
        while parent >= 0 {
            let ancestor = rows[parent]
            if ancestor.depth >= 1 { lastAtLevel[ancestor.depth] = ancestor.isLast }
            parent = ancestor.parent
        }
        var prefix = ""
        for level in 1..<row.depth { prefix += lastAtLevel[level] ? "   " : "│  " }
        prefix += row.isLast ? "└─ " : "├─ "
        return prefix
    }

    // MARK: Input

    private func select(_ index: Int) {
        guard !rows.isEmpty else { return }
        let clamped = max(0, min(rows.count - 1, index))
        let id = rows[clamped].item.id
        current = clamped
        guard selection.wrappedValue != id else { return }
        selection.wrappedValue = id
        emit(.selected(id))
    }

    private func setExpanded(_ index: Int, _ open: Bool) {
        let id = rows[index].item.id
        var set = expanded.wrappedValue
        if open { set.insert(id) } else { set.remove(id) }
        guard set != expanded.wrappedValue else { return }
        expanded.wrappedValue = set
        emit(open ? .expanded(id) : .collapsed(id))
    }

    private func isOpen(_ index: Int) -> Bool { expanded.wrappedValue.contains(rows[index].item.id) }

    func usesKey(_ key: KeyEvent) -> Bool {
        guard !rows.isEmpty, key.modifiers.subtracting(.shift).isEmpty else { return false }
        switch key.code {
        case .up, .down, .pageUp, .pageDown, .home, .end, .left, .right, .enter, .char(" "),
             .char("k"), .char("j"), .char("g"), .char("G"), .char("h"), .char("l"): return true
        default: return false
        }
    }

    func handleKey(_ key: KeyEvent) -> Bool {
        guard !rows.isEmpty, key.modifiers.subtracting(.shift).isEmpty else { return false }
        let index = current
        let row = rows[index]
        switch key.code {
        case .up, .char("k"): select(index - 1)
        case .down, .char("j"): select(index + 1)
        case .pageUp: select(index - visibleRows)
        case .pageDown: select(index + visibleRows)
        case .home, .char("g"): select(0)
        case .end, .char("G"): select(rows.count - 1)
        case .right, .char("l"):
            guard row.item.hasChildren else { break }
            if !isOpen(index) {
                setExpanded(index, true)
            } else if index + 1 < rows.count, rows[index + 1].parent == index {
                select(index + 1)
            }
        case .left, .char("h"):
            if row.item.hasChildren, isOpen(index) {
                select(index)   // a hidden selection moves to the branch being closed
                setExpanded(index, false)
            } else if row.parent >= 0 {
                select(row.parent)
            }
        case .enter, .char(" "):
            if row.item.hasChildren {
                select(index)
                setExpanded(index, !isOpen(index))
            } else {
                select(index)
                emit(.activated(row.item.id))
            }
        default:
            return false
        }
        return true
    }

    func handleMouse(_ mouse: MouseEvent) -> Bool {
        guard !rows.isEmpty else { return false }
        switch mouse.kind {
        case .scrollUp: select(current - 3)
        case .scrollDown: select(current + 3)
        case .press(.left):
            let index = offset.value + (mouse.position.y - frame.minY)
            guard index >= 0, index < rows.count else { return false }
            select(index)
            let row = rows[index]
            // The marker and the space after it toggle the branch.
            let markerX = frame.minX + row.depth * Self.indent
            if row.item.hasChildren, mouse.position.x == markerX || mouse.position.x == markerX + 1 {
                setExpanded(index, !isOpen(index))
            }
        default:
            return false
        }
        return true
    }
}
